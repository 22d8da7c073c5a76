"""Setup (rulebook "Setup")."""
from collections import Counter

import pytest

from engines.drops_of_evil import ENGINE
from engines.drops_of_evil.data import (
    B_SCROLL_SLOTS,
    BOARDS,
    COMPONENTS,
    D_SCROLL_SLOTS,
    E_SLOTS,
    TOXICITY,
)

from .helpers import new_game


@pytest.mark.parametrize("players,side,board", [(4, "A", "large-4p"), (3, "A", "large-3p"),
                                                (2, "A", "small-A"), (2, "B", "small-B")])
def test_board_and_side_by_player_count(players, side, board):
    """Setup: 4p large 4-player side, 3p large 3-player side, 2p small board side A or B."""
    assert new_game(players, side)["board"] == board


def test_side_option_validated():
    """Setup: the small board side is A (regular) or B (variant)."""
    with pytest.raises(ValueError):
        ENGINE.setup(2, {"side": "C"}, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_removal_table_bag_and_one_resource_per_gathering_space(players):
    """Setup: remove tokens per the table, bag the rest, 1 Resource on every Gathering space."""
    s = new_game(players)
    removal = COMPONENTS["removal"][players]
    total = Counter(s["bag"])
    for content in s["forest"].values():
        assert sum(content.values()) == 1
        total.update(content)
    assert set(s["forest"]) == set(BOARDS[s["board"]]["gathering_ids"])
    for t in ("owl", "bat", "salamander", "scorpion", "mushroom", "spider", "rat"):
        assert total[t] == COMPONENTS["resources"][t] - removal.get(t, 0)
    assert "worm" not in total and s["worms"] == 58       # Worms: general supply


def test_removal_numbers_match_rulebook():
    """Setup table: 2p removes 14/12/10/8/8/6/6, 3p 7/6/5/4/4/3/3, 4p nothing."""
    assert COMPONENTS["removal"][2] == {"owl": 14, "bat": 12, "salamander": 10, "scorpion": 8,
                                        "mushroom": 8, "rat": 6, "spider": 6}
    assert COMPONENTS["removal"][3] == {"owl": 7, "bat": 6, "salamander": 5, "scorpion": 4,
                                        "mushroom": 4, "rat": 3, "spider": 3}
    assert COMPONENTS["removal"][4] == {}


@pytest.mark.parametrize("players,n", [(2, 4), (3, 5), (4, 5)])
def test_assistants_revealed(players, n):
    """Setup: 4 Assistants in a 2-player game, 5 with 3 or 4 players, all different."""
    s = new_game(players)
    assert len(s["assistants"]) == n == len(set(s["assistants"]))


def test_two_recipes_with_recipe_ingredient_tokens():
    """Setup: 2 Recipe tiles, one Recipe Ingredient token on each (different tokens)."""
    s = new_game()
    assert len(s["recipes"]) == 2
    assert s["recipes"][0][0] != s["recipes"][1][0]
    assert s["recipes"][0][1] != s["recipes"][1][1]


def test_random_turn_order_and_score_start():
    """Setup: Turn Order markers placed randomly; Score markers on the start space."""
    orders = {tuple(new_game(4, seed=k)["order"]) for k in range(12)}
    assert len(orders) > 1
    s = new_game(4)
    assert sorted(s["order"]) == [0, 1, 2, 3]
    assert all(a["score"] == 0 for a in s["alch"])


def test_bonus_layout_drawn_once_with_one_scroll_of_each_set_discarded():
    """Setup: the first player's random layout is copied to every Alchilab; one Distiller
    Scroll and one Brewer Scroll are discarded; 14 Extra Resources on the round spaces."""
    s = new_game(4)
    lay = s["layout"]
    assert sorted(k for k in lay if k in E_SLOTS) == sorted(E_SLOTS)
    d = {lay[k][7:] for k in D_SCROLL_SLOTS}
    bs = {lay[k][7:] for k in B_SCROLL_SLOTS}
    assert len(d) == 4 and s["discarded_scrolls"]["distiller"] not in d
    assert len(bs) == 4 and s["discarded_scrolls"]["brewer"] not in bs
    layouts = {tuple(sorted(new_game(2, seed=k)["layout"].items())) for k in range(6)}
    assert len(layouts) > 1                                 # random
    assert all(a["taken"] == [] for a in s["alch"])         # same starting configuration


def test_toxicity_tokens_on_start_values_and_pawns_home():
    """Setup: Toxicity tokens on their starting values; 5 Action pawns on the Alchilab."""
    s = new_game(3)
    for a in s["alch"]:
        assert a["tox"] == TOXICITY["start"]
        assert sorted(a["home"]) == ["cat", "coin", "crow", "snake", "toad"]
