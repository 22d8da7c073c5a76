"""The clock timer: hands seats out of time to bots (issue 7, "Pace").

One task per process. The deadlines live in the database (``matches.deadline``), so nothing is
lost by a restart: at start-up the timer reads them again, the way bots are resumed. It sleeps
until the earliest deadline, at most ``poll`` seconds (so a deadline set by another process is
seen in time), and wakes at once when this process commits a change.
"""
from __future__ import annotations

import asyncio
import logging
import time

from app.background import Background
from app.matches.service import MatchService

log = logging.getLogger("lair.timer")


class ClockTimer(Background):
    """Runs ``service.expire_due()`` at every deadline. ``poll``: longest sleep in seconds."""

    def __init__(self, service: MatchService, poll: float = 5.0):
        self.service = service
        self.poll = poll
        self._wake = asyncio.Event()
        service.subscribe(self._changed)

    async def _changed(self, _match_id: str, _what: str, _snap=None) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            delay = self.poll
            if not self.service.stopping:
                try:
                    nxt = await self.service.expire_due()
                except Exception:  # the database may be away for a moment
                    log.exception("clock timer failed")
                else:
                    if nxt is not None:
                        # Wall clock, like the deadlines; never a busy loop on a stuck match.
                        delay = min(self.poll, max(0.2, nxt - self.service.now().timestamp()))
            started = time.monotonic()
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except TimeoutError:
                pass
            # Many moves in a row: look at most every 0.2 s.
            await asyncio.sleep(max(0.0, 0.2 - (time.monotonic() - started)))
