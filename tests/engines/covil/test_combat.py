"""2.3 Attack, The Defender's Response, Raise the stakes, The Outcome, fortress damage,
Aftershock abilities."""
from engines.covil import ENGINE, combat

from .helpers import act, legal, placed, set_hall, set_hand, set_troops, types


def pos(p0_troops, p1_troops, hall0=("O1", "H1.0", "H3.0"), hall1=("O2", "H4.1"), ex0=0, ex1=0):
    """Board A, Player 1 (fortress H) to play against Player 2 (fortress K)."""
    s = placed(2)
    set_troops(s, 0, p0_troops)
    set_troops(s, 1, p1_troops)
    set_hall(s, 0, list(hall0), ex0)
    set_hall(s, 1, list(hall1), ex1)
    set_hand(s, 0, [])
    set_hand(s, 1, [])
    return s


def targets_of(s, frm, kind, slot):
    s2 = act(s, 0, {"type": "attack", "from": frm, "kind": kind, "slot": slot})
    return [a for a in legal(s2, 0) if a["type"] == "target"]


def top(s):
    return s["stack"][-1]


def pass_all(s):
    """Both sides pass until the pending combat is resolved."""
    while any(f["kind"] == "combat" for f in s["stack"]):
        seat = next(iter(ENGINE.prompts(s)))
        s = act(s, seat, {"type": "done"})
    return s


def test_attack_melee_same_zone_ranged_same_or_adjacent_zone():
    """2.3 Attack: melee targets troops in the same zone; ranged also in adjacent zones."""
    s = pos([("C", True)], [("C", True), ("E", False), ("B", True)])
    melee = targets_of(s, "C", "melee", 1)
    assert melee == [{"type": "target", "owner": 1, "zone": "C", "up": True}]
    ranged = {(a["zone"], a["up"]) for a in targets_of(s, "C", "ranged", 2)}
    assert ranged == {("C", True), ("E", False)}


def test_attack_needs_a_ready_minion_to_exhaust():
    """2.3 Attack: exhaust one of your Minions, also for free attacks; none ready, no attack."""
    s = pos([("C", True)], [("C", True)], ex0=[2, 1, 2])
    assert "attack" not in types(s, 0)
    s = pos([("C", True)], [("C", True)])
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    assert s["own"][0]["hall"][1]["ex"] == 2 and s["own"][0]["troops"][0]["up"] is False


def test_attack_strength_ranged_example_6():
    """2.3 Attack example: "I'm attacking your troop with strength 6" (2 from the exhausted
    Minion's base stat, 3 from Reinforcements -- exhausted ones count too -- 1 from relics)."""
    s = pos([("E", True)], [("E", True)], hall0=("O1", "S4", "S7"), ex0=[2, 0, 2])
    s["own"][0]["active"] = ["P02"]
    s["rdeck"].remove("P02")
    s = act(s, 0, {"type": "attack", "from": "E", "kind": "ranged", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "E", "up": True})
    assert combat.attack_strength(s, top(s)) == 6
    ENGINE.check_invariants(s)


def test_defender_response_example_defence_6():
    """The Defender's Response example: "My defense is 6!" (1 troop, 1 Reinforcements, 2 from
    exhausting the Guardian, 2 from Power Relics activated as a response)."""
    s = pos([("A", True)], [("A", True)], hall1=("O2", "G3", "G6"), ex1=[2, 0, 2])
    set_hand(s, 1, ["P10"])
    s = act(s, 0, {"type": "attack", "from": "A", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "A", "up": True})
    assert ENGINE.prompts(s).keys() == {1}
    assert combat.defense_strength(s, top(s)) == 2  # troop 1 + Mountain Keeper (A is Mountain)
    s = act(s, 1, {"type": "defend", "slot": 1})
    s = act(s, 1, {"type": "activate", "relic": "P10"})
    if top(s)["kind"] == "effect":
        s = act(s, 1, {"type": "skip"})
    assert combat.defense_strength(s, top(s)) == 6


def test_reinforcement_town_or_water_counts_twice_on_town_water_zone():
    """Passive Abilities > Reinforcements: "+1 defense on Town or Water zones" is +2 in a zone
    that is both (zone E of board A)."""
    s = pos([("E", True)], [("E", True), ("C", True)], hall1=("O2", "G4"))
    s = act(s, 0, {"type": "attack", "from": "E", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "E", "up": True})
    assert combat.defense_strength(s, top(s)) == 3
    top(s)["dz"] = "C"  # Desert only
    assert combat.defense_strength(s, top(s)) == 1


def test_outcome_a_tie_defender_wins():
    """The Outcome A: in case of a tie the defender wins; nothing happens."""
    s = pos([("C", True)], [("C", True)])
    s["own"][1]["gold"] = 0
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    # 2 vs troop 1 + Shieldbearer 1
    s = act(s, 1, {"type": "defend", "slot": 1})
    s = pass_all(s)
    assert s["own"][1]["troops"] == [{"z": "C", "up": True}]
    assert s["own"][0]["gold"] == 5


