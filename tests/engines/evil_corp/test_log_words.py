"""The log's words (rules version 3; docs/table-review.md, "Worst problems" 8): every line reads
as English for a player and for a team alike — counts in their number ("1 step", "2 steps",
never "step(s)"), no "its" for a person, prices in what was paid (gold first, then magic
coins), a skipped effect's reason in words.

Docstrings name the rulebook section the line reports. Stored texts say "Player N" and tile
codes; the app puts the names in (app.matches.views)."""
import re

import pytest

from engines.base import Rng
from engines.evil_corp import ENGINE, data, effects

from .helpers import act, fresh, give, put, queue_put, texts, turn
from .test_night import end_day


def test_a_tie_won_with_the_power_stone_moves_the_holders_conquest_token():
    """Night > Fear Track Effects > Tie: "check whether one of the players has a power stone.
    The owner of the power stone wins and moves his conquest token 1 step toward the center"
    (the review read "Morgana ... moves its conquest token 1 step")."""
    s = fresh()
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    put(s, 1, "SR1", 0, "raid-1")
    s = end_day(s)
    assert "Board 1: tie, won with the power stone by Player 1, whose conquest token moves 1 step " \
           "toward the centre." in texts(s)
    assert "Board 2: tie, nobody wins." in texts(s)


def test_a_won_board_says_cells_and_steps_in_their_number():
    """Night > Fear Track Effects > Example: "The marker passed 4 cells. For each conquest
    symbol Marina moves her conquest token 1 step toward the center and then receives 2 magic
    coins from the supply." One cell is "1 cell"; the conquest token's owner is named."""
    s = fresh()
    put(s, 0, "R10", 0, "raid-1")                       # 4 cells toward Player 2 on board 1
    put(s, 1, "SR1", 1, "raid-1")                       # 1 cell toward Player 1 on board 2
    s = end_day(s)
    lines = texts(s)
    at = lines.index("Board 1: the fear marker is 4 cells toward Player 2; Player 1 wins.")
    assert lines[at + 1] == "The conquest token of Player 1 moves 1 step toward the centre."
    assert "Board 2: the fear marker is 1 cell toward Player 1; Player 2 wins." in lines
    assert "Player 1 receives 2 magic coins." in lines
    assert not [t for t in lines if " its " in t or "(s)" in t]


def test_a_team_reads_as_well_as_a_player():
    """Main Rules, 4 players: "each team jointly ... frightens one of the settlements": the
    team's conquest token moves, in the same words as a player's."""
    s = fresh(4)
    put(s, 0, "R10", 0, "raid-1")
    s = end_day(s)
    assert "The conquest token of Team 1 (Player 1 + Player 3) moves 1 step toward the centre." \
        in texts(s)


def test_magic_coins_short_of_those_owed_say_one_coin_and_how_many_were_owed():
    """Game Components: "9 magic coin tokens"; Fear Track Effects: "Receive 2 magic coins": with
    1 left, the winner receives 1 magic coin (README 24)."""
    s = fresh()
    s["sides"][1]["magic"] = 8
    put(s, 0, "R10", 0, "raid-1")
    s = end_day(s)
    assert "Player 1 receives 1 magic coin of the 2 owed: no more are left." in texts(s)


@pytest.mark.parametrize("both", [False, True])
def test_the_end_names_the_winners_with_their_verb(both):
    """Victory Conditions: "The game ends during the night when one of the players receives 2
    victory tokens" (the review read "own(s)"); two claimants "have"."""
    s = fresh()
    for side in (0, 1) if both else (1,):
        s["sides"][side]["vp"] = 1
        s["boards"][side]["conquest"][side] = 1
        put(s, side, "SR2", side, "raid-1")
    s = end_day(s)
    assert s["phase"] == "over"
    assert texts(s)[-1] == ("The game ends: Player 1 and Player 2 have the 2 victory tokens "
                            "needed to win." if both else
                            "The game ends: Player 2 has the 2 victory tokens needed to win.")


def test_a_keep_paid_partly_in_magic_coins_says_so():
    """Discarding Monster Tokens: "pay 2 or 3 gold coins ... to leave this monster on the
    settlement board"; Fear Track Effects: magic coins "are used in the same way as gold
    coins" (gold is spent first: state.pay). The line says what was paid, not "for 2 gold"."""
    s = fresh()
    k = put(s, 0, "R15", 0, "fortress")
    s["sides"][0]["gold"], s["sides"][0]["magic"] = 1, 3
    s = end_day(s)
    s = act(s, 0, {"type": "keep", "board": 0, "pay": True})
    assert f"Player 1 keeps {data.label(k)} in the fortress of board 1 for 1 gold and 1 magic " \
           f"coin." in texts(s)


@pytest.mark.parametrize(("gold", "magic", "words"),
                         [(2, 0, "2 gold"), (0, 2, "2 magic coins"), (1, 1, "1 gold and 1 magic coin")])
