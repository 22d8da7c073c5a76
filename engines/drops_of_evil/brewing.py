"""Brewing Phase: one simultaneous frame for every seat (rulebook "Brewing Phase", "Bonus Tokens",
"Moving Resources", "Assistants"). Each seat acts independently and ends with ``done``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from engines.base import Rng, event

from .alchilab import (
    add_mushroom,
    back_to_pool,
    brew,
    can_take_back,
    check_column,
    gain_token,
    legal_cells,
    next_mushroom_vial,
    open_vials,
    rebrew_sources,
    rebrew_targets,
    required,
    spend_from_pool,
    take_back_cell,
    use_from_pool,
)
from .data import (
    ALTERNATIVES,
    ASSISTANTS,
    BONUS,
    CELL_POS,
    CELL_VIAL,
    INGREDIENTS,
    NAMES,
    TOX_MAX,
    TOX_TYPES,
    VIAL_CELLS,
    distiller_level,
)
from .fill import fits_all, greedy_placed, max_placed, open_shape, shape, vial_map
from .labels import cell_label
from .setup import draw, seat_assistant

P = "Player {}"


def brewing_assistant_actions(state: dict, seat: int) -> list[dict]:
    """Activations of ``seat``'s unused Brewing-phase Assistant (game-data 3.3.6)."""
    aid = seat_assistant(state, seat)
    if aid is None or ASSISTANTS[aid]["phase"] != "brewing":
        return []
    a = state["alch"][seat]
    base = {"type": "assistant", "assistant": aid}
    if aid == "AS07":
        return [base] if a["pool"]["worm"] else []
    if aid in ("AS08", "AS12"):
        return [base]
    if aid == "AS09":
        return [{**base, "res": r} for r in INGREDIENTS if r != "spider" and a["pool"][r]]
    if aid == "AS10":
        return [{**base, "cell": c} for c in rebrew_sources(a)]
    if aid == "AS11":
        return [{**base, "res": t} for t in TOX_TYPES if a["tox"][t] < TOX_MAX]
    if aid == "AS13":
        if not state["bag"]:
            return []
        return [{**base, "worms": n} for n in range(min(2, a["pool"]["worm"]) + 1)]
    return []


def legal(state: dict, seat: int) -> list[dict]:
    if state["phase"] != "brewing" or state["done"][seat]:
        return []
    a = state["alch"][seat]
    if a["pending"]:
        frame = a["pending"][-1]
        if frame["kind"] == "distiller_bonus":
            return [{"type": "bonus", "slot": s} for s in frame["slots"]]
        return [{"type": "rebrew", "cell": c}
                for c in rebrew_targets(a["brewer"], frame["from"])] + [{"type": "cancel"}]
    brews, complete = _brews(a)
    out = [{"type": "brew", "res": r, "cell": c} for r, c in brews]
    if a["pool"]["mushroom"]:
        out.append({"type": "brew", "res": "mushroom", "cell": next_mushroom_vial(a)})
    out += [{"type": "take_back", "cell": c} for c in a["fresh"] if can_take_back(a, c)]
    if a["dist"] > a["dlock"]:
        out.append({"type": "take_back", "cell": f"d-{distiller_level(a['dist'])}"})
    if a["cheese"] and a["free"]:
        out.append({"type": "cheese"})
    out += [{"type": "spend_worms", "token": t} for t in ("worm1", "worm2") if a["wtok"][t]]
    out += brewing_assistant_actions(state, seat)
    if seat_assistant(state, seat) is not None:
        out += [{"type": "alternative", "gain": g} for g in ALTERNATIVES]
    if complete and not required(a, "mushroom"):
        out.append({"type": "done"})
    return out


def _brews(a: dict) -> tuple[tuple[tuple[str, str], ...], bool]:
    """``(((res, cell), ...), complete)``: the Ingredient placements allowed now, and whether
    the required Ingredients are placed as well as they can be (see :func:`_fill`). Cached by
    the Alchilab's Brewer and pool: in the simultaneous Brewing Phase the other seats' moves
    leave a seat's Alchilab as it was, and every view asks again."""
    key = (tuple(sorted(a["brewer"].items())), tuple(a["fresh"]), tuple(a["xcells"]),
           tuple(a["pool"][r] for r in INGREDIENTS),
           tuple(a["xpool"].get(r, 0) for r in INGREDIENTS))
    return _brews_cached(key)


