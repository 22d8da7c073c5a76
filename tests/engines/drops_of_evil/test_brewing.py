"""Brewing Phase, Bonus Tokens, Moving Resources and the Brewing-phase Assistants."""
from engines.drops_of_evil import ENGINE
from tests.engines.harness import assert_illegal

from .helpers import act, brewing_state, legal_types, new_game


def cells_for(state, seat, res):
    return {a["cell"] for a in ENGINE.legal_actions(state, seat)
            if a["type"] == "brew" and a["res"] == res}


def test_brewing_is_one_simultaneous_frame():
    """Brewing Phase: performed simultaneously by all players (every seat prompted at once)."""
    s = new_game(3)
    s["phase"], s["pawns"] = "brewing", {}
    s["done"] = [False, False, False]
    for a in s["alch"]:
        a["pool"]["owl"] = 1
    assert set(ENGINE.prompts(s)) == {0, 1, 2}
    s = act(s, 1, {"type": "brew", "res": "owl", "cell": "b-1-1"})
    s = act(s, 1, {"type": "done"})
    assert set(ENGINE.prompts(s)) == {0, 2}
    s = act(s, 2, {"type": "brew", "res": "owl", "cell": "b-9-4"})
    assert s["alch"][2]["brewer"] == {"b-9-4": "owl"}


def test_one_ingredient_type_per_vial():
    """Placing Ingredients: 1 token per space; one type of Ingredient per Vial."""
    s = brewing_state({"owl": 1, "bat": 1})
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})      # Vial A
    assert not cells_for(s, 0, "bat") & {"b-2-1", "b-3-1", "b-3-2"}
    assert "b-4-1" in cells_for(s, 0, "bat")
    assert_illegal(ENGINE, s, 0, {"type": "brew", "res": "bat", "cell": "b-2-1"})


def test_spiders_are_wild_but_no_spider_only_vial():
    """Spiders / Spider-Only Vials: a Spider may share a Vial with another type, but there must
    be a non-Spider Ingredient in the Vial (so it goes where one already is)."""
    s = brewing_state({"owl": 1, "spider": 2})
    assert cells_for(s, 0, "spider") == set()
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-4-1"})      # Vial B
    assert cells_for(s, 0, "spider") == {"b-4-2", "b-4-3"}
    s = act(s, 0, {"type": "brew", "res": "spider", "cell": "b-4-2"})
    # taking back the Owl Claw would leave a Spider alone: not allowed
    assert {"type": "take_back", "cell": "b-4-1"} not in ENGINE.legal_actions(s, 0)
    assert {"type": "take_back", "cell": "b-4-2"} in ENGINE.legal_actions(s, 0)


def test_worms_are_ingredients_with_their_own_vials():
    """Game-data 3.4 #1 (interpretation): Worms are placed in the Brewer like an Ingredient."""
    s = brewing_state({"worm": 1}, brewer={"b-1-1": "owl"})
    assert "b-2-1" not in cells_for(s, 0, "worm") and "b-4-1" in cells_for(s, 0, "worm")


def test_earlier_rounds_are_fixed_and_this_phase_can_be_taken_back():
    """Moving Resources: this phase's placements may be taken back; earlier rounds' cannot."""
    s = brewing_state({"owl": 1}, brewer={"b-4-1": "owl"})
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-4-2"})
    takes = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "take_back"]
    assert takes == [{"type": "take_back", "cell": "b-4-2"}]
    s = act(s, 0, {"type": "take_back", "cell": "b-4-2"})
    assert s["alch"][0]["pool"]["owl"] == 1 and "b-4-2" not in s["alch"][0]["brewer"]


