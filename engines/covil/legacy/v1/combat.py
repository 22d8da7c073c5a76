"""Attacks: declaration, the Defender's Response, Raise the stakes, the Outcome, fortress damage.

A combat is one frame on ``state["stack"]``::

    {"kind": "combat", "seats": [seat deciding] or [] (dummy / Rebels decide automatically),
     "att": owner | None (Rebels), "from": zone | None, "akind": "melee"|"ranged"|"rebel",
     "acard": Minion exhausted to attack | None, "def": owner, "dz": zone,
     "dup": bool | None (defending troop standing), "target": "troop"|"fortress",
     "guarded": bool (fortress attacks only), "dcard": Minion exhausted to defend | None,
     "side": "def"|"atk" (whose response it is), "acted": bool, "prev_pass": bool}

Strengths are computed live (relics activated as responses count at once).
"""
from __future__ import annotations

from engines.base import event

from . import core
from .data import RULES, card


def aftershock(state: dict, f: dict) -> dict:
    """Effect of the attacking Minion if it is an Aftershock Minion (else ``{}``)."""
    if not f.get("acard"):
        return {}
    c = card(f["acard"])
    return c["effect"] if c["type"] == "aftershock" else {}


def _aftershock_bonus(state: dict, f: dict) -> int:
    e = aftershock(state, f)
    if "bonus" not in e:
        return 0
    when = e["when"]
    z = f["dz"]
    if when == "always":
        ok = True
    elif when == "target_fortress":
        ok = bool(core.fortress_at(state, z, exclude=f["att"]))
    elif when == "target_lying":
        ok = f["target"] == "troop" and f["dup"] is False
    elif when == "own_two":
        ok = core.troops_in(state, f["att"], z) >= 2
    elif when == "target_terrain":
        ok = e["terrain"] in core.terrain(state, z)
    else:  # pragma: no cover - data error
        raise ValueError(f"unknown aftershock condition {when}")
    return e["bonus"] if ok else 0


def attack_strength(state: dict, f: dict) -> int:
    """Attack > Attacking strength: (troop melee 1) + fitting base stat + Reinforcements +
    active relics + Aftershock. Rebels attack with strength 3 (Rebels Retaliate)."""
    if f["akind"] == "rebel":
        return RULES["rebel_strength"]
    o, kind = f["att"], f["akind"]
    c = card(f["acard"])
    s = RULES["troop_melee"] if kind == "melee" else 0
    if c["class"].lower() == kind:
        s += c["base"]
    s += core.reinforcement(state, o, kind, f["from"])
    s += core.relic_bonus(state, o, kind)
    return s + _aftershock_bonus(state, f)


def defense_strength(state: dict, f: dict) -> int:
    """The Defender's Response: troop defense 1 + exhausted Defense Minion's base + defense
    Reinforcements + active relics. An unguarded fortress has no defence (0)."""
    if f["target"] == "fortress" and not f["guarded"]:
        return 0
    d = f["def"]
    s = RULES["troop_defense"]
    if f["dcard"]:
        s += card(f["dcard"])["base"]
    s += core.reinforcement(state, d, "defense", f["dz"])
    return s + core.relic_bonus(state, d, "defense")


def side_owner(f: dict) -> int | None:
    return f["def"] if f["side"] == "def" else f["att"]


def refresh_seats(state: dict, f: dict) -> None:
    """The seat that must respond now, or nobody when a dummy or the Rebels respond."""
    o = side_owner(f)
    f["seats"] = [] if o is None or core.is_dummy(state, o) else [state["own"][o]["seat"]]


def defend_options(state: dict, f: dict) -> list[int]:
    """Hall indexes of ready Defense Minions the defender may exhaust (once per combat)."""
    if f["side"] != "def" or f["dcard"] or aftershock(state, f).get("no_minion"):
        return []
    return [i for i, m in enumerate(state["own"][f["def"]]["hall"])
            if m["ex"] == core.READY and card(m["id"])["class"] == "Defense"]


def may_activate(state: dict, f: dict) -> bool:
    """Whether the side to respond may activate Power Relics (Poisoner forbids the defender)."""
    o = side_owner(f)
    if o is None or core.is_dummy(state, o):
        return False
    return not (f["side"] == "def" and aftershock(state, f).get("no_relics"))


def start(state: dict, f: dict) -> None:
    """Declare an attack (frame already filled in) and push it; an unguarded fortress has no
    response, so it resolves at once."""
    f.update({"kind": "combat", "dcard": None, "side": "def", "acted": False, "prev_pass": False})
    what = ("the fortress" if f["target"] == "fortress" else
            ("standing troop" if f["dup"] else "lying troop"))
    src = f"from {f['from']} " if f.get("from") else ""
    state["log"].append(event(
        f"{core.name(state, f['att'])} attacks {core.name(state, f['def'])}'s {what} in "
        f"{f['dz']} {src}({f['akind']}, strength {attack_strength(state, f)})."))
    if f["target"] == "fortress" and not f["guarded"]:
        resolve(state, f)
        return
    refresh_seats(state, f)
    state["stack"].append(f)


def defend(state: dict, f: dict, slot: int) -> None:
    """The defender exhausts one defensive Minion to add its base stat."""
    m = state["own"][f["def"]]["hall"][slot]
    m["ex"] = core.EXHAUSTED
    f["dcard"] = m["id"]
    f["acted"] = True
    state["log"].append(event(f"{core.name(state, f['def'])} exhausts {card(m['id'])['name']} "
                              f"to defend (defence {defense_strength(state, f)})."))