def test_outcome_b_standing_defender_lies_down_and_retreats_attacker_gains_1_gold():
    """The Outcome B: a standing defender that loses lies down and retreats to an adjacent
    zone (move Reinforcements apply); the attacker gains 1 gold."""
    s = pos([("C", True)], [("C", True)], hall1=("O2", "S5"))
    s["own"][0]["gold"] = 2
    s["own"][1]["gold"] = 0
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    assert s["own"][0]["gold"] == 3
    assert ENGINE.prompts(s)[1]["kind"] == "retreat"
    dests = {a["to"] for a in legal(s, 1) if a["type"] == "retreat"}
    assert {"A", "D", "E", "H", "M"} < dests and "B" in dests  # Sand Mage: 2 from Desert
    s = act(s, 1, {"type": "retreat", "to": "D"})
    assert s["own"][1]["troops"] == [{"z": "D", "up": False}]


def test_outcome_c_lying_defender_removed_and_fortress_example_4_vs_2():
    """The Outcome C + The fortress gets damaged (example): attack 4 vs defence 2; the lying
    defender is removed, 2 damage to its fortress, the attacker gains 2 gold (1 for winning,
    1 Hidden treasures)."""
    s = pos([("K", True)], [("K", False)], hall0=("O1", "W3"), hall1=("O2", "H4.1"))
    s["own"][0]["active"] = ["P03"]
    s["rdeck"].remove("P03")
    s["own"][0]["gold"] = 1
    s = act(s, 0, {"type": "attack", "from": "K", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "K", "up": False})
    assert combat.attack_strength(s, top(s)) == 4
    s = act(s, 1, {"type": "defend", "slot": 1})
    assert combat.defense_strength(s, top(s)) == 2
    s = pass_all(s)
    assert s["own"][1]["troops"] == []
    assert s["own"][1]["hp"] == 3
    assert s["own"][0]["gold"] == 3


def test_unguarded_fortress_targeted_directly_without_response_and_hidden_treasures():
    """2.3 Attack / The fortress gets damaged: an unguarded fortress may be targeted directly,
    takes the whole attacking strength, no response; damaging it gives +1 gold."""
    s = pos([("K", True)], [("F", True)], hall0=("O1", "W6"))
    s["own"][0]["gold"] = 0
    tg = targets_of(s, "K", "melee", 1)
    assert tg == [{"type": "target", "owner": 1, "zone": "K", "fortress": True}]
    s = act(s, 0, {"type": "attack", "from": "K", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "K", "fortress": True})
    assert s["own"][1]["hp"] == 0  # 1 + 3 + Berserker 1 = 5
    assert s["own"][0]["gold"] == 1
    # a guarded fortress cannot be targeted directly
    s2 = pos([("K", True)], [("K", False)], hall0=("O1", "W6"))
    assert all(not a.get("fortress") for a in targets_of(s2, "K", "melee", 1))


def test_loot_the_fortress_and_destroyed_fortress():
    """Loot the Fortress: the last hit point draws a Power Relic; The fortress gets destroyed:
    no repair, no VP, still the summoning point."""
    s = pos([("K", True)], [("F", True)], hall0=("O1", "H1.0"))
    s["own"][1]["hp"] = 2
    s = act(s, 0, {"type": "attack", "from": "K", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "K", "fortress": True})
    assert s["own"][1]["dead"] and s["own"][1]["hp"] == 0
    assert len(s["own"][0]["hand"]) == 1
    from engines.covil import core, scoring
    assert not core.can_repair(s, 1)
    assert scoring.breakdown(s, 1)["fortress"] == 0


def test_raise_the_stakes_until_both_players_pass():
    """Raise the stakes: "the attacking player may respond to a defender's response by
    activating one or more Power Relics. Continue raising the stakes until both players pass."
    Each side's *done* ends its response; once both have answered, a side that passes leaves
    the other nothing new, so the combat resolves (version 2; README 7)."""
    s = pos([("C", True)], [("C", True)])
    set_hand(s, 0, ["P03"])
    set_hand(s, 1, ["P01"])
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    s = act(s, 1, {"type": "defend", "slot": 1})
    s = act(s, 1, {"type": "done"})
    assert ENGINE.prompts(s).keys() == {0}
    s = act(s, 0, {"type": "activate", "relic": "P03"})  # +1 melee (its free attack waits)
    s = act(s, 0, {"type": "done"})
    assert ENGINE.prompts(s).keys() == {1}
    assert combat.attack_strength(s, top(s)) == 3 and combat.defense_strength(s, top(s)) == 2
    s = act(s, 1, {"type": "activate", "relic": "P01"})  # +1 defence
    s = act(s, 1, {"type": "done"})
    s = act(s, 0, {"type": "done"})  # pass: nothing new for the defender: 3 vs 3, defender wins
    assert s["own"][1]["troops"] == [{"z": "C", "up": True}]
    # the free attack granted by P03 during the combat comes after it
    assert ENGINE.prompts(s)[0]["kind"] == "free_attack"


def test_relic_response_may_not_move_the_defender_away():
    """The Defender's Response: relics' Instant Abilities may never avoid the combat itself."""
    s = pos([("C", True)], [("C", True), ("A", True)])
    set_hand(s, 1, ["P16"])
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    s = act(s, 1, {"type": "activate", "relic": "P16"})
    moves = [a for a in legal(s, 1) if a["type"] == "effect"]
    assert moves and all(a["from"] == "A" for a in moves)