def test_must_place_all_ingredients_if_possible():
    """Placing Ingredients: "You must place all of your Ingredients if possible": done only
    when nothing placeable is left; an unplaceable Ingredient is discarded at the end."""
    s = brewing_state({"owl": 1, "spider": 1})
    assert "done" not in legal_types(s, 0)
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-8-2"})     # Vial H (2 cells)
    s = act(s, 0, {"type": "brew", "res": "spider", "cell": "b-8-3"})  # completes H
    assert "done" in legal_types(s, 0)

    s = brewing_state({"spider": 1, "owl": 1})
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-8-2"})
    s = act(s, 0, {"type": "brew", "res": "spider", "cell": "b-8-3"})
    s = act(s, 0, {"type": "take_back", "cell": "b-8-3"})
    s = act(s, 0, {"type": "take_back", "cell": "b-8-2"})
    # the Spider alone has no legal space: done is allowed while it stays in the pool
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})
    assert "done" not in legal_types(s, 0)               # the Spider could join Vial A
    t = brewing_state({"spider": 1}, brewer={c: "bat" for c in
                                             ("b-4-1", "b-4-2", "b-4-3")})
    assert ENGINE.legal_actions(t, 0) == [{"type": "done"}]
    before = t["discard"]["spider"]
    t = act(t, 0, {"type": "done"})
    assert t["discard"]["spider"] == before + 1            # discarded at the end of the phase
    assert t["alch"][0]["pool"]["spider"] == 0


def test_completing_a_column_gains_every_bonus_token_below_it_and_locks_it():
    """Completing Columns: fill every space of a column -> all Bonus tokens below it (Income
    icons = flames), whatever the Vials; its Resources can no longer be moved."""
    s = brewing_state({"bat": 1}, brewer={"b-2-1": "owl", "b-2-3": "bat",
                                          "b-2-4": "scorpion"}, free=1)
    s["layout"]["bc-2-e"] = "cheese2"
    s["layout"]["bc-2-s"] = "scroll-salamander"
    s = act(s, 0, {"type": "brew", "res": "bat", "cell": "b-2-2"})
    a = s["alch"][0]
    assert sorted(a["taken"]) == ["bc-2-e", "bc-2-s"]
    assert a["cheese"] == 2
    assert a["tox"]["salamander"] == 4 + 1
    assert "b-2-2" not in a["fresh"]
    assert ENGINE.view(s, 0)["game"]["alchilabs"][0]["income_icons"] == 2


def test_second_scroll_of_a_type_moves_two_spaces():
    """Double Bonus for Combining Scrolls: the first Scroll +1, the second of the same type +2."""
    s = brewing_state({"bat": 2}, brewer={"b-4-2": "bat", "b-4-3": "bat", "b-4-4": "owl",
                                          "b-6-1": "bat", "b-6-3": "owl", "b-6-4": "owl"})
    s["layout"]["bc-4-s"], s["layout"]["bc-6-s"] = "scroll-owl", "scroll-owl"
    s["layout"]["bc-4-e"], s["layout"]["bc-6-e"] = "worm1", "worm2"
    s = act(s, 0, {"type": "brew", "res": "bat", "cell": "b-4-1"})
    assert s["alch"][0]["tox"]["owl"] == 2 + 1
    s = act(s, 0, {"type": "brew", "res": "bat", "cell": "b-6-2"})
    assert s["alch"][0]["tox"]["owl"] == 2 + 1 + 2
    assert s["alch"][0]["scrolls"] == ["owl", "owl"]


def test_extra_resources_worms_ingredients_and_unused_discarded():
    """Extra Resources: Worm tokens are spent for Worms from the supply; Ingredient tokens go
    to the pool; unused Extra Resources (and Cheese) are discarded at the end of Brewing."""
    s = brewing_state({"owl": 1}, brewer={"b-1-2": "owl", "b-1-3": "owl", "b-1-4": "owl"})
    s["layout"]["bc-1-e"] = "worm2"
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})
    assert s["alch"][0]["wtok"]["worm2"] == 1
    supply = s["worms"]
    s2 = act(s, 0, {"type": "spend_worms", "token": "worm2"})
    assert s2["alch"][0]["pool"]["worm"] == 2 and s2["worms"] == supply - 2
    # not spent: discarded when the Brewing Phase ends
    s3 = act(s, 0, {"type": "done"})
    assert s3["alch"][0]["wtok"] == {"worm1": 0, "worm2": 0}
    t = brewing_state({"owl": 1}, brewer={"b-1-2": "owl", "b-1-3": "owl", "b-1-4": "owl"})
    t["layout"]["bc-1-e"] = "spider"
    t = act(t, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})
    assert t["alch"][0]["pool"]["spider"] == 1
    assert "b-2-1" in cells_for(t, 0, "spider")


