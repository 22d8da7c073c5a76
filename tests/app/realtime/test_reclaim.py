"""app/serve.py ``Reclaim``: a burst of closed sockets is collected only when the process's
resident memory grew by ``Reclaim.grow`` since the last collection (issue 17 item 4: a
collection holds every table's event loop for 150-220 ms, bench/README.md; issue 13 item 1:
the memory a burst of refused sockets leaves is still given back, test_server_limits.py)."""
from __future__ import annotations

import asyncio

from app.serve import Reclaim


class Fake:
    """A resident size the test sets, and the collections the reclaimer ran."""

    def __init__(self, rss: int) -> None:
        self.value = rss

    def __call__(self) -> int:
        return self.value


def reclaimer(rss: Fake) -> Reclaim:
    r = Reclaim(rss=rss)
    r.quiet, r.interval, r.closes = 0.01, 0.0, 4
    r.trim = None
    return r


async def burst(r: Reclaim, n: int = 4) -> None:
    for _ in range(n):
        r.socket_closed()
    await asyncio.sleep(0.05)


def test_a_burst_that_left_no_memory_is_not_collected() -> None:
    async def go() -> Reclaim:
        rss = Fake(100_000_000)
        r = reclaimer(rss)
        rss.value = 103_000_000  # +3 %: sockets closed, little left behind
        await burst(r)
        return r
    r = asyncio.run(go())
    assert (r.runs, r.skipped) == (0, 1)


def test_a_burst_that_grew_memory_is_collected_and_becomes_the_baseline() -> None:
    async def go() -> tuple[Reclaim, list[tuple[int, int]]]:
        rss = Fake(100_000_000)
        r = reclaimer(rss)
        seen = []
        rss.value = 120_000_000  # +20 %: the refused sockets' pages
        await burst(r)
        seen.append((r.runs, r.skipped))
        # after the collection its resident size is the new baseline
        rss.value = 124_000_000  # +3 % of 120 MB
        await burst(r)
        seen.append((r.runs, r.skipped))
        rss.value = 127_000_000  # +5.8 % of 120 MB: creeping growth is caught
        await burst(r)
        seen.append((r.runs, r.skipped))
        return r, seen
    _, seen = asyncio.run(go())
    assert seen == [(1, 0), (1, 1), (2, 1)]


def test_without_a_resident_size_every_burst_is_collected() -> None:
    async def go() -> Reclaim:
        r = Reclaim(rss=lambda: None)
        r.quiet, r.interval, r.closes, r.trim = 0.01, 0.0, 4, None
        await burst(r)
        await burst(r)
        return r
    r = asyncio.run(go())
    assert (r.runs, r.skipped) == (2, 0)


def test_fewer_closes_than_a_burst_do_nothing() -> None:
    async def go() -> Reclaim:
        rss = Fake(100_000_000)
        r = reclaimer(rss)
        rss.value = 200_000_000
        await burst(r, 3)
        return r
    r = asyncio.run(go())
    assert (r.runs, r.skipped) == (0, 0)
