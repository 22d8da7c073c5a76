"""Placement Phase, Update Turn Order and Gathering Phase."""
from engines.drops_of_evil import ENGINE, placement
from engines.drops_of_evil.data import BOARDS
from tests.engines.harness import assert_illegal

from .helpers import act, new_game


def spaces(state, seat, pawn):
    return {a["space"] for a in ENGINE.legal_actions(state, seat)
            if a["type"] == "place" and a["pawn"] == pawn}


def test_each_pawn_only_on_its_own_type_of_space():
    """Placement Phase > Crows (Clearing Gathering spaces only, not the Underbrush), Cats
    (double-arrow), Toads (four-arrow), Snakes (down-arrow), Coin Pouches (Assistants)."""
    s = new_game(2, "A")
    seat = s["order"][0]
    board = BOARDS["small-A"]
    assert spaces(s, seat, "crow") == board["clearing"]
    assert "g-1-1" not in spaces(s, seat, "crow")          # Underbrush
    assert spaces(s, seat, "cat") == {f"k-{i}" for i in range(1, 5)}
    assert spaces(s, seat, "toad") == {"t-1-1", "t-4-1", "t-1-3", "t-4-3"}
    assert spaces(s, seat, "snake") == {f"s-{c}" for c in range(1, 6)}
    assert spaces(s, seat, "coin") == {"a-1", "a-2", "a-3", "a-4"}
    assert_illegal(ENGINE, s, seat, {"type": "place", "pawn": "crow", "space": "g-1-1"})
    assert_illegal(ENGINE, s, seat, {"type": "place", "pawn": "cat", "space": "t-1-1"})


def test_no_space_shared_and_turns_follow_turn_order():
    """Placement Phase: one pawn per turn in Turn Order; never on an occupied space."""
    s = new_game(2, "A")
    first, second = s["order"]
    assert set(ENGINE.prompts(s)) == {first}
    s = act(s, first, {"type": "place", "pawn": "crow", "space": "g-3-2"})
    assert set(ENGINE.prompts(s)) == {second}
    assert "g-3-2" not in spaces(s, second, "crow")
    assert_illegal(ENGINE, s, second, {"type": "place", "pawn": "crow", "space": "g-3-2"})
    assert ENGINE.legal_actions(s, first) == []             # not your turn


def test_pawns_in_any_order_until_all_five_placed_then_gathering():
    """Placement Phase: five pawns each, in any order; then Gathering and Brewing follow."""
    s = new_game(2, "A", seed=3)
    placed = 0
    while s["phase"] == "placement" and s["round"] == 1:
        seat = next(iter(ENGINE.prompts(s)))
        acts = [a for a in ENGINE.legal_actions(s, seat) if a["type"] in ("place", "end_turn")]
        # place the Snake first, to show any order is allowed
        snake = [a for a in acts if a.get("pawn") == "snake"]
        s = act(s, seat, (snake or acts)[0])
        placed += acts[0]["type"] == "place" or bool(snake)
    assert placed == 10
    assert s["phase"] in ("brewing", "income", "placement")


def test_update_turn_order_from_snakes_leftmost_first_even_in_round_3():
    """Update Turn Order: the Snake farthest to the left goes first; also in the last round."""
    for rnd in (1, 3):
        s = new_game(3)
        s["round"] = rnd
        s["pawns"] = {"s-5": [0, "snake"], "s-1": [1, "snake"], "s-3": [2, "snake"]}
        for a in s["alch"]:
            a["home"] = ["crow", "cat", "toad", "coin"]
        placement.end_placement(s)
        assert s["order"] == [1, 2, 0]


def test_gathering_order_crows_cats_toads_snakes_and_worms_for_empty_spaces():
    """Gathering Phase: Crows, then Cats, then Toads, then Snakes; a Familiar reaching an
    emptied space collects exactly 1 Worm per empty space; Rats go to Free Rats."""
    s = new_game(2, "A")
    s["forest"] = {"g-3-2": {"owl": 2}, "g-2-2": {"bat": 1, "rat": 1}, "g-1-1": {"spider": 1},
                   "g-2-1": {"mushroom": 1}, "g-1-2": {"salamander": 1}}
    s["pawns"] = {"g-3-2": [0, "crow"],      # crow: (3,2)
                  "k-1": [1, "cat"],         # cat: (2,2) (3,2) -> (3,2) emptied by the crow
                  "t-1-1": [0, "toad"],      # toad: (1,1) (2,1) (1,2) (2,2) -> (2,2) emptied
                  "s-2": [1, "snake"]}       # snake: column 2: everything already taken
    s["alch"][0]["home"] = ["cat", "snake", "coin"]
    s["alch"][1]["home"] = ["crow", "toad", "coin"]
    placement.gather(s)
    a0, a1 = s["alch"]
    assert a0["pool"]["owl"] == 2                                  # Crow first
    assert a1["pool"]["bat"] == 1 and a1["free"] == 1               # Cat: bat + rat
    assert a0["pool"]["spider"] == 1 and a0["pool"]["mushroom"] == 1 \
        and a0["pool"]["salamander"] == 1
    assert a0["pool"]["worm"] == 1                                  # toad: (2,2) empty
    # cat: (3,2) empty -> 1 worm; snake: 4 spaces of column 2, all empty -> 4 worms
    assert a1["pool"]["worm"] == 1 + 4
    assert s["worms"] == 58 - 6
    assert s["pawns"] == {} and s["phase"] == "brewing"
    assert sorted(a0["home"]) == sorted(["crow", "toad", "cat", "snake", "coin"])


