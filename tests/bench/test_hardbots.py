"""`bench/load.py --hard-bots N` (bench/hardbots.py, issue 17 item 4): its command line, the
order of the phases, the pool's figures inside a window, the summary and its verdict, the
server's settings, the bench's probe route, the worker checks and the shared fresh database.
No Lair server is started."""
from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import time
import types

import asyncpg
import httpx
import pytest

from bench import common, hardbots, load


# ----- command line ---------------------------------------------------------------------------
def test_hard_bots_mode_measures_only_paced_phases():
    args = load.parse_args(["--hard-bots", "20", "--game", "covil"])
    assert (args.hard_bots, args.hard_rounds, args.churn) == (20, 2, 0)
    assert (args.matches, args.seconds, args.rate) == (40, 6, 1.0)
    plain = load.parse_args([])
    assert (plain.hard_bots, plain.churn) == (0, 300)
    assert load.parse_args(["--hard-bots", "4", "--hard-rounds", "3"]).hard_rounds == 3


@pytest.mark.parametrize("argv", [["--hard-bots", "-1"],
                                  ["--hard-bots", "4", "--hard-rounds", "0"],
                                  ["--hard-bots", "4", "--ab", "HEAD"],
                                  ["--hard-bots", "4", "--churn-only"],
                                  ["--hard-bots", "many"]])
