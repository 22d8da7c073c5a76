"""Bots for Covil seats: ``greedy`` (one-ply evaluation) and ``overlord`` (the solo dummy
player's priorities: melee, then ranged, then move; always defends with its best defensive
Minion; never acquires, commands or activates relics).

Both receive the true state but only read public information about other owners (hand
counts, not hands).
"""
from __future__ import annotations

from engines.base import Rng, clone

from . import combat, core, data, phases, scoring
from .data import RULES, card, relic

#: Average gold value of a Power Relic (provisional relic list: 10x1, 10x2, 4x3).
RELIC_MEAN = 1.75


def _vp(state: dict, o: int, me: int) -> float:
    p = state["own"][o]
    b = scoring.breakdown(state, o)
    v = b["total"] - b["relics"] - (b["influence"] if o != me else 0)
    v += b["relics"] if o == me else RELIC_MEAN * len(p["hand"])
    v += 0.6 * (0 if p["dead"] else p["hp"]) + 0.8 * len(p["troops"])
    v += 0.3 * sum(1 for t in p["troops"] if t["up"])
    for m in p["hall"]:
        c = card(m["id"])
        v += 0.4 * c["base"] + (0.2 if m["ex"] == core.READY else 0)
    return v


def evaluate(state: dict, seat: int) -> float:
    """Own estimated VP minus the best other owner's (public information only)."""
    if state["result"] is not None:
        sc = {int(k): v["total"] for k, v in state["result"]["breakdown"].items()}
        return sc[seat] - max(v for k, v in sc.items() if k != seat)
    others = [o for o in core.owners(state) if o != seat]
    return _vp(state, seat, seat) - max(_vp(state, o, seat) for o in others)


def settle(engine, state: dict) -> dict:
    """Resolve a pending combat/retreat with simple choices (defenders exhaust their best
    Minion, everyone then passes; retreats go to the first zone) to evaluate its outcome."""
    s = clone(state)
    for _ in range(40):
        if not s["stack"]:
            break
        f = s["stack"][-1]
        if f["kind"] == "combat" and f["seats"]:
            opts = combat.defend_options(s, f)
            if opts:
                hall = s["own"][f["def"]]["hall"]
                combat.defend(s, f, max(opts, key=lambda i: card(hall[i]["id"])["base"]))
            combat.done(s, f)
        elif f["kind"] == "retreat" and f["seats"]:
            combat.retreat(s, combat.retreat_options(s, f)[0])
        else:
            break
        engine._run_automatic(s)
    return s


def _after(engine, state: dict, seat: int, action: dict) -> dict:
    """A copy of ``state`` after ``seat`` plays ``action``, one of ``legal_actions(state, seat)``:
    the trusted apply (``Engine.apply_trusted``) without ``apply``'s legality re-check, which
    cost as much as the move (greedy tries every legal action of a turn)."""
    s = clone(state)
    engine.apply_trusted(s, seat, action)
    return s


def _pay_next(engine, state: dict, seat: int) -> dict:
    """Next payment step: confirm when possible, else the cheapest Minion when the hall is
    full, else the cheapest relic, else the cheapest Minion, else cancel."""
    acts = engine.legal_actions(state, seat)
    if {"type": "confirm"} in acts:
        return {"type": "confirm"}
    hall = state["own"][seat]["hall"]
    rel = [a for a in acts if a["type"] == "pay_relic"]
    mins = sorted((a for a in acts if a["type"] == "pay_minion"),
                  key=lambda a: card(hall[a["slot"]]["id"])["cost"])
    if mins and not rel:
        return mins[0]
    if rel:
        return min(rel, key=lambda a: relic(a["relic"])["gold"])
    return {"type": "cancel"}


def _pay_plan(engine, state: dict, seat: int) -> dict:
    """The state after completing a payment with :func:`_pay_next` (unchanged if it fails)."""
    s = state
    for _ in range(12):
        a = _pay_next(engine, s, seat)
        if a["type"] == "cancel":
            return state
        s = _after(engine, s, seat, a)
        if not s["stack"] or s["stack"][-1]["kind"] != "pay":
            return s
    return state


