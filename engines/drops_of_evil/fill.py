"""How many Ingredients can still go into a Brewer: the arithmetic behind "You must place all of
your Ingredients if possible" (rulebook "Placing Ingredients"; issue 15 item 11).

A Brewer is reduced to its open Vials, each ``(type, free)``: the non-Spider Ingredient type
fixed in it (or ``None`` when it holds none) and its number of empty spaces. The rules of
"Placing Ingredients" then say: a Vial takes one non-Spider type only; a Spider goes only into a
Vial that holds a non-Spider Ingredient ("Spider-Only Vials"). :func:`max_placed` is the largest
number of the given Ingredients that fit together: a dynamic programme over the Vials (at most 12)
whose state is what is left of each type (capped by the room left for it) and the room Spiders
may use (capped by the Spiders). Results are cached by the reduced Brewer and the counts, so the
many views and bot nodes of one position share one computation.
"""
from __future__ import annotations

from functools import lru_cache

from .alchilab import vial_content
from .data import VIAL_CELLS

Vials = tuple[tuple["str | None", int], ...]


def vial_map(brewer: dict[str, str]) -> dict[str, tuple["str | None", int]]:
    """``{vial: (non-Spider type or None, empty spaces)}`` for the Brewer's open Vials."""
    out = {}
    for vial, cells in VIAL_CELLS.items():
        free = sum(c not in brewer for c in cells)
        if free:
            out[vial] = (vial_content(brewer, vial), free)
    return out


def shape(vials: dict[str, tuple["str | None", int]]) -> Vials:
    """A :func:`vial_map` as a sorted tuple (equal shapes share the caches)."""
    return tuple(sorted(vials.values(), key=lambda v: (v[0] or "", v[1])))


def open_shape(brewer: dict[str, str]) -> Vials:
    """The Brewer's open Vials as a sorted tuple of ``(non-Spider type or None, empty spaces)``."""
    return shape(vial_map(brewer))


def fits_all(vials: Vials, counts: dict[str, int]) -> bool:
    """Can every Ingredient of ``counts`` be placed together into ``vials``? Exact (a quick
    greedy placement first; the dynamic programme only when the greedy one fails)."""
    key = tuple(sorted((t, n) for t, n in counts.items() if n))
    return _fits(vials, key)


@lru_cache(maxsize=8192)
def _fits(vials: Vials, key: tuple[tuple[str, int], ...]) -> bool:
    counts = dict(key)
    total = sum(counts.values())
    if total > sum(f for _, f in vials):
        return False
    for t, n in counts.items():  # a type with less room than Ingredients cannot fit
        if t != "spider" and n > sum(f for k, f in vials if k is None or k == t):
            return False
    return greedy_placed(vials, key) == total or max_placed(vials, counts) == total


@lru_cache(maxsize=8192)
def greedy_placed(vials: Vials, key: tuple[tuple[str, int], ...]) -> int:
    """How many of ``key`` (sorted ``(type, n)`` pairs) a quick greedy placement puts into
    ``vials``: a lower bound of :func:`max_placed` (it builds a legal arrangement): each type
    fills its own Vials, then the empty Vials by best fit (largest demand first); Spiders go
    into what is left beside a non-Spider."""
    counts = dict(key)
    spare, left, placed = 0, {}, 0
    typed: dict[str, int] = {}
    empty = []
    for kind, free in vials:
        if kind is None:
            empty.append(free)
        else:
            typed[kind] = typed.get(kind, 0) + free
    for kind, room in typed.items():
        need = counts.get(kind, 0)
        spare += max(0, room - need)
        placed += min(room, need)
        if need > room:
            left[kind] = need - room
    for t, n in counts.items():
        if t != "spider" and t not in typed and n:
            left[t] = n
    empty.sort()
    for t in sorted(left, key=lambda t: -left[t]):
        need = left[t]
        while need > 0 and empty:
            fit = next((i for i, f in enumerate(empty) if f >= need), None)
            free = empty.pop(fit if fit is not None else len(empty) - 1)
            spare += max(0, free - need)
            placed += min(free, need)
            need -= free
    return placed + min(counts.get("spider", 0), spare)


def max_placed(vials: Vials, counts: dict[str, int]) -> int:
    """The most Ingredients of ``counts`` (``{type: n}``, ``"spider"`` included) that can be
    placed together into Vials of shape ``vials`` (see :func:`open_shape`). Pure; cached."""
    spiders = counts.get("spider", 0)
    types = tuple(sorted(t for t, n in counts.items() if n and t != "spider"))
    room = {t: sum(f for k, f in vials if k is None or k == t) for t in types}
    need = tuple(min(counts[t], room[t]) for t in types)
    if not any(need) and not spiders:
        return 0
    return _best(vials, types, need, spiders)


@lru_cache(maxsize=8192)
def _best(vials: Vials, types: tuple[str, ...], need: tuple[int, ...], spiders: int) -> int:
    index = {t: i for i, t in enumerate(types)}
    memo: dict[tuple[int, tuple[int, ...], int], int] = {}

    def go(i: int, left: tuple[int, ...], spare: int) -> int:
        if i == len(vials):
            return min(spiders, spare)
        key = (i, left, spare)
        if key in memo:
            return memo[key]
        # No arrangement of the rest places more than what is left and every Spider: once a
        # choice reaches that, the others cannot beat it (the same maximum, found sooner).
        cap = sum(left) + spiders
        kind, free = vials[i]
        if kind is not None:  # a Vial with a type: that type only, and Spiders beside it
            j = index.get(kind)
            top = min(free, left[j]) if j is not None else 0
            best = 0
            for x in range(top, -1, -1):
                best = max(best, x + go(i + 1, _take(left, j, x), min(spiders, spare + free - x)))
                if best >= cap:
                    break
        else:  # an empty Vial: left empty, or given one type (and Spiders beside it)
            best = go(i + 1, left, spare)
            for j, n in enumerate(left):
                if best >= cap:
                    break
                for x in range(min(free, n), 0, -1):
                    best = max(best, x + go(i + 1, _take(left, j, x),
                                            min(spiders, spare + free - x)))
                    if best >= cap:
                        break
        memo[key] = best
        return best

    return go(0, need, 0)


def _take(left: tuple[int, ...], j: int | None, x: int) -> tuple[int, ...]:
    if j is None or not x:
        return left
    return left[:j] + (left[j] - x,) + left[j + 1:]