def test_rats_and_cheese():
    """Placing Rats / Cheese: each Cheese icon moves 1 Free Rat to Captured Rats; leftover
    Cheese is discarded at the end."""
    s = brewing_state({}, free=3, cheese=2)
    s = act(s, 0, {"type": "cheese"})
    assert (s["alch"][0]["free"], s["alch"][0]["captured"], s["alch"][0]["cheese"]) == (2, 1, 1)
    s = act(s, 0, {"type": "done"})
    assert s["alch"][0]["cheese"] == 0


def test_mushrooms_fill_the_distiller_from_the_bottom_with_bonus_choice():
    """Placing Mushrooms: lowest Vial first; filling a Vial gains one Bonus token beside it or
    any Vial below; the top Vial gives one for each further pair."""
    s = brewing_state({"mushroom": 12})
    acts = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "brew"]
    assert acts == [{"type": "brew", "res": "mushroom", "cell": "d-1"}]
    s = act(s, 0, acts[0])                       # fills d-1: only ds-1-e -> taken at once
    assert s["alch"][0]["taken"] == ["ds-1-e"]
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-2"})
    choice = {a["slot"] for a in ENGINE.legal_actions(s, 0)}
    assert choice == {"ds-2-e", "ds-2-s"}
    assert ENGINE.prompts(s)[0]["kind"] == "distiller_bonus"
    s = act(s, 0, {"type": "bonus", "slot": "ds-2-s"})
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-3"})
    assert legal_types(s, 0) >= {"brew", "take_back"}           # half-filled: no bonus yet
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-3"})
    assert {a["slot"] for a in ENGINE.legal_actions(s, 0)} == {"ds-2-e", "ds-3-e", "ds-3-s"}
    s = act(s, 0, {"type": "bonus", "slot": "ds-2-e"})
    for _ in range(2):
        s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-4"})
    s = act(s, 0, {"type": "bonus", "slot": "ds-4-s"})
    for _ in range(2):
        s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-5"})
    assert {a["slot"] for a in ENGINE.legal_actions(s, 0)} == {"ds-3-e", "ds-3-s", "ds-4-e",
                                                               "ds-5-e", "ds-5-s"}
    s = act(s, 0, {"type": "bonus", "slot": "ds-5-s"})
    # the top Vial refills: each further pair gains any remaining Distiller token
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-5"})
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-5"})
    assert ENGINE.prompts(s)[0]["kind"] == "distiller_bonus"
    assert len(s["alch"][0]["taken"]) == 5
    assert s["alch"][0]["dist"] == 10


def test_distiller_exhausted_gives_no_advantage():
    """Placing Mushrooms > Note: with every Distiller token taken, Mushrooms give nothing."""
    from engines.drops_of_evil.data import ALL_D_SLOTS
    s = brewing_state({"mushroom": 2}, dist=8, dlock=8, taken=list(ALL_D_SLOTS))
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-5"})
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-5"})
    assert s["alch"][0]["pending"] == [] and s["alch"][0]["dist"] == 10


def test_take_back_a_mushroom_not_yet_locked():
    """Moving Resources: a Mushroom not yet locked by a Bonus token can be taken back."""
    s = brewing_state({"mushroom": 2}, dist=2, dlock=2)
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-3"})
    assert {"type": "take_back", "cell": "d-3"} in ENGINE.legal_actions(s, 0)
    s = act(s, 0, {"type": "take_back", "cell": "d-3"})
    assert s["alch"][0]["dist"] == 2 and s["alch"][0]["pool"]["mushroom"] == 2


def _hired(aid, pool=None, **kw):
    s = brewing_state(pool or {}, **kw)
    s["assistants"][0] = aid
    s["alch"][0]["asst"] = "a-1"
    return s


def test_coin_pouch_alternative_worm_or_cheese():
    """Assistants: instead of the ability, gain 1 Worm or 1 Cheese before Brewing ends."""
    s = _hired("AS17", free=1)
    assert {"type": "alternative", "gain": "worm"} in ENGINE.legal_actions(s, 0)
    s2 = act(s, 0, {"type": "alternative", "gain": "cheese"})
    assert s2["alch"][0]["cheese"] == 1 and s2["alch"][0]["asst_used"]
    s3 = act(s, 0, {"type": "alternative", "gain": "worm"})
    assert s3["alch"][0]["pool"]["worm"] == 1


def test_transmuter_as07():
    """Assistants (provisional AS07): 1 Worm in the pool counts as a Spider."""
    s = act(_hired("AS07", {"worm": 1}, brewer={"b-4-1": "owl"}), 0,
            {"type": "assistant", "assistant": "AS07"})
    assert s["alch"][0]["pool"]["worm"] == 0 and s["alch"][0]["pool"]["spider"] == 1


