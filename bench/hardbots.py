"""Hard bots thinking beside the paced tables (``bench/load.py --hard-bots N``; issue 17, item 4:
"with 20 search bots thinking at once, the paced benchmark's p99 for the other tables is at most
1.5x the run without them (same run)").

    .venv/bin/python bench/load.py --hard-bots 20                          # 3 games x 2 rounds
    .venv/bin/python bench/load.py --hard-bots 20 --game covil --matches 100 --seconds 20 \\
        --hard-rounds 4

Per game, one server (``load.run_lair``: ``bench.memory_probe:app`` as ``lair serve`` serves it,
the tables created through the HTTP lobby, every player and spectator on its own websocket),
the hard bots' settings as a real server has them (:func:`server_env`: the default decision
budget ``BOT_THINK_SECONDS``, the default pool of cores - 1 spawned workers at nice 19). Then
``--hard-rounds`` rounds of two paced phases on that server, in the order ``without``, ``with``
in even rounds and ``with``, ``without`` in odd ones (drift during the run does not favour one
side):

- ``without``: the paced phase as ``load.py`` measures it, after the pool has finished every
  decision (``in_flight`` 0; waited for up to :data:`DRAIN_TIMEOUT`);
- ``with``: the same, while N more matches play with a hard bot in every seat (created through
  the same HTTP lobby: a host who does not play, ``fill`` with ``hard``, start; cancelled after
  the phase). Every one of them has a seat waiting for a hard decision at every moment, so at
  least N decisions are in the pool at once: cores - 1 being searched, the others queued.

Both phases read ``GET /_bench/bots`` (the pool's counters, ``BotPool.probe``) every
:data:`SAMPLE_EVERY` s, and the bench reads the workers' CPU time, priority, parent and command
line from ``/proc``: the decisions made, the decisions pending and the workers' CPU inside the
measured window are the evidence the hard bots were thinking (and were not, in ``without``).

Per game: p50 and p99 of the other tables' action latency (action sent -> the last socket of
its match has the new view) per phase and round, the medians per side over the rounds and
their ratio ``with`` / ``without``; ``valid`` when every ``with`` window had the pool busy
throughout and every ``without`` window had it idle; ``target_met``: valid and p99 ratio <=
:data:`TARGET`. Result: ``bench/results/hardbots-<time>.json``.
"""
from __future__ import annotations

import asyncio
import functools
import os
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path

import httpx

from bench import clients
from bench.common import cpu_seconds, form_headers, fresh_database

#: Issue 17, item 4: the other tables' paced p99 with the hard bots thinking, at most this many
#: times the p99 without them.
TARGET = 1.5
#: The bench server's probe of the bot pool (bench/memory_probe.py).
PROBE = "/_bench/bots"
#: Seconds between two readings of the probe (the same in both phases: the probe's own cost).
SAMPLE_EVERY = 0.25
#: Seconds to wait for the pool to finish the cancelled matches' decisions before ``without``.
DRAIN_TIMEOUT = 300.0
#: Seconds to wait for the first hard decision to reach the pool after the matches start.
THINK_TIMEOUT = 60.0
PHASES = ("without", "with")


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def server_env() -> dict[str, str]:
    """The hard bots' settings of a real server, whatever this process's environment says:
    ``BOT_THINK_SECONDS`` and ``BOT_WORKERS`` at ``app.settings.Settings``' defaults (1 s of
    CPU per decision; 0 = cores - 1 workers)."""
    from app.settings import Settings

    fields = Settings.model_fields
    return {"BOT_THINK_SECONDS": str(fields["bot_think_seconds"].default),
            "BOT_WORKERS": str(fields["bot_workers"].default),
            # the caller's choice (an A/B of the start-up freeze), else the default
            "GC_FREEZE": os.environ.get("GC_FREEZE", str(fields["gc_freeze"].default)),
            "GC_YOUNG": os.environ.get("GC_YOUNG", str(fields["gc_young"].default))}


def order(round_index: int) -> tuple[str, str]:
    """The phases of round ``round_index`` (0-based): ``without`` first in even rounds,
    ``with`` first in odd ones."""
    return PHASES if round_index % 2 == 0 else PHASES[::-1]


