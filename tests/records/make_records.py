"""Write golden match records: ``python -m tests.records.make_records [game ...]``.

Plays bot matches (greedy against random, seeded) for every player count and variant listed
below and stores ``tests/records/<game>/<name>.json`` with the final state's hash. Re-run it
only when a game's ``version`` is bumped on purpose (docs/design.md, "Golden records").
"""
from __future__ import annotations

import sys
from pathlib import Path

import orjson

from engines import registry
from engines.base import Rng, random_bot
from engines.records import state_hash

HERE = Path(__file__).resolve().parent

#: game -> [(name, players, options, seed)]
CONFIGS: dict[str, list[tuple[str, int, dict, int]]] = {
    "drops_of_evil": [("2p-side-A", 2, {"side": "A"}, 11), ("2p-side-B", 2, {"side": "B"}, 12),
                      ("3p", 3, {}, 13), ("4p", 4, {}, 14)],
    "evil_corp": [("2p", 2, {}, 21), ("3p", 3, {}, 22), ("4p-teams", 4, {}, 23)],
    "covil": [("solo", 1, {}, 31), ("2p", 2, {}, 32), ("3p", 3, {}, 33), ("4p", 4, {}, 34)],
}


def play(game: str, players: int, options: dict, seed: int, max_actions: int = 20000) -> dict:
    """One bot match (even seats greedy, odd seats random); returns its record."""
    engine = registry.get(game)
    # the games' own greedy and the plain random bot (not the levels: records stay as made)
    strong = getattr(engine, "bots", {}).get("greedy", random_bot)
    rng = Rng(seed)
    state = engine.setup(players, options, seed)
    actions = []
    for _ in range(max_actions):
        prompts = engine.prompts(state)
        if not prompts:
            break
        seat = min(s for s in prompts if engine.legal_actions(state, s))
        bot = strong if seat % 2 == 0 else random_bot
        action = bot(engine, state, seat, rng)
        state, _ = engine.apply(state, seat, action)
        actions.append([seat, action])
    assert engine.result(state) is not None, f"{game} {players}p did not finish"
    return {"game": game, "version": engine.version, "players": players, "options": options,
            "seed": seed, "actions": actions, "final_hash": state_hash(state),
            "result": engine.result(state)}


def main(games: list[str]) -> None:
    for game in games or list(CONFIGS):
        if game not in registry.ENGINES:
            print(f"skip {game}: not registered")
            continue
        folder = HERE / game
        folder.mkdir(exist_ok=True)
        for name, players, options, seed in CONFIGS[game]:
            record = play(game, players, options, seed)
            (folder / f"{name}.json").write_bytes(orjson.dumps(record))
            print(f"{game}/{name}: {len(record['actions'])} actions")


if __name__ == "__main__":
    main(sys.argv[1:])
