"""Game setup and small state helpers (rulebook "Setup").

State shape (all JSON)::

    {"rng", "log", "players", "board": "small-A", "round": 1..3,
     "phase": "placement" | "brewing" | "income" | "end",
     "order": [seat, ...],              # Turn Order Track, first player first
     "turn": int, "acted": bool,        # Placement: index in order; pawn placed this turn
     "bag": [type, ...],                # order hidden
     "forest": {gid: {type: n}}, "pawns": {space: [seat, pawn]},
     "worms": int,                      # general Worm supply
     "assistants": [assistant id per Assistant space a-1..],
     "recipes": [[recipe id, ingredient], [..]],
     "layout": {slot: token},           # Bonus token layout copied to every Alchilab
     "initial": {type: n}, "extra": {type: n}, "discard": {type: n},   # conservation ledger
     "alch": [alchilab per seat], "done": [bool per seat], "income_wait": [seat, ...],
     "final": null | {"scores": {seat: n}, "breakdown": {seat: {label: n}}}}

Alchilab::

    {"score", "pool": {type: n}, "cheese", "wtok": {"worm1": n, "worm2": n}, "free", "captured",
     "tox": {type: value}, "scrolls": [res, ...], "brewer": {cell: res},
     "fresh": [cell, ...],              # placed this Brewing Phase, not locked by a Bonus token
     "new": [cell, ...],                # placed this Brewing Phase (for the Re-Brewer)
     "dist": n, "dlock": n,             # Mushrooms in the Distiller; how many are locked
     "xpool": {type: n},                # of the pool: Extra Resources gained this Brewing
                                        # Phase (optional: "You may place ..."; issue 15 #12)
     "xcells": [cell, ...],             # this phase's Brewer cells filled from "xpool"
     "xmush": [n, ...],                 # this phase's Mushrooms (the n-th) from "xpool"
     "taken": [slot, ...], "pending": [frame, ...], "home": [pawn, ...],
     "asst": null | "a-2", "asst_used": bool, "rat_tamer": bool}
"""
from __future__ import annotations

from engines.base import Rng, event, seed_state

from .data import (
    ASSISTANTS,
    B_SCROLL_SLOTS,
    BAG_TYPES,
    BOARDS,
    BONUS,
    COMPONENTS,
    D_SCROLL_SLOTS,
    E_SLOTS,
    EXTRA_TOKENS,
    NAMES,
    PAWNS,
    POOL_TYPES,
    RECIPES,
    TOXICITY,
    board_name,
)


def new_alchilab() -> dict:
    """A fresh Alchilab (rulebook Setup: pawns home, Toxicity tokens on their start values)."""
    return {"score": 0, "pool": {t: 0 for t in POOL_TYPES}, "cheese": 0,
            "wtok": {"worm1": 0, "worm2": 0}, "free": 0, "captured": 0,
            "tox": dict(TOXICITY["start"]), "scrolls": [], "brewer": {}, "fresh": [], "new": [],
            "dist": 0, "dlock": 0, "xpool": {}, "xcells": [], "xmush": [],
            "taken": [], "pending": [], "home": list(PAWNS),
            "asst": None, "asst_used": False, "rat_tamer": False}


def draw(state: dict) -> str | None:
    """Draw one Resource from the bag (the bag is kept shuffled; the last element is drawn)."""
    return state["bag"].pop() if state["bag"] else None


def add_to_space(state: dict, gid: str, res: str) -> None:
    space = state["forest"].setdefault(gid, {})
    space[res] = space.get(res, 0) + 1


def setup_state(players: int, side: str, seed: int) -> dict:
    """Rulebook Setup, in its order. Returns the initial state (Placement Phase of round 1)."""
    rng = Rng(seed_state(seed))
    name = board_name(players, side)
    board = BOARDS[name]
    removal = COMPONENTS["removal"][players]
    initial = {t: COMPONENTS["resources"][t] - removal.get(t, 0) for t in BAG_TYPES}
    bag = [t for t in BAG_TYPES for _ in range(initial[t])]
    rng.shuffle(bag)
    state: dict = {"board": name, "round": 1, "phase": "placement", "turn": 0, "acted": False,
                   "bag": bag, "forest": {}, "pawns": {}, "worms": COMPONENTS["resources"]["worm"],
                   "log": []}
    for gid in board["gathering_ids"]:
        add_to_space(state, gid, draw(state))
    ids = rng.shuffled(sorted(ASSISTANTS))
    state["assistants"] = ids[:COMPONENTS["assistants_revealed"][players]]
    rids = rng.shuffled(sorted(RECIPES))[:2]
    ings = rng.shuffled(COMPONENTS["recipe_ingredients"])[:2]
    state["recipes"] = [[r, i] for r, i in zip(rids, ings)]
    state["order"] = rng.shuffled(range(players))
    # The first player's Bonus token layout, copied to every Alchilab.
    layout = dict(zip(E_SLOTS, rng.shuffled(EXTRA_TOKENS)))
    d_scrolls = rng.shuffled(BONUS["scrolls"]["distiller"])
    b_scrolls = rng.shuffled(BONUS["scrolls"]["brewer"])
    layout.update({s: f"scroll-{r}" for s, r in zip(D_SCROLL_SLOTS, d_scrolls[1:])})
    layout.update({s: f"scroll-{r}" for s, r in zip(B_SCROLL_SLOTS, b_scrolls[1:])})
    state["layout"] = layout
    state["discarded_scrolls"] = {"distiller": d_scrolls[0], "brewer": b_scrolls[0]}
    state["initial"] = {**initial, "worm": COMPONENTS["resources"]["worm"]}
    state["extra"] = {t: 0 for t in POOL_TYPES + ["rat"]}
    state["discard"] = {t: 0 for t in POOL_TYPES + ["rat"]}
    state["alch"] = [new_alchilab() for _ in range(players)]
    state["done"] = [False] * players
    state["income_wait"] = []
    state["final"] = None
    state["rng"] = rng.state
    order = ", ".join(f"Player {s + 1}" for s in state["order"])
    state["log"].append(event(f"Setup: turn order {order}; Recipes "
                              + " and ".join(f"{RECIPES[r]['name']} ({NAMES[i]})"
                                             for r, i in state["recipes"]), irreversible=True))
    return state


def find_pawn(state: dict, seat: int, pawn: str) -> str | None:
    """The space holding ``seat``'s ``pawn``, or None."""
    for space, (s, p) in state["pawns"].items():
        if s == seat and p == pawn:
            return space
    return None


def assistant_at(state: dict, space: str) -> str:
    """The Assistant id on Assistant space ``a-<n>``."""
    return state["assistants"][int(space.split("-")[1]) - 1]


def seat_assistant(state: dict, seat: int) -> str | None:
    """Id of the Assistant ``seat`` hired this round and has not used, else None."""
    a = state["alch"][seat]
    if a["asst"] is None or a["asst_used"]:
        return None
    return assistant_at(state, a["asst"])
