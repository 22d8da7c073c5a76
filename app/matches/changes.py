"""What changed in a match: typed change events and the bus that tells the listeners.

After every committed change the service emits one :data:`Change` (never before the commit:
"commit, then broadcast"). Listeners (the websocket hub, the clock timer, the webhooks) get
``(match_id, change, snapshot)``; the fan-out carries the same change to the other processes
as a plain dict (:func:`as_dict` / :func:`from_dict`, the one place that serialises them).

A change names only what changed, never anything hidden: a chat line travels by its id, a
notice is a public sentence the table shows anyway.
"""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Union

if TYPE_CHECKING:
    from app.matches.service import Snapshot

log = logging.getLogger("lair.changes")


@dataclass(frozen=True)
class Moved:
    """A move (or an undo) was committed: the state and version changed. The listeners get
    the committed snapshot with it."""

    kind: ClassVar[str] = "moved"


@dataclass(frozen=True)
class SeatsChanged:
    """Who sits where changed (a seat taken or left, a bot standing in, a resignation, a vote,
    a rename, the spectator chat opened or closed): the status and version did not."""

    kind: ClassVar[str] = "seats"


@dataclass(frozen=True)
class ClocksChanged:
    """The clocks were corrected (time given back after an outage); nothing else changed."""

    kind: ClassVar[str] = "clocks"


@dataclass(frozen=True)
class Started:
    """The host started the match: the waiting room becomes the table."""

    kind: ClassVar[str] = "started"


@dataclass(frozen=True)
class Cancelled:
    """The match was cancelled (by its host, or ended by an operator: ``lair end``)."""

    kind: ClassVar[str] = "cancelled"


@dataclass(frozen=True)
class Finished:
    """The match ended without a move ending it (the last side standing after resignations)."""

    kind: ClassVar[str] = "finished"


@dataclass(frozen=True)
class ChatPosted:
    """A chat line was stored (``line_id``: its ``chat_messages.id``); its channel decides who
    may read it (app.matches.chat_policy)."""

    line_id: int
    kind: ClassVar[str] = "chat"


@dataclass(frozen=True)
class Notice:
    """Lair tells the table something (a resignation, a timeout, a vote): ``text`` is shown as
    a toast; the same text is also stored as a chat line from "Lair"."""

    text: str
    kind: ClassVar[str] = "notice"


@dataclass(frozen=True)
class Rematch:
    """A rematch of this finished match was opened as ``match_id``."""

    match_id: str
    kind: ClassVar[str] = "rematch"


@dataclass(frozen=True)
class HintUsed:
    """A player (``seat``) asked for a hint (app.matches.hints): the views list the uses. What
    was suggested is no part of it: only the asking socket got that."""

    seat: int
    kind: ClassVar[str] = "hint"


Change = Union[Moved, SeatsChanged, ClocksChanged, Started, Cancelled, Finished, ChatPosted,
               Notice, Rematch, HintUsed]
_KINDS: dict[str, type] = {c.kind: c for c in (Moved, SeatsChanged, ClocksChanged, Started,
                                                Cancelled, Finished, ChatPosted, Notice, Rematch,
                                                HintUsed)}


def keeps_snapshot(change: Change) -> bool:
    """Whether a cached snapshot of the match is still good after ``change``: a move is caught
    by the cache's version check and a chat line touches no seat; seats, status, clocks and
    the hint uses change without a new version, so the others drop the cache (a notice comes
    with such a change)."""
    return isinstance(change, (Moved, ChatPosted))


def as_dict(change: Change) -> dict[str, Any]:
    """The JSON-ready form: ``{"kind": <kind>, <field>: <value>, ...}``."""
    return {"kind": change.kind, **asdict(change)}


def from_dict(data: Any) -> Change | None:
    """The change ``as_dict`` made, or None when ``data`` is not one (an unknown kind, a field
    missing, extra or of the wrong type: from a newer or older process, say)."""
    if not isinstance(data, dict):
        return None
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return None
    args = {k: v for k, v in data.items() if k != "kind"}
    wanted = {f.name: str(f.type) for f in fields(cls)}  # "int", "str": annotations postponed
    if set(args) != set(wanted):
        return None
    types = {"int": int, "str": str}
    if any(type(args[k]) is not types[t] for k, t in wanted.items()):
        return None
    return cls(**args)


Listener = Callable[[str, Change, "Snapshot | None"], Awaitable[None]]
"""``listener(match_id, change, snapshot)``: ``snapshot`` is the match as committed (given
with :class:`Moved`), or None when the listener should load it if it needs it."""


class Bus:
    """The listeners of this process, told in the order they subscribed."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(match_id, change, snapshot)`` after every committed change."""
        self.listeners.append(listener)

    async def emit(self, match_id: str, change: Change, snap: Snapshot | None = None) -> None:
        """Tell every listener; one that fails is logged and the others are still told (a
        broken listener must not undo a durable change)."""
        for listener in self.listeners:
            try:
                await listener(match_id, change, snap)
            except Exception:
                log.exception("listener failed for match %s (%s)", match_id, change.kind)
