"""Per-seat views and determinization (hidden information: supplies behind screens and bags).

What a seat knows: its own supply; every seat's supply size and its revealed ("shown") tiles;
boards, queue, discard piles (face up beside the screens), gold, magic coins, victory tokens, the
box. Bags' contents are never shown (their sizes are). With 4 players a partner's supply is hidden
too ("It is forbidden to show each other the drawn monster tiles").
"""
from __future__ import annotations

from engines.base import Rng, public_copy

from . import data
from .effects import LABELS, demon_level, hire_price
from .state import (
    available_boards,
    cell_names,
    fear_of,
    kind,
    marker,
    net_fear,
    seats_of,
    side_name,
    side_of,
)


def tile(t: int | None) -> dict | None:
    return None if t is None else {"id": t, "type": data.TILES[t]["id"]}


def tiles(ts: list[int]) -> list[dict]:
    return [tile(t) for t in ts]


def _ability_text(ops: list[dict]) -> str:
    parts = []
    for o in ops:
        s = o["op"].replace("_", " ")
        if "n" in o:
            s += f" {o['n']}"
        if "max_fear" in o:
            s += f" (fear <= {o['max_fear']})"
        if o.get("optional"):
            s += " (optional)"
        parts.append(s)
    return "; ".join(parts)


def _catalog() -> dict:
    out = {}
    for tid, t in data.TYPES.items():
        out[tid] = {"name": t["name"], "colour": t["colour"], "fear": t["fear"],
                    "cost": t["cost"], "starting": t["starting"],
                    # the abilities as data, for the renderer's ability symbols and card texts
                    "abilities": {"passive": t["passive"], "spawn": t["spawn"],
                                  "activated": t["activated"], "requires": t["requires"]},
                    "passive": "; ".join(
                        p["kind"].replace("_", " ") + (f" +{p['n']}" if "n" in p else "")
                        + (f" {p['colour']}" if "colour" in p else "") for p in t["passive"]),
                    "spawn": _ability_text(t["spawn"]), "activated": _ability_text(t["activated"])}
    return out


CATALOG = _catalog()


def seat_views(state: dict, viewer: int | None, reveal: bool) -> list[dict]:
    """Player-facing summary per seat (the generic client shows it as key/value pairs): short
    labels, 1-based board and team numbers; the tiles themselves are in ``game["screens"]``."""
    out = []
    for s, st in enumerate(state["seats"]):
        side = side_of(state, s)
        sd = state["sides"][side]
        v = {"seat": s}
        if state["players"] == 4:
            v["Team"] = f"Team {side + 1}"
        v.update({
            "Gold": sd["gold"], "Magic coins": sd["magic"],
            "Victory tokens": sd["vp"],
            "Tiles behind screen": len(st["supply"]),
            "Revealed": ", ".join(f"{data.TILES[t]['colour']} {data.TILES[t]['id']}"
                                  for t in st["shown"]) or "none",
            "Bag": len(sd["bag"]), "Discard": len(sd["discard"]),
            "Boards": ", ".join(str(b + 1) for b in available_boards(state, s)),
            "Passed": st["passed"],
        })
        out.append(v)
    return out


def screens(state: dict, viewer: int | None, reveal: bool) -> list[dict]:
    """What the renderer draws behind each screen: ``{seat, side, supply_count, shown: [tile],
    supply: [tile] | None (the viewer's own seat, or reveal), passed}``."""
    return [{"seat": s, "side": side_of(state, s), "supply_count": len(st["supply"]),
             "shown": tiles(st["shown"]),
             "supply": tiles(st["supply"]) if (reveal or viewer == s) else None,
             "passed": st["passed"]}
            for s, st in enumerate(state["seats"])]


