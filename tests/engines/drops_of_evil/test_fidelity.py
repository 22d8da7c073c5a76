"""Rules fidelity, issue 15 items 11-13 and the rules that were right but untested (rules
version 2; README "Rule interpretations" quotes both sides where the text allows two readings).
"""
from __future__ import annotations

from collections import Counter

from engines.drops_of_evil import ENGINE, placement
from engines.drops_of_evil.alchilab import required
from engines.drops_of_evil.data import BONUS, FAMILIARS, INGREDIENTS, PAWNS, TOXICITY, VIAL_CELLS
from engines.drops_of_evil.fill import max_placed, open_shape
from engines.drops_of_evil.rules_help import BLOCKS, REARRANGE

from .helpers import act, brewing_state, legal_types, new_game

#: Every Vial's type in a "full" Brewer (each Vial one type; no Spider anywhere).
FULL_TYPES = {"A": "worm", "B": "worm", "C": "worm", "D": "bat", "E": "scorpion", "F": "worm",
              "G": "owl", "H": "salamander", "I": "salamander", "J": "bat", "K": "owl",
              "L": "scorpion"}


def brewer_without(*open_cells: str, empty_vials: tuple[str, ...] = ()) -> dict[str, str]:
    """A full Brewer (earlier rounds) with ``open_cells`` and whole ``empty_vials`` left empty."""
    return {c: FULL_TYPES[v] for v, cells in VIAL_CELLS.items() for c in cells
            if c not in open_cells and v not in empty_vials}


def quiet(state: dict) -> dict:
    """Column and Distiller Extra Resources become 1 Cheese (no Rat to use it on): completing a
    column in these positions gives nothing to place."""
    for slot in state["layout"]:
        if slot.endswith("-e"):
            state["layout"][slot] = "cheese1"
    return state


def brews(state: dict, res: str) -> set[str]:
    return {a["cell"] for a in ENGINE.legal_actions(state, 0)
            if a["type"] == "brew" and a["res"] == res}


# ----- item 11: "You must place all of your Ingredients if possible" ----------------------------
def test_a_placement_that_leaves_another_ingredient_without_space_is_refused():
    """Placing Ingredients: "You must place all of your Ingredients if possible. Only in the
    rare case that you have no legal space where you can place an Ingredient, you must discard
    it at the end of the Brewing Phase." Vial H is empty, Vial K (Owl Claws) has one space: the
    Owl Claw must take K's space, so that both Bat Wings fit in H. Version 1 let the Owl Claw
    into H, then ended Brewing and discarded the Bat Wings."""
    s = quiet(brewing_state({"owl": 1, "bat": 2},
                            brewer=brewer_without("b-3-4", empty_vials=("H",))))
    assert brews(s, "owl") == {"b-3-4"}                 # not H: the Bat Wings need it
    assert brews(s, "bat") == {"b-8-2", "b-8-3"}
    assert "done" not in legal_types(s, 0)
    refused = ENGINE.illegal_reason(s, 0, {"type": "brew", "res": "owl", "cell": "b-8-2"})
    assert refused == BLOCKS
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-3-4"})
    s = act(s, 0, {"type": "brew", "res": "bat", "cell": "b-8-2"})
    s = act(s, 0, {"type": "brew", "res": "bat", "cell": "b-8-3"})
    assert not any(required(s["alch"][0], r) for r in INGREDIENTS)


def test_done_is_refused_while_another_arrangement_places_more():
    """Placing Ingredients ("You must place all of your Ingredients if possible"): Done is
    legal only when no arrangement of this phase's movable Ingredients places more of them. An
    Owl Claw placed this phase sits in Vial H; a Bat Wing gained afterwards fits only if the
    Owl Claw moves to Vial K: Done is refused until it does."""
    s = quiet(brewing_state({"bat": 1},
                            brewer={**brewer_without("b-3-4", "b-8-3"), "b-8-2": "owl"},
                            fresh=["b-8-2"], new=["b-8-2"]))
    assert legal_types(s, 0) == {"take_back"}
    assert ENGINE.illegal_reason(s, 0, {"type": "done"}) == REARRANGE
    s = act(s, 0, {"type": "take_back", "cell": "b-8-2"})
    assert brews(s, "owl") == {"b-3-4"}
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-3-4"})
    s = act(s, 0, {"type": "brew", "res": "bat", "cell": "b-8-2"})
    assert "done" in legal_types(s, 0)