def window_stats(samples: list[dict], start: float, end: float) -> dict:
    """The pool inside the measured window ``[start, end]`` (``clients.now()`` seconds) from
    ``samples``: ``[{"t", "done", "in_flight", "cpu": {pid: CPU s}}, ...]`` in time order.
    Returns ``{"samples", "seconds", "decisions", "decisions_per_s", "in_flight_min",
    "in_flight_max", "worker_cpu_s", "worker_cores_busy"}``: jobs finished and worker CPU
    between the first and the last sample inside the window (a worker started meanwhile counts
    from 0), the pending jobs' range over those samples; the figures are None with fewer than
    two samples inside. With the server's collection readings in the samples (``"gc"``), also
    ``"gc_full"``, ``"gc_full_ms"``, ``"gc_young"`` (young collections: generations 0 and 1),
    ``"gc_young_ms"``, ``"gc_longest_ms"``, ``"gc_young_longest_ms"`` and ``"reclaim_runs"``
    inside the window."""
    inside = [s for s in samples if start <= s["t"] <= end]
    out: dict = {"samples": len(inside), "seconds": None, "decisions": None,
                 "decisions_per_s": None, "in_flight_min": None, "in_flight_max": None,
                 "worker_cpu_s": None, "worker_cores_busy": None}
    if len(inside) < 2:
        return out
    first, last = inside[0], inside[-1]
    seconds = last["t"] - first["t"]
    cpu = sum(s - first["cpu"].get(pid, 0.0) for pid, s in last["cpu"].items())
    pending = [s["in_flight"] for s in inside]
    gc_first, gc_last = first.get("gc"), last.get("gc")
    if gc_first and gc_last:
        # the server's collections inside the window: the full ones' count and event-loop
        # time, the longest, and the launcher's Reclaim runs (bench/memory_probe.py GcPauses)
        def inside_window(kept: list) -> list[float]:
            return [ms for at, ms, _n in kept if gc_first["now"] < at <= gc_last["now"]]
        pauses = inside_window(gc_last["long"])
        young = inside_window(gc_last.get("young_long", []))
        reclaims = (None if gc_last["reclaim_runs"] is None
                    else gc_last["reclaim_runs"] - gc_first["reclaim_runs"])
        out.update(gc_full=gc_last["count"][2] - gc_first["count"][2],
                   gc_full_ms=round(gc_last["total_ms"][2] - gc_first["total_ms"][2], 1),
                   gc_young=sum(gc_last["count"][:2]) - sum(gc_first["count"][:2]),
                   gc_young_ms=round(sum(gc_last["total_ms"][:2]) - sum(gc_first["total_ms"][:2]), 1),
                   gc_longest_ms=max(pauses, default=0.0),
                   gc_young_longest_ms=max(young, default=0.0), reclaim_runs=reclaims)
    out.update(seconds=round(seconds, 2), decisions=last["done"] - first["done"],
               decisions_per_s=round((last["done"] - first["done"]) / seconds, 2)
               if seconds > 0 else None,
               in_flight_min=min(pending), in_flight_max=max(pending),
               worker_cpu_s=round(cpu, 2),
               worker_cores_busy=round(cpu / seconds, 2) if seconds > 0 else None)
    return out


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def summarize(rounds: list[dict], target: float = TARGET) -> dict:
    """``rounds``: ``[{"without": phase, "with": phase}, ...]``, each phase ``{"p50_ms",
    "p99_ms", "pool": window_stats(...)}``. Returns the per-round ratios ``with`` / ``without``
    (p50, p99), the medians per side over the rounds and their ratios, ``thinking`` (every
    ``with`` window: decisions made and at least one pending at every reading), ``idle``
    (every ``without`` window: none made, none pending), ``valid`` (both) and ``target_met``
    (valid and the p99 ratio of the medians <= ``target``; None when not valid or a p99 is
    missing)."""
    per_round = [{"p50_ratio": _ratio(r["with"]["p50_ms"], r["without"]["p50_ms"]),
                  "p99_ratio": _ratio(r["with"]["p99_ms"], r["without"]["p99_ms"])}
                 for r in rounds]
    median: dict = {}
    for side in PHASES:
        median[side] = {}
        for key in ("p50_ms", "p99_ms"):
            values = [r[side][key] for r in rounds if r[side][key] is not None]
            median[side][key] = round(statistics.median(values), 2) if values else None
    thinking = bool(rounds) and all(
        (r["with"]["pool"]["decisions"] or 0) > 0 and (r["with"]["pool"]["in_flight_min"] or 0) >= 1
        for r in rounds)
    idle = bool(rounds) and all(
        r["without"]["pool"]["decisions"] == 0 and r["without"]["pool"]["in_flight_max"] == 0
        for r in rounds)
    p99_ratio = _ratio(median["with"]["p99_ms"], median["without"]["p99_ms"])
    valid = thinking and idle
    return {"per_round": per_round, "median": median,
            "p50_ratio": _ratio(median["with"]["p50_ms"], median["without"]["p50_ms"]),
            "p99_ratio": p99_ratio, "target": target, "thinking": thinking, "idle": idle,
            "valid": valid,
            "target_met": (p99_ratio <= target) if valid and p99_ratio is not None else None}


