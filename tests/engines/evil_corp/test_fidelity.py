"""Rules fidelity, issue 15 items 6-10 and (a), and rules that were right but untested (rules
version 2; README "Rule interpretations" quotes both sides where the text allows two readings).
"""
from __future__ import annotations

from engines.evil_corp import ENGINE, data
from engines.evil_corp.state import marker

from .helpers import act, fresh, give, kinds, put, slot, turn
from .test_night import end_day


def activate(s, seat, board, cell):
    turn(s, seat)
    return act(s, seat, {"type": "activate", "board": board, "cell": cell})


# ----- item 6: "move 2 of your monster tiles" ----------------------------------------------------
def test_move_two_means_two_different_tiles():
    """Monster Abilities > Yellow monsters #4: "In turn, move 2 of your monster tiles to any
    cells of any available settlement board." The tile moved first cannot be picked again
    (version 1 let one tile move twice, e.g. to collect both ports' cargo)."""
    s = fresh()
    put(s, 0, "Y04", 0, "raid-1")
    put(s, 0, "SY2", 0, "raid-2")
    s = activate(s, 0, 0, "raid-1")
    s = act(s, 0, {"type": "pick", "board": 0, "half": 0, "cell": "raid-2"})
    s = act(s, 0, {"type": "move", "board": 0, "half": 0, "cell": "port-1"})
    assert kinds(s) == "move_pick"
    picks = {(a["board"], a["cell"]) for a in ENGINE.legal_actions(s, 0)}
    assert picks == {(0, "raid-1")}                       # Y04 itself; not the Yellow just moved


