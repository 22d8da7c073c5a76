"""A/B load benchmark (``bench/load.py --ab <commit>``, issue 16): another commit's server
against the current tree's, alternately, in one run.

    .venv/bin/python bench/load.py --ab adc4b1c                      # 3 games x 3 rounds
    .venv/bin/python bench/load.py --ab adc4b1c --game covil --ab-rounds 5 --seconds 8

Sides: ``old`` is ``<commit>`` exported with ``git archive`` into a temporary directory, ``new``
is the current tree (this checkout, uncommitted changes included). Each side gets its own fresh
PostgreSQL database, migrated by its own ``alembic upgrade head``, and is served with its own
code (cwd and ``PYTHONPATH`` = its tree) as ``app.main:app``, with the same environment. Per game
and round, old then new: a **fresh server process** per run (``load.run_lair``: lobby set-up,
every socket connected, a paced and a saturation phase; no churn, idle, bare or profile runs),
on the side's database (kept across rounds and games; both sides accumulate the same rows).
Figures per run: server CPU µs per action (paced, saturation) and saturation actions/s; per
game the medians per side and the ratios new ÷ old, flagged outside ±10 %. The CSRF tokens the
load generator makes (``bench.common.form_headers``, the current tree's ``app.web.csrf``) are
checked against each side's own module before any server starts.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The figures compared per run: (key, phase, field, which way is better; None: not judged).
#: The server's CPU share in saturation is shown, not judged: on a shared machine it is what
#: the scheduler gave the server, and saturation actions/s ≈ that share ÷ CPU per action.
FIGURES = [("paced_cpu_us_per_action", "paced", "server_cpu_us_per_action", "lower"),
           ("sat_cpu_us_per_action", "saturation", "server_cpu_us_per_action", "lower"),
           ("sat_actions_per_s", "saturation", "actions_per_s", "higher"),
           ("sat_server_cpu_pct", "saturation", "server_cpu_pct", None)]
#: A ratio new ÷ old outside 1 ± TOLERANCE is flagged (issue 16: "within 10 %").
TOLERANCE = 0.10

#: Run in a side's tree: the names and tokens of its own CSRF and identity modules (the old
#: commit has ``app/csrf.py``, the new ``app/web/csrf.py``), as JSON on stdout.
_CSRF_PROBE = """
import json, sys
try:
    from app.web import csrf
except ImportError:
    from app import csrf
from app import identity
from app.settings import Settings
settings = Settings(secret_key=sys.argv[1])
user = identity._serializer(settings).dumps("ab-probe-user")
pre = "p" * 32
print(json.dumps({"module": csrf.__name__, "header": csrf.HEADER.lower(),
                  "pre_cookie": csrf.PRE_COOKIE, "user_cookie": identity.COOKIE,
                  "user_value": user, "pre_value": pre,
                  "user_token": csrf.token_for({identity.COOKIE: user}, settings),
                  "pre_token": csrf.token_for({csrf.PRE_COOKIE: pre}, settings)}))
"""


@dataclass
class Side:
    """One side of the comparison: ``label`` ("old"/"new"), ``ref`` (commit hash or
    "working tree"), the source ``root`` it is served from, its database."""

    label: str
    ref: str
    root: Path
    db_name: str = ""
    db_url: str = ""


def export_commit(commit: str, dest: Path, repo: Path = ROOT) -> str:
    """Extract the tree of ``commit`` (any revision git understands) into ``dest`` (created)
    with ``git archive``; return the full commit hash. Raises ValueError for an unknown
    revision. The repository's worktrees and refs are not touched."""
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                           cwd=repo, capture_output=True, text=True)
    if found.returncode != 0:
        raise ValueError(f"not a commit in {repo}: {commit!r}")
    sha = found.stdout.strip()
    tar = subprocess.run(["git", "archive", "--format=tar", sha], cwd=repo,
                         capture_output=True, check=True).stdout
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")
    return sha


