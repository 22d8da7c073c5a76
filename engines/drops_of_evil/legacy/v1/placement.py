"""Placement Phase, Placement-phase Assistants, Update Turn Order and Gathering Phase.

Rulebook "Placement Phase", "Update Turn Order", "Gathering Phase", "Assistants".
"""
from __future__ import annotations

from engines.base import Rng, event

from .data import ASSISTANTS, BOARDS, FAMILIARS, NAMES
from .labels import space_label
from .setup import add_to_space, assistant_at, draw, find_pawn, seat_assistant

P = "Player {}"


def current_seat(state: dict) -> int:
    return state["order"][state["turn"]]


def empty_spaces(state: dict, pawn: str) -> list[str]:
    board = BOARDS[state["board"]]
    return [s for s in board["by_pawn"][pawn] if s not in state["pawns"]]


def placement_assistant_actions(state: dict, seat: int) -> list[dict]:
    """Activations of ``seat``'s hired, unused Placement-phase Assistant (empty if none)."""
    aid = seat_assistant(state, seat)
    if aid is None or ASSISTANTS[aid]["phase"] != "placement":
        return []
    board = BOARDS[state["board"]]
    forest = state["forest"]
    base = {"type": "assistant", "assistant": aid}
    if aid in ("AS01", "AS02"):
        return [base] if find_pawn(state, seat, "toad") else []
    if aid in ("AS03", "AS04"):
        res = "spider" if aid == "AS03" else "mushroom"
        return [{**base, "target": g} for g in board["gathering_ids"]
                if forest.get(g, {}).get(res)]
    if aid == "AS05":
        out = []
        for pawn in FAMILIARS:
            if find_pawn(state, seat, pawn):
                out += [{**base, "pawn": pawn, "space": s} for s in empty_spaces(state, pawn)]
        return out
    if aid == "AS06":
        return [base] if state["bag"] else []
    return []


def legal(state: dict, seat: int) -> list[dict]:
    """Legal actions of the seat whose Placement turn it is (others: none)."""
    if state["phase"] != "placement" or current_seat(state) != seat:
        return []
    a = state["alch"][seat]
    if a["pending"]:
        return [{"type": "seer_put", "space": g}
                for g in BOARDS[state["board"]]["gathering_ids"]]
    acts = placement_assistant_actions(state, seat)
    if state["acted"]:
        return acts + [{"type": "end_turn"}]
    out = [{"type": "place", "pawn": p, "space": s}
           for p in a["home"] for s in empty_spaces(state, p)]
    return out + acts


def apply(state: dict, seat: int, action: dict) -> None:
    a = state["alch"][seat]
    t = action["type"]
    if t == "place":
        pawn, space = action["pawn"], action["space"]
        state["pawns"][space] = [seat, pawn]
        a["home"].remove(pawn)
        state["acted"] = True
        if pawn == "coin":
            a["asst"] = space
            a["asst_used"] = False
            aid = assistant_at(state, space)
            state["log"].append(event(f"{P.format(seat + 1)} hires {ASSISTANTS[aid]['name']}"))
        else:
            state["log"].append(event(f"{P.format(seat + 1)} places {NAMES[pawn]} on "
                                      f"{space_label(space)}"))
    elif t == "end_turn":
        advance(state)
    elif t == "seer_put":
        frame = a["pending"][-1]
        res = frame["drawn"].pop(0)
        add_to_space(state, action["space"], res)
        state["log"].append(event(f"{P.format(seat + 1)} puts {NAMES[res]} on "
                                  f"{space_label(action['space'])}"))
        if not frame["drawn"]:
            a["pending"].pop()
    elif t == "assistant":
        activate(state, seat, action)