# ----- item 7: only the boards available to you --------------------------------------------------
def test_removal_reaches_only_the_actors_boards():
    """Main Rules: "You always interact with only the 2 settlement boards available to you";
    4 players: "Only 2 settlement boards are available to each player: the one nearest to him
    and the central one." Seat 0's removal (Yellow #8) cannot reach its team's tile on the far
    board 3 (seat 2's), which version 1 offered."""
    s = fresh(4)
    far = put(s, 2, "SY2", 2, "raid-1")
    me = put(s, 0, "Y08", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    tiles = {a["tile"] for a in ENGINE.legal_actions(s, 0)}
    assert me in tiles and far not in tiles


# ----- item 8: Demon 1 --------------------------------------------------------------------------
def test_demon_1_sends_one_tile_of_fear_1_or_2_at_every_level():
    """Demon Abilities #1: "Choose on any available settlement board 1 monster tile with fear
    strength 1 or 2 and send it to its owner's discard pile. Pay 2 gold coins if your demon
    summoning strength is 1." (README: the literal text over "Each demon has 3 ability
    levels".) Version 1 reached only fear 1 at level 1 and sent two tiles at level 3."""
    s = fresh()
    put(s, 1, "SR2", 0, "raid-1")                          # fear 2
    s["sides"][0]["gold"] = 2
    s = act(s, 0, {"type": "play", "tile": give(s, 0, "SB"), "board": 0, "cell": "portal"})
    assert s["stack"][-1]["ss"] == 1
    s = act(s, 0, {"type": "summon", "demon": 0})          # level 1: pays 2
    assert s["sides"][0]["gold"] == 0
    assert {"type": "send", "board": 0, "half": 1, "cell": "raid-1"} in \
        ENGINE.legal_actions(s, 0)

    s = fresh()
    put(s, 1, "SR2", 0, "raid-1")
    put(s, 1, "SR1", 0, "raid-2")
    s = act(s, 0, {"type": "play", "tile": give(s, 0, "B07"), "board": 0, "cell": "portal"})
    s = act(s, 0, {"type": "flip_demon", "demon": 1})
    assert s["stack"][-1]["ss"] == 4                       # level 3
    s = act(s, 0, {"type": "summon", "demon": 0})
    s = act(s, 0, {"type": "send", "board": 0, "half": 1, "cell": "raid-1"})
    assert not s["stack"] and slot(s, 1, 0, "raid-2") is not None   # one tile only


# ----- item 9: the night does not depend on the order of the boards ------------------------------
def test_free_keeps_are_counted_before_any_board_is_checked():
    """Night: "In the night phase all players act simultaneously"; "In any order, check each
    settlement board". A free-keep monster on a board that gives a victory token (and is
    cleared) still counts for the fortress of the other board (version 1 counted after the
    clearing, so the order of the checks decided)."""
    s = fresh()
    put(s, 0, "R10", 0, "raid-1")
    put(s, 0, "R15", 0, "raid-2")                          # 4 + 3: victory on board 1
    put(s, 0, "Y09", 0, "port-1")                          # keep 1 monster for free
    put(s, 0, "SR2", 1, "fortress")
    s["sides"][0]["gold"] = 0
    s = end_day(s)
    assert s["sides"][0]["vp"] == 1 and s["boards"][0]["face"] == "B"
    assert {"type": "keep", "board": 1, "pay": False} in ENGINE.legal_actions(s, 0)


def test_short_magic_coins_go_in_turn_order_from_the_first_player():
    """Fear Track Effects: "Magic coin symbol (2): Receive 2 magic coins"; Game Components:
    "9 magic coin tokens". With 1 left and 2 owed to each side (one board each), the first
    player's side takes it, whichever board is checked first (README 24)."""
    for first in (0, 1):
        s = fresh()
        s["first"] = first
        s["sides"][1]["magic"] = 8
        put(s, 0, "R10", 0, "raid-1")                      # side 0 wins board 1
        put(s, 1, "R09", 1, "raid-1")                      # side 1 wins board 2 (3 + 1)
        put(s, 1, "SR1", 1, "raid-2")
        s = end_day(s)
        assert s["sides"][first]["magic"] == (1 if first == 0 else 9)
        assert s["sides"][1 - first]["magic"] == (8 if first == 0 else 0)


# ----- item 10: a monster kept in a fortress is kept one night ------------------------------------
def test_a_monster_kept_last_night_is_not_kept_again():
    """Discarding Monster Tokens: "If during the round you placed a monster in the fortress
    cell, you can pay 2 or 3 gold coins ... to leave this monster on the settlement board for
    the next round." A monster kept last night was not placed this round: it is discarded
    (README 23; version 1 offered to keep it again, round after round)."""
    s = fresh()
    t = put(s, 0, "SR2", 0, "fortress")
    s["sides"][0]["gold"] = 2
    s = end_day(s)
    s = act(s, 0, {"type": "keep", "board": 0, "pay": True})
    assert s["round"] == 2 and slot(s, 0, 0, "fortress")["t"] == t
    s["sides"][0]["gold"] = 5
    s = end_day(s)
    assert s["round"] == 3 and not s["stack"]
    assert slot(s, 0, 0, "fortress") is None
    side = s["sides"][0]      # discarded (and reshuffled into the bag for the round-3 draw)
    assert t in side["discard"] + side["bag"] + s["seats"][0]["supply"]


# ----- (a): a tile put into play came from behind the screen -------------------------------------
def test_putting_a_tile_into_play_cannot_be_taken_back():
    """Undo (docs/design.md "Undo is an action too"): nothing hidden may be revealed by an undo. The
    tile put into play was behind the screen, so its action is irreversible (issue 13 item 11)."""
    s = fresh()
    t = give(s, 0, "SY2")
    _, events = ENGINE.apply(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    assert events[0]["text"].startswith("Player 1 puts") and events[0]["irreversible"]


# ----- right but untested -------------------------------------------------------------------------
def test_loot_pays_the_printed_strength_of_a_boosted_red():
    """Raid > Loot: "Take ... a number of gold coins equal to the fear strength shown on the
    tile of the placed monster (not counting modifiers)": a red monster boosted by R11 (+1 to
    red monsters in raid cells) loots its printed 1."""
    s = fresh()
    put(s, 0, "R11", 0, "raid-1")
    s = act(s, 0, {"type": "play", "tile": give(s, 0, "SR1"), "board": 0, "cell": "raid-2"})
    assert marker(s, 0) == 3 + 2 and s["sides"][0]["gold"] == 1


def test_side_b_fortress_keep_costs_three():
    """Discarding Monster Tokens: "pay 2 or 3 gold coins (depending on the side of the
    settlement board)": 3 on side B."""
    from engines.evil_corp.setup import board_setup
    s = fresh()
    board_setup(s["boards"][0], "B")
    put(s, 0, "SR2", 0, "fortress")
    s["sides"][0]["gold"] = 3
    s = end_day(s)
    s = act(s, 0, {"type": "keep", "board": 0, "pay": True})
    assert s["round"] == 2 and data.SIDES["B"]["keep_cost"] == 3
    assert slot(s, 0, 0, "fortress") is not None


def test_a_power_stone_tie_can_reach_the_conquest_centre():
    """Fear Track Effects > Tie: "The owner of the power stone wins and moves his conquest token
    1 step toward the center"; "If your conquest token occupies the central cell, you receive
    a victory token"."""
    s = fresh()
    s["boards"][0]["conquest"][0] = 1
    s["boards"][0]["stone"] = 0
    s = end_day(s)
    assert s["sides"][0]["vp"] == 1 and s["boards"][0]["face"] == "B"


def test_the_first_player_token_passes_with_three_and_four_players():
    """Pass the first player token: "to the next player on the left, or to the opposing team"."""
    for players, sides in ((3, 3), (4, 2)):
        s = fresh(players)
        seen = [s["first"]]
        for _ in range(3):
            s = end_day(s)
            seen.append(s["first"])
        assert all(b == (a + 1) % sides for a, b in zip(seen, seen[1:])), (players, seen)


def test_a_no_fortress_monster_is_not_moved_into_a_fortress():
    """Fortress: "Some monsters cannot be placed in the fortress" (R10: "This tile cannot be
    placed in the fortress"), by a move too."""
    s = fresh()
    put(s, 0, "Y05", 0, "port-1")
    put(s, 0, "R10", 0, "raid-1")
    s = activate(s, 0, 0, "port-1")
    s = act(s, 0, {"type": "pick", "board": 0, "half": 0, "cell": "raid-1"})
    cells = {(a["board"], a["cell"]) for a in ENGINE.legal_actions(s, 0)}
    assert (0, "raid-2") in cells and (0, "fortress") not in cells and (1, "fortress") not in cells


def test_starting_tiles_are_three_bags_of_two_blue_three_red_three_yellow():
    """Game Setup step 8: "each player receives a bag, into which he puts the next 8 monsters
    with the "starting" sign: 2 blue, 3 red and 3 yellow"; Components: "24 starting monster
    tiles"."""
    s = ENGINE.setup(3, {}, 5)
    for side, st in zip(s["sides"], s["seats"]):
        tiles = side["bag"] + st["supply"]
        colours = sorted(data.TILES[t]["colour"] for t in tiles)
        assert colours == ["blue"] * 2 + ["red"] * 3 + ["yellow"] * 3
    assert sum(len(ids) for ids in data.STARTING_IDS.values()) == 24


# ----- (c): spectators read the public lines the players read --------------------------------------
def test_spectators_read_the_public_wording_of_a_draw():
    """Views (docs/design.md: spectators see what is public): "Player 1 drew 5 tiles" is addressed
    to the other seats and now read by spectators too; the tiles' names stay with their owner
    (issue 14 item 11)."""
    s = ENGINE.setup(2, {}, 3)
    spectator = [e["text"] for e in ENGINE.view(s, None)["log"]]
    assert any(t.startswith("Player 1 drew 5 tiles") for t in spectator)
    assert not any(t.startswith("You drew") for t in spectator)
    seat1 = [e["text"] for e in ENGINE.view(s, 1)["log"]]
    assert any(t.startswith("Player 1 drew 5 tiles") for t in seat1)
    seat0 = [e["text"] for e in ENGINE.view(s, 0)["log"]]
    assert not any(t.startswith("Player 1 drew") for t in seat0)


def test_refusals_never_depend_on_where_a_hidden_tile_is():
    """Hidden information (README 5; docs/design.md "The engine contract": no hidden information
    in a reason): putting into play a tile that is not behind your screen is refused with the
    same words whether that tile is behind the opponent's screen, in a bag or out of the game."""
    s = fresh()
    theirs = give(s, 1, "R10")
    in_bag = s["sides"][1]["bag"][0]
    boxed = s["box"][0] if s["box"] else s["corp_bag"][0]
    reasons = {ENGINE.illegal_reason(s, 0, {"type": "play", "tile": t, "board": 0,
                                            "cell": "raid-1"})
               for t in (theirs, in_bag, boxed)}
    assert len(reasons) == 1, reasons


def test_unplayed_tiles_count_in_the_tie_break():
    """Victory Conditions: "If several players/teams claim victory, gather all the monster tiles
    of these players/teams ... Each claimant sums the hire cost of his monsters": a tile still
    behind the screen when the game ends (during the night) is one of them."""
    s = fresh()
    before = ENGINE.tiebreak_key(s, 0)
    t = give(s, 0, "R09")                                  # hire cost 5, behind the screen
    cost, fear = ENGINE.tiebreak_key(s, 0)
    assert (cost, fear) == (before[0] + data.TILES[t]["cost"], before[1] + data.TILES[t]["fear"])
    for side in (0, 1):
        s["sides"][side]["vp"] = 1
        s["boards"][side]["conquest"][side] = 1            # each side takes its 2nd token
    put(s, 0, "SR2", 0, "raid-1")                          # 2 cells: a conquest shield
    put(s, 1, "SR2", 1, "raid-1")
    s = end_day(s)
    res = ENGINE.result(s)
    assert s["winner"] == [0, 1] and res["ranks"] == [[0], [1]] and res["tiebreak"]