def csrf_probe(root: Path, secret_key: str) -> dict:
    """The CSRF/identity names and tokens of the tree at ``root`` (see ``_CSRF_PROBE``)."""
    done = subprocess.run([sys.executable, "-c", _CSRF_PROBE, secret_key], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def tokens_accepted(probe: dict) -> list[str]:
    """What the load generator's headers (``bench.common.form_headers``, this tree's modules)
    would get wrong against the side ``probe`` describes; empty when its tokens are the side's."""
    from bench.common import form_headers

    problems = []
    for kind, cookie in (("user", probe["user_cookie"]), ("pre", probe["pre_cookie"])):
        value = probe[f"{kind}_value"]
        sent = form_headers(value) if kind == "user" else form_headers(pre=value)
        header = {k.lower(): v for k, v in sent.items()}
        if header.get("cookie") != f"{cookie}={value}":
            problems.append(f"{kind} cookie: sent {header.get('cookie')!r}, side reads {cookie}")
        if header.get(probe["header"]) != probe[f"{kind}_token"]:
            problems.append(f"{kind} token: sent {header.get(probe['header'])!r}, side expects "
                            f"{probe[f'{kind}_token']!r} in {probe['header']}")
    return problems


def figures(run: dict) -> dict:
    """The compared figures of one ``run_lair`` result (None when a phase is missing)."""
    return {key: run.get(phase, {}).get(field) for key, phase, field, _ in FIGURES}


def compare(rounds: list[dict]) -> dict:
    """``rounds``: ``[{"old": figures, "new": figures}, ...]`` of one game. Returns the medians
    per side, the ratios new ÷ old and the judged figures outside 1 ± TOLERANCE (``flagged``),
    each flag saying whether new is worse or better there."""
    med = {}
    for label in ("old", "new"):
        med[label] = {}
        for key, *_ in FIGURES:
            values = [r[label][key] for r in rounds if r.get(label, {}).get(key) is not None]
            med[label][key] = statistics.median(values) if values else None
    ratios, flagged = {}, {}
    for key, _, _, better in FIGURES:
        a, b = med["old"][key], med["new"][key]
        ratios[key] = round(b / a, 3) if a and b is not None else None
        r = ratios[key]
        if better and r is not None and abs(r - 1) > TOLERANCE:
            worse = r < 1 if better == "higher" else r > 1
            flagged[key] = "new worse" if worse else "new better"
    return {"median": med, "ratio_new_over_old": ratios, "flagged": flagged}


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


async def main_async(args) -> dict:
    """The whole A/B run (see the module docstring); returns the result written to
    ``bench/results/ab-<time>.json``."""
    from bench import load
    from bench.common import SECRET_KEY, fresh_database
    from bench.server_profile import PySpy

    started = datetime.now(timezone.utc)
    tmp = Path(tempfile.mkdtemp(prefix="lair-ab-"))
    old_sha = export_commit(args.ab, tmp / "old")
    new_ref = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "app", "engines",
                            "migrations", "templates"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    sides = [Side("old", old_sha, tmp / "old"),
             Side("new", new_ref + (" + uncommitted changes" if dirty else ""), ROOT)]
    games = load.GAMES if args.game == "all" else [args.game]
    result: dict = {"kind": "ab", "started_utc": started.isoformat(timespec="seconds"),
                    "machine": load.machine_info(), "args": vars(args),
                    "sides": {}, "server_per": "round (a fresh process per run)",
                    "games": {}}
    profiler = PySpy(tmp) if args.ab_profile else None
    async with AsyncExitStack() as cleanup:  # the databases dropped, then the exports removed
        cleanup.callback(shutil.rmtree, tmp, ignore_errors=True)
        for side in sides:
            probe = csrf_probe(side.root, SECRET_KEY)
            problems = tokens_accepted(probe)
            if problems:
                raise SystemExit(f"{side.label} ({side.ref}): the load generator's CSRF "
                                 f"headers would be refused: {problems}")
            dsn, side.db_url = await cleanup.enter_async_context(
                fresh_database(args.pg, f"lair_ab_{side.label}", side.root))
            side.db_name = dsn.rsplit("/", 1)[1]
            result["sides"][side.label] = {"ref": side.ref, "root": str(side.root),
                                           "csrf_module": probe["module"]}
            _log(f"{side.label}: {side.ref} at {side.root}, migrated {side.db_name}, CSRF "
                 f"tokens of {probe['module']} match the load generator's")
        for game in games:
            players = load.players_for(args, game)
            entry: dict = {"players": players, "rounds": []}
            result["games"][game] = entry
            for i in range(args.ab_rounds):
                row: dict = {}
                for side in sides:
                    last = i == args.ab_rounds - 1
                    if profiler:
                        profiler.root = side.root
                    run, _ = await load.run_lair(
                        args, game, side.db_url, players, profiler if last else None,
                        app="app.main:app", root=side.root)
                    row[side.label] = {**figures(run), "run": run}
                    f = figures(run)
                    _log(f"{game} round {i + 1}/{args.ab_rounds} {side.label}: "
                         f"CPU µs/action paced {f['paced_cpu_us_per_action']}, saturation "
                         f"{f['sat_cpu_us_per_action']}; saturation {f['sat_actions_per_s']} "
                         f"actions/s; errors {run.get('saturation', {}).get('errors')}")
                entry["rounds"].append(row)
            entry.update(compare(entry["rounds"]))
            _log(f"{game}: ratios new/old {entry['ratio_new_over_old']} "
                 f"flagged {entry['flagged'] or 'none'}")
    result["wall_seconds"] = round((datetime.now(timezone.utc) - started).total_seconds())
    return result


def print_summary(r: dict) -> None:
    m = r["machine"]
    print(f"\n== Lair A/B: old {r['sides']['old']['ref'][:10]} vs new "
          f"{r['sides']['new']['ref'][:10]}{'+' if 'uncommitted' in r['sides']['new']['ref'] else ''}"
          f" — {m['cpus']} CPUs, load avg at start {m['loadavg_at_start'][0]:.1f}, "
          f"{r['wall_seconds']} s; a fresh server per run ==")
    a = r["args"]
    print(f"{a['matches']} matches ({a['sat_matches']} in saturation), {a['seconds']} s phases, "
          f"{a['ab_rounds']} rounds per game (old, new alternately); medians; ratio = new ÷ old "
          f"(* outside ±{TOLERANCE:.0%})")
    for game, e in r["games"].items():
        print(f"\n{game} ({e['players']} players + {a['spectators']} spectators):")
        for key, *_ in FIGURES:
            old, new = e["median"]["old"][key], e["median"]["new"][key]
            ratio = e["ratio_new_over_old"][key]
            flag = f"  * {e['flagged'][key]}" if key in e["flagged"] else ""
            per_round = ", ".join(f"{row['old'][key]}/{row['new'][key]}" for row in e["rounds"])
            print(f"  {key:26s} old {old!s:>8} new {new!s:>8} ratio {ratio!s:>6}{flag}"
                  f"   (per round old/new: {per_round})")
