"""Rules on one Alchilab (rulebook "Brewing Phase", "Bonus Tokens", "Moving Resources").

Functions take the game ``state`` (for the shared ledger and Bonus layout) and a seat, and mutate.
"""
from __future__ import annotations

from .data import (
    BONUS,
    CELL_POS,
    CELL_VIAL,
    COLUMN_CELLS,
    COLUMN_SLOTS,
    D_BELOW_TOP,
    D_CUM,
    D_LEVELS,
    D_SLOTS,
    INGREDIENTS,
    TOX_MAX,
    VIAL_CELLS,
    distiller_level,
)


def vial_types(brewer: dict[str, str], vial: str, skip: str | None = None) -> list[str]:
    """Resources in a Vial (optionally ignoring one cell)."""
    return [brewer[c] for c in VIAL_CELLS[vial] if c in brewer and c != skip]


def vial_content(brewer: dict[str, str], vial: str) -> str | None:
    """The non-Spider Ingredient type of a Vial (what it scores as), or None."""
    for c in VIAL_CELLS[vial]:
        r = brewer.get(c)
        if r is not None and r != "spider":
            return r
    return None


def can_place(brewer: dict[str, str], res: str, cell: str, skip: str | None = None) -> bool:
    """Placing Ingredients: empty space, one Ingredient type per Vial (Spiders excepted), and no
    Spider-only Vial (a Spider needs a non-Spider already in the Vial; game-data 3.4 #8)."""
    if cell in brewer and cell != skip:
        return False
    others = [t for t in vial_types(brewer, CELL_VIAL[cell], skip) if t != "spider"]
    if res == "spider":
        return bool(others)
    return all(t == res for t in others)


def leaves_spider_only(brewer: dict[str, str], cell: str) -> bool:
    """Would removing ``cell``'s Ingredient leave Spiders alone in its Vial?"""
    rest = vial_types(brewer, CELL_VIAL[cell], skip=cell)
    return bool(rest) and all(t == "spider" for t in rest)


def open_vials(brewer: dict[str, str]) -> dict[str, tuple[str | None, list[str]]]:
    """``{vial: (non-Spider type or None, empty cells)}`` for Vials with an empty cell."""
    out = {}
    for vial, cells in VIAL_CELLS.items():
        empty = [c for c in cells if c not in brewer]
        if empty:
            out[vial] = (vial_content(brewer, vial), empty)
    return out


def legal_cells(brewer: dict[str, str], res: str,
                vials: dict[str, tuple[str | None, list[str]]] | None = None) -> list[str]:
    """Cells where ``res`` may be placed now (same rules as :func:`can_place`)."""
    vials = open_vials(brewer) if vials is None else vials
    out: list[str] = []
    for kind, empty in vials.values():
        if (kind is not None) if res == "spider" else (kind is None or kind == res):
            out += empty
    return out


def placeable(a: dict) -> bool:
    """Does the pool hold something that must still be placed ("place all ... if possible")?"""
    if a["pool"]["mushroom"]:
        return True
    vials = open_vials(a["brewer"])
    return any(a["pool"][r] and legal_cells(a["brewer"], r, vials) for r in INGREDIENTS)


def column_complete(brewer: dict[str, str], col: int) -> bool:
    return all(c in brewer for c in COLUMN_CELLS[col])


def completed_vials(brewer: dict[str, str]) -> list[str]:
    return [v for v, cells in VIAL_CELLS.items() if all(c in brewer for c in cells)]


def gain_token(state: dict, seat: int, slot: str) -> str:
    """Gain the Bonus token on ``slot`` (reveals 1 Income icon). Returns a log fragment."""
    a = state["alch"][seat]
    a["taken"].append(slot)
    token = state["layout"][slot]
    if token.startswith("scroll-"):
        res = token[len("scroll-"):]
        step = BONUS["scroll_steps"][min(a["scrolls"].count(res), 1)]
        a["scrolls"].append(res)
        a["tox"][res] = min(TOX_MAX, a["tox"][res] + step)
        return f"{res} Scroll (+{step} Toxicity)"
    eff = BONUS["extra_effects"][token]
    if "worm_icons" in eff:
        a["wtok"][token] += 1
    elif "cheese" in eff:
        a["cheese"] += eff["cheese"]
    else:  # an Ingredient or Mushroom: in the pool, but optional (issue 15 item 12)
        res = eff["resource"]
        a["pool"][res] += 1
        a["xpool"][res] = a["xpool"].get(res, 0) + 1
        state["extra"][res] += 1
    return BONUS["extra_labels"][token]


def required(a: dict, res: str) -> int:
    """How many of the pool's ``res`` must be placed if possible: all but this phase's Extra
    Resources ("You may place the Extra Resource token itself ..."; issue 15 item 12)."""
    return a["pool"][res] - min(a["xpool"].get(res, 0), a["pool"][res])