def game_view(state: dict, viewer: int | None, reveal: bool, prompts: dict) -> dict:
    boards = []
    for b, bd in enumerate(state["boards"]):
        f = data.SIDES[bd["face"]]
        halves = []
        for h in (0, 1):
            cells = []
            for c in cell_names(bd["face"]):
                slot = bd["cells"][h][c]
                cells.append({"cell": c, "kind": kind(c),
                              "tile": None if slot is None else
                              {**tile(slot["t"]), "up": slot["up"],
                               "fear": fear_of(state, b, h, c)}})
            halves.append({"side": bd["halves"][h], "seats": seats_of(state, bd["halves"][h]),
                           "cells": cells, "conquest": bd["conquest"][h]})
        boards.append({"board": b, "face": bd["face"], "face_name": f["name"], "halves": halves,
                       "marker": marker(state, b), "net_fear": net_fear(state, b),
                       "track": f["track"], "keep_cost": f["keep_cost"],
                       "conquest_steps": data.CONQUEST_STEPS,
                       "loot": bd["loot"], "stone": bd["stone"], "cargo": dict(bd["cargo"]),
                       "available_to": [s for s in range(state["players"])
                                        if b in available_boards(state, s)]})
    sides = []
    for i, sd in enumerate(state["sides"]):
        sides.append({"side": i, "name": side_name(state, i), "seats": seats_of(state, i),
                      "gold": sd["gold"], "magic": sd["magic"], "vp": sd["vp"],
                      "bag_count": len(sd["bag"]), "discard": tiles(sd["discard"]),
                      "bag": tiles(sd["bag"]) if reveal else None})
    pending = None
    top = state["stack"][-1] if state["stack"] else None
    if top and top["kind"] != "fx":
        pending = {"kind": top["kind"], "seats": list(top["seats"]), "actor": top.get("actor"),
                   "text": LABELS.get(top["kind"], "Fortress: keep or discard your monster")}
        if top["kind"] == "summon":
            pending["level"] = demon_level(top["ss"]) + 1
            pending["ss"] = top["ss"]
        if top["kind"] == "move_dest":
            pending["tile"] = tile(top["tile"])
    turn = state["turn"]
    return {
        "players": state["players"], "round": state["round"], "phase": state["phase"],
        "first": state["first"], "turn_side": turn["side"] if turn else None,
        "sides": sides, "boards": boards, "screens": screens(state, viewer, reveal),
        "queue": [{"slot": k, "tile": tile(t), "surcharge": data.SURCHARGE[k],
                   "price": hire_price(state, k) if t is not None else None}
                  for k, t in enumerate(state["queue"])],
        "corp_bag_count": len(state["corp_bag"]),
        "corp_bag": tiles(state["corp_bag"]) if reveal else None,
        "queue_discard": tiles(state["queue_discard"]),
        "demons": [{"demon": d, "id": data.DEMONS[d]["id"], "name": data.DEMONS[d]["name"],
                    "active": up, "levels": [
                        {"min_ss": L["min_ss"], "ops": _ability_text(lv["ops"]),
                         "effects": lv["ops"],
                         "pay": lv.get("pay", 0), "pay_if_ss": lv.get("pay_if_ss")}
                        for L, lv in zip(data.LEVELS, data.DEMONS[d]["levels"])]}
                   for d, up in enumerate(state["demons"])],
        "box": tiles(state["box"]), "pending": pending, "winner": state["winner"],
        "victory_to_win": data.VICTORY_TO_WIN, "magic_left": data.MAGIC_COINS - sum(
            s["magic"] for s in state["sides"]),
        "catalog": CATALOG,
    }


def determinize(state: dict, viewer: int | None, rng: Rng) -> dict:
    """Redeal, per side, the tiles the viewer cannot see -- the bag and the unrevealed part of
    every other seat's supply (a 4-player partner's included) -- keeping every count; the RNG is
    reseeded (future draws are unknown). Each pool is sorted before the shuffle: the sample
    never depends on the real hidden order."""
    det = public_copy(state, viewer)
    det["rng"] = rng.next64()
    for side, sd in enumerate(det["sides"]):
        holders = [s for s in seats_of(det, side) if s != viewer]
        pool = list(sd["bag"])
        kept = {}
        for s in holders:
            st = det["seats"][s]
            hidden = [t for t in st["supply"] if t not in st["shown"]]
            kept[s] = len(hidden)
            pool += hidden
        pool.sort()
        rng.shuffle(pool)
        for s in holders:
            st = det["seats"][s]
            st["supply"] = list(st["shown"]) + [pool.pop() for _ in range(kept[s])]
        sd["bag"] = sorted(pool)
    # the "Evil Corp." bag is drawn from by a random index: its order is no information
    det["corp_bag"] = sorted(det["corp_bag"])
    return det