def _value(engine, state: dict, seat: int, depth: int) -> float:
    top = state["stack"][-1] if state["stack"] else None
    if top is not None and seat in top["seats"] and depth > 0:
        if top["kind"] == "pay":
            return evaluate(settle(engine, _pay_plan(engine, state, seat)), seat)
        if top["kind"] in ("aim", "free_attack", "effect"):
            acts = [a for a in engine.legal_actions(state, seat)
                    if a["type"] not in ("cancel", "skip", "buy_relic")]
            if acts:
                return max(_value(engine, _after(engine, state, seat, a), seat, depth - 1)
                           for a in acts)
    return evaluate(settle(engine, state), seat)


def greedy(engine, state: dict, seat: int, rng: Rng) -> dict:
    """One-ply greedy bot: apply each legal action (following multi-step choices one more
    step) and keep the best evaluation; never cancels while another action exists."""
    acts = engine.legal_actions(state, seat)
    top = state["stack"][-1] if state["stack"] else None
    if top is not None and top["kind"] == "pay" and seat in top["seats"]:
        return _pay_next(engine, state, seat)
    choices = [a for a in acts if a["type"] != "cancel"] or acts
    best, best_v = [], None
    for a in choices:
        v = _value(engine, _after(engine, state, seat, a), seat, 2)
        if a["type"] == "buy_relic":
            v -= 0.5  # only when it clearly pays
        if best_v is None or v > best_v + 1e-9:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return rng.choice(best)


# ----- the dummy player's priorities as a seat bot ----------------------------------------
def _nearest_enemy_fort(state: dict, o: int, zones: list[str]) -> str:
    forts = [state["own"][e]["fort"] for e in core.enemies(state, o) if state["own"][e]["fort"]]
    return min(zones, key=lambda z: (min((core.dist(state, z, f) for f in forts), default=0), z))


def overlord(engine, state: dict, seat: int, rng: Rng) -> dict:
    """The Dummy Player A.I. priorities played by a seat (random choice instead of relic flips)."""
    acts = engine.legal_actions(state, seat)
    f = state["stack"][-1] if state["stack"] else None
    if f is None or seat not in f["seats"]:
        return rng.choice(acts)
    k = f["kind"]
    o = f.get("owner", seat)
    hall = state["own"][seat]["hall"]

    def base(a):
        return card(hall[a["slot"]]["id"])["base"]

    if k == "turn":
        if f["lay"] or not core.any_standing(state, o):
            return {"type": "end_turn"}
        for kind, cls in (("melee", "Melee"), ("ranged", "Ranged")):
            atk = [a for a in acts if a["type"] == "attack" and a["kind"] == kind
                   and card(hall[a["slot"]]["id"])["class"] == cls]
            if atk:
                top = max(base(a) for a in atk)
                return min((a for a in atk if base(a) == top), key=lambda a: (a["slot"], a["from"]))
        moves = [a for a in acts if a["type"] == "move"]
        dest = _nearest_enemy_fort(state, o, [a["to"] for a in moves])
        return rng.choice([a for a in moves if a["to"] == dest])
    if k == "aim":
        tg = [a for a in acts if a["type"] == "target"]
        for pred in (lambda a: a.get("fortress") or core.fortress_at(state, a["zone"], exclude=o),
                     lambda a: a.get("up") is False, lambda a: True):
            hit = [a for a in tg if pred(a)]
            if hit:
                return hit[0]
    if k == "combat":
        d = [a for a in acts if a["type"] == "defend"]
        if d:
            return max(d, key=base)
        return {"type": "done"}
    if k == "retreat":
        return {"type": "retreat", "to": _nearest_enemy_fort(state, o, [a["to"] for a in acts if a["type"] == "retreat"])}
    if k in ("effect", "free_attack") and {"type": "skip"} in acts:
        return {"type": "skip"}
    if k == "pay":
        return {"type": "cancel"}
    return rng.choice([a for a in acts if a["type"] != "buy_relic"] or acts)


BOTS = {"greedy": greedy, "overlord": overlord}


# ----- the search bot (``hard``: engines.search) ------------------------------------------------
#: Share of tonight's projected income (3.3 Protection Fee, 3.4 Raid the town) the hard bot's
#: evaluation counts: the board still changes before the Night.
NIGHT_SHARE = 0.7