def test_placement_assistant_usable_right_after_hiring_then_end_turn():
    """Assistants: a Placement-phase Assistant may be activated immediately after hiring;
    the turn then ends with end_turn (or at once when nothing is left to activate)."""
    s = new_game(2, "A")
    s["assistants"][0] = "AS03"
    seat = s["order"][0]
    s["forest"]["g-1-1"] = {"spider": 1}
    s = act(s, seat, {"type": "place", "pawn": "coin", "space": "a-1"})
    assert ENGINE.prompts(s)[seat]["kind"] == "after_placement"
    acts = ENGINE.legal_actions(s, seat)
    assert {"type": "end_turn"} in acts
    assert {"type": "assistant", "assistant": "AS03", "target": "g-1-1"} in acts
    s = act(s, seat, {"type": "assistant", "assistant": "AS03", "target": "g-1-1"})
    assert s["alch"][seat]["pool"]["spider"] == 1
    assert "g-1-1" not in s["forest"]
    assert set(ENGINE.prompts(s)) == {s["order"][1]}                  # turn passed


def test_placement_assistant_on_a_later_turn_before_placing():
    """Assistants: ... or at any moment during a later Placement turn, before placing."""
    s = new_game(2, "A")
    s["assistants"][0] = "AS04"
    first, second = s["order"]
    s["forest"] = {g: c for g, c in s["forest"].items() if "mushroom" not in c}
    s["forest"]["g-1-1"] = {"mushroom": 1}
    s = act(s, first, {"type": "place", "pawn": "coin", "space": "a-1"})
    s = act(s, first, {"type": "end_turn"})
    s = act(s, second, {"type": "place", "pawn": "crow", "space": "g-2-2"})
    s["forest"]["g-5-4"] = {"mushroom": 2}
    acts = ENGINE.legal_actions(s, first)
    assert {"type": "assistant", "assistant": "AS04", "target": "g-5-4"} in acts
    s = act(s, first, {"type": "assistant", "assistant": "AS04", "target": "g-5-4"})
    assert s["forest"]["g-5-4"] == {"mushroom": 1} and s["alch"][first]["pool"]["mushroom"] == 1
    assert set(ENGINE.prompts(s)) == {first}            # activation does not end the turn
    assert all(a["type"] == "place" for a in ENGINE.legal_actions(s, first))


def _with_toad(aid):
    s = new_game(2, "A")
    s["assistants"][0] = aid
    seat = s["order"][0]
    a = s["alch"][seat]
    a["asst"], a["home"] = "a-1", ["crow", "cat", "snake"]
    s["pawns"] = {"a-1": [seat, "coin"], "t-1-1": [seat, "toad"], "k-1": [1 - seat, "cat"]}
    s["forest"] = {"g-1-1": {"rat": 2, "mushroom": 1}, "g-2-2": {"rat": 1, "owl": 1},
                   "g-3-3": {"rat": 1}}
    return s, seat


def test_ratcatcher_as01_takes_rats_around_the_toad_even_if_claimed():
    """Assistants > Placement Phase (rulebook Assistant): all Rats from the four spaces around
    your Toad, even claimed by an opponent (the Cat on (2,2)), into Captured Rats."""
    s, seat = _with_toad("AS01")
    s = act(s, seat, {"type": "assistant", "assistant": "AS01"})
    assert s["alch"][seat]["captured"] == 3
    assert s["forest"]["g-2-2"] == {"owl": 1} and s["forest"]["g-3-3"] == {"rat": 1}
    assert s["forest"]["g-1-1"] == {"mushroom": 1}


def test_ratcatcher_needs_a_placed_toad():
    """Assistants: AS01 cannot be activated before your Toad is on the Forest board."""
    s, seat = _with_toad("AS01")
    del s["pawns"]["t-1-1"]
    s["alch"][seat]["home"].append("toad")
    assert not [a for a in ENGINE.legal_actions(s, seat) if a["type"] == "assistant"]


def test_mushroom_forager_as02():
    """Assistants (provisional AS02): Mushrooms around your Toad into your pool."""
    s, seat = _with_toad("AS02")
    s = act(s, seat, {"type": "assistant", "assistant": "AS02"})
    assert s["alch"][seat]["pool"]["mushroom"] == 1 and s["forest"]["g-1-1"] == {"rat": 2}


def test_shapeshifter_as05_moves_a_familiar():
    """Assistants (provisional AS05): move one of your placed Familiars to an empty legal space."""
    s, seat = _with_toad("AS05")
    acts = [a for a in ENGINE.legal_actions(s, seat) if a["type"] == "assistant"]
    assert {a["pawn"] for a in acts} == {"toad"}
    assert {a["space"] for a in acts} == {"t-4-1", "t-1-3", "t-4-3"}
    s = act(s, seat, {"type": "assistant", "assistant": "AS05", "pawn": "toad",
                      "space": "t-4-3"})
    assert s["pawns"]["t-4-3"] == [seat, "toad"] and "t-1-1" not in s["pawns"]


def test_seer_as06_draws_two_and_puts_each_on_a_space():
    """Assistants (provisional AS06): draw 2 Resources and put each on any Gathering space."""
    s, seat = _with_toad("AS06")
    bag = len(s["bag"])
    s = act(s, seat, {"type": "assistant", "assistant": "AS06"})
    drawn = list(s["alch"][seat]["pending"][-1]["drawn"])
    assert len(drawn) == 2 and len(s["bag"]) == bag - 2
    assert ENGINE.prompts(s)[seat]["kind"] == "seer"
    assert {a["type"] for a in ENGINE.legal_actions(s, seat)} == {"seer_put"}
    s = act(s, seat, {"type": "seer_put", "space": "g-5-4"})
    s = act(s, seat, {"type": "seer_put", "space": "g-5-4"})
    assert sum(s["forest"]["g-5-4"].values()) == 2
    assert sorted(t for t, n in s["forest"]["g-5-4"].items() for _ in range(n)) == sorted(drawn)
