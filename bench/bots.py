"""Bot strength benchmark (issue 17): seeded bot-only matches, in-process.

    make bots                      # quick: 40 matches per configuration, 0.05 s per decision
    make bots FULL=1               # the issue's targets: 100+ matches, 0.2 s (hours)
    .venv/bin/python bench/bots.py --matches 6 --game covil --budget 0.05
    .venv/bin/python bench/bots.py --iterations 60          # fixed iterations, not time

Configurations per game: 2 players, ``hard`` against ``normal`` (seats alternated: even
matches hard sits first, odd matches second); 3 and 4 players, one ``hard`` (seat rotated)
among ``normal`` bots; Evil Corp. 4 players (two teams): a ``hard`` team against a ``normal``
team. Reported per configuration: hard's win rate (finishing first; a shared first place counts)
with a 95 % Wilson interval, the chance level, and the mean and p99 time of hard's decisions
that had at least two legal actions -- wall time, and the deciding thread's CPU time (the budget
is CPU time: on a shared machine the wall time is several times longer).

Results: printed, written to ``bench/results/bots-<UTC time>.json``, with the Markdown table
for ``bench/README.md``. ``--combine FILE...`` tables chunks of one row run apart (``--first``).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines import levels, registry  # noqa: E402
from engines.base import Rng  # noqa: E402
from engines.search import Budget, decide  # noqa: E402

#: game -> [(label, players, options, hard seats as a function of the match index)]
TEAMS_EC = {4: [[0, 2], [1, 3]]}


def configs(game: str) -> list[tuple[str, int, dict]]:
    """``(label, players, options)`` for a game."""
    engine = registry.get(game)
    out = [("2p", 2, {})]
    for p in (3, 4):
        if engine.min_players <= p <= engine.max_players:
            out.append((f"{p}p" + ("-teams" if p in engine.teams else ""), p, {}))
    return out


def hard_seats(game: str, players: int, index: int) -> list[int]:
    """The seats hard plays in match ``index`` (rotated; a whole team in a team game)."""
    engine = registry.get(game)
    if players in engine.teams:
        teams = engine.teams[players]
        return list(teams[index % len(teams)])
    return [index % players]


def _won(result: dict, seats: list[int]) -> bool:
    """Hard finished first (shared first place counts: the rulebooks' ties)."""
    return bool(set(result["ranks"][0]) & set(seats))


def load_spec(ref: str):
    """A :class:`engines.search.SearchSpec` named ``module:attribute`` (an A/B variant: an
    attribute that is callable is called with the number of players)."""
    import importlib
    mod, _, attr = ref.partition(":")
    return getattr(importlib.import_module(mod), attr)


def play(game: str, players: int, options: dict, seed: int, hard: list[int], budget: Budget,
         max_actions: int = 20000, spec=None) -> dict:
    """One match: ``hard`` seats search with ``budget``, the others play ``normal``.
    ``spec``: the search spec hard uses (default: the game's). Returns ``{"won", "times",
    "cpu", "iterations", "actions", "result"}`` (hard's decisions with >= 2 legal actions:
    wall seconds, CPU seconds of this thread, search iterations)."""
    engine = registry.get(game)
    normal = levels.bots(engine)["normal"]
    spec = spec or levels.spec_of(engine)
    rng = Rng(seed * 7919 + 3)
    state = engine.setup(players, options, seed)
    times: list[float] = []
    cpu: list[float] = []
    iterations: list[int] = []
    n = 0
    for n in range(max_actions):
        prompts = engine.prompts(state)
        if not prompts:
            break
        seat = min(s for s in prompts if engine.legal_actions(state, s))
        if seat in hard:
            many = len(engine.legal_actions(state, seat)) > 1
            t, c = time.perf_counter(), time.thread_time()
            b = Budget(seconds=budget.seconds, iterations=budget.iterations,
                       salt=seed * 1_000_003 + n)
            stats: dict = {}
            action = decide(engine, spec, state, seat, b, stats)
            if many:
                times.append(time.perf_counter() - t)
                cpu.append(time.thread_time() - c)
                iterations.append(stats["iterations"])
        else:
            action = normal(engine, state, seat, rng)
        state, _ = engine.apply(state, seat, action)
    result = engine.result(state)
    if result is None:
        raise RuntimeError(f"{game} {players}p seed {seed}: no result after {max_actions}")
    return {"won": _won(result, hard), "times": times, "cpu": cpu, "iterations": iterations,
            "actions": n, "result": result}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion ``k/n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def p99(xs: list[float]) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, math.ceil(0.99 * len(s)) - 1)]


