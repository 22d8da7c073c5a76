"""Evil Prevails: the Dummy Player A.I., Examples A and B, and the dummy's other rules."""
from engines.covil import ENGINE, dummy

from .helpers import act, placed, set_hall, set_hand, set_troops, top_deck, turn

YELLOW, RED = 0, 1


def _solo(**kw):
    s = placed(1, "B", forts=("A", "B", "G"), **kw)
    set_hall(s, YELLOW, ["O2", "H1.0", "H2.0", "H3.0", "H4.0", "H5.0"], ex=[2, 0, 0, 0, 0, 0])
    return s


def test_solo_example_a_dummy_moves_by_flipped_relic_terrain():
    """Example A: Yellow starts at A, the dummy at B. Yellow moves to C; the dummy flips a
    mountain relic and moves into D. Yellow uses the Squire command to reach F (the town); the
    dummy flips a forest relic and moves into E."""
    s = _solo()
    # no ready Ranged Minion, so it cannot shoot from B into the town
    set_hall(s, RED, ["O5", "W1", "W2", "S1", "G1"], ex=[2, 0, 0, 2, 0])
    top_deck(s, ["P11", "P16"])  # Mountain, then Forest
    s = act(s, YELLOW, {"type": "move", "from": "A", "to": "C"})
    s = act(s, YELLOW, {"type": "end_turn"})
    assert {"z": "D", "up": False} in s["own"][RED]["troops"]
    assert s["flips"][-1] == "P11"
    assert s["log"][-1]["text"] == "Dummy 1 moves a troop from B to D."
    s = act(s, YELLOW, {"type": "command", "slot": 2})  # the Squire
    s = act(s, YELLOW, {"type": "effect", "from": "C", "up": False, "to": "F"})
    s = act(s, YELLOW, {"type": "move", "from": "A", "to": "I"})
    s = act(s, YELLOW, {"type": "end_turn"})
    texts = [e["text"] for e in s["log"]]
    i = texts.index("Dummy 1 flips Power Relic P16: Forest.")
    assert texts[i + 1] == "Dummy 1 moves a troop from B to E."
    assert s["day"] == 2  # every troop lay down: night, then the next morning


def test_solo_example_b_dummy_attack_priorities():
    """Example B: the dummy melee attacks in C (tie with F broken by a forest flip), Yellow
    retreats to F and destroys the dummy fortress from F; the dummy favours melee in F; then
    shoots from I into A (enemy fortress) rather than into G; then from E into G."""
    s = _solo()
    set_hall(s, YELLOW, ["O2", "H3.0", "H4.0", "A2", "S1"], ex=[2, 0, 0, 0, 0])
    set_hall(s, RED, ["O1", "W3", "S4", "X1", "G1"])
    set_hand(s, YELLOW, [])
    s["own"][YELLOW]["gold"] = 0
    s["own"][RED]["gold"] = 0
    s["own"][RED]["hp"] = 1
    set_troops(s, YELLOW, [("C", True), ("F", True), ("H", True), ("A", True), ("G", False)])
    set_troops(s, RED, [("C", True), ("F", True), ("I", True), ("E", True)])
    top_deck(s, ["P16"])  # Forest: zone C
    s["first"] = RED
    turn(s, RED)
    ENGINE._run_automatic(s)
    # 1st troop: melee in C with the strongest Melee Minion (Bone Tyrant, 1 + 3)
    f = s["stack"][-1]
    assert (f["kind"], f["dz"], f["akind"], f["acard"]) == ("combat", "C", "melee", "O1")
    assert s["flips"][-1] == "P16"
    s = act(s, YELLOW, {"type": "done"})  # 4 vs 1: keeps the Shieldbearer for later
    assert ENGINE.prompts(s)[YELLOW]["kind"] == "retreat"
    s = act(s, YELLOW, {"type": "retreat", "to": "F"})
    s = act(s, YELLOW, {"type": "attack", "from": "F", "kind": "ranged", "slot": 1})
    s = act(s, YELLOW, {"type": "target", "owner": RED, "zone": "B", "fortress": True})
    assert s["own"][RED]["dead"]
    s = act(s, YELLOW, {"type": "end_turn"})
    # 2nd troop: melee favoured, in F (Yellow's lying troops there)
    f = s["stack"][-1]
    assert (f["kind"], f["dz"], f["akind"], f["dup"]) == ("combat", "F", "melee", False)
    while s["stack"][-1]["kind"] == "combat":
        s = act(s, YELLOW, {"type": "done"})
    s = act(s, YELLOW, {"type": "attack", "from": "H", "kind": "ranged", "slot": 3})
    s = act(s, YELLOW, {"type": "target", "owner": RED, "zone": "F", "up": False})
    assert s["own"][RED]["hall"][4]["ex"] == 2  # it defends with its best defensive Minion
    while s["stack"] and s["stack"][-1]["kind"] == "combat":
        s = act(s, YELLOW, {"type": "done"})
    s = act(s, YELLOW, {"type": "end_turn"})
    # 3rd troop: ranged from I into A (enemy fortress) rather than from E into G
    f = s["stack"][-1]
    assert (f["kind"], f["from"], f["dz"], f["akind"], f["acard"]) == (
        "combat", "I", "A", "ranged", "S4")
    s = act(s, YELLOW, {"type": "defend", "slot": 2})  # 2 vs 2: the defender wins
    while s["stack"][-1]["kind"] == "combat":
        s = act(s, YELLOW, {"type": "done"})
    s = act(s, YELLOW, {"type": "attack", "from": "A", "kind": "ranged", "slot": 4})
    s = act(s, YELLOW, {"type": "target", "owner": RED, "zone": "I", "up": False})
    while s["stack"][-1]["kind"] == "combat":
        s = act(s, YELLOW, {"type": "done"})
    s = act(s, YELLOW, {"type": "end_turn"})
    # 4th troop: ranged from E into G
    f = s["stack"][-1]
    assert (f["kind"], f["from"], f["dz"], f["akind"]) == ("combat", "E", "G", "ranged")
    # Yellow has no more available actions: no standing troop left
    assert not any(t["up"] for t in s["own"][YELLOW]["troops"])


