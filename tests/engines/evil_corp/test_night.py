"""B. Night Phase and Victory Conditions."""
from engines.evil_corp import ENGINE, data
from engines.evil_corp.state import marker

from .helpers import act, fresh, give, put, slot, take


def end_day(s: dict) -> dict:
    """Everyone passes (answering no fortress question)."""
    r = s["round"]
    while s["phase"] == "day" and s["round"] == r and not s["stack"]:
        seat = min(ENGINE.prompts(s))
        s = act(s, seat, {"type": "pass"})
    return s


def test_fear_track_effects_example_marina():
    """Night > Fear Track Effects > Example: the marker passed 4 cells toward the opponent: for the
    conquest symbol Marina moves her conquest token 1 step, then receives 2 magic coins."""
    s = fresh()
    put(s, 0, "R10", 0, "raid-1")
    assert marker(s, 0) == 4
    s = end_day(s)
    assert s["boards"][0]["conquest"][0] == data.CONQUEST_STEPS - 1
    assert s["sides"][0]["magic"] == 2 and s["sides"][0]["vp"] == 0
    assert s["boards"][0]["conquest"][1] == data.CONQUEST_STEPS


def test_victory_token_last_three_cells_and_flip_to_side_b():
    """Receiving a Victory Token (way 1) and the flip: marker in the last 3 cells gives a victory
    token; the board turns to side B, all monsters go to their owners' discard piles (no fortress
    keep), the board is set up again."""
    s = fresh()
    a = put(s, 0, "R10", 0, "raid-1")
    b = put(s, 0, "R15", 0, "fortress")
    c = put(s, 1, "SR1", 0, "raid-1")
    put(s, 0, "SY2", 0, "raid-2")
    assert marker(s, 0) == 4 + 3 - 1 + 1
    s["sides"][0]["gold"] = 5
    s = end_day(s)
    assert s["sides"][0]["vp"] == 1
    bd = s["boards"][0]
    assert bd["face"] == "B" and bd["conquest"] == [3, 3] and bd["loot"]
    assert bd["cargo"] == data.SIDES["B"]["cargo"]
    assert all(v is None for h in bd["cells"] for v in h.values())
    assert {a, b} <= set(s["sides"][0]["discard"]) and c in s["sides"][1]["discard"]
    assert not s["stack"]   # no fortress question on a flipped board


def test_victory_token_by_conquest_centre():
    """Receiving a Victory Token (way 2): the conquest token reaches the central cell."""
    s = fresh()
    s["boards"][1]["conquest"][1] = 1
    put(s, 1, "SR2", 1, "raid-1")
    s = end_day(s)
    assert s["sides"][1]["vp"] == 1 and s["boards"][1]["face"] == "B"


def test_side_b_board_is_not_flipped_again():
    """Receiving a Victory Token: a board already on side B is not flipped, only set up again."""
    s = fresh()
    from engines.evil_corp.setup import board_setup
    board_setup(s["boards"][0], "B")
    put(s, 0, "R10", 0, "raid-1")
    put(s, 0, "R15", 0, "raid-2")
    s = end_day(s)   # 7 cells on side B: victory at 5+
    assert s["sides"][0]["vp"] == 1 and s["boards"][0]["face"] == "B"


def test_tie_power_stone():
    """Fear Track Effects > Tie: marker in the middle: the power stone owner moves his conquest
    token 1 step; without a stone nobody wins."""
    s = fresh()
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    put(s, 1, "SR1", 0, "raid-1")
    assert marker(s, 0) == 0 and s["boards"][0]["stone"] == 0
    s = end_day(s)
    assert s["boards"][0]["conquest"] == [2, 3]
    assert s["boards"][1]["conquest"] == [3, 3]
    assert s["boards"][0]["stone"] is None   # stone returned


def test_refresh_port_cargo_loot():
    """Refresh Port Cargo Zones, Loot and Power Stone: refill only empty cargo cells; loot back."""
    s = fresh()
    s["boards"][0]["cargo"] = {"yellow": 0, "redblue": 1}
    s["boards"][0]["loot"] = False
    s = end_day(s)
    assert s["boards"][0]["cargo"] == {"yellow": 2, "redblue": 1}
    assert s["boards"][0]["loot"]


def test_discarding_monsters_and_supply():
    """Discarding Monster Tokens: raid, port and portal monsters and the tiles left behind the
    screen go to the owner's discard pile."""
    s = fresh()
    a = put(s, 0, "SR1", 0, "raid-1")
    b = put(s, 0, "SY1", 1, "port-1")
    c = put(s, 0, "SB", 1, "portal")
    d = give(s, 0, "SY2")
    s = end_day(s)
    assert {a, b, c, d} <= set(s["sides"][0]["discard"]) | set(s["seats"][0]["supply"]) | set(
        s["sides"][0]["bag"])
    assert all(v is None for bd in s["boards"] for h in bd["cells"] for v in h.values())


