"""Bot levels in the service (issue 17): easy / normal / hard seats, stored names, the hard
level's worker pool (spawned processes) and its fallback to normal."""
from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.matches.botpool import BotPool
from app.settings import Settings
from engines import registry
from engines.base import Rng
from tests.app.conftest import create, named, release_cancelled_connections
from tests.csrf import as_browser


@pytest.fixture
def quick_client(database_url):
    """An app whose hard bots think 20 ms in one worker process."""
    app = create_app(Settings(database_url=database_url, secret_key="test-secret", bot_delay=0,
                              bot_think_seconds=0.02, bot_workers=1))
    with as_browser(TestClient(app, base_url="http://testserver")) as c:
        yield c
        release_cancelled_connections(c)


def _bots_only(client, game: str, players: int, bot: str, **options) -> str:
    data = {"game": game, f"players_{game}": str(players), "host_plays": "no"}
    data.update({f"opt_{game}_{k}": str(v) for k, v in options.items()})
    r = client.post("/matches", data=data, follow_redirects=False)
    mid = r.headers["location"].rsplit("/", 1)[1]
    client.post(f"/m/{mid}/fill", data={"bot": bot})
    return mid


def test_hard_bots_finish_a_match_through_the_worker_pool(quick_client):
    """Two hard bots play a toy match to its end; their decisions ran in the spawned pool; the
    seat list names the level."""
    client = quick_client
    named(client, "Host")
    mid = _bots_only(client, "toy", 2, "hard")
    service = client.app.state.service
    snap = client.portal.call(service.snapshot, mid)
    assert [i.bot for i in snap.seats] == ["hard", "hard"]
    client.post(f"/m/{mid}/start")
    client.portal.call(service.drain)
    assert client.portal.call(service.snapshot, mid).match.status == "finished"
    assert service.bot_pool._pool is not None, "the hard decisions did not use the pool"


def test_a_hard_bot_plays_a_real_game_seat(quick_client):
    """A hard bot in Evil Corp. (it plays first) makes its move through the search; then the
    match waits for the human, and the view shows the bot's level."""
    client = quick_client
    named(client, "Host")
    mid = create(client, game="evil_corp", players=2, first_player=1)
    client.post(f"/m/{mid}/bot", data={"seat": "1", "bot": "hard"})
    client.post(f"/m/{mid}/start")
    service = client.app.state.service
    client.portal.call(service.drain)
    snap = client.portal.call(service.snapshot, mid)
    assert snap.match.version >= 1, "the hard bot did not move"
    engine = registry.get("evil_corp")
    assert 0 in engine.prompts(snap.match.state)
    from app.matches.views import seats_summary
    assert [s["level"] for s in seats_summary(snap)] == [None, "hard"]


def test_stored_names_still_play_and_show_their_level(client):
    """``random`` and ``greedy`` (names stored before the levels) are accepted and play as
    easy and normal; an unknown bot is refused."""
    named(client, "Host")
    mid = _bots_only(client, "toy", 2, "random")
    client.post(f"/m/{mid}/bot", data={"seat": "1", "bot": "greedy"})
    assert "Unknown bot" in client.post(f"/m/{mid}/bot", data={"seat": "0", "bot": "genius"}).text
    service = client.app.state.service
    from app.matches.views import seats_summary
    snap = client.portal.call(service.snapshot, mid)
    assert [(s["bot"], s["level"]) for s in seats_summary(snap)] == [("random", "easy"),
                                                                     ("greedy", "normal")]
    client.post(f"/m/{mid}/start")
    client.portal.call(service.drain)
    assert client.portal.call(service.snapshot, mid).match.status == "finished"


def test_a_failing_pool_plays_the_normal_level():
    """If the worker pool cannot decide, the move is the normal level's (a legal action)."""
    engine = registry.get("covil")
    state = engine.setup(2, {}, 3)
    seat = min(engine.prompts(state))
    pool = BotPool(workers=1, seconds=0.01)

    def broken():
        raise OSError("no processes here")
    pool._executor = broken
    action = asyncio.run(pool.decide(engine, "hard", state, seat, Rng(1)))
    assert action in engine.legal_actions(state, seat)
    assert (pool.stats.submitted, pool.stats.done, pool.stats.failed) == (1, 0, 1)
    assert pool.stats.in_flight == 0
    with pytest.raises(KeyError):
        asyncio.run(pool.decide(engine, "genius", state, seat, Rng(1)))


