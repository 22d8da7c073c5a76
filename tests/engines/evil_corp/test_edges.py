"""Edge cases of the rules and of the README's interpretations."""
from engines.evil_corp import ENGINE, data
from engines.evil_corp.state import marker

from .helpers import act, fresh, give, put, turn


def test_hire_with_empty_evil_corp_bag():
    """3. Hire a Monster (README 25): with the Evil Corp. bag empty the top cell stays empty."""
    s = fresh()
    s["queue_discard"] += s["corp_bag"]
    s["corp_bag"] = []
    s["sides"][0]["gold"] = 10
    s = act(s, 0, {"type": "hire", "slot": 4})
    assert s["queue"][0] is None and all(t is not None for t in s["queue"][1:])
    turn(s, 0)
    assert {"type": "hire", "slot": 0} not in ENGINE.legal_actions(s, 0)


def test_passed_player_still_answers_opponent_ability():
    """4. Pass: a passed player takes no more actions, but must still discard when an opponent's
    ability says so (Red monsters #2)."""
    s = fresh()
    s["seats"][1]["supply"] = [s["sides"][1]["bag"].pop() for _ in range(2)]
    s["seats"][1]["passed"] = True
    put(s, 0, "R02", 0, "raid-1")
    s = act(s, 0, {"type": "activate", "board": 0, "cell": "raid-1"})
    assert ENGINE.prompts(s).keys() == {1}
    s = act(s, 1, ENGINE.legal_actions(s, 1)[0])
    assert ENGINE.prompts(s).keys() == {0}


def test_three_players_targets_only_on_available_boards():
    """Main Rules (3 players): abilities target only the two boards available to the actor."""
    s = fresh(3)
    # seat 0 has boards 0 (with seat 1) and 2 (with seat 2); board 1 lies between seats 1 and 2
    put(s, 1, "SR1", 1, "raid-1")
    put(s, 1, "SR2", 0, "raid-1")
    put(s, 2, "SY2", 2, "raid-1")
    t = give(s, 0, "B02")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "port-1"})
    boards = {a["board"] for a in ENGINE.legal_actions(s, 0)}
    assert boards == {0, 2}


def test_magic_coins_are_limited():
    """Game Components (9 magic coins) / README 24: a winner takes what is left."""
    s = fresh()
    s["sides"][1]["magic"] = 8
    put(s, 0, "R10", 0, "raid-1")
    s = act(s, 0, {"type": "pass"})
    s = act(s, 1, {"type": "pass"})
    assert s["sides"][0]["magic"] == 1


def test_one_victory_token_per_board_and_night():
    """Receiving a Victory Token (README 21): victory cell and conquest centre on the same board in
    the same night give one token."""
    s = fresh()
    s["boards"][0]["conquest"][0] = 1
    put(s, 0, "R10", 0, "raid-1")
    put(s, 0, "R15", 0, "raid-2")
    assert marker(s, 0) == 7
    s = act(s, 0, {"type": "pass"})
    s = act(s, 1, {"type": "pass"})
    assert s["sides"][0]["vp"] == 1


def test_fear_track_clamped_and_removal_uses_total():
    """Fear track (README 6): the marker stops at the track's end; removals subtract from the
    unclamped total."""
    s = fresh()
    for c, t in (("raid-1", "R10"), ("raid-2", "R15"), ("raid-3", "R09"), ("fortress", "B15")):
        put(s, 0, t, 0, c)
    assert marker(s, 0) == len(data.SIDES["A"]["track"])
    g = ENGINE.view(s, 0)["game"]["boards"][0]
    assert g["net_fear"] == 13 and g["marker"] == 9


def test_activated_ability_needs_active_tile():
    """2. Activate a Monster: an inactive tile has no abilities and cannot be activated again."""
    s = fresh()
    put(s, 0, "R04", 0, "raid-1", up=False)
    assert {"type": "activate", "board": 0, "cell": "raid-1"} not in ENGINE.legal_actions(s, 0)