@lru_cache(maxsize=2048)
def _brews_cached(key: tuple) -> tuple[tuple[tuple[str, str], ...], bool]:
    brewer_items, fresh, xcells, pool, xpool = key
    a = {"brewer": dict(brewer_items), "fresh": list(fresh), "xcells": list(xcells),
         "pool": dict(zip(INGREDIENTS, pool)), "xpool": dict(zip(INGREDIENTS, xpool))}
    vials = open_vials(a["brewer"])
    best, now, keeps = _fill(a)
    brews = tuple((r, c) for r in INGREDIENTS if a["pool"][r]
                  for c in legal_cells(a["brewer"], r, vials) if keeps(r, c))
    return brews, now == best and not any(required(a, r) for r, _ in brews)


def _required_counts(a: dict) -> dict[str, int]:
    return {r: required(a, r) for r in INGREDIENTS if required(a, r)}


def _fill(a: dict) -> tuple[int, int, Callable[[str, str], bool]]:
    """``(best, now, keeps)`` for "You must place all of your Ingredients if possible"
    (rulebook "Placing Ingredients"; issue 15 item 11).

    ``best`` is the most of this phase's required Ingredients (the pool's and those placed this
    phase that can still be taken back; not the optional Extra Resources) that any arrangement
    of them places; ``now`` how many of them are placed: brewing may end only when they are
    equal. ``keeps(res, cell)`` says whether placing ``res`` in ``cell`` still lets ``best`` be
    reached from the arrangement it makes (a placement that would leave another Ingredient
    without the space it had is refused rather than discarded later; an optional Extra
    Resource must not take a required Ingredient's space either). Cost: a greedy check per
    (type, Vial), the exact dynamic programme of ``fill`` only where the greedy one fails;
    both cached by shape."""
    movable = _movable(a)
    fresh = [c for c in movable if c not in a["xcells"]]
    now = len(fresh)
    req = _required_counts(a)
    counts = dict(req)
    for c in fresh:
        counts[a["brewer"][c]] = counts.get(a["brewer"][c], 0) + 1
    if not req:  # every required Ingredient is placed: no arrangement places more
        return now, now, lambda res, cell: True
    fixed = open_shape({c: r for c, r in a["brewer"].items() if c not in movable})
    # No arrangement places more of a type than the room its Vials have: what is beyond it
    # cannot matter (a cheap cut before the exact computation).
    for t in list(req):
        room = sum(f for k, f in fixed if k is None or k == t or t == "spider")
        req[t] = max(0, min(req[t], room - counts[t] + req[t]))
        if not req[t]:
            del req[t]
    if not req:
        return now, now, lambda res, cell: True
    upper = now + sum(req.values())
    current = vial_map(a["brewer"])
    if fits_all(shape(current), req):
        best = upper
    else:
        best = max_placed(fixed, counts)
    seen: dict[tuple[str, str], bool] = {}

    def keeps(res: str, cell: str) -> bool:
        vial = CELL_VIAL[cell]
        if (res, vial) not in seen:
            rest, placed = dict(req), now
            if rest.get(res):
                rest[res] -= 1
                placed += 1
            kind, free = current[vial]
            after = dict(current)
            if free > 1:
                after[vial] = (kind if kind is not None or res == "spider" else res, free - 1)
            else:
                del after[vial]
            if best == upper:
                seen[res, vial] = placed + sum(rest.values()) == upper and \
                    fits_all(shape(after), rest)
            elif placed + sum(rest.values()) < best:
                seen[res, vial] = False
            else:  # a greedy arrangement first (a lower bound), the exact count if it falls short
                key = tuple(sorted((t, n) for t, n in rest.items() if n))
                seen[res, vial] = placed + greedy_placed(shape(after), key) >= best or \
                    placed + max_placed(shape(after), rest) >= best
        return seen[res, vial]

    return best, now, keeps