def test_a_hire_says_what_it_cost_and_where_the_monster_goes(gold, magic, words):
    """3. Hire a Monster: "Discard from your supply as many gold coins as the hire of this
    monster costs" and put it into your bag; magic coins "are used in the same way as gold
    coins"."""
    s = fresh()
    s["sides"][0]["gold"], s["sides"][0]["magic"] = gold, magic
    r = queue_put(s, 2, "R01")                                   # cost 2, no raise
    s = act(s, 0, {"type": "hire", "slot": 2})
    assert f"Player 1 hires {data.label(r)} for {words} and puts it into the bag." in texts(s)


def test_a_summon_says_what_it_cost():
    """Demon Portal > Summoning a Demon > Example (Marina): "paying 2 gold"; magic coins "are
    used in the same way as gold coins"."""
    s = fresh()
    s["sides"][0]["gold"], s["sides"][0]["magic"] = 1, 1
    put(s, 1, "SR1", 0, "raid-1")
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "portal"})
    s = act(s, 0, {"type": "summon", "demon": 0})
    assert any(re.fullmatch(r"Player 1 summons .+ at level 1 \(summoning strength 1\), paying "
                            r"1 gold and 1 magic coin\.", t) for t in texts(s)), texts(s)


def test_a_spawn_that_pays_gold_says_what_it_paid():
    """Monster Abilities (Junior Brute's spawn: pay 1 gold), paid with a magic coin when the
    side has no gold left ("used in the same way as gold coins")."""
    s = fresh()
    s["sides"][0]["gold"], s["sides"][0]["magic"] = 0, 1
    t = give(s, 0, "SR2")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    assert "Player 1 pays 1 magic coin." in texts(s)


def test_a_skipped_effect_says_why_in_words():
    """Ability Symbols: "Flip 1 of the opponent's monster tiles of your choice" with none on the
    boards: the effect is skipped, and the line says so without the choice's code name (the
    review's "no possible choice for hire fx")."""
    s = fresh()
    t = give(s, 0, "B02")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "port-1"})
    assert "Player 1's effect is skipped: no opponent's monster tile to flip." in texts(s)


def test_every_choice_that_can_be_skipped_has_its_reason():
    """Every kind of choice effects.push_choice makes has its words (a new kind without them
    would fail at the table, not here)."""
    source = open(effects.__file__).read()
    kinds = set(re.findall(r'push_choice\(state, \{"kind": "(\w+)"', source))
    assert len(kinds) >= 12 and kinds <= set(effects.SKIPPED), kinds - set(effects.SKIPPED)
    names = ENGINE.display_names()
    for reason in effects.SKIPPED.values():  # no word the app would read as a code
        assert not [k for k in names if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", reason)]


def test_removed_from_the_game_says_where_it_was():
    """Monster Abilities > Yellow monsters #3: "Choose 1 of your monster tiles (behind the
    screen, in the discard pile or on the board) and remove it from the game"."""
    s = fresh()
    a = give(s, 0, "SR1")
    t = give(s, 0, "Y03")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    turn(s, 0)
    s = act(s, 0, {"type": "activate", "board": 0, "cell": "raid-1"})
    s = act(s, 0, {"type": "remove", "tile": a})
    assert f"Player 1 removes {data.label(a)} from the game (it was behind the screen)." \
        in texts(s)


def test_unplayed_tiles_and_draws_are_counted_in_their_number():
    """Refresh the Player's Supply: "If monster tiles remain behind your screen, also put them
    in your monster discard pile"; "Each player draws 5 new monster tiles from his bag"."""
    s = fresh()
    k = give(s, 0, "SR1")
    s = end_day(s)
    lines = texts(s, 1)
    assert f"Player 1 discards 1 unplayed tile: {data.label(k)}." in lines
    assert "Player 1 drew 5 tiles." in lines


def test_a_port_cargo_is_named_as_the_board_names_it():
    """Port: "checks whether there are gold coins in the yellow port cargo cell"; a red or blue
    monster takes the red/blue cargo cell (the stored line said "redblue")."""
    s = fresh()
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "port-1"})
    assert "Player 1 takes 2 gold from the red/blue port cargo of board 1." in texts(s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_line_of_a_whole_match_has_a_count_or_pronoun_to_mend(players):
    """A whole match of random moves: no "(s)", no "its", no "1 cells"/"1 steps"/"1 tiles"/
    "1 magic coins", no "redblue" and no "no possible choice" in any line (every seat's and
    the spectators' lines)."""
    s, rng = ENGINE.setup(players, {}, 40 + players), Rng(players)
    for _ in range(3000):
        prompts = ENGINE.prompts(s)
        if not prompts:
            break
        seat = min(prompts)
        s, _ = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
    bad = re.compile(r"\(s\)|\bits\b|\b1 (cells|steps|tiles|magic coins|unplayed tiles)\b|redblue|"
                     r"no possible choice")
    lines = [e["text"] for e in s["log"]]
    assert len(lines) > 100
    assert [t for t in lines if bad.search(t)] == []
