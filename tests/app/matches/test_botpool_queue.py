"""The bot pool's queue (app/matches/botpool.py): a hint (a player waits, looking at the screen)
goes before the bot decisions waiting for a worker; the decisions are not starved by a steady
trickle of hints; a hint that waits too long is ``busy``, never a weaker level's move.

One worker process (as on a 2-core server: cores - 1), real hard decisions and hints at small
budgets. The order is what is checked, not times: every job is asked for before the first one
can finish (one loop step), so the queue alone decides what starts next; with one worker the
jobs finish in the order they started.
"""
from __future__ import annotations

import asyncio

import pytest

from app.matches.botpool import BotPool, PoolBusy
from engines import registry
from engines.base import Rng
from engines.search import Budget

ENGINE = registry.get("covil")
STATE = ENGINE.setup(2, {}, 3)
SEAT = min(ENGINE.prompts(STATE))
#: A hint's search: a few iterations, a fixed salt.
HINT_BUDGET = Budget(seconds=None, iterations=5, salt=1)


@pytest.fixture(scope="module")
def pool():
    """One spawned worker, 10 ms of CPU per hard decision, shared by this module's tests (a
    worker takes a second or two to start)."""
    pool = BotPool(workers=1, seconds=0.01)
    yield pool
    pool.close()


def _decision(pool: BotPool, label: str, done: list[str]) -> asyncio.Task:
    async def run() -> None:
        action = await pool.decide(ENGINE, "hard", STATE, SEAT, Rng(1))
        assert action in ENGINE.legal_actions(STATE, SEAT)
        done.append(label)
    return asyncio.create_task(run())


def _hint(pool: BotPool, label: str, done: list[str], then=None) -> asyncio.Task:
    async def run() -> None:
        action, stats = await pool.hint(ENGINE, STATE, SEAT, HINT_BUDGET)
        assert action in ENGINE.legal_actions(STATE, SEAT) and "iterations" in stats
        done.append(label)
        if then is not None:
            then()
    return asyncio.create_task(run())


def _settle(pool: BotPool, before: tuple[int, int, int]) -> tuple[int, int, int]:
    """The pool's counts since ``before`` (submitted, done, failed), with nothing left queued."""
    assert pool.stats.in_flight == 0 and not any(pool._waiting) and pool._running == 0
    s = pool.stats
    return s.submitted - before[0], s.done - before[1], s.failed - before[2]


def _counts(pool: BotPool) -> tuple[int, int, int]:
    return pool.stats.submitted, pool.stats.done, pool.stats.failed


def test_a_hint_starts_before_the_bot_decisions_waiting(pool):
    """Four hard decisions asked for (the first one runs, three wait), then a hint: the hint
    starts as soon as the running search ends, before the three waiting decisions."""
    done: list[str] = []
    before = _counts(pool)

    async def run() -> None:
        tasks = [_decision(pool, f"d{i}", done) for i in range(1, 5)]
        tasks.append(_hint(pool, "hint", done))
        await asyncio.gather(*tasks)

    asyncio.run(run())
    assert done == ["d1", "hint", "d2", "d3", "d4"]
    assert _settle(pool, before) == (5, 5, 0)


def test_a_steady_trickle_of_hints_does_not_starve_the_bot_decisions(pool):
    """Three decisions (one runs), two hints waiting, and each hint that ends asks another (so
    a hint always waits), eight in all: at most ``hint_streak`` (2 here) hints start in a row
    while a decision waits, then the decision goes; every decision is made."""
    done: list[str] = []
    before = _counts(pool)
    pool.hint_streak = 2
    hints = iter(range(3, 9))

    async def run() -> None:
        tasks: list[asyncio.Task] = []

        def another() -> None:
            n = next(hints, None)
            if n is not None:
                tasks.append(_hint(pool, f"h{n}", done, another))

        tasks += [_decision(pool, f"d{i}", done) for i in range(1, 4)]
        tasks += [_hint(pool, f"h{i}", done, another) for i in (1, 2)]
        while not all(task.done() for task in tasks):
            await asyncio.gather(*tasks)

    try:
        asyncio.run(run())
    finally:
        pool.hint_streak = 3
    assert done == ["d1", "h1", "h2", "d2", "h3", "h4", "d3", "h5", "h6", "h7", "h8"]
    assert _settle(pool, before) == (11, 11, 0)


def test_hints_go_in_the_order_they_were_asked_and_a_cancelled_one_gives_its_turn_on(pool):
    """Hints among themselves (and decisions among themselves) keep their order of arrival; a
    waiting hint whose asker went away (its task cancelled) is skipped, nothing runs for it."""
    done: list[str] = []
    before = _counts(pool)

    async def run() -> None:
        tasks = [_decision(pool, "d1", done), _decision(pool, "d2", done),
                 _hint(pool, "h1", done), _hint(pool, "h2", done), _hint(pool, "h3", done)]
        await asyncio.sleep(0)  # all of them are queued now (d1 runs)
        tasks[3].cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert isinstance(results[3], asyncio.CancelledError)

    asyncio.run(run())
    assert done == ["d1", "h1", "h3", "d2"]
    assert _settle(pool, before) == (5, 4, 1)