def test_the_pool_counts_its_jobs_and_reports_its_spawned_low_priority_workers():
    """``BotPool.probe`` (read by the load benchmark, bench/hardbots.py): a hard decision is in
    flight while a worker searches, then done; the worker is a spawned process at nice 19 and,
    on Linux, of the ``SCHED_IDLE`` policy (any other task preempts it)."""
    import os

    engine = registry.get("covil")
    state = engine.setup(2, {}, 3)
    seat = min(engine.prompts(state))
    pool = BotPool(workers=1, seconds=0.05)
    assert pool.probe()["pids"] == [] and pool.probe()["in_flight"] == 0

    async def decide_and_look() -> tuple[dict, object]:
        task = asyncio.create_task(pool.decide(engine, "hard", state, seat, Rng(1)))
        await asyncio.sleep(0)  # the job is handed to the pool
        during = pool.probe()
        return during, await task

    try:
        during, action = asyncio.run(decide_and_look())
        after = pool.probe()
        assert action in engine.legal_actions(state, seat)
        assert (during["submitted"], during["done"], during["in_flight"]) == (1, 0, 1)
        assert (after["submitted"], after["done"], after["failed"], after["in_flight"]) == (
            1, 1, 0, 0)
        assert (after["workers"], after["seconds"], after["start_method"]) == (1, 0.05, "spawn")
        assert len(after["pids"]) == 1 and after["pids"][0] != os.getpid()
        assert os.getpriority(os.PRIO_PROCESS, after["pids"][0]) == 19
        if hasattr(os, "SCHED_IDLE"):
            assert os.sched_getscheduler(after["pids"][0]) == os.SCHED_IDLE
    finally:
        pool.close()


def test_a_killed_worker_breaks_one_decision_and_the_pool_starts_again(caplog):
    """A worker that dies (killed here) breaks the pool: the hard decision under way is played
    at the normal level, a hint under way fails (it never falls back to ``normal``, which reads
    the real state); each path drops the broken pool, and the next hard decision and the next
    hint run in a new one."""
    import logging
    import os
    import signal
    import time
    from concurrent.futures import BrokenExecutor

    from engines.search import Budget

    engine = registry.get("covil")
    state = engine.setup(2, {}, 3)
    seat = min(engine.prompts(state))
    legal = engine.legal_actions(state, seat)
    budget = Budget(seconds=None, iterations=5, salt=1)
    pool = BotPool(workers=1, seconds=0.01)

    def kill_the_worker() -> object:
        """Kill the pool's one worker and wait until the pool knows it is broken."""
        broken = pool._pool
        assert broken is not None and broken._processes
        for pid in list(broken._processes):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not broken._broken and time.monotonic() < deadline:
            time.sleep(0.02)
        assert broken._broken, "the pool did not notice its dead worker"
        return broken

    async def run() -> None:
        action, _ = await pool.hint(engine, state, seat, budget)  # starts the pool
        assert action in legal
        broken = kill_the_worker()
        with pytest.raises(BrokenExecutor):
            await pool.hint(engine, state, seat, budget)
        assert pool._pool is None, "the hint path kept the broken pool"
        action, stats = await pool.hint(engine, state, seat, budget)
        assert action in legal and "iterations" in stats
        assert pool._pool is not None and pool._pool is not broken

        broken = kill_the_worker()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="lair.bots"):
            action = await pool.decide(engine, "hard", state, seat, Rng(1))
        assert action in legal
        assert "playing this move at the normal level" in caplog.text, "no fallback to normal"
        assert pool._pool is None, "the hard path kept the broken pool"
        action = await pool.decide(engine, "hard", state, seat, Rng(1))
        assert action in legal
        assert pool._pool is not None and pool._pool is not broken, "no new pool for hard"
        assert (pool.stats.done, pool.stats.failed, pool.stats.in_flight) == (3, 2, 0)

    try:
        asyncio.run(run())
    finally:
        pool.close()