def _movable(a: dict) -> list[str]:
    """This phase's placements that a rearrangement may move: every fresh cell except, in a
    Vial whose earlier-round Ingredients are all Spiders, one non-Spider (taking it back would
    leave a Spider-only Vial, which take-backs refuse)."""
    pinned = set()
    fresh = set(a["fresh"])
    for vial, cells in VIAL_CELLS.items():
        old = [a["brewer"][c] for c in cells if c in a["brewer"] and c not in fresh]
        if old and all(r == "spider" for r in old):
            pinned |= set(sorted(c for c in cells if c in fresh
                                 and a["brewer"][c] != "spider")[:1])
    return [c for c in a["fresh"] if c not in pinned]


# Complex on purpose: one branch per action type of the brewing phase (rulebook, brewing).
def apply(state: dict, seat: int, action: dict) -> None:  # noqa: C901
    a = state["alch"][seat]
    who = P.format(seat + 1)
    t = action["type"]
    log = state["log"]
    if t == "brew":
        res, cell = action["res"], action["cell"]
        if res == "mushroom":
            if use_from_pool(a, "mushroom"):
                a["xmush"].append(a["dist"] + 1)
            add_mushroom(state, seat)
            log.append(event(f"{who} distills a Mushroom into {cell_label(cell)}"))
            _auto_bonus(state, seat)
        else:
            gains = brew(state, seat, res, cell)
            log.append(event(f"{who} brews {NAMES[res]} into {cell_label(cell)}"))
            if gains:
                log.append(event(f"{who} completes column {CELL_POS[cell][0]}: "
                                 + ", ".join(gains)))
    elif t == "take_back":
        cell = action["cell"]
        if cell.startswith("d-"):
            extra = a["dist"] in a["xmush"]
            if not extra and any(n > a["dlock"] for n in a["xmush"]):
                extra = True  # an optional one stays placed: the one taken back is optional
                a["xmush"].remove(max(n for n in a["xmush"] if n > a["dlock"]))
            elif extra:
                a["xmush"].remove(a["dist"])
            a["dist"] -= 1
            back_to_pool(a, "mushroom", extra)
        else:
            take_back_cell(state, seat, cell)
        log.append(event(f"{who} takes back the Resource in {cell_label(cell)}"))
    elif t == "bonus":
        a["pending"].pop()
        gained = gain_token(state, seat, action["slot"])
        log.append(event(f"{who} takes Distiller Bonus {gained}"))
        _auto_bonus(state, seat)
    elif t == "cheese":
        a["cheese"] -= 1
        a["free"] -= 1
        a["captured"] += 1
        log.append(event(f"{who} captures a Rat with Cheese"))
    elif t == "spend_worms":
        a["wtok"][action["token"]] -= 1
        n = min(BONUS["extra_effects"][action["token"]]["worm_icons"], state["worms"])
        state["worms"] -= n
        a["pool"]["worm"] += n
        log.append(event(f"{who} spends a Worm token: {n} Worm(s)"))
    elif t == "alternative":
        a["asst_used"] = True
        if action["gain"] == "worm":
            if state["worms"]:
                state["worms"] -= 1
                a["pool"]["worm"] += 1
        else:
            a["cheese"] += 1
        log.append(event(f"{who} takes 1 {NAMES[action['gain']]} instead of the Assistant"))
    elif t == "assistant":
        _activate(state, seat, action)
    elif t == "rebrew":
        frame = a["pending"].pop()
        src, dst = frame["from"], action["cell"]
        res = a["brewer"].pop(src)
        a["brewer"][dst] = res
        a["new"].append(dst)
        a["asst_used"] = True
        log.append(event(f"{who} uses Re-Brewer: {NAMES[res]} from {cell_label(src)} "
                         f"to {cell_label(dst)}"))
        gains = check_column(state, seat, CELL_POS[dst][0])
        if gains:
            log.append(event(f"{who} completes column {CELL_POS[dst][0]}: " + ", ".join(gains)))
    elif t == "cancel":
        a["pending"].pop()
    elif t == "done":
        state["done"][seat] = True
        log.append(event(f"{who} is done brewing"))


def _auto_bonus(state: dict, seat: int) -> None:
    """A Distiller Bonus choice with one option only is taken at once (no real choice)."""
    a = state["alch"][seat]
    while a["pending"] and a["pending"][-1]["kind"] == "distiller_bonus":
        frame = a["pending"][-1]
        frame["slots"] = [s for s in frame["slots"] if s not in a["taken"]]
        if len(frame["slots"]) > 1:
            return
        a["pending"].pop()
        if frame["slots"]:
            gained = gain_token(state, seat, frame["slots"][0])
            state["log"].append(event(f"Player {seat + 1} takes Distiller Bonus {gained}"))