def test_a_hint_that_waits_too_long_is_busy_and_the_decisions_still_run(pool):
    """With ``hint_wait`` far shorter than the running search (50 ms against 0.5 s of CPU), the
    hint is given up with ``PoolBusy`` (never played by a weaker level); the decisions, running
    and waiting, are all made, and the next hint runs."""
    done: list[str] = []
    before = _counts(pool)

    async def run() -> None:
        pool.seconds, pool.hint_wait = 0.5, 0.05
        first = _decision(pool, "d1", done)  # takes the worker for 0.5 s
        await asyncio.sleep(0)
        pool.seconds = 0.01
        second = _decision(pool, "d2", done)
        with pytest.raises(PoolBusy):
            await pool.hint(ENGINE, STATE, SEAT, HINT_BUDGET)
        await asyncio.gather(first, second)
        await _hint(pool, "h", done)

    try:
        asyncio.run(run())
    finally:
        pool.seconds, pool.hint_wait = 0.01, 10.0
    assert done == ["d1", "d2", "h"]
    assert _settle(pool, before) == (4, 3, 1)


def test_closing_the_pool_cancels_the_jobs_waiting_for_a_worker(pool):
    """Server stop (``close``): a decision waiting in the queue is cancelled (its match's bots
    are then handed over like any bot move) and nothing runs for it; the pool starts again for
    the next decision. (The one handed to the executor finishes, or is cancelled if the
    executor had not given it to its worker yet.)"""
    done: list[str] = []
    before = _counts(pool)

    async def run() -> None:
        running, waiting = _decision(pool, "d1", done), _decision(pool, "d2", done)
        await asyncio.sleep(0)
        pool.close()
        assert not any(pool._waiting)
        await asyncio.gather(running, return_exceptions=True)
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await _decision(pool, "d3", done)

    asyncio.run(run())
    assert done in (["d1", "d3"], ["d3"])
    assert _settle(pool, before) == (3, len(done), 3 - len(done))



def test_a_match_that_is_over_drops_its_decisions_still_waiting(pool):
    """``drop(match)`` (the bot runner calls it when a match is cancelled or ends): that match's
    decisions still waiting are cancelled, its running search finishes, and the other match's
    decisions and a hint keep their places. (A cancelled bench match's decisions once piled up
    to 77 and held the worker for 77 budgets while live tables' bots waited behind them.)"""
    done: list[str] = []
    before = _counts(pool)

    def tagged(label: str, tag: str) -> asyncio.Task:
        async def run() -> None:
            await pool.decide(ENGINE, "hard", STATE, SEAT, Rng(1), tag=tag)
            done.append(label)
        return asyncio.create_task(run())

    async def run() -> list:
        tasks = [tagged("over-1", "over"), tagged("over-2", "over"), tagged("live-1", "live"),
                 tagged("over-3", "over"), _hint(pool, "hint", done)]
        await asyncio.sleep(0)  # every job asked for; over-1 holds the worker
        assert pool.drop("over") == 2 and pool.drop("nothing") == 0
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = asyncio.run(run())
    assert done == ["over-1", "hint", "live-1"]
    assert [type(r).__name__ for r in results] == [
        "NoneType", "CancelledError", "NoneType", "CancelledError", "NoneType"]
    assert _settle(pool, before) == (5, 3, 2) and pool.probe()["dropped"] >= 2


def test_the_bot_runner_drops_a_matchs_decisions_when_it_is_over():
    """``BotRunner.on_change``: a cancelled match, one ended without a move, and one a move
    finished drop their waiting decisions; a move that leaves the match running does not."""
    import types

    from app.matches.bots import BotRunner
    from app.matches.changes import Cancelled, Finished, Moved

    dropped: list[str] = []
    fake_pool = types.SimpleNamespace(drop=dropped.append)
    store = types.SimpleNamespace(subscribe=lambda *a, **k: None)
    runner = BotRunner(store, moves=None, pool=fake_pool)  # type: ignore[arg-type]
    runner.schedule = lambda match_id: None  # type: ignore[method-assign]

    def snap(status: str):
        return types.SimpleNamespace(match=types.SimpleNamespace(status=status), seats=[])

    async def run() -> None:
        await runner.on_change("a", Cancelled(), None)
        await runner.on_change("b", Finished(), None)
        await runner.on_change("c", Moved(), snap("finished"))
        await runner.on_change("d", Moved(), snap("active"))

    asyncio.run(run())
    assert dropped == ["a", "b", "c"]
