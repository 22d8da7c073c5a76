"""Stopping the clock timer while moves keep waking it (issue 13, item 7: background work).

A process with bot-only matches playing fast was sent SIGTERM and never exited: the lifespan's
shutdown waits for the timer to stop, and the timer waited for its wake-up with
``asyncio.wait_for``, which on Python 3.11 returns the finished wait instead of raising when the
cancel arrives just after a move woke it (the cancel is lost), so its loop went on for good, the
shutdown never reached the drain, and the process kept making bot moves for matches another
process had taken over. Found by trying Lair as an abusive host would (SIGTERM during play).
"""
from __future__ import annotations

import asyncio

from app.matches.pace.timer import ClockTimer


class _StoppingService:
    """What the timer needs of the service while the process stops: no deadline is looked at
    (``stopping``), moves still wake it (its listener)."""

    stopping = True

    def __init__(self) -> None:
        self.listeners = []

    def subscribe(self, listener) -> None:
        self.listeners.append(listener)

    async def move_committed(self) -> None:
        for listener in self.listeners:
            await listener("m1", "state")


async def test_a_cancel_that_arrives_with_a_wake_up_stops_the_timer():
    # The cancel lands 0, 1, 2... event-loop steps after the wake-up: each step of the
    # hand-over between the woken wait and the timer's loop must still honour it.
    for steps in range(6):
        service = _StoppingService()
        timer = ClockTimer(service, poll=60.0)  # type: ignore[arg-type]
        timer.start()
        task = timer._task
        assert task is not None
        for _ in range(5):  # the timer is now waiting for a wake-up
            await asyncio.sleep(0)
        await service.move_committed()
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        for _ in range(20):
            await asyncio.sleep(0)
        stopped = task.done()
        if not stopped:  # clean up the runaway loop before failing
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        assert stopped, f"the cancel {steps} step(s) after a wake-up was lost"
        assert task.cancelled()