def test_fortress_keep_paid_and_reset_fear_track():
    """Discarding Monster Tokens (fortress, 2 gold on side A) and Reset the Fear Track: a kept
    monster turns inactive and the reset marker counts its fear strength."""
    s = fresh()
    k = put(s, 0, "R15", 0, "fortress")
    put(s, 0, "SY2", 0, "raid-1")
    s["sides"][0]["gold"] = 2
    s = end_day(s)
    assert s["stack"][-1]["kind"] == "keep" and ENGINE.prompts(s).keys() == {0}
    acts = ENGINE.legal_actions(s, 0)
    assert {"type": "keep", "board": 0, "pay": True} in acts
    assert {"type": "keep", "board": 0, "pay": False} not in acts
    s = act(s, 0, {"type": "keep", "board": 0, "pay": True})
    assert s["round"] == 2
    sl = slot(s, 0, 0, "fortress")
    assert sl["t"] == k and sl["up"] is False and "kept" not in sl
    assert marker(s, 0) == 3
    assert s["sides"][0]["gold"] == 0


def test_fortress_keep_unaffordable_is_discarded():
    """Discarding Monster Tokens: if you cannot pay, the fortress monster is discarded."""
    s = fresh()
    k = put(s, 0, "R15", 0, "fortress")
    s = end_day(s)
    assert s["round"] == 2 and k in s["sides"][0]["discard"] + s["seats"][0]["supply"] + \
        s["sides"][0]["bag"]
    assert marker(s, 0) == 0


def test_fortress_keep_release_by_choice():
    """Discarding Monster Tokens: a player who does not want to pay discards the monster."""
    s = fresh()
    put(s, 0, "R15", 0, "fortress")
    s["sides"][0]["magic"] = 3
    s = end_day(s)
    s = act(s, 0, {"type": "release", "board": 0})
    assert s["sides"][0]["magic"] == 3 and slot(s, 0, 0, "fortress") is None


def test_discard_gold_keep_magic_queue_demons_first_player():
    """Refresh the Personnel Department Board and the Player's Supply: the "We'll call you back"
    monster is discarded, the queue shifts down and refills at the top; demons turn active; gold is
    returned, magic coins are kept; the first player token passes."""
    s = fresh()
    s["sides"][0]["gold"], s["sides"][0]["magic"] = 4, 2
    s["demons"] = [False, True, False]
    q = list(s["queue"])
    first = s["first"]
    s = end_day(s)
    assert s["queue_discard"] == [q[4]]
    assert s["queue"][1:] == q[:4] and s["queue"][0] is not None
    assert s["demons"] == [True, True, True]
    assert s["sides"][0]["gold"] == 0 and s["sides"][0]["magic"] == 2
    assert s["first"] == (first + 1) % 2


def test_game_ends_with_two_victory_tokens():
    """Victory Conditions: the game ends during the night when a player owns 2 victory tokens."""
    s = fresh()
    s["sides"][1]["vp"] = 1
    s["boards"][1]["conquest"][1] = 1
    put(s, 1, "SR2", 1, "raid-1")
    s = end_day(s)
    assert s["phase"] == "over" and ENGINE.prompts(s) == {}
    r = ENGINE.result(s)
    assert r["ranks"] == [[1], [0]] and r["scores"] == {"0": 0, "1": 2}


def two_claimants() -> dict:
    """A fresh 2-seat game in which both sides claim victory (1 victory token and 1 conquest
    each) with an equal monster in play: only the tiebreak can rank them."""
    s = fresh()
    for side in (0, 1):
        s["sides"][side]["vp"] = 1
    s["boards"][0]["conquest"][0] = 1
    s["boards"][1]["conquest"][1] = 1
    put(s, 0, "SR2", 0, "raid-1")
    put(s, 1, "SR2", 1, "raid-1")
    return s


def test_victory_several_claimants_tiebreak():
    """Victory Conditions: several claimants compare the sum of hire costs of all their monsters
    plus magic coins, then the sum of fear strength."""
    s = two_claimants()
    s["sides"][1]["bag"].append(take(s, "R09"))   # cost 5
    s["sides"][0]["magic"] = 4                    # 4 < 5
    s = end_day(s)
    r = ENGINE.result(s)
    assert r["ranks"] == [[1], [0]] and "hire costs" in r["tiebreak"]
    assert ENGINE.tiebreak_key(s, 1)[0] == 5 and ENGINE.tiebreak_key(s, 0)[0] == 4


def test_victory_tiebreak_fear_strength():
    """Victory Conditions: equal hire-cost sums: the greater sum of fear strength wins."""
    s = two_claimants()
    s["sides"][0]["bag"].append(take(s, "R13"))   # cost 2, fear 3
    s["sides"][1]["bag"].append(take(s, "R01"))   # cost 2, fear 2
    s = end_day(s)
    assert ENGINE.result(s)["ranks"] == [[0], [1]]


def test_four_players_team_victory_groups_seats():
    """About the 4-Player Game: a team wins together; result ranks group the partners."""
    s = fresh(4)
    s["sides"][0]["vp"] = 1
    s["boards"][1]["conquest"][0] = 1
    put(s, 0, "SR2", 1, "raid-1")
    s = end_day(s)
    assert ENGINE.result(s)["ranks"] == [[0, 2], [1, 3]]