def _activate(state: dict, seat: int, action: dict) -> None:
    """Brewing-phase Assistants AS07-AS13 (provisional, game-data 3.3.6)."""
    a = state["alch"][seat]
    aid = action["assistant"]
    who = f"Player {seat + 1} uses {ASSISTANTS[aid]['name']}"
    log = state["log"]
    if aid == "AS10":   # two steps: the target comes with "rebrew"; used once it is moved
        a["pending"].append({"kind": "rebrew", "from": action["cell"],
                             "res": a["brewer"][action["cell"]]})
        return
    a["asst_used"] = True
    if aid == "AS07":
        spend_from_pool(a, "worm")
        state["worms"] += 1
        a["pool"]["spider"] += 1
        state["extra"]["spider"] += 1
        log.append(event(f"{who}: a Worm counts as a Spider"))
    elif aid == "AS08":
        a["cheese"] += 2
        log.append(event(f"{who}: +2 Cheese"))
    elif aid == "AS09":
        res = action["res"]
        spend_from_pool(a, res)
        state["discard"][res] += 1
        state["extra"]["mushroom"] += 1
        add_mushroom(state, seat)
        a["dlock"] = a["dist"]
        log.append(event(f"{who}: {NAMES[res]} distilled as a Mushroom"))
        _auto_bonus(state, seat)
    elif aid == "AS11":
        res = action["res"]
        a["tox"][res] = min(TOX_MAX, a["tox"][res] + 1)
        log.append(event(f"{who}: {NAMES[res]} Toxicity +1"))
    elif aid == "AS12":
        n = min(3, state["worms"])
        state["worms"] -= n
        a["pool"]["worm"] += n
        log.append(event(f"{who}: +{n} Worms"))
    elif aid == "AS13":
        n = action["worms"]
        spend_from_pool(a, "worm", n)
        state["worms"] += n
        rng = Rng(state["rng"])
        rng.shuffle(state["bag"])
        state["rng"] = rng.state
        res = draw(state)
        if res == "rat":
            a["free"] += 1
        else:
            a["pool"][res] += 1
        log.append(event(f"{who}: returns {n} Worm(s), draws {NAMES[res]}", irreversible=True))


def step(state: dict) -> bool:
    """Automatic: a seat whose only legal action is ``done`` is done; when every seat is done,
    discard what is left (unplaceable Ingredients, unused Extra Resources) and go to Income."""
    if state["phase"] != "brewing":
        return False
    for s in range(state["players"]):
        if not state["done"][s] and _only_done(state, s):
            state["done"][s] = True
            return True
    if not all(state["done"]):
        return False
    for s, a in enumerate(state["alch"]):
        left = {r: n for r, n in a["pool"].items() if n}
        for r, n in left.items():
            state["discard"][r] += n
            a["pool"][r] = 0
        if left:
            state["log"].append(event(f"Player {s + 1} discards "
                                      + ", ".join(f"{n} {NAMES[r]}" for r, n in left.items())))
        a["cheese"] = 0
        a["wtok"] = {"worm1": 0, "worm2": 0}
        a["fresh"], a["new"] = [], []
        a["xpool"], a["xcells"], a["xmush"] = {}, [], []
        a["dlock"] = a["dist"]
    state["phase"] = "income"
    state["income_wait"] = [s for s in state["order"] if _income_assistant(state, s)]
    return True


def _only_done(state: dict, seat: int) -> bool:
    """True when ``done`` is the seat's only legal action (cheap form of ``legal() == [done]``)."""
    a = state["alch"][seat]
    if a["pending"] or a["fresh"] or a["dist"] > a["dlock"] or a["wtok"]["worm1"] \
            or a["wtok"]["worm2"] or (a["cheese"] and a["free"]) \
            or seat_assistant(state, seat) is not None:
        return False
    return legal(state, seat) == [{"type": "done"}]


def _income_assistant(state: dict, seat: int) -> bool:
    aid = seat_assistant(state, seat)
    return aid is not None and ASSISTANTS[aid]["phase"] == "income"