def test_dummy_buys_a_relic_each_morning_if_possible_and_never_activates():
    """Dummy A.I. > Morning phase: spend 3 gold to buy a Power Relic kept face down; it never
    activates Power Relics and never acquires Mercenaries."""
    s = _solo()
    assert s["own"][RED]["gold"] == 2 and len(s["own"][RED]["hand"]) == 1
    v = ENGINE.view(s, YELLOW)
    assert v["game"]["owners"][RED]["hand"] is None
    assert v["game"]["owners"][RED]["hand_count"] == 1
    hall = [m["id"] for m in s["own"][RED]["hall"]]
    s = act(s, YELLOW, {"type": "move", "from": "A", "to": "C"})
    s = act(s, YELLOW, {"type": "end_turn"})
    assert [m["id"] for m in s["own"][RED]["hall"]] == hall
    assert s["own"][RED]["active"] == []


def test_dummies_never_attack_each_other():
    """Dummy A.I.: a dummy is enemy to you only; two dummies never attack each other."""
    s = placed(1, "B", forts=("A", "B", "G"), dummies=2)
    set_troops(s, 1, [("E", True)])
    set_troops(s, 2, [("E", True)])
    set_troops(s, 0, [("A", False)])
    set_hall(s, 1, ["O1", "W3"])
    assert dummy._try_attack(s, 1, "melee") is False


def test_dummy_best_minion_strongest_then_top_left():
    """Dummy A.I.: exhaust the strongest Melee (Ranged) Minion; ties: the top-left one."""
    s = _solo()
    set_hall(s, RED, ["O4", "W3", "W4", "W1"], ex=[2, 0, 0, 0])
    assert dummy.best_minion(s, RED, "Melee") == 1
    s["own"][RED]["hall"][1]["ex"] = 1
    assert dummy.best_minion(s, RED, "Melee") == 2
    assert dummy.best_minion(s, RED, "Ranged") is None


def test_dummy_retreats_like_a_move_nearest_enemy_fortress():
    """Dummy A.I. > Move! (also applicable to Retreat): flip a relic, go to a zone of that
    terrain; ties: nearest to the enemy fortress zone."""
    s = _solo()
    set_troops(s, RED, [("F", False)])
    s["stack"].append({"kind": "retreat", "seats": [], "owner": RED, "zone": "F"})
    top_deck(s, ["P01"])  # Water: B is the only watery neighbour of F
    dummy.retreat(s)
    assert s["own"][RED]["troops"] == [{"z": "B", "up": False}]
    set_troops(s, RED, [("F", False)])
    s["stack"].append({"kind": "retreat", "seats": [], "owner": RED, "zone": "F"})
    top_deck(s, ["P16"])  # Forest: C and H; C is nearer to Yellow's fortress in A
    dummy.retreat(s)
    assert s["own"][RED]["troops"] == [{"z": "C", "up": False}]