# ----- the server's pool ----------------------------------------------------------------------
async def probe(http: httpx.AsyncClient) -> dict:
    """The bench server's ``BotPool.probe`` (see bench/memory_probe.py)."""
    r = await http.get(PROBE)
    r.raise_for_status()
    return r.json()


def worker_facts(pids: list[int], server_pid: int) -> list[dict]:
    """What ``/proc`` says of each worker: ``{"pid", "nice", "idle_policy", "parent_is_server",
    "spawned"}`` (``idle_policy``: scheduled ``SCHED_IDLE``; ``spawned``: started by multiprocessing's spawn entry point, a fresh interpreter, not a
    fork of the server). A worker gone meanwhile is left out."""
    out = []
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            nice = os.getpriority(os.PRIO_PROCESS, pid)
            idle = os.sched_getscheduler(pid) == os.SCHED_IDLE
        except OSError:
            continue
        out.append({"pid": pid, "nice": nice, "idle_policy": idle, "parent_is_server": int(stat[1]) == server_pid,
                    "spawned": b"multiprocessing.spawn" in cmdline})
    return out


async def _sample(http: httpx.AsyncClient, samples: list[dict], stop: asyncio.Event) -> None:
    """Read the probe and the workers' CPU every SAMPLE_EVERY s into ``samples`` until
    ``stop``."""
    while not stop.is_set():
        t = clients.now()
        p = await probe(http)
        samples.append({"t": t, "done": p["done"], "in_flight": p["in_flight"],
                        "cpu": {pid: cpu_seconds(pid) for pid in p["pids"]},
                        "gc": p.get("gc")})
        try:
            await asyncio.wait_for(stop.wait(), SAMPLE_EVERY)
        except TimeoutError:
            pass


async def _wait_pool(http: httpx.AsyncClient, done, timeout: float) -> dict:
    """Poll the probe until ``done(probe)`` or ``timeout`` s; ``{"seconds", "reached",
    "in_flight"}``."""
    start = time.perf_counter()
    while True:
        p = await probe(http)
        waited = time.perf_counter() - start
        if done(p) or waited > timeout:
            return {"seconds": round(waited, 1), "reached": done(p), "in_flight": p["in_flight"]}
        await asyncio.sleep(0.5)


# ----- the hard matches -------------------------------------------------------------------------
async def _post(http: httpx.AsyncClient, url: str, host: str, data: dict | None = None
                ) -> httpx.Response:
    r = await http.post(url, headers=form_headers(host), data=data or {})
    if r.status_code >= 400:
        raise RuntimeError(f"POST {url}: {r.status_code} {r.text[:200]}")
    return r