def test_cheesemonger_as08_and_worm_farmer_as12():
    """Assistants (provisional AS08 +2 Cheese, AS12 +3 Worms)."""
    s = act(_hired("AS08", free=2), 0, {"type": "assistant", "assistant": "AS08"})
    assert s["alch"][0]["cheese"] == 2
    s = act(_hired("AS12"), 0, {"type": "assistant", "assistant": "AS12"})
    assert s["alch"][0]["pool"]["worm"] == 3


def test_distillers_aide_as09():
    """Assistants (provisional AS09): a non-Spider Ingredient goes in the Distiller."""
    s = _hired("AS09", {"owl": 1, "spider": 1})
    assert {a.get("res") for a in ENGINE.legal_actions(s, 0)
            if a["type"] == "assistant"} == {"owl"}
    s = act(s, 0, {"type": "assistant", "assistant": "AS09", "res": "owl"})
    assert s["alch"][0]["dist"] == 1 and s["alch"][0]["taken"] == ["ds-1-e"]


def test_rebrewer_as10_moves_an_earlier_ingredient():
    """Assistants (provisional AS10): move an Ingredient placed in an earlier round (not from a
    completed column) to another legal space; cancel is possible before choosing."""
    s = _hired("AS10", brewer={"b-4-1": "owl", "b-1-1": "bat", "b-1-2": "bat",
                               "b-1-3": "bat", "b-1-4": "bat"})
    srcs = {a["cell"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "assistant"}
    assert srcs == {"b-4-1"}                        # column 1 is complete: locked
    s = act(s, 0, {"type": "assistant", "assistant": "AS10", "cell": "b-4-1"})
    assert ENGINE.prompts(s)[0]["kind"] == "rebrew"
    assert {"type": "cancel"} in ENGINE.legal_actions(s, 0)
    s = act(s, 0, {"type": "rebrew", "cell": "b-9-4"})
    assert s["alch"][0]["brewer"].get("b-9-4") == "owl" and "b-4-1" not in s["alch"][0]["brewer"]


def test_scribe_as11_and_alchemist_as13():
    """Assistants (provisional AS11 Toxicity +1; AS13 return up to 2 Worms, draw 1)."""
    s = act(_hired("AS11"), 0, {"type": "assistant", "assistant": "AS11", "res": "rat"})
    assert s["alch"][0]["tox"]["rat"] == 3
    s = _hired("AS13", {"worm": 3})
    assert {a.get("worms") for a in ENGINE.legal_actions(s, 0)
            if a["type"] == "assistant"} == {0, 1, 2}
    bag = len(s["bag"])
    s = act(s, 0, {"type": "assistant", "assistant": "AS13", "worms": 2})
    a = s["alch"][0]
    assert len(s["bag"]) == bag - 1
    assert a["pool"]["worm"] == 1 and sum(a["pool"].values()) + a["free"] == 2


def test_mushroom_extra_resource_goes_into_the_distiller():
    """Extra Resources > Mushrooms: placed directly into the Distiller like a Mushroom token."""
    s = brewing_state({"owl": 1}, brewer={"b-1-2": "owl", "b-1-3": "owl", "b-1-4": "owl"})
    s["layout"]["bc-1-e"] = "mushroom"
    s = act(s, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})
    assert s["alch"][0]["pool"]["mushroom"] == 1
    assert "done" in legal_types(s, 0)              # optional (issue 15 item 12, below)
    s = act(s, 0, {"type": "brew", "res": "mushroom", "cell": "d-1"})
    assert s["alch"][0]["dist"] == 1 and "ds-1-e" in s["alch"][0]["taken"]


def test_empty_worm_supply_gives_nothing():
    """Gathering Phase (interpretation): with the Worm supply exhausted, no Worm is gained."""
    from engines.drops_of_evil import placement

    from .helpers import new_game
    s = new_game(2, "A")
    s["forest"], s["worms"] = {}, 0
    s["pawns"] = {"g-3-2": [0, "crow"]}
    s["alch"][0]["home"] = ["cat", "toad", "snake", "coin"]
    placement.gather(s)
    assert s["alch"][0]["pool"]["worm"] == 0 and s["worms"] == 0
