"""B. Night Phase: check the boards, fortress keeps, refresh the queue, demons and supplies.

Sub-steps in ``state["night"]``: ``boards`` (fear track effects, victory tokens, board flips,
cargo/loot/stone refresh, victory check) -> ``keep`` (a simultaneous ``keep`` frame while a side
decides about its fortress monsters) -> ``cleanup`` (discard monsters and supplies, queue, demons,
gold, first player token, next round).
"""
from __future__ import annotations

from . import data
from .effects import draw_corp, log
from .setup import board_setup
from .state import (
    SEAT_NAMES,
    funds,
    kind,
    magic_left,
    marker,
    pay,
    seats_of,
    side_name,
    side_of,
    to_discard,
)


def _award_vp(state: dict, side: int, b: int, why: str) -> None:
    state["sides"][side]["vp"] += 1
    log(state, f"{side_name(state, side)} receives a victory token on board {b + 1} ({why}).")


def check_board(state: dict, b: int) -> bool:
    """Fear Track Effects and Tie for one board. Returns True if a victory token was won here."""
    bd = state["boards"][b]
    m = marker(state, b)
    track = data.SIDES[bd["face"]]["track"]
    if m == 0:
        st = bd["stone"]
        if st is None or st not in bd["halves"]:
            log(state, f"Board {b + 1}: tie, nobody wins.")
            return False
        h = bd["halves"].index(st)
        bd["conquest"][h] = max(0, bd["conquest"][h] - 1)
        log(state, f"Board {b + 1}: tie; {side_name(state, st)} holds the power stone and moves "
                   f"its conquest token 1 step.")
        if bd["conquest"][h] == 0:
            _award_vp(state, st, b, "conquest token in the centre")
            return True
        return False
    h = 0 if m > 0 else 1
    winner = bd["halves"][h]
    cells = track[:abs(m)]
    shields = cells.count("shield")
    magic = cells.count("magic") * data.MAGIC_PER_SYMBOL
    log(state, f"Board {b + 1}: the fear marker is {abs(m)} cells toward "
               f"{side_name(state, bd['halves'][1 - h])}; {side_name(state, winner)} wins.")
    if shields:
        bd["conquest"][h] = max(0, bd["conquest"][h] - shields)
        log(state, f"{side_name(state, winner)} moves its conquest token {shields} step(s).")
    if magic:
        state["night_magic"].append([winner, magic])
    if "victory" in cells or bd["conquest"][h] == 0:
        why = "fear track" if "victory" in cells else "conquest token in the centre"
        _award_vp(state, winner, b, why)  # one token per board and night (README, ambiguity 5)
        return True
    return False


def flip_board(state: dict, b: int) -> None:
    """Receiving a Victory Token: every monster goes to its owner's discard pile, the board turns
    to side B (if on A) and is set up again."""
    bd = state["boards"][b]
    for h in (0, 1):
        for slot in bd["cells"][h].values():
            if slot:
                to_discard(state, bd["halves"][h], slot["t"])
    face = "B"
    if bd["face"] == "A":
        log(state, f"Board {b + 1} is flipped to side B (Sand).")
    board_setup(bd, face)


def refresh_board(state: dict, b: int) -> None:
    """Refresh Port Cargo Zones, Loot and Power Stone (cells that still hold gold get none)."""
    bd = state["boards"][b]
    for key, n in data.SIDES[bd["face"]]["cargo"].items():
        if bd["cargo"][key] == 0:
            bd["cargo"][key] = n
    bd["loot"] = True
    bd["stone"] = None


def boards_step(state: dict) -> None:
    """1. Check the Settlement Boards ("In any order, check each settlement board"; the night
    is simultaneous): nothing depends on the order of the boards. Free keeps are counted from
    the position before any board is checked; magic coins owed are paid once every board is
    checked, and when fewer are left than owed the sides take theirs in turn order from the
    first player (README "Rule interpretations" 23-24)."""
    free = [free_keeps(state, s) for s in range(state["nsides"])]
    state["night_magic"] = []
    for b in range(len(state["boards"])):
        if check_board(state, b):
            flip_board(state, b)
        else:
            refresh_board(state, b)
    owed: dict[int, int] = {}
    for side, n in state.pop("night_magic"):
        owed[side] = owed.get(side, 0) + n
    for side in [(state["first"] + i) % state["nsides"] for i in range(state["nsides"])]:
        if side in owed:
            got = min(owed[side], magic_left(state))
            state["sides"][side]["magic"] += got
            log(state, f"{side_name(state, side)} receives {got} magic coins"
                       + (f" (of {owed[side]}: no more are left)." if got < owed[side] else "."))
    winners = [s for s in range(state["nsides"]) if state["sides"][s]["vp"] >= data.VICTORY_TO_WIN]
    if winners:
        state["phase"] = "over"
        state["winner"] = winners
        state["night"] = None
        log(state, "The game ends: " + ", ".join(side_name(state, s) for s in winners)
            + " own(s) 2 victory tokens.")
        return
    frame = keep_frame(state, free)
    if frame:
        state["stack"].append(frame)
    state["night"] = "cleanup"