async def start_hard_matches(http: httpx.AsyncClient, host: str, game: str, players: int,
                             n: int) -> list[str]:
    """``n`` matches of ``game`` with a hard bot in each of the ``players`` seats, through the
    lobby as a host would make them (the host ``host``, a guest's cookie, does not play; fill
    the seats with ``hard``; start). Returns their ids. Raises RuntimeError on a refusal."""
    sem = asyncio.Semaphore(8)

    async def one() -> str:
        async with sem:
            r = await _post(http, "/matches", host, {"game": game, f"players_{game}": str(players),
                                                     "host_plays": "no"})
            where = r.headers.get("location", "")
            if not where.startswith("/m/"):
                raise RuntimeError(f"match not created: {r.status_code} -> {where!r}")
            mid = where.rsplit("/", 1)[1]
            await _post(http, f"/m/{mid}/fill", host, {"bot": "hard"})
            await _post(http, f"/m/{mid}/start", host)
            return mid
    return list(await asyncio.gather(*(one() for _ in range(n))))


async def cancel_matches(http: httpx.AsyncClient, host: str, ids: list[str]) -> int:
    """The host cancels the hard matches (their decisions already in the pool still finish).
    Returns how many were refused (a match that ended by itself meanwhile: the drain before
    the next ``without`` phase shows whether the pool went idle all the same)."""
    refused = 0
    for mid in ids:
        r = await http.post(f"/m/{mid}/cancel", headers=form_headers(host))
        refused += r.status_code >= 400
    return refused


# ----- one game ---------------------------------------------------------------------------------
async def _phase(args, http: httpx.AsyncClient, tables: list, window: clients.Window,
                 server_pid: int) -> dict:
    """One paced phase (``load.measure``) with the pool sampled throughout."""
    from bench import load

    samples: list[dict] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample(http, samples, stop))
    try:
        paced = await load.measure(tables, window, "paced", server_pid, args.warmup,
                                   args.seconds)
    finally:
        stop.set()
        await sampler
    lat = paced["latency_action_to_last_view"]
    return {"p50_ms": lat["p50_ms"], "p99_ms": lat["p99_ms"],
            "pool": window_stats(samples, window.start, window.end), "paced": paced}


async def play(args, game: str, players: int, http: httpx.AsyncClient, base: str,
               tables: list, window: clients.Window, server_pid: int) -> dict:
    """``load.run_lair``'s ``play``: the rounds of one game on its server (module docstring).
    Returns ``{"hard_bots": {"n", "rounds", "workers", "errors", **summarize(rounds)}}``."""
    from bench import load

    host = (await load.make_guests(http, 1, asyncio.Semaphore(1)))[0]
    rounds: list[dict] = []
    workers: list[dict] = []
    errors: dict[str, int] = {}
    for i in range(args.hard_rounds):
        row: dict = {"order": list(order(i))}
        for side in order(i):
            if side == "with":
                t0 = time.perf_counter()
                ids = await start_hard_matches(http, host, game, players, args.hard_bots)
                started = round(time.perf_counter() - t0, 1)
                wait = await _wait_pool(http, lambda p: p["in_flight"] >= 1, THINK_TIMEOUT)
                phase = await _phase(args, http, tables, window, server_pid)
                workers = worker_facts((await probe(http))["pids"], server_pid)
                refused = await cancel_matches(http, host, ids)
                phase.update(hard_matches=len(ids), setup_seconds=started, first_decision=wait,
                             cancel_refused=refused)
            else:
                wait = await _wait_pool(http, lambda p: p["in_flight"] == 0, DRAIN_TIMEOUT)
                phase = await _phase(args, http, tables, window, server_pid)
                phase["drain"] = wait
            row[side] = phase
            for code, n in phase["paced"]["errors"].items():
                errors[code] = errors.get(code, 0) + n
            pool = phase["pool"]
            _log(f"{game} round {i + 1}/{args.hard_rounds} {side:7s}: p50/p99 "
                 f"{phase['p50_ms']}/{phase['p99_ms']} ms (n {phase['paced']['latency_action_to_last_view']['n']}); "
                 f"pool: {pool['decisions']} decisions, pending {pool['in_flight_min']}-"
                 f"{pool['in_flight_max']}, workers {pool['worker_cores_busy']} cores busy; "
                 f"gc: {pool.get('gc_full')} full ({pool.get('gc_full_ms')} ms, longest "
                 f"{pool.get('gc_longest_ms')}), {pool.get('gc_young')} young "
                 f"({pool.get('gc_young_ms')} ms, longest {pool.get('gc_young_longest_ms')}), "
                 f"reclaim {pool.get('reclaim_runs')}")
        rounds.append(row)
    summary = summarize(rounds)
    _log(f"{game}: p99 with/without {summary['p99_ratio']} (target <= {TARGET}), "
         f"valid {summary['valid']}, target met {summary['target_met']}")
    return {"hard_bots": {"n": args.hard_bots, "rounds": rounds, "workers": workers,
                          "errors": errors, **summary}}


