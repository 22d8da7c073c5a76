"""Income Phase, End of the Round and End of the Game (rulebook sections of those names)."""
from __future__ import annotations

from engines.base import Rng, event

from .alchilab import completed_vials, vial_content
from .data import ASSISTANTS, BOARDS, RECIPES, ROUNDS
from .recipes import recipe_points
from .setup import add_to_space, draw, seat_assistant


def legal(state: dict, seat: int) -> list[dict]:
    """Seats holding an unused Income-phase Assistant: use it or skip."""
    if state["phase"] != "income" or seat not in state["income_wait"]:
        return []
    aid = seat_assistant(state, seat)
    a = state["alch"][seat]
    base = {"type": "assistant", "assistant": aid}
    if aid == "AS18":
        acts = [{**base, "rats": n} for n in range(1, min(2, a["free"]) + 1)]
    else:
        acts = [base]
    return acts + [{"type": "skip"}]


def apply(state: dict, seat: int, action: dict) -> None:
    state["income_wait"].remove(seat)
    if action["type"] == "skip":
        return
    a = state["alch"][seat]
    aid = action["assistant"]
    a["asst_used"] = True
    name = ASSISTANTS[aid]["name"]
    gain = 0
    if aid == "AS14":
        gain = len(completed_vials(a["brewer"]))
    elif aid == "AS15":
        a["rat_tamer"] = True
    elif aid == "AS16":
        gain = len(a["scrolls"])
    elif aid == "AS17":
        gain = 3
    elif aid == "AS18":
        n = action["rats"]
        a["free"] -= n
        a["captured"] += n
    a["score"] += gain
    state["log"].append(event(f"Player {seat + 1} uses {name}"
                              + (f": +{gain} Poison Points" if gain else "")))


def step(state: dict) -> bool:
    """Income (once every Income Assistant decision is made), then End of the Round."""
    if state["phase"] != "income" or state["income_wait"]:
        return False
    for s, a in enumerate(state["alch"]):
        icons = len(a["taken"])
        rats = 0 if a["rat_tamer"] else a["free"]
        before = a["score"]
        a["score"] = max(0, a["score"] + icons - rats)
        state["log"].append(event(f"Player {s + 1} Income: +{icons} icons, -{rats} Free Rats "
                                  f"({before} -> {a['score']})"))
    end_round(state)
    return True


def end_round(state: dict) -> None:
    """Coin Pouches back; 1 new Resource on every Gathering space (not after the last round)."""
    for space, (seat, pawn) in list(state["pawns"].items()):
        if pawn == "coin":
            del state["pawns"][space]
            state["alch"][seat]["home"].append("coin")
    for a in state["alch"]:
        a["asst"], a["asst_used"], a["rat_tamer"] = None, False, False
    if state["round"] >= ROUNDS:
        final_scoring(state)
        return
    rng = Rng(state["rng"])
    rng.shuffle(state["bag"])
    state["rng"] = rng.state
    for g in BOARDS[state["board"]]["gathering_ids"]:
        res = draw(state)
        if res is not None:   # bag exhaustion: skip the remaining spaces (game-data 3.4 #12)
            add_to_space(state, g, res)
    state["log"].append(event("The Forest is replenished", irreversible=True))
    state["round"] += 1
    state["phase"] = "placement"
    state["turn"] = 0
    state["acted"] = False


def breakdown(state: dict, seat: int) -> dict[str, int]:
    """End of the Game: Score Track + Completed Vials + Captured Rats + each Recipe."""
    a = state["alch"][seat]
    vials = sum(a["tox"][vial_content(a["brewer"], v)] for v in completed_vials(a["brewer"]))
    out = {"Score Track": a["score"], "Completed Vials": vials,
           "Captured Rats": a["captured"] * a["tox"]["rat"]}
    for rid, ing in state["recipes"]:
        out[f"Recipe: {RECIPES[rid]['name']}"] = recipe_points(rid, a["brewer"], ing)
    out["Total"] = sum(out.values())
    return out


def final_scoring(state: dict) -> None:
    bd = {str(s): breakdown(state, s) for s in range(state["players"])}
    state["final"] = {"scores": {s: b["Total"] for s, b in bd.items()}, "breakdown": bd}
    state["phase"] = "end"
    state["log"].append(event("Final scores: " + ", ".join(
        f"Player {int(s) + 1} {b['Total']}" for s, b in bd.items())))


def result(state: dict) -> dict | None:
    """Ranks by total; ties broken by final turn order (rulebook "End of the Game")."""
    if state["final"] is None:
        return None
    scores = state["final"]["scores"]
    pos = {s: i for i, s in enumerate(state["order"])}
    seats = sorted(range(state["players"]), key=lambda s: (-scores[str(s)], pos[s]))
    return {"ranks": [[s] for s in seats], "scores": dict(scores),
            "tiebreak": "ties broken by turn order (first in turn order wins)",
            "breakdown": state["final"]["breakdown"]}
