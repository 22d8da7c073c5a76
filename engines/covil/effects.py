"""Free actions: activating Power Relics (Instant Ability + Troop Bonus), Command abilities,
free attacks, and the small choice frames they push.

Frames::

    {"kind": "effect", "seats": [seat], "owner": o, "do": "move_own"|"move_enemy"|"rest"|
     "rest_other"|"repair"|"rebel"|"add_rebel", "distance": n, "source": "relic"|"command",
     "card": Minion id | None, "slot": hall index | None, "prev_ex": int | None}
    {"kind": "free_attack", "seats": [seat], "owner": o}
    {"kind": "aim", "seats": [seat], "owner": o, "from": zone, "akind": "melee"|"ranged",
     "slot": hall index, "free": bool}
"""
from __future__ import annotations

from engines.base import event

from . import combat, core
from .data import RULES, card, relic
from .text import relic_text


def _seat(state: dict, o: int) -> list[int]:
    return [state["own"][o]["seat"]]


def _combat_frame(state: dict) -> dict | None:
    for f in reversed(state["stack"]):
        if f["kind"] == "combat":
            return f
    return None


def _forbidden_zone(state: dict, o: int) -> str | None:
    """The Defender's Response: relic moves may never avoid the combat itself, so a combatant's
    troops in the combat zone stay put while it is resolved."""
    f = _combat_frame(state)
    if f is None:
        return None
    if f["att"] == o:
        return f["from"]
    if f["def"] == o:
        return f["dz"]
    return None


# Complex on purpose: one branch per kind of effect on the minion cards (rulebook: the minion
# cards); side by side they read like the card list.
def effect_options(state: dict, f: dict) -> list[dict]:  # noqa: C901
    """Concrete choices of an effect frame (``skip``/``cancel`` not included)."""
    o, do = f["owner"], f["do"]
    p = state["own"][o]
    out: list[dict] = []
    if do == "move_own":
        bad = _forbidden_zone(state, o)
        seen = set()
        for t in p["troops"]:
            key = (t["z"], t["up"])
            if key in seen or t["z"] == bad:
                continue
            seen.add(key)
            for to in core.reachable(state, t["z"], f["distance"]):
                out.append({"type": "effect", "from": t["z"], "up": t["up"], "to": to})
    elif do == "move_enemy":
        for e in core.enemies(state, o):
            q = state["own"][e]
            for z in sorted({t["z"] for t in q["troops"] if t["up"] and t["z"] != q["fort"]}):
                for to in core.adjacent(state, z):
                    out.append({"type": "effect", "owner": e, "from": z, "to": to})
    elif do in ("rest", "rest_other"):
        for i, m in enumerate(p["hall"]):
            if m["ex"] > core.READY and not (do == "rest_other" and i == f.get("slot")):
                out.append({"type": "effect", "slot": i})
    elif do == "repair":
        if core.can_repair(state, o):
            out.append({"type": "effect"})
    elif do in ("rebel", "add_rebel"):
        if state["rebels"] < RULES["rebels_total"]:
            out.append({"type": "effect", "rebel": 1})
        if do == "rebel" and state["rebels"] > 0:
            out.append({"type": "effect", "rebel": -1})
    return out


def apply_effect(state: dict, a: dict) -> None:
    """Perform the chosen effect of the top effect frame and pop it."""
    f = state["stack"].pop()
    o, do = f["owner"], f["do"]
    who = core.name(state, o)
    if do == "move_own":
        core.move_troop(state, o, a["from"], a["up"], a["to"])
        state["log"].append(event(f"{who} moves a troop from {a['from']} to {a['to']}."))
    elif do == "move_enemy":
        core.move_troop(state, a["owner"], a["from"], True, a["to"])
        state["log"].append(event(f"{who} moves {core.name(state, a['owner'])}'s troop from "
                                  f"{a['from']} to {a['to']}."))
    elif do in ("rest", "rest_other"):
        m = state["own"][o]["hall"][a["slot"]]
        core.rest_minion(m)
        state["log"].append(event(f"{who} rests {card(m['id'])['name']}."))
    elif do == "repair":
        n = core.repair(state, o, card(f["card"])["effect"].get("amount", 1))
        state["log"].append(event(f"{who} repairs {n} hit point(s)."))
    elif do in ("rebel", "add_rebel"):
        state["rebels"] += a["rebel"]
        state["log"].append(event(f"{who} {'adds' if a['rebel'] > 0 else 'removes'} a Rebel "
                                  f"({state['rebels']} in town)."))


