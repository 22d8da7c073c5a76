"""Sequencing across processes (DESIGN.md, "The service" > Sequencing), on every database.

Two ``MatchService`` instances with their own engines and locks stand for two server processes:
only ``UPDATE ... WHERE version = current`` and the actions table's keys keep them honest.
"""
from __future__ import annotations

import asyncio

from app.matches.service import Outcome, ServiceError
from tests.app.processes import services, toy_match_at_take_phase


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
