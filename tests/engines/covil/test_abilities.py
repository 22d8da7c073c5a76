"""Instant Abilities > Command, Power Relics (Instant Ability and Troop Bonus), Passive
Abilities while exhausted."""
from engines.covil import ENGINE, core

from .helpers import act, legal, placed, set_hall, set_hand, set_troops, types


def pos(hall0, troops0=(("C", True),), troops1=(("F", True),), hand0=()):
    s = placed(2)
    set_hall(s, 0, list(hall0))
    set_troops(s, 0, list(troops0))
    set_troops(s, 1, list(troops1))
    set_hand(s, 0, list(hand0))
    set_hand(s, 1, [])
    return s


def test_command_squire_moves_a_standing_or_lying_troop_once_as_free_action():
    """Command (example): exhaust the Squire as a free action to move a troop (standing or
    lying) once; no troop is laid down for it."""
    s = pos(["O1", "H2.0"], troops0=[("C", False), ("H", True)])
    s = act(s, 0, {"type": "command", "slot": 1})
    assert s["own"][0]["hall"][1]["ex"] == 2
    moves = [a for a in legal(s, 0) if a["type"] == "effect"]
    assert {"type": "effect", "from": "C", "up": False, "to": "E"} in moves
    s = act(s, 0, {"type": "effect", "from": "C", "up": False, "to": "E"})
    assert {"z": "E", "up": False} in s["own"][0]["troops"]
    assert s["stack"][-1]["kind"] == "turn" and not s["stack"][-1]["lay"]
    assert "command" not in types(s, 0)  # the Squire is exhausted now


def test_command_can_be_cancelled_before_it_is_performed():
    """2.2 free actions: a Command not yet performed can be taken back (nothing irreversible)."""
    s = pos(["O1", "H2.0"])
    s2 = act(s, 0, {"type": "command", "slot": 1})
    s2 = act(s2, 0, {"type": "cancel"})
    assert s2["own"][0]["hall"][1]["ex"] == 0


def test_command_serpent_sorceress_moves_a_standing_enemy_troop_not_from_its_fortress():
    """Command (Serpent Sorceress): move one standing enemy troop to an adjacent zone, except
    out of its own fortress zone."""
    s = pos(["O2"], troops1=[("F", True), ("K", True), ("G", False)])
    s = act(s, 0, {"type": "command", "slot": 0})
    opts = [a for a in legal(s, 0) if a["type"] == "effect"]
    assert {a["from"] for a in opts} == {"F"}
    s = act(s, 0, {"type": "effect", "owner": 1, "from": "F", "to": "J"})
    assert {"z": "J", "up": True} in s["own"][1]["troops"]


def test_command_rest_other_repair_rebels_and_shadow_blade():
    """Command abilities: Shadow Baron rests another Minion; Stonemason repairs 1; Rabble
    Rouser adds or removes a Rebel; Shadow Blade moves a troop up to 2 zones."""
    s = pos(["O6", "H1.0"])
    s["own"][0]["hall"][1]["ex"] = 2
    s = act(s, 0, {"type": "command", "slot": 0})
    assert [a for a in legal(s, 0) if a["type"] == "effect"] == [{"type": "effect", "slot": 1}]
    s = act(s, 0, {"type": "effect", "slot": 1})
    assert s["own"][0]["hall"][1]["ex"] == 1
    s = pos(["O1", "G5"])
    assert "command" not in types(s, 0)  # nothing to repair
    s["own"][0]["hp"] = 3
    s = act(s, 0, {"type": "command", "slot": 1})
    s = act(s, 0, {"type": "effect"})
    assert s["own"][0]["hp"] == 4
    s = pos(["O1", "X5"])
    s = act(s, 0, {"type": "command", "slot": 1})
    assert {"type": "effect", "rebel": -1} in legal(s, 0)
    s = act(s, 0, {"type": "effect", "rebel": 1})
    assert s["rebels"] == 2
    s = pos(["O1", "A5"], troops0=[("H", True)])
    s = act(s, 0, {"type": "command", "slot": 1})
    assert {a["to"] for a in legal(s, 0) if a["type"] == "effect"} == {"A", "B", "C", "D", "E",
                                                                       "I", "M"}


def test_power_relic_instant_abilities():
    """Power Relics > Instant Ability: gain gold, repair, remove or add a Rebel, rest a Minion,
    move a troop -- performed once, right away, when activated."""
    s = pos(["O1", "H1.0"], hand0=["P01", "P08", "P21", "P24", "P04", "P02"])
    s["own"][0]["gold"] = 2
    s["own"][0]["hp"] = 3
    s["own"][0]["hall"][0]["ex"] = 2
    s = act(s, 0, {"type": "activate", "relic": "P01"})
    assert s["own"][0]["gold"] == 3
    s = act(s, 0, {"type": "activate", "relic": "P08"})
    assert s["own"][0]["hp"] == 4
    s = act(s, 0, {"type": "activate", "relic": "P21"})
    assert s["rebels"] == 0
    s = act(s, 0, {"type": "activate", "relic": "P24"})
    s = act(s, 0, {"type": "effect", "rebel": 1})
    assert s["rebels"] == 1
    s = act(s, 0, {"type": "activate", "relic": "P04"})
    s = act(s, 0, {"type": "effect", "slot": 0})
    assert s["own"][0]["hall"][0]["ex"] == 1
    s = act(s, 0, {"type": "activate", "relic": "P02"})
    s = act(s, 0, {"type": "effect", "from": "C", "up": True, "to": "E"})
    assert s["own"][0]["troops"] == [{"z": "E", "up": True}]
    assert sorted(s["own"][0]["active"]) == ["P01", "P02", "P04", "P08", "P21", "P24"]
    ENGINE.check_invariants(s)


def test_power_relic_troop_bonus_lasts_until_night_then_discarded():
    """Power Relics > Troop Bonus lasts until the night; 3.1 Discard all active Power Relics."""
    s = pos(["O1", "H1.0"], hand0=["P19"])
    s = act(s, 0, {"type": "activate", "relic": "P19"})
    assert core.move_reach(s, 0, "C") == 2  # P19: move +1 from any zone
    s = act(s, 0, {"type": "move", "from": "C", "to": "B"})
    set_troops(s, 1, [("F", False)])
    s = act(s, 0, {"type": "end_turn"})
    assert s["day"] == 2
    assert s["own"][0]["active"] == [] and "P19" in s["rdiscard"]


def test_passive_abilities_apply_while_exhausted():
    """Passive Abilities: active at all times, even if their Minion is exhausted."""
    s = pos(["O1", "S5"])
    s["own"][0]["hall"][1]["ex"] = 2
    assert core.move_reach(s, 0, "C") == 2


def test_instant_abilities_need_an_unexhausted_minion():
    """Instant Abilities: the Minion must be unexhausted (ready) for its Command."""
    s = pos(["O1", "H2.0"])
    s["own"][0]["hall"][1]["ex"] = 1
    assert "command" not in types(s, 0)
