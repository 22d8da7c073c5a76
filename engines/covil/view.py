"""Per-viewer views (see VIEW.md): hidden Power Relic hands and deck orders never leave."""
from __future__ import annotations

from . import combat, core, data, phases
from .text import minion_text, relic_text
from .data import card, relic


def _minion_info(cid: str) -> dict:
    c = card(cid)
    return {"name": c["name"], "class": c["class"], "base": c["base"], "cost": c["cost"],
            "type": c["type"], "family": c["family"], "kind": c["kind"], "text": minion_text(cid)}


def _frame(state: dict, f: dict, viewer: int | None, reveal: bool) -> dict:
    out = {k: v for k, v in f.items()}
    if f["kind"] == "pay" and not reveal and viewer != state["own"][f["owner"]]["seat"]:
        out.pop("relics", None)
    if f["kind"] == "combat":
        out["attack"] = combat.attack_strength(state, f)
        out["defense"] = combat.defense_strength(state, f)
    return out


def game_view(state: dict, viewer: int | None, reveal: bool) -> dict:
    """The board for ``viewer``: zones, troops, fortresses, halls, pool, relics it may see."""
    minions: set[str] = set(state["pool"]) | set(state["mdiscard"])
    relics: set[str] = set(state["rdiscard"])
    owners = []
    for o, p in enumerate(state["own"]):
        sees = reveal or (viewer is not None and p["seat"] == viewer)
        minions.update(m["id"] for m in p["hall"])
        relics.update(p["active"])
        if sees:
            relics.update(p["hand"])
        owners.append({
            "owner": o, "seat": p["seat"], "dummy": p["seat"] is None,
            "name": core.name(state, o), "gold": p["gold"], "cap": core.treasury_cap(state, o),
            "hp": p["hp"], "fortress": p["fort"], "destroyed": p["dead"],
            "troops": sorted(p["troops"], key=lambda t: (t["z"], not t["up"])),
            "supply": 5 - len(p["troops"]),
            "hall": [dict(m) for m in p["hall"]],
            "hand": sorted(p["hand"]) if sees else None, "hand_count": len(p["hand"]),
            "active": list(p["active"]),
            "relic_price": core.relic_price(state, o),
        })
    zones = {z: {k: d[k] for k in ("terrain", "adj", "spiral", "x", "y")}
             for z, d in core.zone_data(state).items()}
    return {
        "board": state["board"], "board_name": data.BOARDS[state["board"]]["name"],
        "zones": zones, "day": state["day"], "days": data.RULES["days"],
        "phase": state["phase"], "first": state["first"], "turn": state["cur"],
        "rebels": state["rebels"], "rebels_total": data.RULES["rebels_total"],
        "pool": list(state["pool"]), "merc_deck": len(state["mdeck"]),
        "merc_discard": list(state["mdiscard"]), "relic_deck": len(state["rdeck"]),
        "relic_discard": list(state["rdiscard"]), "flips": list(state.get("flips", [])),
        "owners": owners,
        "stack": [_frame(state, f, viewer, reveal) for f in state["stack"]],
        "dominance": phases.dominance(state) if state["phase"] != "place" else {},
        "minions": {c: _minion_info(c) for c in sorted(minions)},
        "relics": {r: {"gold": relic(r)["gold"], "target": relic(r)["target"],
                        "text": relic_text(r)} for r in sorted(relics)},
    }


def seat_views(state: dict, viewer: int | None, reveal: bool) -> list[dict]:
    out = []
    for s in range(state["players"]):
        p = state["own"][s]
        out.append({"seat": s, "gold": p["gold"], "hp": p["hp"], "relics": len(p["hand"]),
                    "troops": len(p["troops"]), "fortress": p["fort"], "destroyed": p["dead"]})
    return out