def _hard_vp(state: dict, o: int, me: int, fees: dict, towns: list[str]) -> float:
    """Greedy's estimate (:func:`_vp`) plus what tonight should bring owner ``o`` (public
    information only): +2 gold per terrain it dominates now (3.3, up to its Treasury cap) and a
    Power Relic per troop in town (3.4, :data:`RELIC_MEAN` VP each), at :data:`NIGHT_SHARE`."""
    v = _vp(state, o, me)
    if state["phase"] in ("morning", "afternoon"):
        p = state["own"][o]
        room = max(0, core.treasury_cap(state, o) - p["gold"])
        gold = min(RULES["fee_gold"] * fees.get(o, 0), room)
        town = sum(1 for t in p["troops"] if t["z"] in towns)
        v += NIGHT_SHARE * (gold + RELIC_MEAN * town)
    return v


#: Tonight's Protection Fees (terrains dominated per owner) by board and troop zones: the
#: search evaluates hundreds of thousands of positions a match, most with the troops of the
#: last one. Bounded: cleared when full.
_FEES: dict[tuple, dict[int, int]] = {}
_FEES_MAX = 50_000
_TOWNS: dict[str, list[str]] = {}


def _fees(state: dict) -> dict[int, int]:
    """``{owner: terrains it dominates now}`` (3.3, :func:`phases.dominance`); read only."""
    key = (state["board"], *(tuple([t["z"] for t in p["troops"]]) for p in state["own"]))
    fees = _FEES.get(key)
    if fees is None:
        fees = {}
        for o in phases.dominance(state).values():
            if o is not None:
                fees[o] = fees.get(o, 0) + 1
        if len(_FEES) >= _FEES_MAX:
            _FEES.clear()
        _FEES[key] = fees
    return fees


def _towns(board: str) -> list[str]:
    towns = _TOWNS.get(board)
    if towns is None:
        towns = _TOWNS[board] = [z for z, d in data.zones(board).items() if "Town" in d["terrain"]]
    return towns


def hard_evaluate(state: dict, seat: int) -> float:
    """The hard bot's evaluation (not greedy's: normal stays the yardstick players know): own
    :func:`_hard_vp` minus the best other owner's; a finished match: the final VP margin.
    Final Scoring counts gold, Minions, Power Relics and a living fortress, so what the
    Night converts into gold and relics is counted before it comes."""
    if state["result"] is not None:
        sc = {int(k): v["total"] for k, v in state["result"]["breakdown"].items()}
        return sc[seat] - max(v for k, v in sc.items() if k != seat)
    fees = _fees(state)
    towns = _towns(state["board"])
    others = [o for o in core.owners(state) if o != seat]
    return (_hard_vp(state, seat, seat, fees, towns)
            - max(_hard_vp(state, o, seat, fees, towns) for o in others))


def _evaluate(state: dict, seat: int) -> float:
    """:func:`hard_evaluate` after a pending combat or retreat is settled (as greedy judges)."""
    from . import ENGINE
    return hard_evaluate(settle(ENGINE, state), seat)


def _searchable(engine, state: dict, seat: int) -> bool:
    # A payment (relic by relic, Minion by Minion) and a retreat are micro-steps of a decision
    # already made: the greedy bot completes them (its payment plan) without a search.
    top = state["stack"][-1] if state["stack"] else None
    return top is None or top["kind"] not in ("pay", "retreat")


def _spec():
    # Rollouts: every seat picks the best of 4 random actions (none cancelling) by the
    # evaluation after it, for 4 decisions, over every root action. Measured at 0.05 s a
    # decision against normal (40 matches, same seeds, session 7): with greedy's evaluation
    # 25/40 at 2 players, 16/40 firsts at 3; with hard_evaluate (tonight's fees and raid)
    # 38/40 at 2 players. Earlier (session 6, 12 a row): the one-ply policy over all actions
    # with the 5 best root actions 58/17/0 % at 2/3/4 players; uniform rollouts (depth 6) 4 of
    # 14; no rollout 1 of 8; the full greedy bot as the rollout policy ~20x the cost per
    # iteration.
    from engines.search import SearchSpec, sampled_greedy
    return SearchSpec(evaluate=_evaluate, scale=2.0, greedy=greedy, searchable=_searchable,
                      rollout=sampled_greedy(4, _evaluate, frozenset({"cancel", "buy_relic"})),
                      depth=4,
                      bias=lambda a: {"buy_relic": -0.5, "cancel": -1.0}.get(a["type"], 0.0))


SPEC = _spec()