def test_what_no_arrangement_can_place_is_still_discarded():
    """"Only in the rare case that you have no legal space where you can place an Ingredient,
    you must discard it at the end of the Brewing Phase": a Scorpion Tail with no Vial for it
    does not hold Brewing up."""
    s = quiet(brewing_state({"scorpion": 1, "owl": 1}, brewer=brewer_without("b-3-4")))
    assert brews(s, "scorpion") == set() and "done" not in legal_types(s, 0)
    before = s["discard"]["scorpion"]
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-3-4"})
    # nothing left to do but Done: the seat is done at once, and the phase ends
    assert s["phase"] != "brewing" and s["discard"]["scorpion"] == before + 1


def test_the_fill_count_follows_the_vial_rules():
    """Placing Ingredients: one non-Spider type per Vial; "You are not allowed to create
    Spider-only Vials". The count behind item 11 (``fill.max_placed``) obeys both."""
    empty = open_shape({})                                  # 12 empty Vials, 36 spaces
    assert max_placed(empty, {"owl": 36}) == 36
    assert max_placed(empty, {"spider": 5}) == 0            # no Spider-only Vial
    assert max_placed(empty, {"spider": 5, "owl": 1}) == 4  # 3 beside it in a Vial of 4
    two = open_shape(brewer_without(empty_vials=("H", "J")))  # two Vials of 2
    assert max_placed(two, {"owl": 1, "bat": 1, "spider": 2}) == 4
    assert max_placed(two, {"owl": 3}) == 3 and max_placed(two, {"owl": 1, "bat": 3}) == 3
    typed = open_shape(brewer_without("b-3-4"))             # one space beside Owl Claws
    assert max_placed(typed, {"spider": 1}) == 1 and max_placed(typed, {"bat": 1}) == 0


# ----- item 12: Extra Resources are optional ------------------------------------------------------
def test_extra_resources_may_be_left_unplaced():
    """Bonus Tokens > Extra Resources: "Any other Ingredient — You may place the Extra Resource
    token itself directly into your Brewer as if it was a regular Ingredient token" and "Any
    unused Extra Resources must be discarded at the end of the Brewing Phase" (README: the
    text supports "optional" best). An Owl Claw Extra Resource gained by completing column 1
    may go into the Brewer, or be discarded at the end of the phase."""
    s = brewing_state({"owl": 1}, brewer={"b-1-2": "owl", "b-1-3": "owl", "b-1-4": "owl"})
    s["layout"]["bc-1-e"] = "owl"
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})
    a = s["alch"][0]
    assert a["pool"]["owl"] == 1 and a["xpool"] == {"owl": 1}
    assert "done" in legal_types(s, 0) and brews(s, "owl")     # optional, and placeable
    placed = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-2-1"})
    assert placed["alch"][0]["pool"]["owl"] == 0 and "done" in legal_types(placed, 0)
    before = s["discard"]["owl"]
    s = act(s, 0, {"type": "done"})
    assert s["discard"]["owl"] == before + 1 and s["alch"][0]["xpool"] == {}


def test_gathered_ingredients_stay_required_beside_an_extra_resource():
    """"You must place all of your Ingredients if possible" still holds for gathered ones: with
    a gathered Owl Claw and an Owl Claw Extra Resource, one Owl Claw must be placed (either
    token: identical tokens are fungible), the second may be left."""
    s = brewing_state({"owl": 2}, xpool={"owl": 1})
    assert "done" not in legal_types(s, 0)
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})
    assert s["alch"][0]["xpool"] == {"owl": 1} and "done" in legal_types(s, 0)
    s = act(s, 0, {"type": "take_back", "cell": "b-1-1"})
    assert s["alch"][0]["pool"]["owl"] == 2 and "done" not in legal_types(s, 0)


def test_an_extra_resource_may_not_take_a_required_ingredients_space():
    """An optional Extra Resource must not leave a gathered Ingredient without the space it
    had ("You must place all of your Ingredients if possible")."""
    s = brewing_state({"bat": 1, "owl": 1}, xpool={"owl": 1},
                      brewer=brewer_without("b-8-2"))            # one space, in Vial H
    s["alch"][0]["brewer"].pop("b-8-3")
    assert brews(s, "owl") == set() and brews(s, "bat") == {"b-8-2", "b-8-3"}


