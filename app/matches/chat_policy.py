"""Who chats where: the table channel and the spectators' channel (README "Playing").

Participants of a match (``access.participant``: the host, a player, also one a bot stands in
for or who plays on another device) write and read the ``table`` channel. Everyone else is a
spectator: spectators chat in their own ``spectators`` channel, which players never receive
(not even its history), unless the host opens the table chat to them. Lair's own notices are
``table`` lines everyone reads.

Decide with a fresh snapshot (``MatchService.snapshot``), not a cached one: a seat taken a
moment ago counts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from app.matches import access

if TYPE_CHECKING:
    from app.matches.service import Snapshot

TABLE, SPECTATORS = "table", "spectators"


def at_table(snap: Snapshot, user_id: str | None) -> bool:
    """Whether ``user_id`` belongs to the table's chat (a participant of the match)."""
    return access.participant(snap, user_id)


def channel_for(snap: Snapshot, user_id: str | None) -> str:
    """The channel a line written by ``user_id`` goes to: ``table`` for a participant, or for
    anyone once the host opened the table chat to spectators; else ``spectators``."""
    return TABLE if at_table(snap, user_id) or snap.match.spectator_chat_open else SPECTATORS


def may_read(snap: Snapshot, user_id: str | None, channel: str) -> bool:
    """Whether ``user_id`` receives lines of ``channel``: everyone reads the table channel;
    the spectators' channel only reaches those not at the table."""
    return channel == TABLE or not at_table(snap, user_id)


def readable(snap: Snapshot, user_id: str | None) -> tuple[str, ...] | None:
    """The channels of the history ``user_id`` is sent on connect: None (every channel) for a
    spectator, only the table channel for a participant."""
    return (TABLE,) if at_table(snap, user_id) else None


def clean(text: str) -> str:
    """A chat line as stored: NUL removed (it is not text, and PostgreSQL refuses it)."""
    return text.replace("\x00", "")
