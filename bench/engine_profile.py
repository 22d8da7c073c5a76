"""Engine cost per action, per game, measured in-process (no server, no database).

    .venv/bin/python bench/engine_profile.py [--game covil] [--players 4] [--actions 600]

For each game, random bots (legal actions, take-backs excluded) play whole matches with
``players`` seats. Per action it times, separately: ``engine.apply``; the views of every seat and
one spectator as the server builds them after a move (``app.matches.views.build_views``:
engine views + labels + names, the log from the events the sockets already hold on); and
their orjson encoding in the wire form (``app.realtime.protocol.wire_view``, static parts left out). A second pass runs under cProfile and names the functions with
the largest own time ("hot spots"). Returns/prints a dict (shape in ``profile_game``).
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BACKWARD = {"take_back", "cancel", "rebrew", "undo"}


def forward(actions: list[dict]) -> list[dict]:
    """Legal actions without the take-backs (a bot that undoes forever never finishes)."""
    return [a for a in actions if a.get("type") not in BACKWARD] or actions


def _snapshot(game: str, players: int):
    from app.matches.service import SeatInfo, Snapshot
    from app.models import Match

    match = Match(id="bench", game=game, status="active", players=players, host_id="u0",
                  version=0)
    seats = [SeatInfo(i, f"u{i}", f"Player{i}", None) for i in range(players)]
    return Snapshot(match, seats)


def _play(game: str, players: int, actions: int, seed: int, timers: dict | None):
    """Play random matches until ``actions`` actions; fill ``timers`` (seconds) if given."""
    from app.matches.views import Presence, build_views
    from app.realtime.protocol import wire_view
    from engines import registry

    engine = registry.get(game)
    static = engine.static_view_keys
    snap = _snapshot(game, players)
    rng = random.Random(seed)
    done = matches = 0
    view_bytes = 0
    lengths: list[int] = []
    while done < actions:
        state = engine.setup(players, {}, rng.randrange(1 << 30))
        matches += 1
        start = done
        while done < actions and engine.prompts(state):
            seat = rng.choice(sorted(engine.prompts(state)))
            action = rng.choice(forward(engine.legal_actions(state, seat)))
            held = len(state["log"])  # what the sockets hold: they get only the rest
            t0 = time.process_time()
            state, _ = engine.apply(state, seat, action)
            t1 = time.process_time()
            views = list(build_views(engine, snap, state, done + 1, [*range(players), None],
                                     presence=Presence(frozenset(range(players)), 2),
                                     log_from=held).values())
            t2 = time.process_time()
            texts = [orjson.dumps({"type": "view", "view": wire_view(v, 0, static)})
                     for v in views]
            t3 = time.process_time()
            if timers is not None:
                timers["apply"] += t1 - t0
                timers["views"] += t2 - t1
                timers["encode"] += t3 - t2
                timers["state_bytes"] += len(orjson.dumps(state))
            view_bytes += sum(len(t) for t in texts)
            done += 1
        if not engine.prompts(state):
            lengths.append(done - start)
    return done, matches, view_bytes / max(done, 1) / (players + 1), lengths


def profile_game(game: str, players: int, actions: int = 600, top: int = 8) -> dict:
    """``{"game", "players", "actions", "us_per_action": {"apply", "views", "encode", "total"},
    "views_per_action", "mean_view_bytes", "mean_state_bytes", "match_length", "hot_spots":
    [{"function", "own_share", "cum_share", "calls_per_action"}]}``."""
    from engines import registry

    players = max(registry.get(game).min_players, min(players, registry.get(game).max_players))
    _play(game, players, 50, 1, None)  # warm imports and caches
    timers = {"apply": 0.0, "views": 0.0, "encode": 0.0, "state_bytes": 0}
    done, _, view_bytes, lengths = _play(game, players, actions, 2, timers)
    prof = cProfile.Profile()
    prof.enable()
    pdone, _, _, _ = _play(game, players, actions, 3, None)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt or 1e-9
    rows = []
    for (file, line, fn), (cc, nc, tt, ct, _callers) in stats.stats.items():
        rel = file.replace(str(ROOT) + "/", "")
        rows.append((tt, ct, nc, f"{rel}:{line}({fn})"))
    rows.sort(reverse=True)
    hot = [{"function": name, "own_share": round(tt / total, 3), "cum_share": round(ct / total, 3),
            "calls_per_action": round(nc / pdone, 1)} for tt, ct, nc, name in rows[:top]]
    cum = sorted(((ct, name) for tt, ct, nc, name in rows
                  if name.startswith(("engines/", "app/"))), reverse=True)[:top]
    us = {k: round(timers[k] / done * 1e6, 1) for k in ("apply", "views", "encode")}
    us["total"] = round(sum(us.values()), 1)
    return {"game": game, "players": players, "actions": done, "us_per_action": us,
            "views_per_action": players + 1, "mean_view_bytes": round(view_bytes),
            "mean_state_bytes": round(timers["state_bytes"] / done),
            "match_length": round(sum(lengths) / len(lengths)) if lengths else None,
            "hot_spots": hot,
            "hot_spots_cumulative": [{"function": n, "cum_share": round(c / total, 3)}
                                     for c, n in cum]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="all")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=600)
    args = parser.parse_args()
    from engines import registry
    games = list(registry.ENGINES) if args.game == "all" else [args.game]
    for game in games:
        print(orjson.dumps(profile_game(game, args.players, args.actions),
                           option=orjson.OPT_INDENT_2).decode())


if __name__ == "__main__":
    main()
