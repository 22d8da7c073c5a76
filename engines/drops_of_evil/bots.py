"""Bots: ``greedy`` (one-ply evaluation of every legal action). ``random`` comes from the registry.

The evaluation estimates a seat's final points: completed Vials at current Toxicity, partly
filled Vials and columns in proportion, Income icons for the remaining Income Phases, Recipes as
they score now, Captured Rats, minus Free Rats still to pay.
"""
from __future__ import annotations

from engines.base import Rng

from .alchilab import vial_content
from .data import BOARDS, COLUMN_CELLS, COLUMN_SLOTS, FAMILIARS, ROUNDS, VIAL_CELLS
from .recipes import recipe_points

_RES_VALUE = {"owl": 1.6, "bat": 1.8, "salamander": 2.0, "scorpion": 2.2, "spider": 2.2,
              "mushroom": 1.8, "worm": 0.4, "rat": -1.5}


def _incomes_left(state: dict) -> int:
    """Income Phases still to come, this round's included."""
    return ROUNDS - state["round"] + 1


def brewer_value(state: dict, seat: int, brewer: dict[str, str]) -> float:
    """Heuristic value of a Brewer for ``seat`` (Vials, columns, Recipes in progress)."""
    a = state["alch"][seat]
    tox = a["tox"]
    left = _incomes_left(state)
    v = 0.0
    for vial, cells in VIAL_CELLS.items():
        filled = sum(c in brewer for c in cells)
        if not filled:
            continue
        kind = vial_content(brewer, vial)
        t = tox.get(kind, 1) if kind else 1
        v += t if filled == len(cells) else 0.55 * t * filled / len(cells)
    for col, cells in COLUMN_CELLS.items():
        filled = sum(c in brewer for c in cells)
        slots = [s for s in COLUMN_SLOTS[col] if s not in a["taken"]]
        if not slots:
            continue
        worth = len(slots) * (left + 1.0)
        v += worth if filled == len(cells) else worth * 0.6 * (filled / len(cells)) ** 2
    for rid, ing in state["recipes"]:
        v += recipe_points(rid, brewer, ing)
    return v


def _token_value(state: dict, seat: int, slot: str) -> float:
    token = state["layout"][slot]
    a = state["alch"][seat]
    if token.startswith("scroll-"):
        res = token[7:]
        if res == "rat":
            return 0.5 + a["captured"]
        vials = sum(1 for vv in VIAL_CELLS if vial_content(a["brewer"], vv) == res)
        return 0.5 + vials * (1 + a["scrolls"].count(res))
    return 1.0 if "worm" not in token else 0.2


def _gather_value(state: dict, seat: int, space: str) -> float:
    board = BOARDS[state["board"]]
    pawn = board["kind"][space]
    faster = FAMILIARS[:FAMILIARS.index(pawn)] if pawn in FAMILIARS else []
    claimed = set()
    for sp, (s, p) in state["pawns"].items():
        if p in faster:
            claimed |= set(board["targets"][sp])
    v = 0.0
    for g in board["targets"][space]:
        if g in claimed:
            v += 0.3
            continue
        content = state["forest"].get(g, {})
        v += sum(_RES_VALUE[r] * n for r, n in content.items()) if content else 0.4
    # pawns with many targets are more exposed to theft; a small bias for the faster ones
    return v


# Complex on purpose: the one-ply evaluation's cases per action type sit next to the loop that
# scores them.
def greedy(engine, state: dict, seat: int, rng: Rng) -> dict:  # noqa: C901
    """Pick the legal action with the best one-ply evaluation (ties: random)."""
    acts = engine.legal_actions(state, seat)
    a = state["alch"][seat]
    scored: list[tuple[float, int]] = []
    base = None
    for i, act in enumerate(acts):
        t = act["type"]
        s = 0.0
        if t == "place":
            if act["pawn"] == "coin":
                s = 2.0
            else:
                s = _gather_value(state, seat, act["space"])
        elif t == "seer_put":
            s = 0.0
        elif t == "brew":
            if act["res"] == "mushroom":
                s = 100.0
            else:
                if base is None:
                    base = brewer_value(state, seat, a["brewer"])
                b = dict(a["brewer"])
                b[act["cell"]] = act["res"]
                s = 10.0 + brewer_value(state, seat, b) - base
        elif t == "bonus":
            s = _token_value(state, seat, act["slot"])
        elif t == "cheese":
            s = 200.0
        elif t == "assistant":
            aid = act["assistant"]
            s = 150.0 if aid not in ("AS10", "AS05") else -1.0
            if "rats" in act:
                s += act["rats"]
        elif t == "alternative":
            s = 1.0 if act["gain"] == "cheese" and a["free"] else -5.0
        elif t == "rebrew":
            s = 0.0
        elif t == "cancel":
            s = 1.0
        elif t in ("done", "end_turn", "skip"):
            s = 0.5
        else:   # take_back, spend_worms: never chosen by this bot
            s = -10.0
        scored.append((s, i))
    best = max(s for s, _ in scored)
    return acts[rng.choice([i for s, i in scored if s == best])]


BOTS = {"greedy": greedy}


# ----- the search bot (``hard``: engines.search) ------------------------------------------------
#: Resources in a pool are worth a share of their Resource value until they are brewed.
_POOL_SHARE = 0.8


def estimate(state: dict, seat: int) -> float:
    """Estimated final points of ``seat``: the final score once over; else the Score Track,
    the Brewer's value (:func:`brewer_value`), Resources waiting in the pool, Captured Rats,
    minus Free Rats for the Income Phases to come. Public information only."""
    if state["final"] is not None:
        return float(state["final"]["scores"][str(seat)])
    a = state["alch"][seat]
    v = a["score"] + brewer_value(state, seat, a["brewer"])
    v += _POOL_SHARE * sum(_RES_VALUE[r] * n for r, n in a["pool"].items())
    v += a["captured"] * a["tox"]["rat"] + 0.5 * a["cheese"]
    if not a["rat_tamer"]:
        v -= a["free"] * _incomes_left(state)
    return v


def evaluate(state: dict, seat: int) -> float:
    """Own estimate minus the best other seat's (points)."""
    mine = estimate(state, seat)
    return mine - max(estimate(state, s) for s in range(state["players"]) if s != seat)


def _searchable(engine, state: dict, seat: int) -> bool:
    # Placement (and its Assistants) is where a turn's choice is made; Brewing is a long run of
    # micro-steps (place, take back, done) that the greedy bot finishes in one pass.
    return state["phase"] == "placement"


def _rollout(engine, state: dict, seat: int, actions: list, rng: Rng) -> dict:
    # Placements by the greedy heuristic (no apply: cheap); Brewing and the rest uniformly
    # among actions that are not take-backs (a rollout must not undo).
    if state["phase"] == "placement":
        return greedy(engine, state, seat, rng)
    forward = [a for a in actions if a["type"] != "take_back"]
    return rng.choice(forward or actions)


def _spec():
    # Rollouts to the end of the Placement Phase (greedy placements): measured at 0.05 s a
    # decision, 2 players, against normal: 7 wins of 8 (6 of 8 with twice the depth); without
    # rollouts 0 of 8 (a placed pawn is worth nothing to the evaluation before the Gathering).
    from engines.search import SearchSpec
    return SearchSpec(evaluate=evaluate, scale=3.0, greedy=greedy, searchable=_searchable,
                      rollout=_rollout, depth=24,
                      horizon=lambda state: state["phase"])


SPEC = _spec()
