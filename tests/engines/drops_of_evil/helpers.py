"""Position builders for the Drops of Evil rule tests."""
from __future__ import annotations

from engines.base import clone
from engines.drops_of_evil import ENGINE
from engines.drops_of_evil.data import POOL_TYPES


def new_game(players: int = 2, side: str = "A", seed: int = 1) -> dict:
    return ENGINE.setup(players, {"side": side} if players == 2 else {}, seed)


def brewing_state(pool: dict | None = None, seat: int = 0, players: int = 2, **alch) -> dict:
    """A Brewing Phase where only ``seat`` still acts, with the given pool and Alchilab fields."""
    s = new_game(players)
    s["phase"] = "brewing"
    s["pawns"] = {}
    s["done"] = [True] * players
    s["done"][seat] = False
    a = s["alch"][seat]
    a["pool"] = {t: 0 for t in POOL_TYPES}
    a["pool"].update(pool or {})
    a.update(alch)
    for t, n in (pool or {}).items():     # keep the conservation ledger exact
        s["extra"][t] += n
    return s


def act(state: dict, seat: int, action: dict) -> dict:
    new, _ = ENGINE.apply(state, seat, action)
    return new


def legal_types(state: dict, seat: int) -> set[str]:
    return {a["type"] for a in ENGINE.legal_actions(state, seat)}


def copy(state: dict) -> dict:
    return clone(state)