async def main_async(args) -> dict:
    """The whole run (module docstring); returns what ``load.py`` writes to
    ``bench/results/hardbots-<time>.json``."""
    from bench import load

    started = datetime.now(timezone.utc)
    env = server_env()
    result: dict = {"kind": "hard_bots", "started_utc": started.isoformat(timespec="seconds"),
                    "machine": load.machine_info(), "args": vars(args), "server_env": env,
                    "games": {}}
    games = load.GAMES if args.game == "all" else [args.game]
    async with fresh_database(args.pg) as (_dsn, db_url):
        for game in games:
            players = load.players_for(args, game)
            run, _ = await load.run_lair(
                args, game, db_url, players, None, env=env,
                play=functools.partial(play, args, game, players))
            result["games"][game] = run
    result["wall_seconds"] = round((datetime.now(timezone.utc) - started).total_seconds())
    return result


def rows(r: dict) -> list[str]:
    """Markdown lines of a run's result: per game and round the p50/p99 of both phases and the
    pool in the ``with`` window, then the medians, the ratio and the verdict."""
    a, m = r["args"], r["machine"]
    out = [f"{a['hard_bots']} hard-bot matches beside {a['matches']} paced tables "
           f"({a['players']} players + {a['spectators']} spectators), {a['seconds']:.0f} s phases, "
           f"{a['hard_rounds']} rounds; {m['cpus']} CPUs, load avg at start "
           f"{m['loadavg_at_start'][0]:.1f}; server {r['server_env']}", "",
           "| game | round | order | p50/p99 ms without | p50/p99 ms with | p99 with ÷ without "
           "| hard decisions (pending) in the with window | workers' cores busy |",
           "|---|---:|---|---:|---:|---:|---|---:|"]
    for game, e in r["games"].items():
        h = e.get("hard_bots")
        if h is None:
            out.append(f"| {game} | — | failed: see {e.get('server_log')} | | | | | |")
            continue
        for i, (row, ratios) in enumerate(zip(h["rounds"], h["per_round"])):
            w, o, pool = row["with"], row["without"], row["with"]["pool"]
            out.append(f"| {game} | {i + 1} | {' then '.join(row['order'])} | "
                       f"{o['p50_ms']}/{o['p99_ms']} | {w['p50_ms']}/{w['p99_ms']} | "
                       f"{ratios['p99_ratio']} | {pool['decisions']} ({pool['in_flight_min']}–"
                       f"{pool['in_flight_max']}) | {pool['worker_cores_busy']} |")
        med = h["median"]
        verdict = ("not valid: " + ", ".join(k for k in ("thinking", "idle") if not h[k])
                   if not h["valid"] else ("met" if h["target_met"] else "NOT met"))
        workers = [(x["nice"], x.get("idle_policy"), x["spawned"], x["parent_is_server"])
                   for x in h["workers"]]
        out.append(f"| {game} | median | | {med['without']['p50_ms']}/{med['without']['p99_ms']}"
                   f" | {med['with']['p50_ms']}/{med['with']['p99_ms']} | **{h['p99_ratio']}** "
                   f"(≤ {h['target']}: {verdict}) | workers "
                   f"{workers} "
                   f"(nice, SCHED_IDLE, spawned, child of the server) | |")
    return out + [""]


def print_summary(r: dict) -> None:
    print(f"\n== Lair hard bots beside paced tables (issue 17, item 4), {r['wall_seconds']} s ==")
    print("\n".join(rows(r)))