def run(games: list[str], matches: int, budget: Budget, log=print,
        only: set[str] | None = None, spec_ref: str | None = None, first: int = 0) -> dict:
    """Play every configuration of ``games`` (``only``: these labels; ``spec_ref``: hard's
    search spec as ``module:attribute``, default the game's; matches ``first`` ..
    ``first + matches - 1``); returns the report."""
    rows = []
    for game in games:
        engine = registry.get(game)
        for label, players, options in configs(game):
            if only and label not in only:
                continue
            spec = load_spec(spec_ref) if spec_ref else None
            if callable(spec):
                spec = spec(players)
            wins, times, cpu, iters, t0 = 0, [], [], [], time.perf_counter()
            for i in range(first, first + matches):
                hard = hard_seats(game, players, i)
                out = play(game, players, options, 5000 + i, hard, budget, spec=spec)
                wins += out["won"]
                times += out["times"]
                cpu += out["cpu"]
                iters += out["iterations"]
            lo, hi = wilson(wins, matches)
            chance = 1 / len(engine.teams[players]) if players in engine.teams else 1 / players
            row = {"game": game, "config": label, "players": players, "matches": matches,
                   "hard_wins": wins, "win_rate": wins / matches, "ci95": [lo, hi],
                   "chance": chance, "decisions": len(times),
                   "mean_s": sum(times) / len(times) if times else 0.0, "p99_s": p99(times),
                   "cpu_mean_s": sum(cpu) / len(cpu) if cpu else 0.0, "cpu_p99_s": p99(cpu),
                   "iterations_mean": sum(iters) / len(iters) if iters else 0.0,
                   "wall_s": time.perf_counter() - t0}
            rows.append(row)
            log(f"{game:14} {label:9} hard won {wins:3}/{matches} = {row['win_rate']:.0%} "
                f"[{lo:.0%}, {hi:.0%}] (chance {chance:.0%}); decisions {len(times)}, mean "
                f"{row['mean_s'] * 1000:.0f} ms, p99 {row['p99_s'] * 1000:.0f} ms (CPU "
                f"{row['cpu_mean_s'] * 1000:.0f} / {row['cpu_p99_s'] * 1000:.0f} ms), "
                f"{row['iterations_mean']:.0f} iterations; {row['wall_s']:.0f} s")
    return {"budget": {"seconds": budget.seconds, "iterations": budget.iterations},
            "matches": matches, "first": first, "spec": spec_ref, "rows": rows, "cpus": os.cpu_count(),
            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def combine(reports: list[dict]) -> dict:
    """One report from runs of the same budget and spec over disjoint match ranges (a long
    ``FULL`` row run in chunks: ``--first 100 --matches 10``, ``--first 110`` ...): per game and
    configuration, wins and matches add up and the interval is recomputed; decisions and mean
    times are weighted by decisions; the p99s are the largest of the chunks' (an upper bound:
    the chunks keep no single decision times). ``first`` and ``matches`` list each row's ranges.

    Raises ``ValueError`` when the budgets or specs differ, or two reports share a match of one
    row (the same seed counted twice)."""
    if not reports:
        raise ValueError("nothing to combine")
    budgets = {json.dumps(r["budget"], sort_keys=True) for r in reports}
    specs = {r.get("spec") for r in reports}
    if len(budgets) > 1 or len(specs) > 1:
        raise ValueError(f"different budgets or specs: {sorted(budgets)} {sorted(map(str, specs))}")
    merged: dict[tuple[str, str], dict] = {}
    ranges: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for rep in reports:
        span = (rep["first"], rep["first"] + rep["matches"])
        for row in rep["rows"]:
            key = (row["game"], row["config"])
            for a, b in ranges.get(key, []):
                if span[0] < b and a < span[1]:
                    raise ValueError(f"{key}: matches {span} and {(a, b)} overlap")
            ranges.setdefault(key, []).append(span)
            if key not in merged:
                merged[key] = dict(row)
                continue
            m = merged[key]
            d0, d1 = m["decisions"], row["decisions"]
            for k in ("mean_s", "cpu_mean_s", "iterations_mean"):
                m[k] = (m[k] * d0 + row[k] * d1) / (d0 + d1) if d0 + d1 else 0.0
            for k in ("p99_s", "cpu_p99_s"):
                m[k] = max(m[k], row[k])
            for k in ("matches", "hard_wins", "decisions", "wall_s"):
                m[k] += row[k]
    rows = []
    for key, m in merged.items():
        m["win_rate"] = m["hard_wins"] / m["matches"]
        m["ci95"] = list(wilson(m["hard_wins"], m["matches"]))
        m["ranges"] = sorted(ranges[key])
        rows.append(m)
    total = sorted({r["matches"] for r in rows})
    return {"budget": reports[0]["budget"], "spec": reports[0].get("spec"),
            "matches": total[0] if len(total) == 1 else total, "first": None, "rows": rows,
            "cpus": reports[0].get("cpus"), "combined": len(reports),
            "time": max(r["time"] for r in reports)}


def table(report: dict) -> str:
    """Markdown table of a report."""
    b = report["budget"]
    head = (f"Budget: {b['seconds']} s" if b["seconds"] else f"{b['iterations']} iterations") \
        + f" per decision, {report['matches']} matches per row, {report['time']}.\n\n"
    lines = ["| game | config | hard wins | 95 % interval | chance | decisions | mean (CPU) "
             "| p99 (CPU) |", "|---|---|---|---|---|---|---|---|"]
    for r in report["rows"]:
        lines.append(f"| {r['game']} | {r['config']} | {r['hard_wins']}/{r['matches']} "
                     f"({r['win_rate']:.0%}) | {r['ci95'][0]:.0%}–{r['ci95'][1]:.0%} | "
                     f"{r['chance']:.0%} | {r['decisions']} | {r['mean_s'] * 1000:.0f} ms "
                     f"({r['cpu_mean_s'] * 1000:.0f} ms) | {r['p99_s'] * 1000:.0f} ms "
                     f"({r['cpu_p99_s'] * 1000:.0f} ms) |")
    return head + "\n".join(lines)


def _run_one(job: tuple) -> dict:
    """One game's rows in a worker process (``--jobs``); progress lines go to its stdout."""
    game, matches, budget, only, spec_ref, first = job
    return run([game], matches, budget, log=lambda line: print(line, flush=True), only=only,
               spec_ref=spec_ref, first=first)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    full = os.environ.get("FULL") not in (None, "", "0")
    ap.add_argument("--game", action="append", choices=sorted(registry.ENGINES))
    ap.add_argument("--matches", type=int, default=100 if full else 40)
    ap.add_argument("--budget", type=float, default=0.2 if full else 0.05,
                    help="CPU seconds per hard decision")
    ap.add_argument("--iterations", type=int, default=None,
                    help="fixed iterations per decision instead of a time budget")
    ap.add_argument("--configs", default=None,
                    help="comma-separated labels to run (e.g. 2p,4p-teams); default all")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="games played in parallel processes (default: every core)")
    ap.add_argument("--spec", default=None,
                    help="hard's search spec as module:attribute (an A/B variant; a callable "
                         "is called with the number of players); default the game's")
    ap.add_argument("--first", type=int, default=0,
                    help="index of the first match (seeds 5000 + index)")
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--combine", nargs="+", metavar="FILE",
                    help="print one table from result files of one budget (chunks of a row)")
    args = ap.parse_args(argv)
    if args.combine:
        print(table(combine([json.loads(Path(f).read_text()) for f in args.combine])))
        return
    budget = Budget(seconds=None if args.iterations else args.budget, iterations=args.iterations)
    games = args.game or ["drops_of_evil", "evil_corp", "covil"]
    only = set(args.configs.split(",")) if args.configs else None
    if args.jobs > 1 and len(games) > 1:
        # one process per game (spawned), at most --jobs at once; rows merged in game order
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as ex:
            parts = list(ex.map(_run_one, [(g, args.matches, budget, only, args.spec, args.first)
                                              for g in games]))
        report = dict(parts[0], rows=[r for p in parts for r in p["rows"]])
    else:
        report = run(games, args.matches, budget, only=only, spec_ref=args.spec, first=args.first)
    print()
    print(table(report))
    if not args.no_save:
        out = ROOT / "bench" / "results" / f"bots-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.json"
        out.parent.mkdir(exist_ok=True)
        out.write_text(json.dumps(report, indent=1))
        print(f"\nwritten {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
