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
from app.matches.outage import Heartbeats
from app.matches.service import MatchService

log = logging.getLogger("lair.timer")


class ClockTimer(Background):
    """Runs ``service.expire_due()`` at every deadline. ``poll``: longest sleep in seconds."""

    name = "clock timer"

    def __init__(self, service: MatchService, poll: float = 5.0, outage_after: float = 15.0):
        self.service = service
        self.poll = poll
        #: The shared heartbeat (app.matches.outage): beaten before each look at the deadlines,
        #: so time nothing was served is given back before anyone is found out of time.
        self.heartbeats = Heartbeats(service, every=poll, after=outage_after)
        self._wake = asyncio.Event()
        service.subscribe(self._changed)

    async def tick(self) -> float | None:
        """One look: beat the heartbeat (giving an outage's time back), then hand every seat
        out of time to a bot. Returns the next deadline (epoch s) or None. Raises the
        database's errors."""
        await self.heartbeats.beat()
        return await self.service.expire_due()

    async def _changed(self, _match_id: str, _change, _snap=None) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            delay = self.poll
            if not self.service.stopping:
                try:
                    nxt = await self.tick()
                except Exception as exc:  # the database may be away for a while: back off
                    delay = max(0.2, min(self.poll, self.failures.failed(exc)))
                else:
                    self.failures.ok()
                    if nxt is not None:
                        # Wall clock, like the deadlines; never a busy loop on a stuck match.
                        delay = min(self.poll, max(0.2, nxt - self.service.now().timestamp()))
            started = time.monotonic()
            try:  # not wait_for: on 3.11 it drops a cancel that lands as a move wakes us
                async with asyncio.timeout(delay):
                    await self._wake.wait()
            except TimeoutError:
                pass
            # Many moves in a row: look at most every 0.2 s.
            await asyncio.sleep(max(0.0, 0.2 - (time.monotonic() - started)))
