"""Game Setup, starting zones, options, and the solo setup of "Evil Prevails"."""
import pytest

from engines.covil import ENGINE
from engines.covil.data import RULES, card

from .helpers import act, legal, new, placed


def test_game_setup_b_to_h_champions_halls_gold_hp_relics_pool_rebel():
    """Game Setup B-H: hall of 5 Henchmen + exhausted Dark Overlord, hp 5, gold 5, 2 Power
    Relics in hand, 1 Rebel in town, 24 Mercenaries in play with 6 revealed (no 10-gold card)."""
    for seed in range(8):
        s = new(3, "A", seed=seed)
        for o, p in enumerate(s["own"]):
            assert p["gold"] == 5 and p["hp"] == 5
            assert card(p["hall"][0]["id"])["kind"] == "overlord" and p["hall"][0]["ex"] == 2
            assert [m["id"] for m in p["hall"][1:]] == [f"H{i}.{o}" for i in range(1, 6)]
            assert all(m["ex"] == 0 for m in p["hall"][1:])
            assert len(p["hand"]) == 2
        assert s["rebels"] == 1
        assert len(s["pool"]) == 6 and len(s["pool"]) + len(s["mdeck"]) == 24
        assert all(card(c)["cost"] != 10 for c in s["pool"])
        assert len(set(p["hall"][0]["id"] for p in s["own"])) == 3
        ENGINE.check_invariants(s)


def test_game_setup_i_starting_zones_in_turn_order_on_spirals():
    """Game Setup I: at the first Morning the starting player, then clockwise, places the
    fortress with 2 troops on a free spiral."""
    s = new(3, "A")
    assert ENGINE.prompts(s).keys() == {0}
    spirals = {a["zone"] for a in legal(s, 0) if a["type"] == "place"}
    assert spirals == {"H", "I", "J", "K", "L", "M"}
    s = act(s, 0, {"type": "place", "zone": "H"})
    assert ENGINE.prompts(s).keys() == {1}
    assert "H" not in {a.get("zone") for a in legal(s, 1)}
    s = act(s, 1, {"type": "place", "zone": "K"})
    s = act(s, 2, {"type": "place", "zone": "M"})
    assert s["own"][0]["fort"] == "H"
    assert s["own"][0]["troops"] == [{"z": "H", "up": True}] * 2
    assert s["phase"] == "afternoon" and ENGINE.prompts(s).keys() == {0}


def test_components_board_choice_4_players_only_on_board_a():
    """Components / Setup A: board A fits up to 4 players, board B up to 3."""
    with pytest.raises(ValueError):
        ENGINE.setup(4, {"board": "B"}, 1)
    assert ENGINE.setup(3, {"board": "B"}, 1)["board"] == "B"
    assert ENGINE.setup(4, {"board": "A"}, 1)["board"] == "A"


def test_solo_setup_desert_town_dummy_mercenary_piles_and_no_relics():
    """Evil Prevails > Setup: Desert town map; the dummy mat gets 2 Mercenaries of 2 gold,
    2 of 4-6 gold and 1 of 8-10 gold instead of Henchmen; no starter relics for the dummy."""
    for seed in range(6):
        s = new(1, "A", dummies=2, seed=seed)
        assert s["board"] == "B" and len(s["own"]) == 3
        assert len(s["own"][0]["hand"]) == 2
        for d in (1, 2):
            p = s["own"][d]
            assert p["seat"] is None and p["hand"] == []
            costs = [card(m["id"])["cost"] for m in p["hall"][1:]]
            assert sorted(costs[:2]) == [2, 2] and all(c in (4, 6) for c in costs[2:4])
            assert costs[4] in (8, 10)
        assert len(s["pool"]) + len(s["mdeck"]) == 24
        ENGINE.check_invariants(s)


def test_solo_setup_player_places_dummy_fortress_and_next_to_you_variant():
    """Evil Prevails: the player sets up the dummy's fortress (a spiral); the "place the dummy
    fortress next to yours" variant puts it in a zone adjacent to the player's fortress."""
    s = new(1, dummies=1)
    s = act(s, 0, {"type": "place", "zone": "A"})
    assert ENGINE.prompts(s)[0]["kind"] == "place"
    assert {a["zone"] for a in legal(s, 0) if a["type"] == "place"} == {"B", "G"}
    s2 = new(1, dummies=1, adjacent=True)
    s2 = act(s2, 0, {"type": "place", "zone": "A"})
    assert {a["zone"] for a in legal(s2, 0) if a["type"] == "place"} == {"C", "I"}
    s2 = act(s2, 0, {"type": "place", "zone": "C"})
    assert s2["own"][1]["fort"] == "C" and s2["phase"] == "afternoon"


def test_gameplay_overview_four_days_then_game_ends():
    """Gameplay Overview: 4 days; the game ends after the 4th night."""
    s = placed(2)
    assert s["day"] == 1
    for seat in range(2):
        for t in s["own"][seat]["troops"]:
            t["up"] = False
    s["stack"] = []
    ENGINE._run_automatic(s)
    assert s["day"] == 2 and s["phase"] == "afternoon"
    assert len(s["own"][0]["troops"]) == RULES["troops_by_day"][1]
