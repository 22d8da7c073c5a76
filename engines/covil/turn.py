"""Phase 2: Afternoon -- one player's turn: 2.1 Acquire a Minion, 2.2 free actions, 2.3 lie
down one troop for one troop action.

Frames::

    {"kind": "turn", "seats": [seat] | [] (dummy), "owner": o, "acq": bool, "lay": bool}
    {"kind": "pay", "seats": [seat], "owner": o, "card": id, "price": int,
     "minions": [hall indexes], "relics": [relic ids]}
"""
from __future__ import annotations

from engines.base import event

from . import combat, core, effects
from .data import RULES, card, relic


# ----- 2.1 Acquire a Minion ----------------------------------------------------------------
def price(state: dict, o: int, cid: str) -> int:
    """Cost after Influence discounts (may be negative: the buyer then gains gold)."""
    return core.net_price(card(cid)["cost"], core.discount(state, o, cid))


def _payable(state: dict, o: int) -> list[int]:
    """Minions that may be placed back in the pool as payment: ready, not the Dark Overlord."""
    return [i for i, m in enumerate(state["own"][o]["hall"]) if i > 0 and m["ex"] == core.READY]


def acquire_options(state: dict, o: int) -> list[dict]:
    p = state["own"][o]
    ready = _payable(state, o)
    most = (p["gold"] + sum(relic(r)["gold"] for r in p["hand"])
            + sum(card(p["hall"][i]["id"])["cost"] for i in ready))
    room = len(p["hall"]) - 1 - len(ready) + 1 <= RULES["hall_slots"]
    if not room:
        return []
    return [{"type": "acquire", "card": c} for c in dict.fromkeys(state["pool"])
            if price(state, o, c) <= most]


def start_acquire(state: dict, o: int, cid: str) -> None:
    state["stack"].append({"kind": "pay", "seats": [state["own"][o]["seat"]], "owner": o,
                           "card": cid, "price": price(state, o, cid), "minions": [],
                           "relics": []})


def paid_value(state: dict, f: dict) -> int:
    p = state["own"][f["owner"]]
    return (sum(card(p["hall"][i]["id"])["cost"] for i in f["minions"])
            + sum(relic(r)["gold"] for r in f["relics"]))


def _can_confirm(state: dict, f: dict) -> bool:
    p = state["own"][f["owner"]]
    need = max(0, f["price"] - paid_value(state, f))
    size = len(p["hall"]) - 1 - len(f["minions"]) + 1
    return p["gold"] >= need and size <= RULES["hall_slots"]


def _hall_full(state: dict, f: dict) -> bool:
    p = state["own"][f["owner"]]
    return len(p["hall"]) - 1 - len(f["minions"]) + 1 > RULES["hall_slots"]


def pay_options(state: dict, f: dict) -> list[dict]:
    """Payment steps: add a ready Minion or an inactive relic while the price is not covered
    (a full hall must give back a Minion first), confirm when the gold covers the rest."""
    o = f["owner"]
    p = state["own"][o]
    out: list[dict] = []
    minions = [{"type": "pay_minion", "slot": i} for i in _payable(state, o)
               if i not in f["minions"]]
    short = paid_value(state, f) < f["price"]
    if short or _hall_full(state, f):
        out += minions
    if short:
        left = list(p["hand"])
        for r in f["relics"]:
            left.remove(r)
        out += [{"type": "pay_relic", "relic": r} for r in dict.fromkeys(sorted(left))]
    if _can_confirm(state, f):
        out.append({"type": "confirm"})
    out.append({"type": "cancel"})
    return out