def free_keeps(state: dict, side: int) -> int:
    """Passive free_keep: fortress monsters a side may keep for free (from its active monsters
    on any board at the start of the night)."""
    n = 0
    for bd in state["boards"]:
        for h in (0, 1):
            if bd["halves"][h] != side:
                continue
            for slot in bd["cells"][h].values():
                if slot and slot["up"]:
                    for p in data.TILES[slot["t"]]["passive"]:
                        if p["kind"] == "free_keep":
                            n += p["n"]
    return n


def keep_frame(state: dict, free: list[int]) -> dict | None:
    """Discarding Monster Tokens: the simultaneous decision about fortress monsters. "If during
    the round you placed a monster in the fortress cell, you can pay ... to leave this monster
    on the settlement board for the next round": a monster kept last night (``held``) is not
    offered again and is discarded with the others (README "Rule interpretations" 23)."""
    pending = [[] for _ in range(state["nsides"])]
    for b, bd in enumerate(state["boards"]):
        for h in (0, 1):
            slot = bd["cells"][h]["fortress"]
            if slot and not slot.get("held"):
                pending[bd["halves"][h]].append([b, h])
    frame = {"kind": "keep", "seats": [], "pending": pending, "free": free}
    _settle(state, frame)
    return frame if frame["seats"] else None


def _keep_cost(state: dict, b: int) -> int:
    return data.SIDES[state["boards"][b]["face"]]["keep_cost"]


def _settle(state: dict, frame: dict) -> None:
    """Release automatically what a side cannot keep; recompute the seats still to decide."""
    seats = []
    for side, items in enumerate(frame["pending"]):
        while items and not frame["free"][side] and funds(state, side) < _keep_cost(state, items[0][0]):
            b, h = items.pop(0)
            _release(state, b, h)
        if items:
            seats += seats_of(state, side)
    frame["seats"] = sorted(seats)


def _release(state: dict, b: int, h: int) -> None:
    bd = state["boards"][b]
    slot = bd["cells"][h]["fortress"]
    bd["cells"][h]["fortress"] = None
    to_discard(state, bd["halves"][h], slot["t"])
    log(state, f"{data.label(slot['t'])} leaves the fortress of board {b + 1} (discarded).")


def keep_options(state: dict, frame: dict, seat: int) -> list[dict]:
    side = side_of(state, seat)
    items = frame["pending"][side]
    if not items:
        return []
    b, h = items[0]
    out = []
    if frame["free"][side]:
        out.append({"type": "keep", "board": b, "pay": False})
    if funds(state, side) >= _keep_cost(state, b):
        out.append({"type": "keep", "board": b, "pay": True})
    out.append({"type": "release", "board": b})
    return out


def keep_resolve(state: dict, seat: int, action: dict) -> None:
    frame = state["stack"][-1]
    side = side_of(state, seat)
    b, h = frame["pending"][side].pop(0)
    bd = state["boards"][b]
    if action["type"] == "release":
        _release(state, b, h)
    else:
        if action["pay"]:
            pay(state, side, _keep_cost(state, b))
        else:
            frame["free"][side] -= 1
        slot = bd["cells"][h]["fortress"]
        slot["up"] = False
        slot["kept"] = slot["held"] = True
        log(state, f"{SEAT_NAMES[seat]} keeps {data.label(slot['t'])} in the fortress of board "
                   f"{b + 1}" + (f" for {_keep_cost(state, b)} gold." if action["pay"] else " for free."))
    _settle(state, frame)
    if not frame["seats"]:
        state["stack"].pop()


def cleanup_step(state: dict) -> None:
    """Discard monsters and supplies; refresh the personnel department; discard gold; pass the
    first player token; start the next round."""
    for b, bd in enumerate(state["boards"]):
        for h in (0, 1):
            for c, slot in bd["cells"][h].items():
                if not slot:
                    continue
                if kind(c) == "fortress" and slot.pop("kept", False):
                    continue
                bd["cells"][h][c] = None
                to_discard(state, bd["halves"][h], slot["t"])
    for seat, st in enumerate(state["seats"]):
        if st["supply"]:
            log(state, f"{SEAT_NAMES[seat]} discards {len(st['supply'])} unplayed tile(s): "
                       + ", ".join(data.label(t) for t in st["supply"]) + ".", irreversible=True)
        state["sides"][side_of(state, seat)]["discard"] += st["supply"]
        st["supply"], st["shown"], st["passed"] = [], [], False
    q = state["queue"]
    if q[-1] is not None:
        state["queue_discard"].append(q[-1])
        log(state, f"{data.label(q[-1])} is discarded from \"We'll call you back\".")
    for i in range(len(q) - 1, 0, -1):
        q[i] = q[i - 1]
    q[0] = draw_corp(state)
    state["demons"] = [True] * len(state["demons"])
    for sd in state["sides"]:
        sd["gold"] = 0
    state["first"] = (state["first"] + 1) % state["nsides"]
    state["round"] += 1
    state["phase"] = "day"
    state["night"] = None
    state["need_draw"] = True


def step(state: dict) -> bool:
    """One automatic night step; False while a keep decision is pending."""
    if state["stack"]:
        return False
    if state["night"] == "boards":
        boards_step(state)
        return True
    if state["night"] == "cleanup":
        cleanup_step(state)
        return True
    return False
