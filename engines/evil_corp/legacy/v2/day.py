"""A. Day Phase: supplies, turn order and the four actions (put into play, activate, hire, pass).

Turn order: a turn belongs to a side; with 2-3 players a side is one seat (3 players: clockwise);
with 4 players both not-yet-passed members of the team act once each, in either order, then the
other team plays ("About the 4-Player Game"). Passed seats are skipped.
"""
from __future__ import annotations

from . import data
from .effects import _dedupe, hire, hire_slots, log, push_fx
from .state import (
    SEAT_NAMES,
    available_boards,
    draw,
    funds,
    half_of,
    kind,
    remove_from_supply,
    seats_of,
    side_name,
    side_of,
)


def start_day(state: dict) -> None:
    """Start of a round: each seat refills its supply to 5 tiles (4 with 4 players)."""
    size = data.SUPPLY_SIZE[state["players"]]
    order = [s for side in _side_order(state, state["first"]) for s in seats_of(state, side)]
    for seat in order:
        missing = size - len(state["seats"][seat]["supply"])
        if missing > 0:
            draw(state, seat, missing)
    state["need_draw"] = False
    state["turn"] = {"side": state["first"], "acted": []}
    log(state, f"Round {state['round']}: Day phase. {side_name(state, state['first'])} begins.")


def _side_order(state: dict, start: int) -> list[int]:
    n = state["nsides"]
    return [(start + i) % n for i in range(n)]


def turn_seats(state: dict) -> list[int]:
    """Seats that may take the current turn's action(s) now."""
    turn = state["turn"]
    if turn is None:
        return []
    return [s for s in seats_of(state, turn["side"])
            if not state["seats"][s]["passed"] and s not in turn["acted"]]


def advance(state: dict) -> bool:
    """Pass the turn to the next side that has not passed; start the night when all passed.
    Returns True if something changed."""
    if turn_seats(state):
        return False
    cur = state["turn"]["side"]
    for side in _side_order(state, cur)[1:] + [cur]:
        if any(not state["seats"][s]["passed"] for s in seats_of(state, side)):
            state["turn"] = {"side": side, "acted": []}
            return True
    state["turn"] = None
    state["phase"] = "night"
    state["night"] = "boards"
    log(state, "Every player has passed: Night phase.")
    return True


def can_place(state: dict, seat: int, tile: int, board: int, cell: str) -> bool:
    """Put a Monster into Play: the cell is on the seat's half of an available board and free;
    portal only for blue; not a fortress for a no-fortress monster; spawn costs payable."""
    t = data.TILES[tile]
    side = side_of(state, seat)
    h = half_of(state, board, side)
    if h is None or state["boards"][board]["cells"][h].get(cell, 1) is not None:
        return False
    if kind(cell) == "portal" and t["colour"] != "blue":
        return False
    if kind(cell) == "fortress" and data.passive(t, "no_fortress"):
        return False
    req = t["requires"]
    if funds(state, side) < req.get("gold", 0):
        return False
    if len(state["seats"][seat]["supply"]) - 1 < req.get("supply", 0):
        return False
    return True


def legal(state: dict, seat: int) -> list[dict]:
    """Day actions of a seat whose turn it is."""
    side = side_of(state, seat)
    st = state["seats"][seat]
    out = []
    for t in _dedupe(st["supply"], st["shown"]):
        for b in available_boards(state, seat):
            h = half_of(state, b, side)
            for c in state["boards"][b]["cells"][h]:
                if can_place(state, seat, t, b, c):
                    out.append({"type": "play", "tile": t, "board": b, "cell": c})
    for b in available_boards(state, seat):
        h = half_of(state, b, side)
        for c, slot in state["boards"][b]["cells"][h].items():
            if slot and slot["up"] and data.TILES[slot["t"]]["activated"]:
                out.append({"type": "activate", "board": b, "cell": c})
    out += [{"type": "hire", "slot": k} for k in hire_slots(state, seat)]
    out.append({"type": "pass"})
    return out


def apply(state: dict, seat: int, action: dict) -> None:
    """Apply a day action (legal)."""
    side = side_of(state, seat)
    state["turn"]["acted"].append(seat)
    typ = action["type"]
    if typ == "pass":
        state["seats"][seat]["passed"] = True
        log(state, f"{SEAT_NAMES[seat]} passes.")
    elif typ == "hire":
        hire(state, seat, action["slot"])
    elif typ == "play":
        tile, b, c = action["tile"], action["board"], action["cell"]
        h = half_of(state, b, side)
        remove_from_supply(state, seat, tile)
        state["boards"][b]["cells"][h][c] = {"t": tile, "up": True}
        t = data.TILES[tile]
        # The tile comes from behind the screen: it was hidden, so the move cannot be taken back.
        log(state, f"{SEAT_NAMES[seat]} puts {data.label(tile)} into play: {c} of board {b + 1}.",
            irreversible=True)
        ops = list(t["spawn"])
        if kind(c) == "raid":
            ops.append({"op": "raid", "board": b})
        elif kind(c) == "port":
            ops.append({"op": "port", "board": b})
        elif kind(c) == "portal":
            bonus = sum(p["n"] for p in t["passive"] if p["kind"] == "summon")
            ops.append({"op": "summon", "ss": t["fear"] + bonus})
        push_fx(state, seat, ops, src=tile)
    elif typ == "activate":
        b, c = action["board"], action["cell"]
        slot = state["boards"][b]["cells"][half_of(state, b, side)][c]
        # Turned inactive before its effect resolves: no later step can read its abilities.
        slot["up"] = False
        log(state, f"{SEAT_NAMES[seat]} activates {data.label(slot['t'])} on board {b + 1}.")
        push_fx(state, seat, data.TILES[slot["t"]]["activated"], src=slot["t"])
