"""State shape and shared helpers of Evil Corp.: geometry, sides, money, bags, the fear track.

State (JSON)::

    {"rng", "log", "players", "round", "phase": "day"|"night"|"over",
     "nsides": 2|3,                     # factions: seats (2-3 players) or teams (4 players)
     "sides": [{"gold", "magic", "bag": [tile], "discard": [tile], "vp"}],
     "seats": [{"supply": [tile], "shown": [tile], "passed": bool}],
     "boards": [{"face": "A"|"B", "halves": [side, side], "cells": [{cell: slot|None}, {...}],
                 "loot": bool, "stone": side|None, "cargo": {"yellow": n, "redblue": n},
                 "conquest": [steps_left, steps_left]}],
     "queue": [tile|None] * 5, "corp_bag": [tile], "queue_discard": [tile],
     "demons": [bool] * 3 (active side up), "box": [tile] (removed from the game),
     "unused": [tile] (starting tiles not dealt), "first": side,
     "turn": {"side": side, "acted": [seat]} | None, "stack": [frame], "winner": [side] | None,
     "need_draw": bool (supplies to fill at the start of the Day),
     "night": "boards" | "cleanup" | None (night sub-step)}

A board slot is ``{"t": tile, "up": bool}`` (``up`` = active side up). Tiles are instance ids
(data.TILES). Half ``h`` of a board belongs to side ``halves[h]``.
"""
from __future__ import annotations

from engines.base import Rng, event

from . import data

SEAT_NAMES = ["Player 1", "Player 2", "Player 3", "Player 4"]


# ----- factions and geometry ------------------------------------------------------------------
def side_of(state: dict, seat: int) -> int:
    """The side (faction) of a seat: the seat itself, or its team (seat % 2) with 4 players."""
    return seat % 2 if state["players"] == 4 else seat


def seats_of(state: dict, side: int) -> list[int]:
    """Seats playing for a side (two with 4 players)."""
    if state["players"] == 4:
        return [side, side + 2]
    return [side]


def side_name(state: dict, side: int) -> str:
    """"Player 2" or "Team 1 (Player 1 + Player 3)" (teams numbered from 1, as in the lobby)."""
    if state["players"] == 4:
        a, b = seats_of(state, side)
        return f"Team {side + 1} ({SEAT_NAMES[a]} + {SEAT_NAMES[b]})"
    return SEAT_NAMES[side]


def board_layout(players: int) -> tuple[list[list[int]], dict[int, list[int]]]:
    """Game Setup step 5: ``(halves per board, available boards per seat)``.

    2 players: 2 boards, both available to both. 3 players: board ``b`` lies between seats ``b``
    and ``b+1`` (clockwise), so a seat has the boards to its left and right. 4 players: 3 boards in
    a line between the teams (seats 0/2 vs 1/3); seats 0 and 1 sit at board 0, seats 2 and 3 at
    board 2, board 1 is central.
    """
    if players == 2:
        return [[0, 1], [0, 1]], {0: [0, 1], 1: [0, 1]}
    if players == 3:
        halves = [[b, (b + 1) % 3] for b in range(3)]
        return halves, {s: sorted([s, (s - 1) % 3]) for s in range(3)}
    return [[0, 1], [0, 1], [0, 1]], {0: [0, 1], 1: [0, 1], 2: [1, 2], 3: [1, 2]}


def available_boards(state: dict, seat: int) -> list[int]:
    """Main Rules: the settlement boards a seat may interact with."""
    return board_layout(state["players"])[1][seat]


def half_of(state: dict, board: int, side: int) -> int | None:
    """Which half of ``board`` belongs to ``side`` (``None`` if neither)."""
    halves = state["boards"][board]["halves"]
    return halves.index(side) if side in halves else None


def opponents(state: dict, seat: int) -> list[int]:
    """Seats of every other side ("choose an opponent")."""
    me = side_of(state, seat)
    return [s for s in range(state["players"]) if side_of(state, s) != me]


def cell_names(face: str) -> list[str]:
    """Cells of one half of a board face, in drawing order."""
    f = data.SIDES[face]
    return ([f"raid-{i + 1}" for i in range(f["raid"])] + ["fortress", "portal"]
            + [f"port-{i + 1}" for i in range(f["port"])])


#: Cell id -> kind: :func:`kind` runs millions of times in a search bot's evaluation.
_KINDS: dict[str, str] = {}


def kind(cell: str) -> str:
    """``raid`` | ``fortress`` | ``portal`` | ``port``."""
    k = _KINDS.get(cell)
    if k is None:
        k = _KINDS[cell] = cell.split("-")[0]
    return k


def empty_half(face: str) -> dict:
    return {c: None for c in cell_names(face)}


def board_tiles(state: dict):
    """Yield ``(board, half, cell, slot)`` for every monster tile on a settlement board."""
    for b, board in enumerate(state["boards"]):
        for h in (0, 1):
            for c, slot in board["cells"][h].items():
                if slot is not None:
                    yield b, h, c, slot


def locate(state: dict, tile: int) -> tuple[int, int, str] | None:
    """Where a tile lies on a board, or ``None``."""
    for b, h, c, slot in board_tiles(state):
        if slot["t"] == tile:
            return b, h, c
    return None


# ----- money -----------------------------------------------------------------------------------
def funds(state: dict, side: int) -> int:
    """Gold plus magic coins ("Magic coins are used in the same way as gold coins")."""
    s = state["sides"][side]
    return s["gold"] + s["magic"]