def activate(state: dict, seat: int, action: dict) -> None:
    """Placement-phase Assistant abilities (AS01 rulebook; AS02-AS06 game-data 3.3.6)."""
    a = state["alch"][seat]
    aid = action["assistant"]
    a["asst_used"] = True
    who = P.format(seat + 1)
    name = ASSISTANTS[aid]["name"]
    board = BOARDS[state["board"]]
    forest = state["forest"]
    if aid in ("AS01", "AS02"):
        res = "rat" if aid == "AS01" else "mushroom"
        n = 0
        for g in board["targets"][find_pawn(state, seat, "toad")]:
            k = forest.get(g, {}).pop(res, 0)
            n += k
        if aid == "AS01":
            a["captured"] += n
        else:
            a["pool"]["mushroom"] += n
        state["log"].append(event(f"{who} uses {name}: {n} {NAMES[res]}(s)"))
    elif aid in ("AS03", "AS04"):
        res = "spider" if aid == "AS03" else "mushroom"
        space = forest[action["target"]]
        space[res] -= 1
        if not space[res]:
            del space[res]
        a["pool"][res] += 1
        state["log"].append(event(f"{who} uses {name}: takes a {NAMES[res]} from "
                                  f"{space_label(action['target'])}"))
    elif aid == "AS05":
        old = find_pawn(state, seat, action["pawn"])
        del state["pawns"][old]
        state["pawns"][action["space"]] = [seat, action["pawn"]]
        state["log"].append(event(f"{who} uses {name}: moves {NAMES[action['pawn']]} "
                                  f"to {space_label(action['space'])}"))
    elif aid == "AS06":
        rng = Rng(state["rng"])
        rng.shuffle(state["bag"])
        state["rng"] = rng.state
        drawn = [r for r in (draw(state), draw(state)) if r is not None]
        a["pending"].append({"kind": "seer", "drawn": drawn})
        state["log"].append(event(f"{who} uses {name}: draws "
                                  + " and ".join(NAMES[r] for r in drawn), irreversible=True))
    for g in list(forest):
        if not forest[g]:
            del forest[g]


def advance(state: dict) -> None:
    """Next Placement turn in turn order (seats with no pawn left are skipped)."""
    state["acted"] = False
    n = len(state["order"])
    for i in range(1, n + 1):
        idx = (state["turn"] + i) % n
        if state["alch"][state["order"][idx]]["home"]:
            state["turn"] = idx
            return
    end_placement(state)


def step(state: dict) -> bool:
    """Automatic: end the turn after placing when no Assistant activation is left."""
    if state["phase"] != "placement":
        return False
    seat = current_seat(state)
    if state["acted"] and not state["alch"][seat]["pending"] \
            and not placement_assistant_actions(state, seat):
        advance(state)
        return True
    return False


def end_placement(state: dict) -> None:
    """Update Turn Order from the Snakes (leftmost first), then the Gathering Phase."""
    board = BOARDS[state["board"]]
    col = {s: board["snake_col"][find_pawn(state, s, "snake")] for s in range(state["players"])}
    state["order"] = sorted(range(state["players"]), key=lambda s: col[s])
    state["log"].append(event("New turn order: "
                              + ", ".join(P.format(s + 1) for s in state["order"])))
    gather(state)


def gather(state: dict) -> None:
    """Gathering Phase: Crows, Cats, Toads, Snakes; 1 Worm per empty space reached."""
    board = BOARDS[state["board"]]
    forest = state["forest"]
    for pawn in FAMILIARS:
        for space, (seat, p) in sorted(state["pawns"].items()):
            if p != pawn:
                continue
            a = state["alch"][seat]
            got: dict[str, int] = {}
            for g in board["targets"][space]:
                content = forest.pop(g, None)
                if content:
                    for r, k in content.items():
                        if r == "rat":   # Placing Rats: straight to Free Rats (no choice)
                            a["free"] += k
                        else:
                            a["pool"][r] += k
                        got[r] = got.get(r, 0) + k
                elif state["worms"]:
                    state["worms"] -= 1
                    a["pool"]["worm"] += 1
                    got["worm"] = got.get("worm", 0) + 1
            del state["pawns"][space]
            a["home"].append(pawn)
            text = ", ".join(f"{k} {NAMES[r]}" for r, k in sorted(got.items())) or "nothing"
            state["log"].append(event(f"Player {seat + 1}'s {NAMES[pawn]} gathers {text}"))
    state["phase"] = "brewing"
    state["done"] = [False] * state["players"]
