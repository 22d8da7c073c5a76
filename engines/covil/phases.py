"""The day cycle run by automatic steps: starting zones, Phase 1 Morning, scheduling the
Afternoon turns, and Phase 3 Night (3.1-3.5, Rebels Retaliate, passing the Evil Scepter)."""
from __future__ import annotations

from collections import Counter

from engines.base import event

from . import combat, core, dummy, turn
from .data import FEE_TERRAINS, RULES

NIGHT_STEPS = ["discard", "renew", "fees", "raid", "retaliate", "rest", "scepter"]


# ----- Game Setup I: starting zones ----------------------------------------------------------
def place_options(state: dict, o: int) -> list[str]:
    """Free spirals; a solo dummy in the "fortress next to yours" variant goes to a free
    non-town zone adjacent to the player's fortress instead."""
    taken = {p["fort"] for p in state["own"]}
    zd = core.zone_data(state)
    if core.is_dummy(state, o) and state.get("adjacent"):
        home = state["own"][0]["fort"]
        near = [z for z in zd[home]["adj"] if z not in taken and "Town" not in zd[z]["terrain"]]
        if near:
            return sorted(near)
    return sorted(z for z, d in zd.items() if d["spiral"] and z not in taken)


def place(state: dict, z: str) -> None:
    f = state["stack"].pop()
    o = f["owner"]
    p = state["own"][o]
    p["fort"] = z
    p["troops"] = [{"z": z, "up": True} for _ in range(RULES["starter_troops"])]
    state["log"].append(event(f"{core.name(state, o)} places the fortress and 2 troops in {z}."))


def _step_place(state: dict) -> bool:
    for o in core.clockwise(state):
        if state["own"][o]["fort"] is None:
            seat = 0 if core.is_dummy(state, o) else state["own"][o]["seat"]
            state["stack"].append({"kind": "place", "seats": [seat], "owner": o})
            return True
    state["phase"] = "morning"
    return True


# ----- Phase 1: Morning ----------------------------------------------------------------------
def _step_morning(state: dict) -> None:
    target = RULES["troops_by_day"][state["day"] - 1]
    for o in core.clockwise(state):
        p = state["own"][o]
        for t in p["troops"]:
            t["up"] = True
        n = min(target, RULES["troops_per_player"]) - len(p["troops"])
        for _ in range(max(0, n)):
            p["troops"].append({"z": p["fort"], "up": True})
        if n > 0:
            state["log"].append(event(f"{core.name(state, o)} summons {n} troop(s) at the "
                                      f"fortress in {p['fort']}."))
    for o in core.clockwise(state):
        if core.is_dummy(state, o):
            dummy.buy_relic(state, o)
    state["log"].append(event(f"Day {state['day']}: Afternoon."))
    state["phase"] = "afternoon"
    state["cur"] = None


# ----- Phase 2: Afternoon scheduling ---------------------------------------------------------
def _step_afternoon(state: dict) -> None:
    if not core.any_standing(state):
        state["phase"] = "night"
        state["nstep"] = 0
        state["cur"] = None
        state["log"].append(event(f"Day {state['day']}: Night."))
        return
    n = len(state["own"])
    start = state["first"] if state["cur"] is None else (state["cur"] + 1) % n
    for o in core.clockwise(state, start):
        seats = [] if core.is_dummy(state, o) else [state["own"][o]["seat"]]
        frame = {"kind": "turn", "seats": seats, "owner": o, "acq": False, "lay": False}
        # 2.3: a player whose troops all lie down keeps taking turns (acquire, free actions)
        # until the afternoon ends; a turn with nothing possible passes by itself (Example B:
        # "Yellow has no more available actions"). Dummies only act with standing troops.
        if core.any_standing(state, o) or (
                not core.is_dummy(state, o)
                and any(a["type"] != "end_turn" for a in turn.turn_actions(state, frame))):
            state["cur"] = o
            state["stack"].append(frame)
            return
    raise AssertionError("a troop stands but nobody can take a turn")


# ----- Phase 3: Night ------------------------------------------------------------------------
def dominance(state: dict) -> dict[str, int | None]:
    """3.3 Collect Protection Fee: ``{terrain: owner with dominance or None}``.

    A zone's majority is a strict troop majority (fortresses and Rebels do not count; a tie
    counts for nobody); dominance is strictly the most majorities among that terrain's zones.
    """
    out: dict[str, int | None] = {}
    zd = core.zone_data(state)
    owners = core.owners(state)
    # Troops per owner and zone, counted once (this runs for every view of the Night).
    here = [Counter(t["z"] for t in state["own"][o]["troops"]) for o in owners]
    for t in FEE_TERRAINS:
        wins: dict[int, int] = {}
        for z, d in zd.items():
            if t not in d["terrain"]:
                continue
            counts = sorted(((here[o][z], o) for o in owners), reverse=True)
            if counts[0][0] > 0 and (len(counts) == 1 or counts[0][0] > counts[1][0]):
                wins[counts[0][1]] = wins.get(counts[0][1], 0) + 1
        best = sorted(wins.items(), key=lambda kv: -kv[1])
        if best and (len(best) == 1 or best[0][1] > best[1][1]):
            out[t] = best[0][0]
        else:
            out[t] = None
    return out


