"""Recipe scoring (rulebook "Recipes" and "Recipes Reference").

A Brewer is ``{cell_id: resource}``. A cell *matches* a Recipe when it holds the Recipe
Ingredient or a Spider (Spiders are wildcards for every Recipe, whatever their Vial holds).
"Each token may be counted only once for the same Recipe": patterns are counted as the maximum
number of disjoint instances (exact, not greedy).
"""
from __future__ import annotations

from functools import lru_cache

from .data import (
    B_COLS,
    B_ROWS,
    CELL_POS,
    CELL_VIAL,
    CONNECTIONS,
    EDGE_CELLS,
    L_VIALS,
    RECIPES,
    cell_id,
)


def matching(brewer: dict[str, str], ingredient: str) -> frozenset[str]:
    """Cells counting as ``ingredient`` for a Recipe (the ingredient itself or a Spider)."""
    return frozenset(c for c, r in brewer.items() if r == ingredient or r == "spider")


def _layers(m: frozenset[str]) -> int:
    # Groups of 4 in a row: in one row the disjoint maximum of a run of length L is L // 4.
    n = 0
    for r in range(1, B_ROWS + 1):
        run = 0
        for c in range(1, B_COLS + 2):
            if c <= B_COLS and cell_id(c, r) in m:
                run += 1
            else:
                n += run // 4
                run = 0
    return n


def _sediment(m: frozenset[str]) -> int:
    # 3 vertically adjacent including the bottom space: at most one per column.
    return sum(all(cell_id(c, r) in m for r in range(B_ROWS - 2, B_ROWS + 1))
               for c in range(1, B_COLS + 1))


def _mass(m: frozenset[str]) -> int:
    """Size of the largest orthogonally connected group."""
    best, seen = 0, set()
    for start in m:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            c = stack.pop()
            size += 1
            x, y = CELL_POS[c]
            for nb in (cell_id(x + 1, y), cell_id(x - 1, y), cell_id(x, y + 1), cell_id(x, y - 1)):
                if nb in m and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        best = max(best, size)
    return best


def _blight(m: frozenset[str]) -> int:
    return len({CELL_POS[c][0] for c in m})


def _clumps(m: frozenset[str]) -> int:
    """Maximum number of disjoint 2x2 squares: exact DP over columns (profile = used rows)."""
    col_mask = [0] * (B_COLS + 2)
    for c in m:
        x, y = CELL_POS[c]
        col_mask[x] |= 1 << (y - 1)
    dp = {0: 0}  # rows of column x already used by squares anchored in column x-1 -> best
    for x in range(1, B_COLS):
        nxt: dict[int, int] = {}
        both = col_mask[x] & col_mask[x + 1]
        for used, val in dp.items():
            def rec(r: int, taken: int, cnt: int) -> None:
                if r >= B_ROWS - 1:
                    if nxt.get(taken, -1) < val + cnt:
                        nxt[taken] = val + cnt
                    return
                rec(r + 1, taken, cnt)
                sq = 0b11 << r
                if both & sq == sq and not (used & sq) and not (taken & sq):
                    rec(r + 2, taken | sq, cnt + 1)
            rec(0, 0, 0)
        dp = nxt
    return max(dp.values())


@lru_cache(maxsize=4096)
def _bonds_edges(edges: tuple[tuple[str, str], ...]) -> int:
    """Maximum matching among the given connection pairs (exact backtracking)."""
    def rec(i: int, used: frozenset[str]) -> int:
        if i == len(edges):
            return 0
        best = rec(i + 1, used)
        a, b = edges[i]
        if a not in used and b not in used:
            best = max(best, 1 + rec(i + 1, used | {a, b}))
        return best
    return rec(0, frozenset())


def _bonds(m: frozenset[str]) -> int:
    return _bonds_edges(tuple(e for e in CONNECTIONS if e[0] in m and e[1] in m))


def _patina(m: frozenset[str]) -> int:
    return len(m & EDGE_CELLS) // 2


def _venom(m: frozenset[str]) -> int:
    return sum(CELL_VIAL[c] in L_VIALS for c in m) // 2


_COUNTERS = {"layers": _layers, "sediment": _sediment, "mass": lambda m: _mass(m) // 2,
             "blight": _blight, "patina": _patina, "clumps": _clumps, "bonds": _bonds,
             "venom": _venom}


def recipe_count(recipe_id: str, brewer: dict[str, str], ingredient: str) -> int:
    """How many times the Recipe's pattern scores (disjoint instances / pairs / columns)."""
    return _COUNTERS[RECIPES[recipe_id]["kind"]](matching(brewer, ingredient))


def recipe_points(recipe_id: str, brewer: dict[str, str], ingredient: str) -> int:
    """Poison Points of one Recipe for one Brewer (rulebook "Recipes Reference")."""
    return recipe_count(recipe_id, brewer, ingredient) * RECIPES[recipe_id]["points"]