def test_hard_bots_mode_refuses_what_it_cannot_measure(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        load.parse_args(argv)
    assert exc.value.code == 2
    assert "--hard-" in capsys.readouterr().err


def test_the_server_gets_the_real_settings_whatever_the_callers_environment(monkeypatch):
    monkeypatch.setenv("BOT_THINK_SECONDS", "0.01")
    monkeypatch.setenv("BOT_WORKERS", "7")
    monkeypatch.delenv("GC_FREEZE", raising=False)
    monkeypatch.delenv("GC_YOUNG", raising=False)
    assert hardbots.server_env() == {"BOT_THINK_SECONDS": "1.0", "BOT_WORKERS": "0",
                                     "GC_FREEZE": "True", "GC_YOUNG": "5000"}
    # the collector's settings are the caller's to compare (an A/B), said in the results
    monkeypatch.setenv("GC_FREEZE", "false")
    monkeypatch.setenv("GC_YOUNG", "0")
    assert hardbots.server_env() == {"BOT_THINK_SECONDS": "1.0", "BOT_WORKERS": "0",
                                     "GC_FREEZE": "false", "GC_YOUNG": "0"}


def test_rounds_alternate_the_order_of_the_phases():
    assert [hardbots.order(i) for i in range(4)] == [
        ("without", "with"), ("with", "without"), ("without", "with"), ("with", "without")]


# ----- figures ----------------------------------------------------------------------------------
def _sample(t, done, in_flight, cpu):
    return {"t": t, "done": done, "in_flight": in_flight, "cpu": cpu}


def test_window_stats_count_only_the_samples_inside_the_window():
    samples = [_sample(9.8, 3, 20, {11: 1.0}),              # before the window
               _sample(10.0, 5, 21, {11: 2.0}),
               _sample(11.0, 6, 20, {11: 2.9, 12: 0.5}),    # worker 12 started meanwhile
               _sample(12.0, 8, 22, {11: 3.9, 12: 1.4}),
               _sample(12.5, 40, 0, {11: 9.0, 12: 9.0})]    # after the window
    got = hardbots.window_stats(samples, 10.0, 12.0)
    assert got == {"samples": 3, "seconds": 2.0, "decisions": 3, "decisions_per_s": 1.5,
                   "in_flight_min": 20, "in_flight_max": 22, "worker_cpu_s": 3.3,
                   "worker_cores_busy": 1.65}
    few = hardbots.window_stats(samples[:2], 10.0, 12.0)
    assert few["samples"] == 1 and few["decisions"] is None and few["in_flight_min"] is None


def test_window_stats_lay_the_servers_collections_beside_the_window():
    def gc(now, young, full, full_ms, young_ms, long, young_long, reclaim):
        return {"now": now, "count": [young, 9, full], "total_ms": [young_ms, 0.0, full_ms],
                "long": long, "young_long": young_long, "objects": 0, "frozen": 0,
                "reclaim_runs": reclaim}
    long = [[100.5, 80.0, 3], [101.5, 120.0, 0], [103.0, 300.0, 9]]  # server clock, ms, objects
    young = [[99.0, 40.0, 1], [100.2, 6.0, 0], [101.9, 31.0, 1], [102.5, 90.0, 1]]  # ms, generation
    samples = [{**_sample(10.0, 5, 21, {}), "gc": gc(100.0, 90, 4, 50.0, 10.0, long[:0], young[:1], 1)},
               {**_sample(11.0, 6, 20, {}), "gc": gc(101.0, 93, 5, 130.0, 12.0, long[:1], young[:2], 1)},
               {**_sample(12.0, 8, 22, {}), "gc": gc(102.0, 97, 6, 250.0, 15.5, long[:2], young[:3], 2)}]
    got = hardbots.window_stats(samples, 10.0, 12.0)
    # (the 300 ms full and the 90 ms young collections came after, the 40 ms young one before)
    assert (got["gc_full"], got["gc_full_ms"], got["gc_young"], got["gc_young_ms"], got["gc_longest_ms"],
            got["gc_young_longest_ms"], got["reclaim_runs"]) == (2, 200.0, 7, 5.5, 120.0, 31.0, 1)


def _phase(p50, p99, decisions, low, high):
    return {"p50_ms": p50, "p99_ms": p99,
            "pool": {"decisions": decisions, "in_flight_min": low, "in_flight_max": high}}


def test_summary_takes_medians_per_side_and_judges_the_p99_ratio():
    rounds = [{"without": _phase(10, 40, 0, 0, 0), "with": _phase(12, 50, 9, 20, 24)},
              {"without": _phase(14, 60, 0, 0, 0), "with": _phase(12, 90, 8, 19, 23)},
              {"without": _phase(12, 50, 0, 0, 0), "with": _phase(16, 70, 7, 20, 22)}]
    got = hardbots.summarize(rounds)
    assert got["median"] == {"without": {"p50_ms": 12, "p99_ms": 50},
                             "with": {"p50_ms": 12, "p99_ms": 70}}
    even = hardbots.summarize(rounds[:2])["median"]  # an even count: the mean of the middle two
    assert even == {"without": {"p50_ms": 12, "p99_ms": 50},
                    "with": {"p50_ms": 12, "p99_ms": 70}}
    odd_halves = [{"without": _phase(10.004, 40.111, 0, 0, 0), "with": _phase(1, 1, 1, 1, 1)},
                  {"without": _phase(10.001, 40.0, 0, 0, 0), "with": _phase(1, 1, 1, 1, 1)}]
    assert hardbots.summarize(odd_halves)["median"]["without"] == {"p50_ms": 10.0,
                                                                   "p99_ms": 40.06}
    assert (got["p50_ratio"], got["p99_ratio"]) == (1.0, 1.4)
    assert got["per_round"] == [{"p50_ratio": 1.2, "p99_ratio": 1.25},
                                {"p50_ratio": 0.857, "p99_ratio": 1.5},
                                {"p50_ratio": 1.333, "p99_ratio": 1.4}]
    assert (got["thinking"], got["idle"], got["valid"], got["target_met"]) == (
        True, True, True, True)
    assert hardbots.summarize(rounds, target=1.3)["target_met"] is False


@pytest.mark.parametrize("change, thinking, idle", [
    ({"with": _phase(12, 50, 0, 0, 3)}, False, True),       # no decision in the window
    ({"with": _phase(12, 50, 5, 0, 3)}, False, True),       # the pool ran dry in the window
    ({"without": _phase(10, 40, 2, 0, 1)}, True, False),    # the baseline was not drained
    ({"without": _phase(10, 40, 0, 0, 1)}, True, False)])
def test_a_run_without_thinking_or_with_a_busy_baseline_is_not_judged(change, thinking, idle):
    row = {"without": _phase(10, 40, 0, 0, 0), "with": _phase(12, 50, 9, 20, 24), **change}
    got = hardbots.summarize([row])
    assert (got["thinking"], got["idle"], got["valid"]) == (thinking, idle, False)
    assert got["target_met"] is None and got["p99_ratio"] == 1.25


def test_the_summary_rows_show_each_round_and_the_verdict():
    rounds = [{"order": ["without", "with"], "without": _phase(10, 40, 0, 0, 0),
               "with": _phase(12, 80, 9, 20, 24)}]
    for r in rounds:
        r["with"]["pool"]["worker_cores_busy"] = 0.98
    h = {"n": 20, "rounds": rounds, "errors": {},
         "workers": [{"pid": 5, "nice": 19, "idle_policy": True, "spawned": True,
                      "parent_is_server": True}],
         **hardbots.summarize(rounds)}
    result = {"args": {"hard_bots": 20, "matches": 40, "players": 4, "spectators": 2,
                       "seconds": 6.0, "hard_rounds": 1},
              "machine": {"cpus": 2, "loadavg_at_start": [0.5, 0.4, 0.3]},
              "server_env": hardbots.server_env(), "games": {"covil": {"hard_bots": h}}}
    text = "\n".join(hardbots.rows(result))
    assert "| covil | 1 | without then with | 10/40 | 12/80 | 2.0 | 9 (20–24) | 0.98 |" in text
    assert "**2.0** (≤ 1.5: NOT met)" in text and "[(19, True, True, True)]" in text


# ----- the probe and the workers ------------------------------------------------------------------
def test_the_bench_app_answers_the_pools_probe(monkeypatch):
    """``GET /_bench/bots`` on bench/memory_probe.py's app is ``BotPool.probe`` as JSON."""
    from app.matches.botpool import BotPool
    from bench import memory_probe

    pool = BotPool(workers=3, seconds=1.0)
    pool.stats.submitted, pool.stats.done = 5, 2
    service = types.SimpleNamespace(bot_pool=pool)
    monkeypatch.setattr(memory_probe, "lair", types.SimpleNamespace(
        state=types.SimpleNamespace(service=service)))

    async def get() -> httpx.Response:
        transport = httpx.ASGITransport(app=memory_probe.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            return await http.get(hardbots.PROBE)
    r = asyncio.run(get())
    assert r.status_code == 200
    got = r.json()
    collections = got.pop("gc")
    assert got == {"workers": 3, "seconds": 1.0, "start_method": "spawn", "pids": [],
                   "submitted": 5, "done": 2, "failed": 0, "dropped": 0, "in_flight": 3}
    # and this process's collections (GcPauses counts from its import: this test ran some)
    gc.collect()
    assert memory_probe.GC.count[2] >= 1 and collections.keys() == {
        "now", "count", "total_ms", "long", "young_long", "objects", "frozen", "reclaim_runs",
        "reclaim_skipped"}


def test_worker_facts_tell_a_spawned_child_from_the_server_itself():
    child = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(30,))
    child.start()
    try:
        deadline = time.monotonic() + 20  # the spawned interpreter execs its entry point
        while time.monotonic() < deadline:
            facts = hardbots.worker_facts([child.pid, os.getpid(), 2**22 + 1], os.getpid())
            if facts and facts[0]["spawned"]:
                break
            time.sleep(0.1)
        assert [f["pid"] for f in facts] == [child.pid, os.getpid()]  # the unknown pid is left out
        assert facts[0] == {"pid": child.pid, "nice": os.getpriority(os.PRIO_PROCESS, 0),
                            "idle_policy": False, "parent_is_server": True, "spawned": True}
        assert facts[1]["spawned"] is False and facts[1]["parent_is_server"] is False
    finally:
        child.kill()
        child.join()


# ----- the shared fresh database ----------------------------------------------------------------
PG = os.environ.get("LAIR_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def test_fresh_database_is_migrated_and_dropped_even_after_a_failure():
    async def exists(name: str) -> bool:
        conn = await asyncpg.connect(PG)
        try:
            return bool(await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1",
                                            name))
        finally:
            await conn.close()

    async def run() -> tuple[str, str, str | None]:
        try:
            async with common.fresh_database(PG, "lair_bench_test") as (dsn, url):
                name = dsn.rsplit("/", 1)[1]
                assert await exists(name)
                conn = await asyncpg.connect(dsn)
                try:
                    head = await conn.fetchval("SELECT version_num FROM alembic_version")
                finally:
                    await conn.close()
                raise RuntimeError("a failed run")
        except RuntimeError:
            pass
        return name, url, head

    async def reachable() -> None:
        conn = await asyncpg.connect(PG, timeout=5)
        await conn.close()

    try:
        asyncio.run(reachable())
    except OSError as exc:  # no PostgreSQL here: an error in CI, a skip on a laptop
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG} is not reachable: {exc}")
        pytest.skip(f"PostgreSQL at {PG} is not reachable")
    name, url, head = asyncio.run(run())
    assert name.startswith("lair_bench_test_") and url.startswith("postgresql+asyncpg://")
    assert url.endswith("/" + name) and head
    assert not asyncio.run(exists(name))