def cancel_effect(state: dict) -> None:
    """Skip a relic's optional Instant Ability, or take back a Command not yet performed."""
    f = state["stack"].pop()
    if f["source"] == "command":
        state["own"][f["owner"]]["hall"][f["slot"]]["ex"] = f["prev_ex"]


# ----- Power Relics --------------------------------------------------------------------------
def activate(state: dict, o: int, rid: str) -> None:
    """Power Relics: activate from hand; perform the Instant Ability right away (optional
    abilities needing a choice push a frame); the Troop Bonus lasts until the night."""
    p = state["own"][o]
    p["hand"].remove(rid)
    p["active"].append(rid)
    r = relic(rid)
    inst = r["instant"]
    state["log"].append(event(f"{core.name(state, o)} activates Power Relic {rid} "
                              f"({_describe_relic(rid)})."))
    do = inst["do"]
    if state["phase"] == "night" and do in ("free_attack", "move_own"):
        # Defending against the Rebels at night: the Troop Bonus counts, but an attack or a
        # move is an afternoon troop action (2.3), not part of a defence (README 15).
        state["log"].append(event(f"At night its Instant Ability ({do.replace('_', ' ')}) "
                                  "cannot be used."))
        return
    if do == "gain_gold":
        core.gain_gold(state, o, inst["amount"])
    elif do == "repair":
        core.repair(state, o, inst["amount"])
    elif do == "remove_rebel":
        state["rebels"] = max(0, state["rebels"] - 1)
    elif do == "free_attack":
        if attack_declarations(state, o, free=True):
            fr = {"kind": "free_attack", "seats": _seat(state, o), "owner": o}
            if state["stack"] and state["stack"][-1]["kind"] == "combat":
                # One combat at a time: the free attack waits until this combat is resolved.
                state["stack"].insert(len(state["stack"]) - 1, fr)
            else:
                state["stack"].append(fr)
    else:
        fr = {"kind": "effect", "seats": _seat(state, o), "owner": o,
              "do": "rest" if do == "rest" else do, "distance": inst.get("distance", 1),
              "source": "relic", "card": None, "slot": None, "prev_ex": None}
        if effect_options(state, fr):
            state["stack"].append(fr)


def _describe_relic(rid: str) -> str:
    return relic_text(rid)


# ----- Command abilities ---------------------------------------------------------------------
def command_frame(state: dict, o: int, slot: int) -> dict:
    m = state["own"][o]["hall"][slot]
    e = card(m["id"])["effect"]
    return {"kind": "effect", "seats": _seat(state, o), "owner": o, "do": e["do"],
            "distance": e.get("distance", 1), "source": "command", "card": m["id"],
            "slot": slot, "prev_ex": m["ex"]}


def command_options(state: dict, o: int) -> list[int]:
    """Hall indexes of ready Command Minions whose ability has something to do now."""
    out = []
    for i, m in enumerate(state["own"][o]["hall"]):
        if m["ex"] == core.READY and card(m["id"])["type"] == "command":
            fr = command_frame(state, o, i)
            if effect_options(state, fr):
                out.append(i)
    return out


def command(state: dict, o: int, slot: int) -> None:
    """Command: exhaust the Minion as a free action and choose how its ability applies."""
    fr = command_frame(state, o, slot)
    state["own"][o]["hall"][slot]["ex"] = core.EXHAUSTED
    state["log"].append(event(f"{core.name(state, o)} exhausts {card(fr['card'])['name']} "
                              "for its Command ability."))
    state["stack"].append(fr)


# ----- attacks -------------------------------------------------------------------------------
def attack_declarations(state: dict, o: int, free: bool) -> list[dict]:
    """``{"type": "attack", "from", "kind", "slot"}`` choices with at least one target: a
    standing troop (troop action) or any troop (free attack), and a ready Minion to exhaust."""
    p = state["own"][o]
    zones = sorted({t["z"] for t in p["troops"] if free or t["up"]})
    ready = [i for i, m in enumerate(p["hall"]) if m["ex"] == core.READY]
    out = []
    for z in zones:
        for kind in ("melee", "ranged"):
            for i in ready:
                if combat.targets(state, o, z, kind, p["hall"][i]["id"]):
                    out.append({"type": "attack", "from": z, "kind": kind, "slot": i})
    return out


def aim_frame(state: dict, o: int, a: dict, free: bool) -> dict:
    return {"kind": "aim", "seats": _seat(state, o), "owner": o, "from": a["from"],
            "akind": a["kind"], "slot": a["slot"], "free": free}


def aim_options(state: dict, f: dict) -> list[dict]:
    cid = state["own"][f["owner"]]["hall"][f["slot"]]["id"]
    return [{"type": "target", **t}
            for t in combat.targets(state, f["owner"], f["from"], f["akind"], cid)]