def confirm(state: dict) -> None:
    """Pay (gold, discarded relics, Minions placed back in the pool), take change back in gold,
    and place the new Minion in the Champions Hall tired."""
    f = state["stack"].pop()
    o = f["owner"]
    p = state["own"][o]
    value = paid_value(state, f)
    need = max(0, f["price"] - value)
    p["gold"] -= need
    returned = [p["hall"][i]["id"] for i in f["minions"]]
    for i in sorted(f["minions"], reverse=True):
        del p["hall"][i]
    for r in f["relics"]:
        p["hand"].remove(r)
        state["rdiscard"].append(r)
    state["pool"].remove(f["card"])
    state["pool"].extend(returned)
    p["hall"].append({"id": f["card"], "ex": core.TIRED})
    core.clamp_gold(state, o)
    # 2.1: "If the Minion that you replaced at the pool ... is worth more gold than the one that
    # you are acquiring, you may get the difference as gold back": change comes from returned
    # Minions only (printed costs, against the price after Influence; a relic or gold paid
    # beyond the price gives nothing back; above the Treasury cap it is lost). README 2.
    minions = sum(card(c)["cost"] for c in returned)
    change = max(0, minions - f["price"])
    if change:
        core.gain_gold(state, o, change)
    parts = [f"{need} gold"] if need else []
    parts += [card(c)["name"] for c in returned] + [f"relic {r}" for r in f["relics"]]
    state["log"].append(event(
        f"{core.name(state, o)} acquires {card(f['card'])['name']} paying "
        f"{', '.join(parts) or 'nothing'}" + (f" and gets {change} gold back" if change else "")
        + "."))
    for fr in state["stack"]:
        if fr["kind"] == "turn" and fr["owner"] == o:
            fr["acq"] = True


# ----- 2.3 troop actions -----------------------------------------------------------------------
def troop_actions(state: dict, o: int) -> list[dict]:
    p = state["own"][o]
    out: list[dict] = []
    zones = core.standing_zones(state, o)
    rest = [i for i, m in enumerate(p["hall"]) if m["ex"] > core.READY]
    for z in zones:
        for to in core.reachable(state, z, core.move_reach(state, o, z)):
            out.append({"type": "move", "from": z, "to": to})
        out += [{"type": "rest", "from": z, "slot": i} for i in rest]
        if core.can_repair(state, o):
            out.append({"type": "repair", "from": z})
        # Gain 1 gold also at the cap (the gold is lost): lying down never forces a move.
        out.append({"type": "gold", "from": z})
    out += effects.attack_declarations(state, o, free=False)
    return out


def turn_actions(state: dict, f: dict) -> list[dict]:
    o = f["owner"]
    p = state["own"][o]
    out: list[dict] = []
    if not f["acq"]:
        out += acquire_options(state, o)
    out += [{"type": "activate", "relic": r} for r in dict.fromkeys(sorted(p["hand"]))]
    out += [{"type": "command", "slot": i} for i in effects.command_options(state, o)]
    if not f["lay"]:
        out += troop_actions(state, o)
    if f["lay"] or not core.any_standing(state, o):
        out.append({"type": "end_turn"})
    return out


def _lay(state: dict, o: int, z: str) -> None:
    core.lie_down(state, o, z)
    for fr in state["stack"]:
        if fr["kind"] == "turn" and fr["owner"] == o:
            fr["lay"] = True


def apply_troop_action(state: dict, o: int, a: dict) -> None:
    """Lie down one standing troop in ``a["from"]`` and perform its action."""
    t, z = a["type"], a["from"]
    who = core.name(state, o)
    if t == "attack":
        state["stack"].append(effects.aim_frame(state, o, a, free=False))
        return
    _lay(state, o, z)
    if t == "move":
        core.move_troop(state, o, z, False, a["to"])
        state["log"].append(event(f"{who} lies down a troop and moves it from {z} to {a['to']}."))
    elif t == "rest":
        m = state["own"][o]["hall"][a["slot"]]
        core.rest_minion(m)
        state["log"].append(event(f"{who} lies down a troop in {z} to rest "
                                  f"{card(m['id'])['name']}."))
    elif t == "repair":
        n = core.repair(state, o, core.repair_amount(state, o))
        state["log"].append(event(f"{who} lies down a troop in {z} to repair {n} hit point(s)."))
    elif t == "gold":
        if core.gain_gold(state, o, 1):
            state["log"].append(event(f"{who} lies down a troop in {z} to gain 1 gold."))
        else:
            state["log"].append(event(f"{who} lies down a troop in {z} to gain 1 gold; the "
                                      f"Treasury is full, so the gold is lost."))


def apply_target(state: dict, a: dict) -> None:
    """Second step of an attack: the target is declared; the troop lies down (unless this is
    a free attack) and the Minion is exhausted."""
    f = state["stack"].pop()
    o = f["owner"]
    if f["free"]:
        assert state["stack"][-1]["kind"] == "free_attack"
        state["stack"].pop()
    else:
        _lay(state, o, f["from"])
    tgt = {k: a[k] for k in ("owner", "zone", "up", "fortress") if k in a}
    combat.declare(state, o, f["from"], f["akind"], f["slot"], tgt)
