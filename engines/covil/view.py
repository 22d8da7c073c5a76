"""Per-viewer views (see VIEW.md): hidden Power Relic hands and deck orders never leave."""
from __future__ import annotations

from functools import lru_cache

from . import combat, core, data, phases, scoring
from .data import card, relic
from .text import minion_text, relic_text


@lru_cache(maxsize=None)
def _minion_card(cid: str) -> tuple:
    c = card(cid)
    return (c["name"], c["class"], c["base"], c["cost"], c["type"], c["family"], c["kind"],
            minion_text(cid))


def _minion_info(cid: str) -> dict:
    name, cls, base, cost, typ, family, kind, text = _minion_card(cid)
    return {"name": name, "class": cls, "base": base, "cost": cost, "type": typ,
            "family": family, "kind": kind, "text": text}


def _relic_info(rid: str) -> dict:
    return {"name": relic(rid)["name"], "gold": relic(rid)["gold"], "target": relic(rid)["target"],
            "text": relic_text(rid)}


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
    return game_views(state, [viewer], reveal)[viewer]


def game_views(state: dict, viewers: list, reveal: bool) -> dict:
    """``{viewer: game_view(state, viewer, reveal)}``: the public part (zones, dominance, the
    Minions' texts, the owners' public facts) is computed once for every viewer."""
    minions: set[str] = set(state["pool"]) | set(state["mdiscard"])
    relics: set[str] = set(state["rdiscard"])
    owners = []
    for o, p in enumerate(state["own"]):
        minions.update(m["id"] for m in p["hall"])
        relics.update(p["active"])
        owners.append({
            "owner": o, "seat": p["seat"], "dummy": p["seat"] is None,
            "name": core.name(state, o), "gold": p["gold"], "cap": core.treasury_cap(state, o),
            "hp": p["hp"], "fortress": p["fort"], "destroyed": p["dead"],
            "troops": sorted(p["troops"], key=lambda t: (t["z"], not t["up"])),
            "supply": 5 - len(p["troops"]),
            "hall": [dict(m) for m in p["hall"]],
            "hand": None, "hand_count": len(p["hand"]),
            "active": list(p["active"]),
            "relic_price": core.relic_price(state, o),
            "vp": public_vp(state, o),
        })
    zones = {z: {k: d[k] for k in ("terrain", "adj", "spiral", "x", "y")}
             for z, d in core.zone_data(state).items()}
    dominance = phases.dominance(state) if state["phase"] != "place" else {}
    minion_infos = {c: _minion_info(c) for c in sorted(minions)}
    public_relics = {r: _relic_info(r) for r in relics}
    # Only a "pay" frame depends on the viewer (its relics are the payer's secret).
    frames = [None if f["kind"] == "pay" else _frame(state, f, None, reveal)
              for f in state["stack"]]
    out = {}
    for viewer in viewers:
        seen = dict(public_relics)
        mine = []
        for o, p in enumerate(state["own"]):
            if reveal or (viewer is not None and p["seat"] == viewer):
                mine.append(dict(owners[o], hand=sorted(p["hand"]),
                                 vp=scoring.breakdown(state, o)["total"]))
                for r in p["hand"]:
                    if r not in seen:
                        seen[r] = _relic_info(r)
            else:
                mine.append(owners[o])
        out[viewer] = {
            "board": state["board"], "board_name": data.BOARDS[state["board"]]["name"],
            "zones": zones, "day": state["day"], "days": data.RULES["days"],
            "phase": state["phase"], "first": state["first"], "turn": state["cur"],
            "rebels": state["rebels"], "rebels_total": data.RULES["rebels_total"],
            "pool": list(state["pool"]), "merc_deck": len(state["mdeck"]),
            "merc_discard": list(state["mdiscard"]), "relic_deck": len(state["rdeck"]),
            "relic_discard": list(state["rdiscard"]), "flips": list(state.get("flips", [])),
            "owners": mine,
            "stack": [fr if fr is not None else _frame(state, f, viewer, reveal)
                      for f, fr in zip(state["stack"], frames)],
            "dominance": dominance,
            "minions": minion_infos,
            "relics": {r: seen[r] for r in sorted(seen)},
        }
    return out


def public_vp(state: dict, o: int) -> int:
    """Owner ``o``'s Victory Points if the game ended now (rulebook "Final Scoring"), counting
    only what every seat sees: fortress, Treasury, Minions' costs and Influence. The gold on
    Power Relics still in hand is left out (those cards are hidden); the hand's size is public,
    so "VP per relic" Influence counts."""
    b = scoring.breakdown(state, o)
    return b["total"] - b["relics"]


def seat_views(state: dict, viewer: int | None, reveal: bool) -> list[dict]:
    """Each seat's public facts; ``score`` is :func:`public_vp` (hidden relic gold left out)."""
    out = []
    for s in range(state["players"]):
        p = state["own"][s]
        out.append({"seat": s, "gold": p["gold"], "hp": p["hp"], "relics": len(p["hand"]),
                    "troops": len(p["troops"]), "fortress": p["fort"], "destroyed": p["dead"],
                    "score": public_vp(state, s)})
    return out
