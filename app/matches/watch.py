"""Changes made outside this process, on SQLite (issue 8, "Admin": ``lair end`` from a shell).

PostgreSQL tells every process of every commit (LISTEN/NOTIFY, ``app.realtime.fanout``); SQLite
has no such channel, so a server on the embedded default would keep showing a match that the ``lair``
command-line tool ended as still running. One task per process looks, every ``poll`` seconds,
at the status and version of the matches that have sockets here (one small query) and hands
any difference to ``on_change`` as if another process had notified it.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, Iterable

from app.background import Background
from app.matches.changes import Cancelled, Change, Moved, Started
from app.matches.service import MatchService

log = logging.getLogger("lair.watch")


class OutsideChanges(Background):
    """Polls ``matches()`` (ids with open sockets) and calls ``on_change(match_id, change)``
    (app.matches.changes): ``Started``/``Cancelled`` when the status became active/cancelled,
    else ``Moved``."""

    name = "outside changes"

    def __init__(self, service: MatchService, matches: Callable[[], Iterable[str]],
                 on_change: Callable[[str, Change], Awaitable[None]], poll: float = 2.0):
        self.service = service
        self.matches = matches
        self.on_change = on_change
        self.poll = poll

    async def check(self) -> list[str]:
        """One look: the ids of the matches found changed (each handed to ``on_change``)."""
        ids = [i for i in self.matches() if self.service.cached(i) is not None]
        if not ids:
            return []
        changed = []
        for match_id, (status, version) in (await self.service.heads(ids)).items():
            snap = self.service.cached(match_id)
            if snap is None or (snap.match.status, snap.match.version) == (status, version):
                continue
            changed.append(match_id)
            change: Change = Moved()  # a move: the version check of the cache sees it
            if status != snap.match.status:
                self.service.forget(match_id)
                by_status: dict[str, Change] = {"active": Started(), "cancelled": Cancelled()}
                change = by_status.get(status, Moved())
            await self.on_change(match_id, change)
        return changed

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            if self.service.stopping:
                continue
            try:
                await self.check()
            except Exception as exc:  # the database may be away for a while: back off
                await asyncio.sleep(self.failures.failed(exc))
            else:
                self.failures.ok()
