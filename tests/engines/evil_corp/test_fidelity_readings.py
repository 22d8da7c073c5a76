"""Issue 15 item 10: the readings where a strict reading goes the other way. Each test quotes
both sides and checks the side the README ("Rule interpretations" 6, 7, 9, 21) says the text
supports best (rules version 2). Item 10's kept-monster reading is in test_fidelity.py. Also
item 7 for an ability other than removal."""
from __future__ import annotations

from engines.evil_corp import ENGINE, data
from engines.evil_corp.state import marker

from .helpers import act, fresh, put, slot
from .test_fidelity import activate


def test_a_colour_boost_acts_on_your_monsters_on_the_boosters_board_only():
    """Ability Symbols > Passive: "Add +1 to the fear strength of each of your blue monsters
    placed in raid cells ... A similar effect exists for red and yellow monsters", against the
    tile text (Red #7): "Add +1 to the fear strength of all yellow monsters placed in raid
    cells". README 7: *your* monsters, on the board where the booster lies. R11 (+1 to red) in
    seat 0's fortress of board 1 boosts seat 0's red there, neither the opponent's red beside it
    nor seat 0's red on board 2."""
    s = fresh()
    put(s, 0, "R11", 0, "fortress")                         # fear 2
    put(s, 0, "SR1", 0, "raid-1")                           # 1 + 1
    put(s, 1, "SR1", 0, "raid-1")                           # the opponent's: stays 1
    put(s, 0, "SR1", 1, "raid-1")                           # the other board: stays 1
    assert marker(s, 0) == 2 + 2 - 1
    assert abs(marker(s, 1)) == 1


def test_the_fear_marker_after_an_overflow_reflects_the_board():
    """Raid: "If a monster tile is removed from the board for any reason, the marker moves in
    the opposite direction" (strictly: back from the track's end, losing the overflow), against
    "Thus the fear track always reflects the balance of strength of the two players on the
    settlement board". README 6: the marker is derived from the board. Net fear 13 on a 9-cell
    track; Yellow #8 removes a fear-3 monster: net 10, the marker stays at the end (the strict
    reading would put it at 6)."""
    s = fresh()
    for c, t in (("raid-1", "R10"), ("raid-2", "R15"), ("raid-3", "R09"), ("fortress", "B15")):
        put(s, 0, t, 0, c)
    end = len(data.SIDES["A"]["track"])
    assert marker(s, 0) == end == 9
    gone = slot(s, 0, 0, "raid-2")["t"]                     # R15, fear 3
    put(s, 0, "Y08", 0, "port-1")                           # ports count no fear
    assert marker(s, 0) == end
    s = activate(s, 0, 0, "port-1")
    s = act(s, 0, {"type": "remove", "tile": gone})
    assert gone in s["box"] and slot(s, 0, 0, "raid-2") is None
    assert ENGINE.view(s, 0)["game"]["boards"][0]["net_fear"] == 10
    assert marker(s, 0) == end


def test_a_board_gives_one_victory_token_a_night_even_by_both_ways():
    """Receiving a Victory Token: "There are two ways to receive a victory token: 1. Bring the
    fear marker ... to any of the last 3 cells on the opponent's side. 2. Bring your conquest
    token to the central cell" (strictly: two tokens when both happen), against "After
    receiving a victory token, flip the settlement board ... Then perform the setup of the
    settlement board", which ends that board's night. README 21: one token per board per
    night. The marker in a victory cell and the conquest token reaching the centre on board 1
    the same night give 1 token."""
    from .test_night import end_day

    s = fresh()
    s["boards"][0]["conquest"][0] = 1                       # one step from the centre
    put(s, 0, "R10", 0, "raid-1")
    put(s, 0, "R15", 0, "raid-2")
    assert marker(s, 0) == 7                                # a victory cell
    s = end_day(s)
    assert s["sides"][0]["vp"] == 1 and s["boards"][0]["face"] == "B"


def test_a_red_moved_into_a_raid_cell_loots_nothing():
    """Raid > Loot: "If you were the first player to place a red monster in any of the raid
    cells, you plunder the settlement" ("place" could include a move), against the Raid
    section's frame: "Immediately after putting a monster into play, if you placed it in any of
    the raid cells". README 9: put into play only (where a move counts the rulebook says so:
    "The port effect is also applied if a monster tile was earlier put into play and moved into
    a port cell"). A red moved by Yellow #5 from the fortress into a raid cell takes no gold
    and leaves the loot on the board. (The power stone cannot arise by a move: a blue monster
    moves only into a portal, README 10.)"""
    s = fresh()
    put(s, 0, "Y05", 0, "port-1")
    put(s, 0, "SR2", 0, "fortress")
    s["sides"][0]["gold"] = 0
    s = activate(s, 0, 0, "port-1")
    s = act(s, 0, {"type": "pick", "board": 0, "half": 0, "cell": "fortress"})
    s = act(s, 0, {"type": "move", "board": 0, "half": 0, "cell": "raid-1"})
    assert slot(s, 0, 0, "raid-1") is not None and not s["stack"]
    assert s["sides"][0]["gold"] == 0 and s["boards"][0]["loot"]
    assert s["boards"][0]["stone"] is None


def test_sending_to_the_discard_pile_reaches_only_the_actors_boards():
    """Issue 15 item 7, for an ability other than removal. Main Rules: "You always interact with
    only the 2 settlement boards available to you"; About the 4-Player Game: "Only 2 settlement
    boards are available to each player: the one nearest to him and the central one". Seat 0's
    Red #9 ("send to its owner's discard pile", fear 3 or less) may target the opposing team's
    tiles on board 1 (its own) and the central board 2, never on the far board 3."""
    s = fresh(4)
    put(s, 1, "SR1", 0, "raid-2")
    put(s, 1, "SR2", 1, "raid-1")
    put(s, 1, "SY2", 2, "raid-1")                          # the far board
    put(s, 0, "R09", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    targets = {(a["board"], a["cell"]) for a in ENGINE.legal_actions(s, 0) if a["type"] == "send"}
    assert (0, "raid-2") in targets and (1, "raid-1") in targets
    assert not any(board == 2 for board, _ in targets)
