"""Final Scoring and its Tie Breakers."""
from __future__ import annotations

from .data import RULES, card, relic


def breakdown(state: dict, o: int) -> dict:
    """VP parts of owner ``o``: fortress, treasury, minions, relics, influence, total."""
    p = state["own"][o]
    fortress = RULES["fortress_vp"] if p["fort"] is not None and not p["dead"] else 0
    minions = sum(card(m["id"])["cost"] for m in p["hall"])
    relics = sum(relic(r)["gold"] for r in p["hand"])
    infl = 0
    henchmen = sum(1 for m in p["hall"] if card(m["id"])["kind"] == "henchman")
    for m in p["hall"]:
        c = card(m["id"])
        if c["type"] != "influence":
            continue
        infl += c["effect"].get("vp_per_henchman", 0) * henchmen
        infl += c["effect"].get("vp_per_relic", 0) * len(p["hand"])
    total = fortress + p["gold"] + minions + relics + infl
    return {"fortress": fortress, "treasury": p["gold"], "minions": minions, "relics": relics,
            "influence": infl, "total": total}


def tiebreak_key(state: dict, o: int) -> tuple:
    """VP, then troops on the board, fortress hp, gold, most expensive Minion."""
    p = state["own"][o]
    return (breakdown(state, o)["total"], len(p["troops"]), 0 if p["dead"] else p["hp"],
            p["gold"], max(card(m["id"])["cost"] for m in p["hall"]))


TIEBREAK_TEXT = ("most VP; ties: most troops on the board, then most fortress hp, then most gold, "
                 "then the most expensive Minion; still tied: shared victory")


def result(state: dict) -> dict:
    """The result dict of docs/design.md ("The engine contract"). Solo adds ``dummy_scores`` and
    ``won`` (beat every dummy)."""
    players = state["players"]
    keys = {o: tiebreak_key(state, o) for o in range(len(state["own"]))}
    scores = {str(s): keys[s][0] for s in range(players)}
    order = sorted(range(players), key=lambda s: keys[s], reverse=True)
    ranks: list[list[int]] = []
    for s in order:
        if ranks and keys[ranks[-1][0]] == keys[s]:
            ranks[-1].append(s)
        else:
            ranks.append([s])
    out = {"ranks": ranks, "scores": scores, "tiebreak": TIEBREAK_TEXT,
           "breakdown": {str(o): breakdown(state, o) for o in range(len(state["own"]))}}
    if players == 1:
        dummies = range(1, len(state["own"]))
        out["dummy_scores"] = {str(d): keys[d][0] for d in dummies}
        best = max(keys[d] for d in dummies)
        out["won"] = keys[0] > best
        out["shared"] = keys[0] == best
    return out
