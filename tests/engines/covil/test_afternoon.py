"""Phase 2: Afternoon -- 2.1 Acquire a Minion, 2.2 free actions, 2.3 troop actions."""
import pytest

from engines.base import IllegalAction
from engines.covil import ENGINE
from engines.covil.core import net_price

from .helpers import act, legal, placed, set_hall, set_hand, set_troops, take_card, types


def _pool(s, *cids):
    for c in cids:
        take_card(s, c)
        s["pool"].append(c)


def test_acquire_example_8_gold_minion_paid_with_gold_relic_and_two_minions():
    """2.1 Acquire a Minion (example): a Minion worth 8 paid with 3 gold, a Power Relic worth 1
    and 2 Minions worth 2 each placed back in the pool; it arrives tired."""
    s = placed(2)
    _pool(s, "W7")
    set_hand(s, 0, ["P01"])
    s = act(s, 0, {"type": "acquire", "card": "W7"})
    s = act(s, 0, {"type": "pay_relic", "relic": "P01"})
    s = act(s, 0, {"type": "pay_minion", "slot": 1})
    s = act(s, 0, {"type": "pay_minion", "slot": 2})
    s = act(s, 0, {"type": "confirm"})
    p = s["own"][0]
    assert p["gold"] == 2 and p["hand"] == []
    assert p["hall"][-1] == {"id": "W7", "ex": 1}  # tired
    assert [m["id"] for m in p["hall"][1:4]] == ["H3.0", "H4.0", "H5.0"]
    assert "H1.0" in s["pool"] and "H2.0" in s["pool"] and "W7" not in s["pool"]
    assert "P01" in s["rdiscard"]
    # one acquisition per turn
    assert "acquire" not in types(s, 0)
    ENGINE.check_invariants(s)


def test_acquire_change_back_when_returned_minion_is_worth_more():
    """2.1: a returned Minion worth more than the acquired one gives the difference in gold."""
    s = placed(2)
    set_hall(s, 0, ["O1", "W6", "H1.0"])
    _pool(s, "G1")
    s["own"][0]["gold"] = 1
    s = act(s, 0, {"type": "acquire", "card": "G1"})
    s = act(s, 0, {"type": "pay_minion", "slot": 1})  # Berserker, 6 gold
    s = act(s, 0, {"type": "confirm"})
    assert s["own"][0]["gold"] == 5  # 1 + (6 - 2), capped at 5
    assert "W6" in s["pool"]


def test_influence_discount_warriors_cost_two_less_and_below_zero_pays_out():
    """Passive Abilities > Influence: "Warriors cost 2 gold less"; applied before hiring; if it
    costs 0 you get +2 gold (a price below 0 pays the difference)."""
    assert net_price(0, 2) == -2
    s = placed(2)
    set_hall(s, 0, ["O1", "W5"])
    _pool(s, "W1", "W3", "G1")
    s["own"][0]["gold"] = 2
    from engines.covil.turn import price
    assert price(s, 0, "W1") == 0 and price(s, 0, "W3") == 2 and price(s, 0, "G1") == 2
    s = act(s, 0, {"type": "acquire", "card": "W1"})
    assert {"type": "confirm"} in legal(s, 0)
    s = act(s, 0, {"type": "confirm"})
    assert s["own"][0]["gold"] == 2


def test_champions_hall_at_most_five_minions_plus_dark_overlord():
    """Champions Hall: never more than 5 Minions (the Dark Overlord on the throne apart); a
    full hall must place a Minion back to acquire; the Overlord can never be removed."""
    s = placed(2)
    _pool(s, "G1")
    s = act(s, 0, {"type": "acquire", "card": "G1"})
    acts = legal(s, 0)
    assert {"type": "confirm"} not in acts
    assert {a["slot"] for a in acts if a["type"] == "pay_minion"} == {1, 2, 3, 4, 5}
    s = act(s, 0, {"type": "pay_minion", "slot": 5})
    s = act(s, 0, {"type": "confirm"})
    assert len(s["own"][0]["hall"]) == 6 and s["own"][0]["gold"] == 5


def test_exhausted_or_tired_minions_cannot_pay():
    """Rest one of your Minions: an exhausted or tired Minion cannot be used as gold."""
    s = placed(2)
    set_hall(s, 0, ["O1", "H1.0", "H2.0", "H3.0"], ex=[2, 2, 1, 0])
    _pool(s, "W7", "W3")
    set_hand(s, 0, [])
    assert {"type": "acquire", "card": "W7"} not in legal(s, 0)  # 5 gold + Slinger 2 < 8
    s = act(s, 0, {"type": "acquire", "card": "W3"})
    assert {a["slot"] for a in legal(s, 0) if a["type"] == "pay_minion"} == {3}


def test_buy_power_relic_for_3_gold_at_any_time_even_out_of_turn():
    """Power Relics > Buy Power Relics: at any point, in any phase, 3 gold draws a relic (a free
    action also for a seat the game is not waiting for); the Smuggler makes it 2."""
    s = placed(2)
    assert ENGINE.prompts(s).keys() == {0}
    assert {"type": "buy_relic"} in legal(s, 1)
    n = len(s["own"][1]["hand"])
    s = act(s, 1, {"type": "buy_relic"})
    assert s["own"][1]["gold"] == 2 and len(s["own"][1]["hand"]) == n + 1
    assert {"type": "buy_relic"} not in legal(s, 1)
    set_hall(s, 1, ["O2", "X3"])
    assert {"type": "buy_relic"} in legal(s, 1)
    s = act(s, 1, {"type": "buy_relic"})
    assert s["own"][1]["gold"] == 0