def test_free_attack_from_a_relic_with_a_lying_troop_still_exhausts_a_minion():
    """2.2 Free actions example: a free attack may use a standing or lying troop (it does not
    lie down) but still exhausts a Minion."""
    s = pos([("C", False), ("H", True)], [("C", True)])
    set_hand(s, 0, ["P14"])
    s = act(s, 0, {"type": "activate", "relic": "P14"})
    assert ENGINE.prompts(s)[0]["kind"] == "free_attack"
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    assert s["own"][0]["hall"][1]["ex"] == 2
    assert {"z": "H", "up": True} in s["own"][0]["troops"]
    assert top(s)["kind"] == "combat"
    s = pass_all(s)
    turn_frame = s["stack"][0]
    assert turn_frame["kind"] == "turn" and turn_frame["lay"] is False


def _strength(s, acard, dz, dup=True, target="troop", att_from=None):
    f = {"att": 0, "from": att_from or dz, "akind": "melee", "acard": acard, "def": 1, "dz": dz,
         "dup": dup, "target": target, "guarded": False}
    return combat.attack_strength(s, f)


def test_aftershock_bonuses():
    """Instant Abilities > Aftershock: the exhausted Minion's own bonus is added on top of base
    stat and Reinforcements (Berserker always, Bully vs lying, Shield-Breaker at a fortress,
    Pit Fighter with 2 troops, Pyromancer in Forest)."""
    s = pos([("C", True)], [("C", True)], hall0=("O1", "W6", "H5.0", "W4", "W2", "S2"))
    assert _strength(s, "W6", "C") == 1 + 3 + 1
    assert _strength(s, "H5.0", "C", dup=False) == 1 + 1 + 1
    assert _strength(s, "H5.0", "C", dup=True) == 1 + 1
    assert _strength(s, "W4", "K") == 1 + 2 + 2 and _strength(s, "W4", "C") == 1 + 2
    assert _strength(s, "W2", "C") == 2
    set_troops(s, 0, [("C", True), ("C", False)])
    assert _strength(s, "W2", "C") == 3
    f = {"att": 0, "from": "B", "akind": "ranged", "acard": "S2", "def": 1, "dz": "B",
         "dup": True, "target": "troop", "guarded": False}
    assert combat.attack_strength(s, f) == 1 + 1


def test_aftershock_arena_champion_removes_standing_and_cutpurse_steals():
    """Aftershock: Arena Champion removes a standing loser; Cutpurse takes 1 gold."""
    s = pos([("C", True)], [("C", True)], hall0=("O1", "W8", "A1"))
    s["own"][1]["gold"] = 0
    s["own"][0]["gold"] = 0
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    s = pass_all(s)
    assert s["own"][1]["troops"] == []
    s = pos([("C", True)], [("C", True)], hall0=("O1", "A1"), hall1=("O2",))
    s["own"][0]["gold"] = 0
    s["own"][1]["gold"] = 2
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    s = pass_all(s)
    assert s["own"][0]["gold"] == 2 and s["own"][1]["gold"] == 1


def test_aftershock_poisoner_and_silent_death_limit_the_response():
    """Aftershock: Poisoner -- no relics in response; The Silent Death -- no Minion."""
    s = pos([("C", True)], [("C", True)], hall0=("O1", "A4", "A8"))
    set_hand(s, 1, ["P01"])
    s1 = act(s, 0, {"type": "attack", "from": "C", "kind": "ranged", "slot": 1})
    s1 = act(s1, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    assert "activate" not in types(s1, 1) and "defend" in types(s1, 1)
    s2 = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 2})
    s2 = act(s2, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    assert "activate" in types(s2, 1) and "defend" not in types(s2, 1)


def test_aftershock_bomb_maker_and_castellan_shield_fortress_damage():
    """Aftershock Bomb Maker: +1 fortress damage; Castellan Reinforcement: -1 per attack."""
    s = pos([("F", True)], [("A", True)], hall0=("O1", "X4"))
    s = act(s, 0, {"type": "attack", "from": "F", "kind": "ranged", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "K", "fortress": True})
    assert s["own"][1]["hp"] == 5 - (2 + 1)
    s = pos([("F", True)], [("A", True)], hall0=("O1", "X4"), hall1=("O2", "G7"))
    s = act(s, 0, {"type": "attack", "from": "F", "kind": "ranged", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "K", "fortress": True})
    assert s["own"][1]["hp"] == 5 - (2 - 1 + 1)


def test_lich_lord_ranged_two_zones():
    """Aftershock Lich Lord: this ranged attack may target a troop up to 2 zones away."""
    s = pos([("C", True)], [("B", True)], hall0=("O1", "S8", "H3.0"))
    assert {"type": "attack", "from": "C", "kind": "ranged", "slot": 2} not in legal(s, 0)
    assert targets_of(s, "C", "ranged", 1) == [{"type": "target", "owner": 1, "zone": "B",
                                                 "up": True}]