def test_an_extra_mushroom_is_optional_too():
    """Extra Resources > "Mushrooms — You may place the Extra Resource token itself directly
    into your Distiller as if it was a regular Mushroom token"; a gathered Mushroom must be
    placed ("Mushrooms must be placed in the Vials of your Distiller")."""
    s = brewing_state({"mushroom": 2}, xpool={"mushroom": 1})
    assert "done" not in legal_types(s, 0)
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-1"})
    assert "done" in legal_types(s, 0)


# ----- item 13: the last Worms when the supply runs out -------------------------------------------
def test_the_last_worms_go_in_turn_order():
    """Gathering Phase: "Each step in this phase can be resolved simultaneously by all players"
    and a Familiar reaching an empty space "collect[s] exactly 1 Worm from the supply"; the
    supply is the box's 58 Worms. When one Worm is left for two Crows, the player first in turn
    order gets it (version 1: the Crow on the first space by name)."""
    s = new_game(2, "A")
    s["forest"], s["worms"], s["order"] = {}, 1, [1, 0]
    s["pawns"] = {"g-2-2": [0, "crow"], "g-3-2": [1, "crow"]}
    for a in s["alch"]:
        a["home"] = ["cat", "toad", "snake", "coin"]
    placement.gather(s)
    assert s["alch"][1]["pool"]["worm"] == 1 and s["alch"][0]["pool"]["worm"] == 0
    assert s["worms"] == 0


# ----- right but untested ---------------------------------------------------------------------------
def test_component_counts_are_the_rulebooks():
    """Components: "30 Owl Claws, 26 Bat Wings, 22 Salamander Eyes, 18 Scorpion Tails,
    18 Mushrooms, 14 Spiders, 14 Rats, 58 Worms"; "56 Extra Resources", "40 Scrolls",
    "24 Toxicity tokens", "20 Action pawns" (4 colours). Counted in a 4-player setup."""
    rulebook = {"owl": 30, "bat": 26, "salamander": 22, "scorpion": 18, "mushroom": 18,
                "spider": 14, "rat": 14}
    s = new_game(4)
    box = Counter(s["bag"])
    for content in s["forest"].values():
        box.update(content)
    assert dict(box) == rulebook and s["worms"] == 58
    assert 4 * sum(BONUS["extra_resources"].values()) == 56
    assert 4 * sum(len(v) for v in BONUS["scrolls"].values()) == 40
    assert 4 * len(TOXICITY["types"]) == 24 and 4 * len(PAWNS) == 20


def test_next_rounds_order_comes_from_the_snakes():
    """Update Turn Order: "The player whose Snake is farthest to the left becomes the first
    player for the next round": round 2's first Placement turn is that player's."""
    s = new_game(3)
    s["pawns"] = {"s-5": [0, "snake"], "s-1": [2, "snake"], "s-3": [1, "snake"]}
    for a in s["alch"]:
        a["home"] = ["crow", "cat", "toad", "coin"]
    placement.end_placement(s)
    s["done"] = [True] * 3
    ENGINE._run_automatic(s)
    assert s["round"] == 2 and s["phase"] == "placement"
    assert s["order"] == [2, 1, 0] and ENGINE.prompts(s).keys() == {2}


def test_a_distiller_bonus_token_reveals_an_income_icon():
    """Placing Mushrooms: "When you take a Bonus token from your Distiller, you will reveal one
    Income icon"; Income Phase: "you gain 1 Poison Point for each Income icon"."""
    s = quiet(brewing_state({"mushroom": 1}))
    score = s["alch"][0]["score"]
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-1"})
    assert s["alch"][0]["taken"] == ["ds-1-e"]
    # nothing left to do: Brewing ends, the Income Phase counts the icon
    assert s["round"] == 2 and s["alch"][0]["score"] == score + 1


def test_gathering_is_simultaneous():
    """Gathering Phase: "Each step in this phase can be resolved simultaneously by all
    players": nobody is asked anything; after the last Action pawn every player's Familiars
    have gathered and all players brew at once."""
    s = new_game(2, "A")
    while s["phase"] == "placement":
        seat = next(iter(ENGINE.prompts(s)))
        s = act(s, seat, next(a for a in ENGINE.legal_actions(s, seat)
                              if a["type"] in ("place", "end_turn")))
    assert s["phase"] == "brewing" and set(ENGINE.prompts(s)) == {0, 1}
    assert all(set(FAMILIARS) <= set(a["home"]) for a in s["alch"])
    assert all(sum(a["pool"].values()) + a["free"] for a in s["alch"])