def use_from_pool(a: dict, res: str) -> bool:
    """Take one ``res`` from the pool to place it: a required one while there is one, else an
    Extra Resource. Returns True if it was an Extra Resource."""
    extra = required(a, res) == 0
    a["pool"][res] -= 1
    if extra:
        a["xpool"][res] -= 1
    return extra


def back_to_pool(a: dict, res: str, extra: bool) -> None:
    """Put one placed ``res`` back in the pool (``extra``: it was an Extra Resource)."""
    a["pool"][res] += 1
    if extra:
        a["xpool"][res] = a["xpool"].get(res, 0) + 1


def spend_from_pool(a: dict, res: str, n: int = 1) -> None:
    """Remove ``n`` ``res`` from the pool for another use (an Assistant): required ones first,
    so what stays optional stays optional."""
    a["pool"][res] -= n
    if a["xpool"].get(res, 0) > a["pool"][res]:
        a["xpool"][res] = a["pool"][res]


def brew(state: dict, seat: int, res: str, cell: str) -> list[str]:
    """Place one Ingredient from the pool in a Brewer cell; completing a column gains every
    Bonus token below it and locks its cells (rulebook "Completing Columns"). Returns gains."""
    a = state["alch"][seat]
    if use_from_pool(a, res):
        a["xcells"].append(cell)
    a["brewer"][cell] = res
    a["fresh"].append(cell)
    a["new"].append(cell)
    return check_column(state, seat, CELL_POS[cell][0])


def check_column(state: dict, seat: int, col: int) -> list[str]:
    a = state["alch"][seat]
    if not column_complete(a["brewer"], col):
        return []
    gains = [gain_token(state, seat, s) for s in COLUMN_SLOTS[col] if s not in a["taken"]]
    a["fresh"] = [c for c in a["fresh"] if CELL_POS[c][0] != col]
    return gains


def take_back_cell(state: dict, seat: int, cell: str) -> None:
    """Take back a Resource placed this phase. If an Extra Resource of the same type stays
    placed, the one taken back counts as the Extra Resource (identical tokens are fungible:
    what must still be placed is as little as the rules allow)."""
    a = state["alch"][seat]
    res = a["brewer"].pop(cell)
    a["fresh"].remove(cell)
    a["new"].remove(cell)
    extra = cell in a["xcells"]
    if extra:
        a["xcells"].remove(cell)
    else:
        other = next((c for c in a["xcells"] if c in a["fresh"] and a["brewer"][c] == res), None)
        if other is not None:
            a["xcells"].remove(other)
            extra = True
    back_to_pool(a, res, extra)


def can_take_back(a: dict, cell: str) -> bool:
    return cell in a["fresh"] and not leaves_spider_only(a["brewer"], cell)


def next_mushroom_vial(a: dict) -> str:
    return f"d-{distiller_level(a['dist'] + 1)}"


def add_mushroom(state: dict, seat: int) -> None:
    """Placing Mushrooms: lowest available Vial first; a filled Vial (or each pair in the top
    Vial) lets you choose one Bonus token beside it or any lower Vial (a pending choice)."""
    a = state["alch"][seat]
    a["dist"] += 1
    n = a["dist"]
    level = None
    if n in D_CUM[:-1]:
        level = D_CUM.index(n) + 1
    elif n > D_BELOW_TOP and (n - D_BELOW_TOP) % 2 == 0:
        level = D_LEVELS
    if level is None:
        return
    a["dlock"] = n
    slots = [s for k in range(1, level + 1) for s in D_SLOTS[k] if s not in a["taken"]]
    if slots:
        a["pending"].append({"kind": "distiller_bonus", "slots": slots})


def distiller_fill(n: int) -> dict[str, int]:
    """Mushrooms shown in each Distiller Vial for ``n`` placed (pairs stack in the top Vial)."""
    fill, left = {}, n
    for k in range(1, D_LEVELS + 1):
        size = D_CUM[k - 1] - (D_CUM[k - 2] if k > 1 else 0)
        if k == D_LEVELS:
            fill[f"d-{k}"] = left
        else:
            fill[f"d-{k}"] = min(size, left)
            left -= fill[f"d-{k}"]
    return fill


def rebrew_sources(a: dict) -> list[str]:
    """Re-Brewer: Ingredients placed in an earlier round, in a column that unlocked nothing, whose
    removal leaves no Spider-only Vial and that have somewhere to go."""
    brewer = a["brewer"]
    out = []
    for cell, res in brewer.items():
        if cell in a["new"] or column_complete(brewer, CELL_POS[cell][0]):
            continue
        if leaves_spider_only(brewer, cell):
            continue
        if rebrew_targets(brewer, cell):
            out.append(cell)
    return sorted(out, key=lambda c: (CELL_POS[c][1], CELL_POS[c][0]))


def rebrew_targets(brewer: dict[str, str], src: str) -> list[str]:
    res = brewer[src]
    return [c for c in CELL_POS if c not in brewer and can_place(brewer, res, c, skip=src)]
