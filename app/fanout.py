"""Cross-process fan-out with PostgreSQL ``LISTEN/NOTIFY`` (DESIGN.md, "The service" > Fan-out).

Each process pushes views to its own sockets (``app.realtime.Hub``). When a process commits a
change to a match it also sends ``NOTIFY lair_matches, '<origin> <match_id> <what>'`` (a move:
inside its own transaction, on the pooled connection; other changes: after the commit, on the
listening connection); every
other process listening on the channel then loads the match (its version check makes a stale
cache impossible) and pushes the new views to its sockets. No sticky sessions are needed. The
payload names only the match and the kind of change: nothing hidden travels through it.

On SQLite (one process by nature) this module does nothing.
"""
from __future__ import annotations

import asyncio
import logging
import secrets

import asyncpg

from app.background import spawn

log = logging.getLogger("lair.fanout")
CHANNEL = "lair_matches"


class PgFanout:
    """Publishes this process's committed changes and relays the other processes' changes."""

    def __init__(self, dsn: str, on_remote_change):
        """``dsn``: a plain ``postgresql://`` URL (asyncpg); ``on_remote_change(match_id, what,
        origin)``: coroutine called for changes committed by other processes (``origin`` names
        the process)."""
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
            origin, match_id, what = payload.split(" ", 2)
        except ValueError:
            return
        if origin != self.origin:
            spawn(self.on_remote_change(match_id, what, origin), f"relay of {match_id}",
                  self._relaying)

    def notice(self, match_id: str, what: str) -> tuple[str, str]:
        """``(channel, payload)`` for a ``pg_notify`` the service sends inside the transaction
        of a change (a move): PostgreSQL delivers it at COMMIT, and never for a rollback."""
        return CHANNEL, f"{self.origin} {match_id} {what}"

    async def publish(self, match_id: str, what: str, _snap=None) -> None:
        """Tell the other processes that ``match_id`` changed (after the commit of a change
        whose transaction did not carry the NOTIFY itself)."""
        conn = self._conn
        if conn is None or conn.is_closed():
            return
        try:
            async with self._send_lock:
                await conn.execute("SELECT pg_notify($1, $2)", CHANNEL,
                                   f"{self.origin} {match_id} {what}")
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