def collect_fees(state: dict) -> dict[int, int]:
    """+2 gold per dominated terrain (the Racketeer's Influence adds 1 when any is collected)."""
    got: dict[int, int] = {}
    for t, o in dominance(state).items():
        if o is not None:
            got[o] = got.get(o, 0) + RULES["fee_gold"]
            state["log"].append(event(f"{core.name(state, o)} has dominance over {t}: "
                                      f"+{RULES['fee_gold']} gold."))
    for o, g in got.items():
        g += sum(e["fee_bonus"] for e in core.influence(state, o, "fee_bonus"))
        core.gain_gold(state, o, g)
    return got


def raid(state: dict) -> None:
    """3.4 Raid the town: a relic per troop in town and a Rebel per relic drawn this way."""
    towns = core.town_zones(state)
    for o in core.clockwise(state):
        n = sum(core.troops_in(state, o, z) for z in towns)
        if not n:
            continue
        extra = sum(e["raid_extra"] for e in core.influence(state, o, "raid_extra"))
        drawn = core.draw_relics(state, o, n, "raid")
        core.draw_relics(state, o, extra, "raid, Influence")
        added = min(drawn, RULES["rebels_total"] - state["rebels"])
        state["rebels"] += added
        state["log"].append(event(f"{added} Rebel(s) join the town ({state['rebels']} there)."))
    if state["rebels"] >= RULES["retaliation_at"]:
        state["log"].append(event("The Rebels Retaliate!"))
        q = []
        for o in core.clockwise(state):
            n = sum(core.troops_in(state, o, z) for z in towns)
            q += [{"o": o, "t": "troop"}] * n
        for o in core.clockwise(state):
            if state["own"][o]["fort"] is not None and not state["own"][o]["dead"]:
                q.append({"o": o, "t": "fort"})
        state["queue"] = q
        state["riot"] = True


def _retaliate_one(state: dict) -> bool:
    """Start the next Rebel attack (strength 3); False when all are resolved."""
    towns = core.town_zones(state)
    while state["queue"]:
        e = state["queue"].pop(0)
        o = e["o"]
        p = state["own"][o]
        if e["t"] == "troop":
            here = [t for t in p["troops"] if t["z"] in towns]
            if not here:
                continue
            t = min(here, key=lambda t: t["up"])  # a lying troop first
            f = {"att": None, "from": None, "akind": "rebel", "acard": None, "def": o,
                 "dz": t["z"], "dup": t["up"], "target": "troop", "guarded": False}
        else:
            if p["dead"]:
                continue
            f = {"att": None, "from": None, "akind": "rebel", "acard": None, "def": o,
                 "dz": p["fort"], "dup": None, "target": "fortress",
                 "guarded": core.troops_in(state, o, p["fort"]) > 0}
        combat.start(state, f)
        return True
    return False


def _step_night(state: dict) -> None:
    step = NIGHT_STEPS[state["nstep"]]
    if step == "discard":
        for p in state["own"]:
            state["rdiscard"].extend(p["active"])
            p["active"] = []
    elif step == "renew":
        from engines.base import Rng

        from .setup import reveal_pool

        state["mdiscard"].extend(state["pool"])
        state["pool"] = []
        rng = Rng(state["rng"])
        reveal_pool(state, rng, first=False)
        state["rng"] = rng.state
        state["log"].append(event("The Mercenary pool is renewed.", irreversible=True))
    elif step == "fees":
        collect_fees(state)
    elif step == "raid":
        raid(state)
    elif step == "retaliate":
        if _retaliate_one(state):
            return  # stay on this step until the queue is empty
        if state.get("riot"):
            state["riot"] = False
            state["rebels"] = 0
            state["log"].append(event("All Rebels leave the town."))
    elif step == "rest":
        # 3.1 "No Power Relic stays in play to the next day": relics activated against the
        # Rebels gave their bonus for the rest of the retaliation, and go now.
        for p in state["own"]:
            state["rdiscard"].extend(p["active"])
            p["active"] = []
        for p in state["own"]:
            for m in p["hall"]:
                core.rest_minion(m)
    elif step == "scepter":
        if state["day"] >= RULES["days"]:
            state["phase"] = "end"
            state["log"].append(event("The fourth night is over: final scoring."))
            return
        state["day"] += 1
        state["round"] = state["day"]
        state["first"] = (state["first"] + 1) % len(state["own"])
        state["phase"] = "morning"
        state["log"].append(event(f"{core.name(state, state['first'])} takes the Evil Scepter. "
                                  f"Day {state['day']}: Morning."))
        return
    state["nstep"] += 1


def step(state: dict) -> bool:
    """One automatic step with an empty decision stack. False when nothing is left to do."""
    ph = state["phase"]
    if ph == "place":
        return _step_place(state)
    if ph == "morning":
        _step_morning(state)
    elif ph == "afternoon":
        _step_afternoon(state)
    elif ph == "night":
        _step_night(state)
    else:
        return False
    return True
