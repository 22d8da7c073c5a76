"""Lair load benchmark (`make bench`): real server on PostgreSQL, bots + spectators over real
websockets, against the two limits under it (raw commit rate, bare websocket fan-out).

    .venv/bin/python bench/load.py                 # default: ~3 min, all three games
    .venv/bin/python bench/load.py --full          # 1,000 matches x (4 players + 2 spectators)
    .venv/bin/python bench/load.py --game covil --matches 200 --seconds 20
    .venv/bin/python bench/load.py --hard-bots 20  # paced p99 with/without hard bots thinking

One run, per game: (1) engine cost per action from a cProfile (apply + every viewer's view +
encoding, in-process); (2) the raw PostgreSQL commit rate at the saturation run's concurrency
(asyncpg, ~2 KB JSONB single-row INSERTs, and Lair-like UPDATE+INSERT transactions); (3) Lair:
``app.main:app`` (served as ``lair serve`` serves it) on a fresh migrated PostgreSQL database,
matches created through the HTTP lobby, every player and spectator on its own websocket;
server RSS before/after connecting; a paced run (each match one action/s on average) and a
saturation run (bots act as soon as prompted), with a py-spy profile of the server; then
connect/disconnect cycles with RSS checkpoints; (4) the bare fan-out server (``bench/fanout_server.py``, same uvicorn, a real view
captured in (3) as the message template) with the same rooms, paced and saturated.
Prints a summary and writes ``bench/results/<UTC timestamp>.json``.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from contextlib import AsyncExitStack
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import orjson  # noqa: E402

from bench import clients, pgcommit  # noqa: E402
from bench.common import (  # noqa: E402
    SECRET_KEY,
    cpu_seconds,
    form_headers,
    free_port,
    fresh_database,
    latency_summary,
    machine_busy,
    postgres_cpu,
    raise_fd_limit,
    rss_bytes,
    start_uvicorn,
    stop,
)
from bench.engine_profile import profile_game  # noqa: E402
from bench.server_profile import PySpy  # noqa: E402

GAMES = ["drops_of_evil", "evil_corp", "covil"]


def players_for(args, game: str) -> int:
    """``--players`` clamped to ``game``'s player counts."""
    from engines import registry
    eng = registry.get(game)
    return max(eng.min_players, min(args.players, eng.max_players))


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ----- phases ----------------------------------------------------------------------------------
async def measure(units: list, window: clients.Window, mode: str, pid: int, warmup: float,
                  seconds: float, profile: PySpy | None = None) -> dict:
    """Run ``units`` (tables or rooms) in ``mode`` and return the phase's figures."""
    for u in units:
        if hasattr(u, "socks") and hasattr(u, "cookies"):  # Lair table: fresh bookkeeping
            u.games, u.game = [], clients.Game(len(u.socks))
        else:
            u.game = clients.Game(u.game.n)
    window.errors, window.views, window.view_bytes = Counter(), 0, 0
    window.sent = window.acked = 0
    window.mode, window.start, window.end = mode, float("inf"), float("inf")
    for u in units:
        if isinstance(u, clients.Room):
            u.kick()
        else:
            for s in u.socks:
                s.maybe_act()
    await asyncio.sleep(warmup)
    spy = profile.start(pid, seconds) if profile else None
    cpu0, pg0, me0, busy0 = cpu_seconds(pid), postgres_cpu(), time.process_time(), machine_busy()
    window.start = clients.now()
    window.end = window.start + seconds
    await asyncio.sleep(seconds)
    cpu1, pg1, me1, busy1 = cpu_seconds(pid), postgres_cpu(), time.process_time(), machine_busy()
    window.mode = "idle"
    await asyncio.sleep(2.0)  # let the last views arrive
    lat, missing, acks = [], 0, 0
    for u in units:
        for g in u.all_games():
            got, miss = g.latencies()
            lat += got
            missing += miss
            acks += g.acks
    busy = (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * (os.cpu_count() or 1) * 100
    # Throughput counts acks received in the window (whenever sent); latency counts actions
    # sent in the window and delivered to every socket by 2 s after it (an overloaded server
    # shows as many actions sent and few delivered: see sent_per_s and undelivered).
    out = {"mode": mode, "seconds": seconds, "actions_per_s": round(window.acked / seconds, 1),
           "sent_per_s": round(window.sent / seconds, 1),
           "acked_of_sent_in_window": acks,
           "latency_action_to_last_view": latency_summary(lat),
           "undelivered_versions": missing, "errors": dict(window.errors),
           "views_per_s": round(window.views / seconds),
           "mean_view_bytes": round(window.view_bytes / max(1, window.views)),
           "server_cpu_pct": round((cpu1 - cpu0) / seconds * 100, 1),
           "server_cpu_us_per_action": round((cpu1 - cpu0) / max(window.acked, 1) * 1e6),
           "postgres_cpu_pct_all_dbs": round((pg1 - pg0) / seconds * 100, 1),
           "loadgen_cpu_pct": round((me1 - me0) / seconds * 100, 1),
           "machine_busy_pct_of_%d" % ((os.cpu_count() or 1) * 100): round(busy, 1)}
    if spy is not None:
        out["server_profile"] = profile.finish(spy)
    return out


async def churn(tables: list, pid: int, cycles: int, concurrency: int = 50,
                warmup: int = 200) -> dict:
    """Spectator sockets connect (until their first view), then close: ``warmup`` cycles, then
    ``cycles`` more with RSS at 5 checkpoints (issue 13, item 4: after the warm-up, RSS grows
    less than 1 MB per 1,000 cycles)."""
    import websockets
    done, errors = 0, Counter()
    rng = random.Random(5)

    async def one() -> None:
        nonlocal done
        t = rng.choice(tables)
        url = f"{t.base.replace('http', 'ws', 1)}/ws/matches/{t.match_id}"
        try:
            async with websockets.connect(url, origin=t.base, max_size=None,
                                          open_timeout=30) as ws:
                await asyncio.wait_for(ws.recv(), 30)
        except Exception as exc:  # noqa: BLE001 - counted
            errors[type(exc).__name__] += 1
        done += 1

    async def run_to(mark: int) -> None:
        while done < mark:
            await asyncio.gather(*(one() for _ in range(min(concurrency, mark - done))))

    start = time.perf_counter()
    before_warmup = round(rss_bytes(pid) / 2**20, 1)
    await run_to(warmup)
    await asyncio.sleep(1.0)
    points = [{"cycles": 0, "rss_mb": round(rss_bytes(pid) / 2**20, 1)}]
    for k in range(1, 6):
        await run_to(warmup + int(cycles * k / 5))
        await asyncio.sleep(1.0)
        points.append({"cycles": done - warmup, "rss_mb": round(rss_bytes(pid) / 2**20, 1)})
    growth = points[-1]["rss_mb"] - points[0]["rss_mb"]
    return {"warmup_cycles": warmup, "cycles": cycles, "seconds": round(time.perf_counter() - start, 1),
            "rss_before_warmup_mb": before_warmup,
            "rss_checkpoints": points, "errors": dict(errors),
            "growth_after_warmup_mb": round(growth, 1),
            "growth_mb_per_1000_cycles": round(growth / max(1, cycles) * 1000, 2),
            "target_met": growth / max(1, cycles) * 1000 < 1.0}


async def idle_maps(base: str, ttl: float) -> dict:
    """Once every socket is closed: poll the server's per-match map sizes
    (``bench/memory_probe.py``) until the service's are empty or 3 TTLs have passed (the sweeper
    frees a match idle for one whole period, so it takes up to 2 TTLs)."""
    start = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        first = (await http.get("/_bench/memory")).json()
        while True:
            now = (await http.get("/_bench/memory")).json()
            waited = time.perf_counter() - start
            service_empty = all(v == 0 for k, v in now.items() if k.startswith("service."))
            if (service_empty and now["hub.conns"] == 0) or waited > 3 * ttl + 5:
                break
            await asyncio.sleep(1)
    return {"ttl_s": ttl, "sockets_closed_maps": first, "after_idle_maps": now,
            "seconds_until_freed": round(waited, 1),
            "service_maps_empty": service_empty, "hub_conns_empty": now["hub.conns"] == 0}


# ----- Lair -------------------------------------------------------------------------------------
async def make_guests(http: httpx.AsyncClient, n: int, sem: asyncio.Semaphore) -> list[str]:
    async def one(i: int) -> str:
        async with sem:
            # An explicit Cookie header keeps the client's jar out (each guest is new).
            r = await http.post("/name", data={"name": f"bot{i}", "next": "/"},
                                headers=form_headers())
            return r.cookies["lair_user"]
    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def run_lair(args, game: str, db_url: str, players: int, profiler: PySpy | None,
                   app: str = "bench.memory_probe:app", root: Path = ROOT,
                   env: dict[str, str] | None = None, play=None) -> dict:
    """One Lair server (``app`` served from the tree ``root``, ``env`` added to its
    environment) on ``db_url``: lobby set-up, sockets, paced and saturation runs (unless
    ``--churn-only``), churn and idle maps when ``args.churn``. ``play``: instead of the paced
    and saturation runs, ``await play(http, base, tables, window, server_pid)`` (a dict merged
    into the figures; ``bench/hardbots.py``). Returns (figures, a sampled spectator view)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server_log = Path(tempfile.gettempdir()) / f"lair-bench-{port}.log"
    # bench/memory_probe.py: the app plus read-only routes (per-match map sizes, bot pool)
    server = start_uvicorn(app,
                           {"DATABASE_URL": db_url, "SECRET_KEY": SECRET_KEY, "BOT_DELAY": "0",
                            "LOG_LEVEL": "WARNING", "MATCH_IDLE_TTL": str(args.idle_ttl),
                            **(env or {})}, port,
                           log=server_log, deflate=args.server_deflate, root=root)
    out: dict = {"players": players, "spectators": args.spectators, "matches": args.matches}
    window = clients.Window()
    window.rate = args.rate
    window.compression = args.compression
    finished = False
    try:
        limits = httpx.Limits(max_connections=32)
        async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
            t0 = time.perf_counter()
            sem = asyncio.Semaphore(16)
            cookies = await make_guests(http, args.matches * players, sem)
            rng = random.Random(11)
            tables = [clients.Table(i, base, cookies[i * players:(i + 1) * players],
                                    args.spectators, window, game, http,
                                    random.Random(rng.random())) for i in range(args.matches)]

            async def create(t):
                async with sem:
                    await t.create_match()
            await asyncio.gather(*(create(t) for t in tables))
            out["setup_seconds"] = round(time.perf_counter() - t0, 1)
            log(f"{game}: {len(tables)} matches created in {out['setup_seconds']} s")
            await asyncio.sleep(1)
            rss0 = rss_bytes(server.pid)
            t0 = time.perf_counter()
            csem = asyncio.Semaphore(64)
            await asyncio.gather(*(t.connect(csem) for t in tables))
            sockets = sum(len(t.socks) for t in tables)
            await asyncio.sleep(2)
            rss1 = rss_bytes(server.pid)
            out["memory"] = {"sockets": sockets, "rss_before_mb": round(rss0 / 2**20, 1),
                             "rss_connected_mb": round(rss1 / 2**20, 1),
                             "kb_per_socket": round((rss1 - rss0) / 1024 / sockets, 1),
                             "connect_seconds": round(time.perf_counter() - t0, 1)}
            log(f"{game}: {sockets} sockets connected in {out['memory']['connect_seconds']} s, "
                f"{out['memory']['kb_per_socket']} KB/socket")
            if play is not None:
                out.update(await play(http, base, tables, window, server.pid))
            elif not args.churn_only:
                out["paced"] = await measure(tables, window, "paced", server.pid, args.warmup,
                                             args.seconds)
                log(f"{game}: paced {brief(out['paced'])}")
                for t in tables[args.sat_matches:]:
                    t.active = False
                out["saturation"] = await measure(tables, window, "saturation", server.pid,
                                                  args.warmup, args.seconds, profiler)
                out["saturation"]["active_matches"] = min(args.sat_matches, len(tables))
                log(f"{game}: saturation {brief(out['saturation'])}")
                out["rss_after_play_mb"] = round(rss_bytes(server.pid) / 2**20, 1)
                for t in tables:
                    t.active = True
            if args.churn:
                out["churn"] = await churn(tables, server.pid, args.churn,
                                           warmup=args.churn_warmup)
                log(f"{game}: churn {out['churn']['rss_checkpoints']} "
                    f"({out['churn']['growth_mb_per_1000_cycles']} MB per 1,000 cycles)")
            sample = window.sample_view()  # of the saturation run (the last measured)
            for t in tables:
                for s in t.socks:
                    s.stop()
            await asyncio.sleep(0.5)
            if args.churn:
                log(f"{game}: every socket closed; waiting for the per-match maps to empty "
                    f"(MATCH_IDLE_TTL {args.idle_ttl} s)")
                out["idle"] = await idle_maps(base, args.idle_ttl)
                log(f"{game}: idle {out['idle']}")
        finished = True
    finally:
        stop(server)
        # Keep the server's log only when something other than a typed refusal happened.
        codes = {c for k in ("paced", "saturation", "hard_bots")
                 for c in out.get(k, {}).get("errors", {})}
        if codes - {"stale"} or not finished:
            out["server_log"] = str(server_log)
        else:
            server_log.unlink(missing_ok=True)
    return out, sample


async def run_bare(args, players: int, template: Path) -> dict:
    port = free_port()
    server = start_uvicorn("bench.fanout_server:app", {"FANOUT_TEMPLATE": str(template)}, port,
                           deflate=args.server_deflate)
    base = f"http://127.0.0.1:{port}"
    window = clients.Window()
    window.rate = args.rate
    window.compression = args.compression
    out: dict = {}
    try:
        rng = random.Random(13)
        rooms = [clients.Room(i, base, players, args.spectators, window,
                              random.Random(rng.random())) for i in range(args.matches)]
        rss0 = rss_bytes(server.pid)
        sem = asyncio.Semaphore(64)
        await asyncio.gather(*(r.connect(sem) for r in rooms))
        await asyncio.sleep(1)
        sockets = sum(len(r.socks) for r in rooms)
        out["kb_per_socket"] = round((rss_bytes(server.pid) - rss0) / 1024 / sockets, 1)
        out["paced"] = await measure(rooms, window, "paced", server.pid, args.warmup,
                                     args.seconds)
        for r in rooms[args.sat_matches:]:
            r.active = False
        out["saturation"] = await measure(rooms, window, "saturation", server.pid, args.warmup,
                                          args.seconds)
        for r in rooms:
            for s in r.socks:
                s.stop()
        await asyncio.sleep(0.5)
    finally:
        stop(server)
    return out


def brief(p: dict) -> str:
    lat = p["latency_action_to_last_view"]
    return (f"{p['actions_per_s']} actions/s (of {p['sent_per_s']} sent/s), p50/p95/p99 {lat['p50_ms']}/{lat['p95_ms']}/"
            f"{lat['p99_ms']} ms, errors {p['errors'] or 0}, undelivered "
            f"{p['undelivered_versions']}, server CPU {p['server_cpu_pct']} % = "
            f"{p['server_cpu_us_per_action']} µs/action, "
            f"load gen CPU {p['loadgen_cpu_pct']} %")


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


# ----- main --------------------------------------------------------------------------------------
async def main_async(args) -> dict:
    started = datetime.now(timezone.utc)
    result: dict = {"started_utc": started.isoformat(timespec="seconds"),
                    "machine": machine_info(), "args": vars(args), "games": {}}
    async with AsyncExitStack() as cleanup:
        dsn, db_url = await cleanup.enter_async_context(fresh_database(args.pg))
        tmp = Path(tempfile.mkdtemp(prefix="lair-bench-"))
        cleanup.callback(shutil.rmtree, tmp, ignore_errors=True)
        profiler = PySpy(tmp) if args.server_profile else None
        games = GAMES if args.game == "all" else [args.game]
        concurrency = min(args.sat_matches, args.matches, 40)  # Lair's pool: 20 + 20 overflow
        state_bytes = 20000
        if args.churn_only:  # issue 13, item 4: only the connect/close cycles and idle maps
            for game in games:
                players = players_for(args, game)
                result["games"][game] = {"lair": (await run_lair(args, game, db_url, players,
                                                                 None))[0]}
            games = []
        for game in games:
            players = players_for(args, game)
            log(f"{game}: engine profile ({players} players + 1 spectator view per action)")
            prof = profile_game(game, players, args.profile_actions)
            state_bytes = max(state_bytes, prof["mean_state_bytes"])
            result["games"][game] = {"engine": prof}
            log(f"{game}: engine µs/action {prof['us_per_action']}")
        if games:
            log(f"raw PostgreSQL commits at concurrency {concurrency}")
            result["postgres_raw"] = await pgcommit.measure(dsn, concurrency, args.pg_seconds,
                                                            state_bytes=state_bytes)
            raw = result["postgres_raw"]["single_row"]["commits_per_s"]
            log(f"raw commits/s: single row {raw}, update+insert "
                f"{result['postgres_raw']['update_insert']['commits_per_s']}")
        for game in games:
            entry = result["games"][game]
            players = entry["engine"]["players"]
            entry["lair"], sample = await run_lair(args, game, db_url, players, profiler)
            template = tmp / f"{game}.json"
            template.write_bytes(sample or b'{"pad": "' + b"x" * 20000 + b'"}')
            log(f"{game}: bare fan-out ({len(sample or b'')} bytes view template)")
            entry["bare"] = await run_bare(args, players, template)
            log(f"{game}: bare paced {brief(entry['bare']['paced'])}")
            log(f"{game}: bare saturation {brief(entry['bare']['saturation'])}")
            lair, bare = entry["lair"], entry["bare"]
            entry["ratios"] = {
                "saturation_actions_over_raw_commits": ratio(
                    lair["saturation"]["actions_per_s"], raw),
                "saturation_actions_over_bare_rounds": ratio(
                    lair["saturation"]["actions_per_s"], bare["saturation"]["actions_per_s"]),
                "paced_p99_over_bare_p99": ratio(
                    lair["paced"]["latency_action_to_last_view"]["p99_ms"],
                    bare["paced"]["latency_action_to_last_view"]["p99_ms"]),
                # CPU-based (robust when other processes share the machine): the share of
                # Lair's server CPU per action that the bare sending of the same views costs.
                "bare_cpu_per_round_over_lair_cpu_per_action": ratio(
                    bare["saturation"]["server_cpu_us_per_action"],
                    lair["saturation"]["server_cpu_us_per_action"]),
                "saturation_p99_over_bare_p99": ratio(
                    lair["saturation"]["latency_action_to_last_view"]["p99_ms"],
                    bare["saturation"]["latency_action_to_last_view"]["p99_ms"]),
            }
            log(f"{game}: ratios {entry['ratios']}")
    result["wall_seconds"] = round((datetime.now(timezone.utc) - started).total_seconds())
    return result


def machine_info() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")),
               "?")
    mem = Path("/proc/meminfo").read_text().split("\n", 1)[0].split()[1]
    return {"cpus": os.cpu_count(), "cpu_model": cpu, "mem_gb": round(int(mem) / 2**20, 1),
            "python": sys.version.split()[0], "loadavg_at_start": os.getloadavg(),
            "note": "load generator, server and PostgreSQL share these cores; other users' "
                    "processes may run too (see loadavg_at_start)"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="all", choices=["all", *GAMES])
    parser.add_argument("--matches", type=int, help="connected matches (default 40; --full 1000)")
    parser.add_argument("--sat-matches", type=int, help="matches playing in the saturation run "
                        "(the others stay connected; default 40)")
    parser.add_argument("--players", type=int, default=4, help="per match (clamped per game)")
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--rate", type=float, default=1.0, help="paced: actions/s per match")
    parser.add_argument("--seconds", type=float, help="measured seconds per phase (6; --full 30)")
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--churn", type=int, help="connect/disconnect cycles per game (300; --full 10000)")
    parser.add_argument("--churn-warmup", type=int, default=200,
                        help="connect/disconnect cycles before the churn's first RSS reading")
    parser.add_argument("--churn-only", action="store_true", help="only connect the matches, "
                        "run the churn cycles and wait for the per-match maps to empty")
    parser.add_argument("--idle-ttl", type=float, default=10.0,
                        help="the server's MATCH_IDLE_TTL (s) for the idle-maps check")
    parser.add_argument("--profile-actions", type=int, default=300,
                        help="engine profile length (~one whole match)")
    parser.add_argument("--pg-seconds", type=float, default=3)
    parser.add_argument("--no-deflate", dest="compression", action="store_const", const=None,
                        default="deflate", help="clients do not offer permessage-deflate "
                        "(browsers do, and uvicorn accepts it)")
    parser.add_argument("--server-deflate", action="store_true",
                        help="the servers accept permessage-deflate (off by default, as in "
                        "`make run` and the container: it cost a third of the server's CPU)")
    parser.add_argument("--no-server-profile", dest="server_profile", action="store_false")
    parser.add_argument("--full", action="store_true", help="the issue's targets: 1,000 matches "
                        "x (4 players + 2 spectators), 30 s phases, 10,000 churn cycles")
    parser.add_argument("--pg", default=os.environ.get(
        "LAIR_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    parser.add_argument("--ab", metavar="COMMIT", help="A/B mode (bench/ab.py): COMMIT's server "
                        "against this tree's, alternately, paced + saturation only")
    parser.add_argument("--ab-rounds", type=int, default=3,
                        help="A/B: rounds per game, each one run of old then one of new")
    parser.add_argument("--ab-profile", action="store_true",
                        help="A/B: py-spy on each side's server in the last round's saturation")
    parser.add_argument("--hard-bots", type=int, default=0, metavar="N",
                        help="hard-bots mode (bench/hardbots.py): the paced phase without and "
                        "with N matches of hard bots thinking beside the tables, same server")
    parser.add_argument("--hard-rounds", type=int, default=2,
                        help="hard-bots mode: rounds per game (without/with, then with/without)")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with the size defaults filled in (``--full``; ``--ab`` and
    ``--hard-bots``: no churn, idle, bare or profile runs; ``--ab-rounds`` and ``--hard-rounds``
    at least 1). Exits (status 2) on a combination it cannot run."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.ab and args.churn_only:
        parser.error("--ab measures paced and saturation runs: not with --churn-only")
    if args.ab_rounds < 1:
        parser.error("--ab-rounds must be at least 1")
    if args.hard_bots < 0 or args.hard_rounds < 1:
        parser.error("--hard-bots must be at least 0 and --hard-rounds at least 1")
    if args.hard_bots and (args.ab or args.churn_only):
        parser.error("--hard-bots measures paced phases only: not with --ab or --churn-only")
    args.matches = args.matches or (1000 if args.full else 40)
    args.sat_matches = args.sat_matches or min(args.matches, 40)
    args.seconds = args.seconds or (30 if args.full else 6)
    args.churn = args.churn if args.churn is not None else (10000 if args.full else 300)
    if args.ab or args.hard_bots:
        args.churn = 0
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    raise_fd_limit()
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    if args.ab:
        from bench import ab
        result = asyncio.run(ab.main_async(args))
        summary, prefix = ab.print_summary, "ab-"
    elif args.hard_bots:
        from bench import hardbots
        result = asyncio.run(hardbots.main_async(args))
        summary, prefix = hardbots.print_summary, "hardbots-"
    else:
        result = asyncio.run(main_async(args))
        summary, prefix = print_summary, ""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{prefix}{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%SZ')}.json"
    path.write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    summary(result)
    print(f"written: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def print_summary(r: dict) -> None:
    m = r["machine"]
    deflate = r['args']['compression'] and r['args'].get('server_deflate')
    print(f"\n== Lair bench ({'deflate' if deflate else 'no deflate'}): {m['cpus']} CPUs ({m['cpu_model']}), load avg at start "
          f"{m['loadavg_at_start'][0]:.1f}, {r['wall_seconds']} s ==")
    if r["args"]["churn_only"]:
        for game, e in r["games"].items():
            print_churn(game, e["lair"])
        return
    pg = r["postgres_raw"]
    print(f"raw PostgreSQL at concurrency {pg['single_row']['concurrency']}: "
          f"{pg['single_row']['commits_per_s']} single-row commits/s "
          f"(p99 {pg['single_row']['p99_ms']} ms), {pg['update_insert']['commits_per_s']} "
          f"UPDATE+INSERT transactions/s")
    for game, e in r["games"].items():
        lair, bare, eng = e["lair"], e["bare"], e["engine"]
        print(f"\n{game}: {lair['matches']} matches x ({lair['players']} players + "
              f"{lair['spectators']} spectators)")
        print(f"  engine per action: {eng['us_per_action']} µs, views {eng['mean_view_bytes']} B")
        for mode in ("paced", "saturation"):
            print(f"  Lair {mode:10s} {brief(lair[mode])}")
            print(f"  bare {mode:10s} {brief(bare[mode])}")
        mem = lair["memory"]
        print(f"  memory: {mem['kb_per_socket']} KB/socket ({mem['sockets']} sockets; bare "
              f"server {bare['kb_per_socket']} KB/socket)")
        print_churn(game, lair)
        print(f"  ratios: {e['ratios']}")


def print_churn(game: str, lair: dict) -> None:
    """The churn figures and the idle-maps check of one game (issue 13, item 4)."""
    if "churn" in lair:
        c = lair["churn"]
        print(f"  {game} churn: {c['warmup_cycles']} warm-up + {c['cycles']} cycles, RSS MB "
              f"{c['rss_before_warmup_mb']} before, then {[p['rss_mb'] for p in c['rss_checkpoints']]}"
              f": {c['growth_mb_per_1000_cycles']} MB per 1,000 cycles after the warm-up "
              f"(target < 1: {'met' if c['target_met'] else 'NOT met'}); errors {c['errors']}")
    if "idle" in lair:
        i = lair["idle"]
        print(f"  {game} idle maps (TTL {i['ttl_s']} s): sockets closed {i['sockets_closed_maps']}"
              f" -> after {i['seconds_until_freed']} s {i['after_idle_maps']} (service maps "
              f"{'empty' if i['service_maps_empty'] else 'NOT empty'})")


if __name__ == "__main__":
    main()
