"""Sequencing across processes (docs/design.md, "The service" > Sequencing), on every database.

Two ``MatchService`` instances with their own engines and locks stand for two server processes:
only ``UPDATE ... WHERE version = current`` and the actions table's keys keep them honest.
"""
from __future__ import annotations

import asyncio

import pytest

from app.matches.service import Outcome, ServiceError
from tests.app.processes import services, toy_match_at_take_phase

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


async def test_two_concurrent_actions_at_one_version_apply_exactly_once(database_url):
    engines, (p1, p2) = await services(database_url, 2)
    try:
        mid = await toy_match_at_take_phase(p1)
        results = await asyncio.gather(
            p1.submit(mid, 0, "from-laptop", 2, {"type": "take", "n": 1}),
            p2.submit(mid, 0, "from-phone", 2, {"type": "take", "n": 2}),
            return_exceptions=True)
        applied = [r for r in results if isinstance(r, Outcome) and r.applied]
        stale = [r for r in results if isinstance(r, ServiceError) and r.code == "stale"]
        assert len(applied) == 1 and len(stale) == 1, results
        snap = await p1.snapshot(mid)
        assert snap.match.version == 3
        rows = await p1.actions(mid)
        assert [r.seq for r in rows] == [1, 2, 3]
        taken = 7 - snap.match.state["pile"]
        assert rows[-1].action == {"type": "take", "n": taken}
    finally:
        for e in engines:
            await e.dispose()


async def test_resent_action_id_is_never_applied_twice(database_url):
    engines, (p1, p2) = await services(database_url, 2)
    try:
        mid = await toy_match_at_take_phase(p1)
        results = await asyncio.gather(
            p1.submit(mid, 0, "same-id", 2, {"type": "take", "n": 1}),
            p2.submit(mid, 0, "same-id", 2, {"type": "take", "n": 1}),
            return_exceptions=True)
        applied = [r for r in results if isinstance(r, Outcome) and r.applied]
        assert len(applied) == 1, results
        for r in results:  # the other is a duplicate ack or a stale refusal, never a 2nd apply
            assert isinstance(r, Outcome) or r.code == "stale"
        again = await p2.submit(mid, 0, "same-id", 2, {"type": "take", "n": 1})
        assert again.duplicate and not again.applied
        snap = await p1.snapshot(mid)
        assert snap.match.version == 3 and snap.match.state["pile"] == 6
    finally:
        for e in engines:
            await e.dispose()


async def test_a_refused_action_leaves_the_database_untouched(database_url):
    engines, (p1, _) = await services(database_url, 2)
    try:
        mid = await toy_match_at_take_phase(p1)
        before = await p1.snapshot(mid)
        for seat, version, action, code in [
            (0, 2, {"type": "take", "n": 5}, "illegal"),
            (1, 2, {"type": "take", "n": 1}, "not_your_seat"),
            (0, 1, {"type": "take", "n": 1}, "stale"),
            (None, 2, {"type": "take", "n": 1}, "spectator"),
        ]:
            try:
                await p1.submit(mid, seat, f"x{seat}{version}", version, action)
            except ServiceError as exc:
                assert exc.code == code
            else:
                raise AssertionError(f"{action} was accepted")
        after = await p1.snapshot(mid)
        assert (after.match.version, after.match.state) == (before.match.version,
                                                             before.match.state)
        assert len(await p1.actions(mid)) == 2
    finally:
        for e in engines:
            await e.dispose()


async def test_seats_and_the_start_are_taken_once_across_services(database_url):
    """Issue 13, item 6, at the service: two users racing for a seat through two processes,
    one sits and the other gets ``seat_taken`` ("Seat 2 was taken by someone else a moment
    ago."); one user taking two seats at once holds one; two starts start once (the other
    gets ``already_started``); filling with bots leaves a player who sat down in their seat.
    (tests/app/ops/test_multiprocess.py races real server processes on PostgreSQL.)"""
    engines, (p1, p2) = await services(database_url, 2)
    try:
        for uid, name in (("h", "Host"), ("a", "Ann"), ("b", "Bob")):
            await p1.ensure_user(uid, name)
        for _ in range(3):
            mid = (await p1.create_match("h", "toy", 2, {}, public=True, host_seat=None)).id
            results = await asyncio.gather(p1.take_seat(mid, "a", 1), p2.take_seat(mid, "b", 1),
                                           return_exceptions=True)
            lost = [r for r in results if isinstance(r, ServiceError)]
            assert len(lost) == 1 and lost[0].code == "seat_taken", results
            assert lost[0].message == "Seat 2 was taken by someone else a moment ago."
            winner = "b" if results[0] is lost[0] else "a"
            assert [i.user_id for i in (await p1.snapshot(mid)).seats] == [None, winner]
            await p1.leave_seat(mid, winner)
            await asyncio.gather(p1.take_seat(mid, "a", 0), p2.take_seat(mid, "a", 1),
                                 return_exceptions=True)
            seats = [i.user_id for i in (await p1.snapshot(mid)).seats]
            assert seats.count("a") == 1, seats
            await p2.fill_with_bots(mid, "h")
            seats = (await p1.snapshot(mid)).seats
            assert [i.user_id or i.bot for i in seats].count("a") == 1 and \
                [i.bot for i in seats].count("random") == 1
            results = await asyncio.gather(p1.start(mid, "h"), p2.start(mid, "h"),
                                           return_exceptions=True)
            lost = [r for r in results if isinstance(r, ServiceError)]
            assert len(lost) == 1 and lost[0].code == "already_started", results
            assert (await p1.snapshot(mid)).match.status == "active"
            await p1.drain()
            await p2.drain()
    finally:
        for e in engines:
            await e.dispose()