def test_lie_down_one_troop_each_turn_and_only_one():
    """2.3: with a standing troop you must lie one down each turn, never more than one."""
    s = placed(2)
    assert "end_turn" not in types(s, 0)
    s = act(s, 0, {"type": "move", "from": "H", "to": "A"})
    assert s["own"][0]["troops"].count({"z": "A", "up": False}) == 1
    assert "end_turn" in types(s, 0)
    assert not types(s, 0) & {"move", "rest", "repair", "gold", "attack"}
    s = act(s, 0, {"type": "end_turn"})
    assert ENGINE.prompts(s).keys() == {1}


def test_move_adjacent_and_move_based_reinforcement_from_desert_or_water():
    """2.3 Move this troop: one adjacent zone; "+1 zone from Desert or Water zones" (Sand
    Mage) allows up to 2 zones when departing from such a zone."""
    s = placed(2)
    set_troops(s, 0, [("C", True)])  # C is Desert on board A
    dests = {a["to"] for a in legal(s, 0) if a["type"] == "move"}
    assert dests == {"A", "D", "E", "H", "M"}
    set_hall(s, 0, ["O1", "S5"])
    dests = {a["to"] for a in legal(s, 0) if a["type"] == "move"}
    assert {"B", "F", "G", "I", "L"} <= dests and "C" not in dests
    set_troops(s, 0, [("B", True)])  # Forest: no bonus
    assert {a["to"] for a in legal(s, 0) if a["type"] == "move"} == {"A", "E", "F", "I", "J"}


def test_rest_one_of_your_minions_exhausted_tired_ready():
    """2.3 Rest one of your Minions: exhausted -> tired, tired -> ready."""
    s = placed(2)
    assert s["own"][0]["hall"][0]["ex"] == 2
    s = act(s, 0, {"type": "rest", "from": "H", "slot": 0})
    assert s["own"][0]["hall"][0]["ex"] == 1
    s = act(s, 0, {"type": "end_turn"})
    s = act(s, 1, {"type": "gold", "from": "K"}) if {"type": "gold", "from": "K"} in legal(s, 1) else act(s, 1, {"type": "move", "from": "K", "to": "F"})
    s = act(s, 1, {"type": "end_turn"})
    s = act(s, 0, {"type": "rest", "from": "H", "slot": 0})
    assert s["own"][0]["hall"][0]["ex"] == 0


def test_repair_your_fortress_not_when_destroyed_and_iron_warden_repairs_two():
    """2.3 Repair your fortress: +1 hit point; a destroyed fortress can never be repaired."""
    s = placed(2)
    assert "repair" not in types(s, 0)  # full health
    s["own"][0]["hp"] = 2
    set_hall(s, 0, ["O1", "H1.0"])
    s2 = act(s, 0, {"type": "repair", "from": "H"})
    assert s2["own"][0]["hp"] == 3
    set_hall(s, 0, ["O3", "H1.0"])
    s3 = act(s, 0, {"type": "repair", "from": "H"})
    assert s3["own"][0]["hp"] == 4
    s["own"][0]["hp"] = 0
    s["own"][0]["dead"] = True
    assert "repair" not in types(s, 0)


def test_gain_1_gold_treasury_capped_at_5_spymaster_7():
    """2.3 Gain 1 gold: never more than 5 gold in the Treasury (Spymaster Influence: 7)."""
    s = placed(2)
    s["own"][0]["gold"] = 4
    assert act(s, 0, {"type": "gold", "from": "H"})["own"][0]["gold"] == 5
    s["own"][0]["gold"] = 5
    set_hall(s, 0, ["O1", "X7"])
    assert act(s, 0, {"type": "gold", "from": "H"})["own"][0]["gold"] == 6


def test_afternoon_ends_when_all_troops_lie_down_players_without_standing_troops_skipped():
    """Phase 2: rounds go on until every troop lies down; a player with none standing and
    nothing else possible is skipped (Example B, "Yellow has no more available actions"; one
    who can still act takes turns: test_fidelity.py); then the Night runs."""
    s = placed(2)
    set_troops(s, 1, [("K", False)])
    s["own"][1]["gold"], s["own"][1]["hand"] = 0, []
    for m in s["own"][1]["hall"]:
        m["ex"] = 2  # exhausted: no command, no payment
    s = act(s, 0, {"type": "gold", "from": "H"}) if "gold" in types(s, 0) else act(s, 0, {"type": "move", "from": "H", "to": "A"})
    s = act(s, 0, {"type": "end_turn"})
    assert ENGINE.prompts(s).keys() == {0}  # player 2 has nothing standing
    s = act(s, 0, {"type": "move", "from": "H", "to": "C"})
    s = act(s, 0, {"type": "end_turn"})
    assert s["day"] == 2 and s["phase"] == "afternoon"


def test_illegal_actions_are_refused():
    """Engine contract: an action outside legal_actions raises IllegalAction."""
    s = placed(2)
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 1, {"type": "move", "from": "K", "to": "F"})
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, 0, {"type": "move", "from": "H", "to": "K"})
