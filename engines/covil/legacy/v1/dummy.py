"""Evil Prevails: the Dummy Player A.I. (played by the engine in automatic steps).

Priorities each afternoon turn: 1. Melee attack, 2. Ranged attack, 3. Move. Target zone tie
breakers: enemy fortress zone, then zone with enemy lying troops, then flip Power Relics from
the deck until a zone of the shown terrain appears. Moves (and retreats) flip a relic and go to
a zone of that terrain, nearest to the enemy fortress zone. Flipped relics are discarded face up.
"""
from __future__ import annotations

from engines.base import event

from . import combat, core
from .data import card, relic

#: Flips before giving up on a terrain match (a safety net; the deck always matches sooner).
MAX_FLIPS = 24


def flip(state: dict, o: int) -> str | None:
    """Flip the top Power Relic: log its target zone and discard it. Returns the terrain."""
    r = core.pop_relic(state)
    if r is None:
        return None
    state["rdiscard"].append(r)
    t = relic(r)["target"]
    state["flips"] = (state.get("flips", []) + [r])[-4:]
    state["log"].append(event(f"{core.name(state, o)} flips Power Relic {r}: {t}.",
                              irreversible=True))
    return t


def best_minion(state: dict, o: int, cls: str) -> int | None:
    """Strongest ready Minion of a class (highest base; ties: top-left = lowest hall index)."""
    best = None
    for i, m in enumerate(state["own"][o]["hall"]):
        c = card(m["id"])
        if m["ex"] == core.READY and c["class"] == cls:
            if best is None or c["base"] > card(state["own"][o]["hall"][best]["id"])["base"]:
                best = i
    return best


def _enemy_forts(state: dict, o: int) -> list[str]:
    return [state["own"][e]["fort"] for e in core.enemies(state, o)
            if state["own"][e]["fort"] is not None]


def choose_zone(state: dict, o: int, cands: list[str]) -> str:
    """Target zone tie breakers of the Dummy Player A.I."""
    cands = sorted(set(cands))
    forts = [z for z in cands if core.fortress_at(state, z, exclude=o)
             and any(e in core.enemies(state, o) for e in core.fortress_at(state, z))]
    if forts:
        cands = forts
    else:
        lying = [z for z in cands if any(core.troops_in(state, e, z, up=False)
                                         for e in core.enemies(state, o))]
        if lying:
            cands = lying
    for _ in range(MAX_FLIPS):
        if len(cands) == 1:
            break
        t = flip(state, o)
        if t is None:
            break
        match = [z for z in cands if t in core.terrain(state, z)]
        if match:
            cands = match
    return cands[0]


def _pick_target(tgts: list[dict], z: str) -> dict:
    here = [t for t in tgts if t["zone"] == z]
    for pred in (lambda t: t.get("fortress"), lambda t: t.get("up") is False, lambda t: True):
        for t in here:
            if pred(t):
                return t
    raise AssertionError("no target in the chosen zone")


def _try_attack(state: dict, o: int, kind: str) -> bool:
    slot = best_minion(state, o, "Melee" if kind == "melee" else "Ranged")
    if slot is None:
        return False
    cid = state["own"][o]["hall"][slot]["id"]
    by_zone: dict[str, list[str]] = {}
    all_t: dict[str, list[dict]] = {}
    for z in core.standing_zones(state, o):
        for t in combat.targets(state, o, z, kind, cid):
            by_zone.setdefault(t["zone"], []).append(z)
            all_t.setdefault(z, []).append(t)
    if not by_zone:
        return False
    tz = choose_zone(state, o, list(by_zone))
    frm = tz if tz in by_zone[tz] else sorted(by_zone[tz])[0]
    tgt = _pick_target(all_t[frm], tz)
    core.lie_down(state, o, frm)
    combat.declare(state, o, frm, kind, slot, tgt)
    return True


def _nearest(state: dict, o: int, zones: list[str]) -> list[str]:
    forts = _enemy_forts(state, o)
    if not forts:
        return sorted(zones)
    return sorted(zones, key=lambda z: (min(core.dist(state, z, f) for f in forts), z))


def _flip_destination(state: dict, o: int, options: list[tuple[str, str]]) -> tuple[str, str]:
    """Pick ``(destination, from)`` among options by flipping for a terrain, nearest first."""
    for _ in range(MAX_FLIPS):
        t = flip(state, o)
        if t is None:
            break
        match = [d for d, _ in options if t in core.terrain(state, d)]
        if match:
            best = _nearest(state, o, match)[0]
            return next(op for op in options if op[0] == best)
    best = _nearest(state, o, [d for d, _ in options])[0]
    return next(op for op in options if op[0] == best)


def take_turn(state: dict) -> None:
    """Play the dummy's afternoon turn (the turn frame is on top)."""
    f = state["stack"].pop()
    o = f["owner"]
    if not core.any_standing(state, o):
        return
    if _try_attack(state, o, "melee") or _try_attack(state, o, "ranged"):
        return
    options = [(d, z) for z in core.standing_zones(state, o)
               for d in core.reachable(state, z, core.move_reach(state, o, z))]
    dest, frm = _flip_destination(state, o, options)
    core.lie_down(state, o, frm)
    core.move_troop(state, o, frm, False, dest)
    state["log"].append(event(f"{core.name(state, o)} moves a troop from {frm} to {dest}."))


def retreat(state: dict) -> None:
    """Retreat of a dummy troop: like its Move (flip, terrain, nearest to the enemy fortress)."""
    f = state["stack"][-1]
    options = [(d, f["zone"]) for d in combat.retreat_options(state, f)]
    dest, _ = _flip_destination(state, f["owner"], options)
    combat.retreat(state, dest)


def respond(state: dict) -> None:
    """A dummy always exhausts its best defensive Minion to defend, then passes; it never
    activates Power Relics."""
    f = state["stack"][-1]
    if f["side"] == "def" and not f["acted"]:
        opts = combat.defend_options(state, f)
        if opts:
            hall = state["own"][f["def"]]["hall"]
            best = max(opts, key=lambda i: (card(hall[i]["id"])["base"], -i))
            combat.defend(state, f, best)
    combat.done(state, f)


def buy_relic(state: dict, o: int) -> None:
    """Morning phase: if possible the dummy spends 3 gold to buy one Power Relic (face down)."""
    price = core.relic_price(state, o)
    if state["own"][o]["gold"] >= price and core.relics_left(state):
        state["own"][o]["gold"] -= price
        core.draw_relics(state, o, 1, "bought")