def pay(state: dict, side: int, n: int) -> None:
    """Pay ``n`` (gold first: unspent gold is returned at night anyway, magic coins are kept)."""
    s = state["sides"][side]
    assert funds(state, side) >= n, "cannot pay"
    g = min(s["gold"], n)
    s["gold"] -= g
    s["magic"] -= n - g


def magic_left(state: dict) -> int:
    return data.MAGIC_COINS - sum(s["magic"] for s in state["sides"])


# ----- bags ------------------------------------------------------------------------------------
def draw(state: dict, seat: int, n: int, why: str = "") -> list[int]:
    """Draw up to ``n`` tiles from the seat's (team's) bag to its screen.

    Refill the Player's Supply: if the bag runs out, the discard pile is put into the bag and the
    drawing goes on. Bags are unordered multisets; each draw picks uniformly with the state's RNG.
    Logs "you drew X" to the seat and "P drew k tiles" to everyone else. Returns the tiles drawn.
    """
    side = side_of(state, seat)
    sd = state["sides"][side]
    rng = Rng(state["rng"])
    got: list[int] = []
    for _ in range(n):
        if not sd["bag"]:
            if not sd["discard"]:
                break
            sd["bag"], sd["discard"] = sorted(sd["discard"]), []
            state["log"].append(event(f"{side_name(state, side)} put the discard pile into the bag."))
        got.append(sd["bag"].pop(rng.below(len(sd["bag"]))))
    sd["bag"].sort()
    state["rng"] = rng.state
    state["seats"][seat]["supply"].extend(got)
    if got:
        names = ", ".join(data.label(t) for t in got)
        others = [s for s in range(state["players"]) if s != seat]
        state["log"].append(event(f"You drew {names}{why}.", to=[seat], irreversible=True))
        if others:
            state["log"].append(event(f"{SEAT_NAMES[seat]} drew {len(got)} tile(s){why}.",
                                      to=others, irreversible=True, spectators=True))
    return got


def to_discard(state: dict, side: int, tile: int) -> None:
    state["sides"][side]["discard"].append(tile)


def remove_from_supply(state: dict, seat: int, tile: int) -> None:
    st = state["seats"][seat]
    st["supply"].remove(tile)
    if tile in st["shown"]:
        st["shown"].remove(tile)


# ----- fear track --------------------------------------------------------------------------------
def fear_of(state: dict, board: int, half: int, cell: str) -> int:
    """Current fear strength of the tile in a cell (Passive abilities; ambiguity 2-3 in README).

    Printed fear, except in a raid cell: an active "only tile in your raid cells" monster counts
    ``n``; each active "+1 to your <colour> monsters in raid cells" monster on the same half adds 1.
    Inactive tiles keep printed fear and lose passives.
    """
    cells = state["boards"][board]["cells"][half]
    slot = cells[cell]
    t = data.TILES[slot["t"]]
    f = t["fear"]
    if kind(cell) != "raid":
        return f
    if slot["up"]:
        solo = data.passive(t, "solo_raid")
        if solo and sum(1 for c, s in cells.items() if kind(c) == "raid" and s) == 1:
            f = solo["n"]
    for s in cells.values():
        if s and s["up"]:
            for p in data.TILES[s["t"]]["passive"]:
                if p["kind"] == "boost" and p["colour"] == t["colour"]:
                    f += 1
    return f


def _half_fear(cells: dict) -> int:
    """Fear of one half's raid and fortress cells: the sum of :func:`fear_of` over them,
    computed in one pass over the half's cells instead of one pass per tile (the search bots
    evaluate the fear track millions of times; tests/engines/evil_corp check both agree)."""
    raids = 0
    boosts: dict[str, int] = {}
    for c, s in cells.items():
        if not s:
            continue
        if kind(c) == "raid":
            raids += 1
        if s["up"]:
            for p in data.TILES[s["t"]]["passive"]:
                if p["kind"] == "boost":
                    boosts[p["colour"]] = boosts.get(p["colour"], 0) + 1
    total = 0
    for c, s in cells.items():
        if not s:
            continue
        k = kind(c)
        t = data.TILES[s["t"]]
        if k == "fortress":
            total += t["fear"]
        elif k == "raid":
            f = t["fear"]
            if s["up"] and raids == 1:
                solo = data.passive(t, "solo_raid")
                if solo:
                    f = solo["n"]
            total += f + boosts.get(t["colour"], 0)
    return total


def net_fear(state: dict, board: int) -> int:
    """Unclamped balance of a board: >0 pushes the marker toward half 1's owner (the fear of
    half 0's raid and fortress cells minus half 1's, each as :func:`fear_of` counts it)."""
    cells = state["boards"][board]["cells"]
    return _half_fear(cells[0]) - _half_fear(cells[1])


def track_length(state: dict, board: int) -> int:
    return len(data.SIDES[state["boards"][board]["face"]]["track"])


def marker(state: dict, board: int) -> int:
    """Fear marker position: -L..+L, clamped; positive = on half 1's owner's side."""
    n, L = net_fear(state, board), track_length(state, board)
    return max(-L, min(L, n))


def protected(state: dict, board: int, half: int, cell: str, by_side: int) -> bool:
    """Passive "protect_raid": a side's raid-cell monsters on a board where it has an active
    protecting monster cannot be targeted by opponents' abilities."""
    bd = state["boards"][board]
    if kind(cell) != "raid" or bd["halves"][half] == by_side:
        return False
    return any(s and s["up"] and data.passive(data.TILES[s["t"]], "protect_raid")
               for s in bd["cells"][half].values())