def done(state: dict, f: dict) -> None:
    """End one side's response; two passes in a row (or the Rebels' turn) resolve the combat."""
    passed = not f["acted"]
    if passed and f["prev_pass"]:
        resolve_top(state)
        return
    if f["side"] == "def" and f["att"] is None:
        resolve_top(state)
        return
    f["prev_pass"] = passed
    f["acted"] = False
    f["side"] = "atk" if f["side"] == "def" else "def"
    refresh_seats(state, f)


def resolve_top(state: dict) -> None:
    f = state["stack"].pop()
    assert f["kind"] == "combat"
    resolve(state, f)


def resolve(state: dict, f: dict) -> None:
    """The Outcome (A/B/C), then The fortress gets damaged. ``f`` is no longer on the stack."""
    a, d = attack_strength(state, f), defense_strength(state, f)
    att, dfd, z = f["att"], f["def"], f["dz"]
    effect = aftershock(state, f)
    p = state["own"][dfd]
    state["log"].append(event(f"Combat in {z}: attack {a} against defence {d}."))
    if f["target"] == "fortress":
        dmg = a - d if f["guarded"] else a
        if dmg > 0:
            damage_fortress(state, f, dmg)
        else:
            state["log"].append(event("The defender wins; nothing happens."))
        return
    if a <= d:
        state["log"].append(event("The defender wins; nothing happens."))
        return
    in_fort = p["fort"] == z and not p["dead"]
    if att is not None:
        core.gain_gold(state, att, 1)
        if effect.get("steal_gold") and p["gold"] > 0:
            p["gold"] -= 1
            core.gain_gold(state, att, 1)
            state["log"].append(event(f"{core.name(state, att)} takes 1 gold from "
                                      f"{core.name(state, dfd)}'s Treasury."))
    if f["dup"] and not effect.get("remove_standing"):
        core.lie_down(state, dfd, z)
        state["log"].append(event(f"{core.name(state, dfd)} loses: the troop lies down and "
                                  "must retreat."))
        state["stack"].append({"kind": "retreat", "owner": dfd, "zone": z,
                               "seats": [] if core.is_dummy(state, dfd) else [p["seat"]]})
    else:
        core.remove_troop(state, dfd, z, bool(f["dup"]))
        state["log"].append(event(f"{core.name(state, dfd)} loses: the troop is removed."))
    if in_fort:
        damage_fortress(state, f, a - d)


def damage_fortress(state: dict, f: dict, dmg: int) -> None:
    """Deal fortress damage: Castellan-style shields, Aftershock extra damage, Hidden treasures
    (+1 gold), Loot the Fortress (a relic for the last hit point), destruction."""
    dfd, att = f["def"], f["att"]
    p = state["own"][dfd]
    for m in p["hall"]:
        dmg -= card(m["id"])["effect"].get("shield", 0) if card(m["id"])["type"] == "reinforcement" else 0
    if dmg > 0:
        dmg += aftershock(state, f).get("fortress_damage", 0)
    if dmg <= 0 or p["dead"]:
        return
    dealt = min(dmg, p["hp"])
    p["hp"] -= dealt
    state["log"].append(event(f"{core.name(state, dfd)}'s fortress takes {dealt} damage "
                              f"({p['hp']} hp left)."))
    if att is not None:
        core.gain_gold(state, att, 1)
    if p["hp"] == 0:
        p["dead"] = True
        state["log"].append(event(f"{core.name(state, dfd)}'s fortress is destroyed!"))
        if att is not None:
            core.draw_relics(state, att, 1, "Loot the Fortress")


def retreat_options(state: dict, f: dict) -> list[str]:
    """Outcome B: retreat into an adjacent zone (move-based Reinforcements apply)."""
    z = f["zone"]
    return core.reachable(state, z, core.move_reach(state, f["owner"], z))


def retreat(state: dict, to: str) -> None:
    f = state["stack"].pop()
    core.move_troop(state, f["owner"], f["zone"], False, to)
    state["log"].append(event(f"{core.name(state, f['owner'])} retreats from {f['zone']} to {to}."))


# ----- declaring attacks -------------------------------------------------------------------
def targets(state: dict, o: int, frm: str, kind: str, cid: str) -> list[dict]:
    """Legal targets of an attack by ``o`` from ``frm``: ``{"owner", "zone", "up"}`` for a troop
    or ``{"owner", "zone", "fortress": True}`` for an unguarded fortress. Melee: same zone;
    ranged: same or adjacent zone (the Lich Lord's Aftershock: up to 2 zones)."""
    c = card(cid)
    if kind == "melee":
        zs = [frm]
    else:
        reach = c["effect"].get("range", 1) if c["type"] == "aftershock" else 1
        zs = [frm, *core.reachable(state, frm, reach)]
    out = []
    for t in core.enemies(state, o):
        troops = state["own"][t]["troops"]
        for z in sorted(zs):
            for up in (True, False):
                if any(tr["z"] == z and tr["up"] == up for tr in troops):
                    out.append({"owner": t, "zone": z, "up": up})
            p = state["own"][t]
            if p["fort"] == z and not p["dead"] and core.troops_in(state, t, z) == 0:
                out.append({"owner": t, "zone": z, "fortress": True})
    return out


def declare(state: dict, o: int, frm: str, kind: str, slot: int, tgt: dict) -> None:
    """Exhaust the attacking Minion and start the combat against ``tgt`` (from :func:`targets`)."""
    m = state["own"][o]["hall"][slot]
    m["ex"] = core.EXHAUSTED
    t = tgt["owner"]
    fort = bool(tgt.get("fortress"))
    f = {"att": o, "from": frm, "akind": kind, "acard": m["id"], "def": t, "dz": tgt["zone"],
         "dup": None if fort else tgt["up"], "target": "fortress" if fort else "troop",
         "guarded": False}
    start(state, f)
