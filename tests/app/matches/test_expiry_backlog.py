"""An expiry sweep drains a backlog (issue 13, item 5; app/matches/expiry.py).

Rows are deleted in batches of ``BATCH``; a backlog bigger than one batch (a start after a long
time off, a burst of guests) must be gone after one sweep, not one batch per interval (an hour by
default). A sweep takes at most ``MAX_BATCHES`` batches of each kind, yielding between them.
"""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app.matches import expiry as expiry_module
from app.matches.expiry import Expiry
from app.models import Match, User
from tests.app.matches.test_pace import FakeClock
from tests.app.processes import services

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


async def _count(service, model) -> int:
    async with service.sm() as s:
        return (await s.execute(select(func.count()).select_from(model))).scalar_one()


async def _backlog(service, matches: int, guests: int) -> None:
    """``matches`` never-started matches of one host and ``guests`` guests who did nothing."""
    await service.ensure_user("host", "Host")
    for _ in range(matches):
        await service.create_match("host", "toy", 2, {}, public=True)
    for i in range(guests):
        await service.ensure_user(f"guest-{i}", f"Guest {i}")


async def test_one_sweep_deletes_a_backlog_of_several_batches(database_url, monkeypatch):
    monkeypatch.setattr(expiry_module, "BATCH", 3)
    engines, (service,) = await services(database_url, 1)
    try:
        await _backlog(service, matches=8, guests=10)
        clock = service.now = FakeClock()
        sweeper = Expiry(service, match_ttl=3600.0, guest_ttl=86400.0)
        clock.advance(days=2)
        # the host goes too: once its matches are gone it is an unused guest
        assert await sweeper.sweep() == (8, 11)
        assert await _count(service, Match) == 0
        assert await _count(service, User) == 0
        assert await sweeper.sweep() == (0, 0)
    finally:
        for e in engines:
            await e.dispose()


async def test_a_sweep_takes_at_most_max_batches_and_the_next_one_the_rest(database_url,
                                                                            monkeypatch):
    monkeypatch.setattr(expiry_module, "BATCH", 2)
    monkeypatch.setattr(expiry_module, "MAX_BATCHES", 2)
    engines, (service,) = await services(database_url, 1)
    try:
        await _backlog(service, matches=0, guests=7)
        clock = service.now = FakeClock()
        sweeper = Expiry(service, match_ttl=0.0, guest_ttl=3600.0)
        clock.advance(hours=2)
        assert await sweeper.sweep() == (0, 4)
        assert await sweeper.sweep() == (0, 4)  # 3 guests and the host
        assert await _count(service, User) == 0
    finally:
        for e in engines:
            await e.dispose()
