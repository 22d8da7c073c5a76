"""Per-seat views (VIEW.md (b)). Everything is public except the bag's order."""
from __future__ import annotations

from collections import Counter

from .alchilab import distiller_fill
from .data import ASSISTANTS, BAG_TYPES, BONUS, D_BELOW_TOP, NAMES, POOL_TYPES, RECIPES, geometry
from .setup import assistant_at


def token_view(token: str) -> dict:
    if token.startswith("scroll-"):
        res = token[len("scroll-"):]
        return {"kind": "scroll", "token": token, "res": res, "label": f"{NAMES[res]} Scroll"}
    return {"kind": "extra", "token": token, "label": BONUS["extra_labels"][token]}


def _layout_view(layout: dict) -> dict:
    out = {}
    for slot, token in layout.items():
        v = token_view(token)
        if v["kind"] == "scroll":
            v["set"] = "brewer" if slot.startswith("bc-") else "distiller"
        out[slot] = v
    return out


def alchilab_view(state: dict, seat: int) -> dict:
    a = state["alch"][seat]
    fresh = set(a["fresh"])
    asst = None
    if a["asst"] is not None:
        asst = {"space": a["asst"], "id": assistant_at(state, a["asst"]), "used": a["asst_used"]}
    pending = None
    if a["pending"]:
        pending = dict(a["pending"][-1])
    elif state["phase"] == "placement" and state["acted"] and \
            state["order"][state["turn"]] == seat:
        pending = {"kind": "after_placement"}
    fill = distiller_fill(a["dist"])
    return {
        "seat": seat, "score": a["score"],
        "pool": {t: a["pool"][t] for t in POOL_TYPES}, "cheese": a["cheese"],
        "worm_tokens": dict(a["wtok"]), "free_rats": a["free"], "captured_rats": a["captured"],
        "toxicity": dict(a["tox"]), "scrolls": list(a["scrolls"]),
        "brewer": {c: {"res": r, "fresh": c in fresh} for c, r in a["brewer"].items()},
        "distiller": {"mushrooms": a["dist"], "fresh": a["dist"] - a["dlock"], "fill": fill,
                      "top_pairs": max(0, a["dist"] - D_BELOW_TOP) // 2},
        "taken": list(a["taken"]), "income_icons": len(a["taken"]),
        "pawns_home": list(a["home"]), "assistant": asst,
        "done": bool(state["done"][seat]) if state["phase"] == "brewing" else False,
        "pending": pending,
    }


def game_view(state: dict, viewer: int | None, reveal: bool) -> dict:
    phase = state["phase"]
    hired = {a["asst"]: (s, a["asst_used"]) for s, a in enumerate(state["alch"]) if a["asst"]}
    bag = Counter(state["bag"])
    return {
        "geometry": geometry(state["board"]),
        "round": state["round"], "phase": phase, "turn_order": list(state["order"]),
        "current": state["order"][state["turn"]] if phase == "placement" else None,
        "forest": {"resources": {g: dict(c) for g, c in state["forest"].items() if c},
                   "pawns": {sp: {"seat": s, "pawn": p} for sp, (s, p) in state["pawns"].items()}},
        "bag": {t: bag.get(t, 0) for t in BAG_TYPES}, "bag_total": len(state["bag"]),
        "worm_supply": state["worms"],
        "assistants": [{"space": f"a-{i + 1}", "id": aid, "name": ASSISTANTS[aid]["name"],
                        "phase": ASSISTANTS[aid]["phase"], "text": ASSISTANTS[aid]["text"],
                        "hired_by": hired.get(f"a-{i + 1}", (None, False))[0],
                        "used": hired.get(f"a-{i + 1}", (None, False))[1]}
                       for i, aid in enumerate(state["assistants"])],
        "recipes": [{"id": r, "name": RECIPES[r]["name"], "ingredient": ing,
                     "points": RECIPES[r]["points"], "text": RECIPES[r]["text"]}
                    for r, ing in state["recipes"]],
        "bonus_layout": _layout_view(state["layout"]),
        "alchilabs": [alchilab_view(state, s) for s in range(state["players"])],
        "breakdown": state["final"]["breakdown"] if state["final"] else None,
    }


def seat_views(state: dict) -> list[dict]:
    pos = {s: i for i, s in enumerate(state["order"])}
    return [{"seat": s, "score": a["score"], "turn_position": pos[s] + 1}
            for s, a in enumerate(state["alch"])]


