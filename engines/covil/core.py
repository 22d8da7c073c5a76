"""Shared state helpers: owners, gold, Power Relic draws, troops, strengths, moves, prices.

State shape (see README.md): ``state["own"]`` lists every owner -- the seats first, then the
solo dummy players -- as ``{"seat": int|None, "gold", "hp", "fort": zone|None, "dead": bool,
"troops": [{"z": zone, "up": bool}], "hall": [{"id", "ex"}] (index 0 = Evil throne),
"hand": [relic ids], "active": [relic ids]}``. ``ex`` is 0 ready, 1 tired, 2 exhausted.
"""
from __future__ import annotations

from engines.base import Rng, event

from . import data
from .data import RULES, card, relic

READY, TIRED, EXHAUSTED = 0, 1, 2


# ----- owners -----------------------------------------------------------------------------
def owners(state: dict) -> range:
    """Every owner index (seats then dummies)."""
    return range(len(state["own"]))


def is_dummy(state: dict, o: int) -> bool:
    """Rulebook "Evil Prevails": a dummy player is an owner without a seat."""
    return state["own"][o]["seat"] is None


def name(state: dict, o: int | None) -> str:
    """Log name of an owner ("Player 2", "Dummy 1") or "The Rebels" for ``None``."""
    if o is None:
        return "The Rebels"
    if is_dummy(state, o):
        return f"Dummy {o - state['players'] + 1}"
    return f"Player {o + 1}"


def clockwise(state: dict, start: int | None = None) -> list[int]:
    """Owners in clockwise order from ``start`` (default: the Evil Scepter holder)."""
    n = len(state["own"])
    s = state["first"] if start is None else start
    return [(s + i) % n for i in range(n)]


def enemies(state: dict, o: int) -> list[int]:
    """Owners ``o`` may attack. Solo: dummies never attack each other ("Dummy Player A.I.")."""
    return [t for t in owners(state) if t != o and not (is_dummy(state, o) and is_dummy(state, t))]


# ----- gold and relics ----------------------------------------------------------------------
def influence(state: dict, o: int, key: str) -> list:
    """Values of Influence effect ``key`` among ``o``'s Minions (passive: exhausted too)."""
    out = []
    for m in state["own"][o]["hall"]:
        c = card(m["id"])
        if c["type"] == "influence" and key in c["effect"]:
            out.append(c["effect"])
    return out


def treasury_cap(state: dict, o: int) -> int:
    """2.3 Gain 1 gold: at most 5 gold (the Spymaster's Influence raises it)."""
    caps = [e["treasury_cap"] for e in influence(state, o, "treasury_cap")]
    return max([RULES["treasury_cap"], *caps])


def gain_gold(state: dict, o: int, n: int) -> int:
    """Add gold up to the Treasury cap; returns the gold actually gained."""
    p = state["own"][o]
    before = p["gold"]
    p["gold"] = max(0, min(treasury_cap(state, o), p["gold"] + n))
    return p["gold"] - before


def clamp_gold(state: dict, o: int) -> None:
    """Keep gold within a Treasury cap that just shrank (the Spymaster left the hall)."""
    p = state["own"][o]
    p["gold"] = min(p["gold"], treasury_cap(state, o))


def relic_price(state: dict, o: int) -> int:
    """Buy Power Relics: 3 gold (the Smuggler's Influence lowers it)."""
    return min([RULES["relic_price"], *[e["relic_price"] for e in influence(state, o, "relic_price")]])


def relics_left(state: dict) -> bool:
    """True while a Power Relic can be drawn (deck, or discard pile to reshuffle)."""
    return bool(state["rdeck"] or state["rdiscard"])


def pop_relic(state: dict) -> str | None:
    """Take the top Power Relic; an empty deck reshuffles its discard pile first (Power Relics)."""
    if not state["rdeck"]:
        if not state["rdiscard"]:
            return None
        rng = Rng(state["rng"])
        state["rdeck"] = rng.shuffled(state["rdiscard"])
        state["rdiscard"] = []
        state["rng"] = rng.state
        state["log"].append(event("The Power Relic discard pile is shuffled into a new deck.",
                                  irreversible=True))
    return state["rdeck"].pop()


def draw_relics(state: dict, o: int, n: int, why: str) -> int:
    """Draw ``n`` Power Relics into ``o``'s hand (a dummy keeps them face down). Returns drawn."""
    got = []
    for _ in range(n):
        r = pop_relic(state)
        if r is None:
            break
        got.append(r)
    if not got:
        return 0
    p = state["own"][o]
    p["hand"].extend(got)
    who = name(state, o)
    seat = p["seat"]
    state["log"].append(event(f"{who} draws {len(got)} Power Relic(s) ({why}).",
                              to="all" if seat is None else [s for s in range(state["players"])
                                                              if s != seat],
                              irreversible=True, **({"spectators": True} if seat is not None
                                                    else {})))
    if seat is not None:
        state["log"].append(event(f"You draw {', '.join(got)} ({why}).", to=[seat],
                                  irreversible=True))
    return len(got)


# ----- board ------------------------------------------------------------------------------
def zone_data(state: dict) -> dict:
    return data.zones(state["board"])


def terrain(state: dict, z: str) -> list[str]:
    return zone_data(state)[z]["terrain"]


def adjacent(state: dict, z: str) -> list[str]:
    return zone_data(state)[z]["adj"]


def dist(state: dict, a: str, b: str) -> int:
    return data.distances(state["board"])[a][b]


