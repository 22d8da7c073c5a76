"""Cross-process fan-out with PostgreSQL ``LISTEN/NOTIFY`` (docs/design.md, "Fan-out").

Each process pushes views to its own sockets (``app.realtime.hub.Hub``). When a process commits
a change to a match it also sends ``NOTIFY lair_matches, '<origin> <match_id> <message>'`` (a
move: inside its own transaction, on the pooled connection; other changes: after the commit,
on the listening connection); every other process listening on the channel then loads the
match (its version check makes a stale cache impossible) and pushes the new views to its
sockets. No sticky sessions are needed.

``<message>`` is JSON, one of: a change (``app.matches.changes.as_dict``), a process's socket
counts (``app.realtime.presence.Announce``) or a stopping process's hand-over of the match's
pending bot moves (:class:`HandOver`). It names only the match and what changed: nothing
hidden travels through it.

On SQLite (one process by nature) this module does nothing.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

import asyncpg
import orjson

from app.background import spawn
from app.matches import changes
from app.matches.changes import Change, Moved
from app.realtime.presence import Announce

if TYPE_CHECKING:
    from app.matches.service import MatchService
    from app.realtime.hub import Hub

log = logging.getLogger("lair.fanout")
CHANNEL = "lair_matches"


@dataclass(frozen=True)
class HandOver:
    """A stopping process hands the match's pending bot moves to the others."""

    kind = "bots"


Message = Union[Change, Announce, HandOver]


def encode(message: Message) -> str:
    """The JSON text of a fan-out message."""
    if isinstance(message, Announce):
        data: dict[str, Any] = message.as_dict()
    elif isinstance(message, HandOver):
        data = {"kind": HandOver.kind}
    else:
        data = changes.as_dict(message)
    return orjson.dumps(data).decode()


def decode(text: str) -> Message | None:
    """The message :func:`encode` made, or None for anything else (logged: a process of
    another release, say)."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        data = None
    kind = data.get("kind") if isinstance(data, dict) else None
    message: Message | None
    if kind == Announce.kind:
        message = Announce.from_dict(data)
    elif kind == HandOver.kind:
        message = HandOver()
    else:
        message = changes.from_dict(data)
    if message is None:
        log.warning("fan-out: ignored a message this process cannot read: %.200s", text)
    return message


def payload(origin: str, match_id: str, message: Message) -> str:
    """The NOTIFY payload: ``<origin> <match_id> <message as JSON>``."""
    return f"{origin} {match_id} {encode(message)}"


async def relay(service: MatchService, hub: Hub, match_id: str, message: Message,
                origin: str) -> None:
    """What this process does with another process's message: push the new views of a
    committed change, note its sockets (``Announce``), or make the bot moves of a match a
    stopping process hands over."""
    if isinstance(message, Announce):
        hub.remote_presence(match_id, origin, message)
        return
    if isinstance(message, HandOver):
        if not service.stopping:
            service.schedule_bots(match_id)
        return
    if not isinstance(message, Moved):  # seats or status: not caught by the cache's version
        service.forget(match_id)
    await hub.on_change(match_id, message, None)


class PgFanout:
    """Publishes this process's committed changes and relays the other processes' changes."""

    def __init__(self, dsn: str, on_remote_change):
        """``dsn``: a plain ``postgresql://`` URL (asyncpg); ``on_remote_change(match_id,
        message, origin)``: coroutine called for the other processes' messages (``origin``
        names the process; :func:`relay` is the app's)."""
        self.dsn = dsn
        self.on_remote_change = on_remote_change
        self.origin = secrets.token_hex(6)
        self._conn: asyncpg.Connection | None = None
        self._task: asyncio.Task | None = None
        self._closing = False
        self._ready = asyncio.Event()
        self._send_lock = asyncio.Lock()  # one asyncpg connection runs one query at a time
        self._relaying: set[asyncio.Task] = set()  # other processes' changes being relayed

    async def start(self) -> None:
        """Connect and LISTEN (retrying in the background if PostgreSQL is not reachable)."""
        self._task = asyncio.create_task(self._run())
        try:
            await asyncio.wait_for(self._ready.wait(), timeout=10)
        except asyncio.TimeoutError:
            log.warning("fan-out: not listening yet; retrying in the background")

    async def _run(self) -> None:
        delay = 0.5
        while not self._closing:
            try:
                conn = await asyncpg.connect(self.dsn)
                await conn.add_listener(CHANNEL, self._on_notify)
                self._conn = conn
                self._ready.set()
                delay = 0.5
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c: lost.set())
                await lost.wait()
                log.warning("fan-out: listener connection lost; reconnecting")
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # refused, timed out, a protocol error: listen again later
                log.warning("fan-out: cannot listen (%s: %s); retrying in %.1f s",
                            type(exc).__name__, exc, delay)
            finally:
                self._conn = None
            if not self._closing:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)

    def _on_notify(self, _conn, _pid, _channel, payload: str) -> None:
        try:
            origin, match_id, text = payload.split(" ", 2)
        except ValueError:
            return
        if origin == self.origin:
            return
        message = decode(text)
        if message is not None:
            spawn(self.on_remote_change(match_id, message, origin), f"relay of {match_id}",
                  self._relaying)

    def notice(self, match_id: str, message: Message) -> tuple[str, str]:
        """``(channel, payload)`` for a ``pg_notify`` the service sends inside the transaction
        of a change (a move): PostgreSQL delivers it at COMMIT, and never for a rollback."""
        return CHANNEL, payload(self.origin, match_id, message)

    async def publish(self, match_id: str, message: Message) -> None:
        """Tell the other processes about ``message`` (after the commit of a change whose
        transaction did not carry the NOTIFY itself)."""
        conn = self._conn
        if conn is None or conn.is_closed():
            return
        try:
            async with self._send_lock:
                await conn.execute("SELECT pg_notify($1, $2)", CHANNEL,
                                   payload(self.origin, match_id, message))
        except Exception as exc:  # also asyncpg's InternalClientError on a closing connection
            log.warning("fan-out: notify failed for match %s: %s: %s", match_id,
                        type(exc).__name__, exc)

    async def close(self) -> None:
        """Stop listening."""
        self._closing = True
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.close()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
