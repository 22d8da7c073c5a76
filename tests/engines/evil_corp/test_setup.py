"""Game Setup, Main Rules (available boards) and Clarifications (4 players, Balance of Power)."""
import pytest

from engines.evil_corp import ENGINE, data
from engines.evil_corp.state import available_boards, opponents, side_of


def test_game_setup_queue_demons_boards():
    """Game Setup steps 1-6: 5 applicants from the Evil Corp. bag, 3 active demons, boards on side
    A with loot, power stone, centred fear marker, 2 gold in each port cargo zone, conquest tokens
    on the nearest shields."""
    s = ENGINE.setup(2, {}, 7)
    assert len([t for t in s["queue"] if t is not None]) == 5
    assert len(s["corp_bag"]) == 40 and all(t < 45 for t in s["queue"])
    assert s["demons"] == [True, True, True]
    assert len(s["boards"]) == 2
    for b in range(2):
        bd = s["boards"][b]
        assert bd["face"] == "A" and bd["loot"] and bd["stone"] is None
        assert bd["cargo"] == {"yellow": 2, "redblue": 2}
        assert bd["conquest"] == [data.CONQUEST_STEPS] * 2
        g = ENGINE.view(s, 0)["game"]["boards"][b]
        assert g["marker"] == 0


@pytest.mark.parametrize("players", [2, 3])
def test_game_setup_starting_bags(players):
    """Game Setup step 8: each player's bag holds 8 starting monsters: 2 blue, 3 red, 3 yellow;
    Day Phase: the first supply holds 5 tiles."""
    s = ENGINE.setup(players, {}, 3)
    for seat in range(players):
        mine = s["sides"][seat]["bag"] + s["seats"][seat]["supply"]
        colours = sorted(data.TILES[t]["colour"] for t in mine)
        assert colours == ["blue"] * 2 + ["red"] * 3 + ["yellow"] * 3
        assert all(data.TILES[t]["starting"] for t in mine)
        assert len(s["seats"][seat]["supply"]) == 5


def test_game_setup_four_players_team_bags():
    """About the 4-Player Game: one bag per team (provisional 11 starting tiles); supplies of 4."""
    s = ENGINE.setup(4, {}, 3)
    for side in (0, 1):
        team = [side, side + 2]
        mine = s["sides"][side]["bag"] + sum((s["seats"][x]["supply"] for x in team), [])
        assert len(mine) == 11
    assert all(len(st["supply"]) == 4 for st in s["seats"])
    assert ENGINE.teams == {4: [[0, 2], [1, 3]]}
    assert side_of(s, 0) == side_of(s, 2) != side_of(s, 1)


def test_main_rules_available_boards():
    """Game Setup step 5 / Main Rules: 2 players both boards; 3 players the boards to the left
    and right; 4 players the nearest board and the central one."""
    assert available_boards({"players": 2}, 0) == [0, 1]
    assert available_boards({"players": 2}, 1) == [0, 1]
    s3 = ENGINE.setup(3, {}, 1)
    for seat in range(3):
        boards = available_boards(s3, seat)
        assert len(boards) == 2
        for b in boards:
            assert seat in s3["boards"][b]["halves"]
    assert available_boards({"players": 4}, 0) == [0, 1]
    assert available_boards({"players": 4}, 3) == [1, 2]
    assert opponents({"players": 4}, 0) == [1, 3]
    assert opponents({"players": 3}, 0) == [1, 2]


def test_balance_of_power():
    """Balance of Power: the weaker participant receives 4 gold at the start of the game."""
    s = ENGINE.setup(2, {"balance_of_power_seat": 1}, 1)
    assert s["sides"][1]["gold"] == 4 and s["sides"][0]["gold"] == 0
    s4 = ENGINE.setup(4, {"balance_of_power_seat": 3}, 1)
    assert s4["sides"][1]["gold"] == 4


def test_options_are_validated():
    """Options: seats named in options must exist."""
    with pytest.raises(ValueError):
        ENGINE.setup(2, {"balance_of_power_seat": 2}, 1)
    with pytest.raises(Exception):
        ENGINE.setup(2, {"board": "B"}, 1)
    s = ENGINE.setup(3, {"first_player": 2}, 1)
    assert s["first"] == 2 and ENGINE.prompts(s).keys() == {2}