def town_zones(state: dict) -> list[str]:
    return [z for z, d in zone_data(state).items() if "Town" in d["terrain"]]


def troops_in(state: dict, o: int, z: str, up: bool | None = None) -> int:
    """How many of ``o``'s troops are in zone ``z`` (optionally only standing/lying)."""
    return sum(1 for t in state["own"][o]["troops"]
               if t["z"] == z and (up is None or t["up"] == up))


def fortress_at(state: dict, z: str, exclude: int | None = None) -> list[int]:
    """Owners whose living fortress stands in zone ``z``."""
    return [o for o in owners(state) if o != exclude and state["own"][o]["fort"] == z
            and not state["own"][o]["dead"]]


def standing_zones(state: dict, o: int) -> list[str]:
    """Zones holding at least one standing troop of ``o`` (sorted)."""
    return sorted({t["z"] for t in state["own"][o]["troops"] if t["up"]})


def any_standing(state: dict, o: int | None = None) -> bool:
    own = state["own"] if o is None else [state["own"][o]]
    return any(t["up"] for p in own for t in p["troops"])


def lie_down(state: dict, o: int, z: str) -> None:
    """Lie down one standing troop of ``o`` in ``z``."""
    for t in state["own"][o]["troops"]:
        if t["z"] == z and t["up"]:
            t["up"] = False
            return
    raise AssertionError("no standing troop to lie down")


def move_troop(state: dict, o: int, z: str, up: bool, to: str) -> None:
    """Move one troop of ``o`` (standing or lying as given) from ``z`` to ``to``."""
    for t in state["own"][o]["troops"]:
        if t["z"] == z and t["up"] == up:
            t["z"] = to
            return
    raise AssertionError("no such troop to move")


def remove_troop(state: dict, o: int, z: str, up: bool) -> None:
    """Remove one troop of ``o`` from the board (it returns to its owner's supply)."""
    troops = state["own"][o]["troops"]
    for i, t in enumerate(troops):
        if t["z"] == z and t["up"] == up:
            del troops[i]
            return
    raise AssertionError("no such troop to remove")


# ----- Reinforcements, strengths, moves ---------------------------------------------------
def _where_count(state: dict, o: int, where, z: str) -> int:
    if where == "all":
        return 1
    if where == "fortress":
        return 1 if state["own"][o]["fort"] == z else 0
    return sum(1 for t in terrain(state, z) if t in where)


def reinforcement(state: dict, o: int, stat: str, z: str) -> int:
    """Passive Reinforcements of ``o`` for ``stat`` (melee/ranged/defense) of a troop in ``z``.

    Rulebook "Passive Abilities > Reinforcements": active even when exhausted; the troop's own
    zone matters, and a zone with two listed terrains gets the bonus twice.
    """
    total = 0
    for m in state["own"][o]["hall"]:
        c = card(m["id"])
        e = c["effect"]
        if c["type"] == "reinforcement" and e.get("stat") == stat:
            total += e["amount"] * _where_count(state, o, e["where"], z)
    return total


def relic_bonus(state: dict, o: int, stat: str) -> int:
    """Troop Bonus of ``o``'s active Power Relics for ``stat`` (melee/ranged/defense/move)."""
    return sum(relic(r)["bonus"].get(stat, 0) for r in state["own"][o]["active"])


def move_reach(state: dict, o: int, z: str) -> int:
    """2.3 Move this troop: 1 zone, or 2 when a move-based ability covers the departure zone."""
    if relic_bonus(state, o, "move"):
        return 2
    for m in state["own"][o]["hall"]:
        c = card(m["id"])
        e = c["effect"]
        if c["type"] == "reinforcement" and "move" in e and _where_count(state, o, e["where"], z):
            return 2
    return 1


def reachable(state: dict, z: str, reach: int) -> list[str]:
    """Zones at distance 1..reach from ``z`` (sorted)."""
    d = data.distances(state["board"])[z]
    return sorted(x for x, k in d.items() if 1 <= k <= reach)


def repair_amount(state: dict, o: int) -> int:
    """Repair your fortress: 1 hit point (the Iron Warden's Reinforcement repairs 2)."""
    amounts = [card(m["id"])["effect"].get("repair", 1) for m in state["own"][o]["hall"]
               if card(m["id"])["type"] == "reinforcement"]
    return max([1, *amounts])


def can_repair(state: dict, o: int) -> bool:
    """A fortress below full health that is not destroyed may be repaired."""
    p = state["own"][o]
    return p["fort"] is not None and not p["dead"] and p["hp"] < RULES["max_hp"]


def repair(state: dict, o: int, n: int) -> int:
    p = state["own"][o]
    if p["dead"] or p["fort"] is None:
        return 0
    before = p["hp"]
    p["hp"] = min(RULES["max_hp"], p["hp"] + n)
    return p["hp"] - before


def rest_minion(m: dict) -> None:
    """Rest one Minion once: exhausted -> tired -> ready."""
    if m["ex"] > READY:
        m["ex"] -= 1


def discount(state: dict, o: int, cid: str) -> int:
    """Influence discounts on acquiring ``cid`` (e.g. "Warriors cost 2 gold less")."""
    fam = card(cid)["family"]
    return sum(e["discount"] for e in influence(state, o, "discount") if e["family"] == fam)


def net_price(cost: int, disc: int) -> int:
    """2.1 Influence: price after discounts; below 0 the buyer gains the difference as gold."""
    return cost - disc
