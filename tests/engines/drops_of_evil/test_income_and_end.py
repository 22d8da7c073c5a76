"""Income Phase, End of the Round, End of the Game (scoring, tie-break, breakdown)."""
from engines.drops_of_evil import ENGINE, income
from engines.drops_of_evil.data import BOARDS

from .helpers import act, new_game


def income_state(players=2, **alch):
    s = new_game(players)
    s["phase"], s["pawns"], s["income_wait"] = "income", {}, []
    s["alch"][0].update(alch)
    return s


def test_income_icons_minus_free_rats_never_below_zero():
    """Income Phase: +1 per revealed Income icon, -1 per Free Rat; not below 0."""
    s = income_state(taken=["bc-1-e", "bc-2-e", "bc-2-s"], free=1, score=4)
    s["alch"][1].update(free=3, score=1)
    assert income.step(s)
    assert s["alch"][0]["score"] == 4 + 3 - 1
    assert s["alch"][1]["score"] == 0


def test_end_of_round_pouches_back_and_forest_replenished():
    """End of the Round: Coin Pouches come back; 1 random Resource added to every Gathering
    space, including those still holding Resources."""
    s = income_state()
    s["pawns"] = {"a-1": [0, "coin"]}
    s["alch"][0]["home"] = ["crow", "cat", "toad", "snake"]
    s["alch"][0]["asst"] = "a-1"
    s["forest"] = {"g-1-1": {"owl": 1}}
    bag = len(s["bag"])
    income.step(s)
    assert "coin" in s["alch"][0]["home"] and s["pawns"] == {}
    assert s["alch"][0]["asst"] is None
    spaces = BOARDS[s["board"]]["gathering_ids"]
    assert len(s["bag"]) == bag - len(spaces)
    assert sum(s["forest"]["g-1-1"].values()) == 2
    assert all(sum(s["forest"][g].values()) >= 1 for g in spaces)
    assert s["round"] == 2 and s["phase"] == "placement"


def test_no_replenish_after_round_3_and_game_ends():
    """End of the Round (skip after round 3) / End of the Game after the third round."""
    s = income_state()
    s["round"] = 3
    bag = len(s["bag"])
    income.step(s)
    assert len(s["bag"]) == bag and s["phase"] == "end"
    assert ENGINE.result(s) is not None and ENGINE.prompts(s) == {}


def _income_assistant(aid, **alch):
    s = income_state(**alch)
    s["assistants"][0] = aid
    s["alch"][0]["asst"] = "a-1"
    s["income_wait"] = [0]
    return s


def test_income_assistants_prompted_and_skip():
    """Assistants (Income Phase): a seat with an unused Income Assistant is prompted first."""
    s = _income_assistant("AS17", score=2)
    assert ENGINE.prompts(s) == {0: {"kind": "income", "text": "Use your Income Assistant?",
                                     "rule": "assistants"}}
    t = act(s, 0, {"type": "skip"})
    assert t["alch"][0]["score"] == 2 and t["round"] == 2
    t = act(s, 0, {"type": "assistant", "assistant": "AS17"})
    assert t["alch"][0]["score"] == 5                       # Miser +3


def test_tax_collector_bookkeeper_rat_tamer_exterminator():
    """Assistants (provisional AS14 per completed Vial, AS16 per Scroll, AS15 Free Rats cost
    nothing, AS18 up to 2 Free Rats captured before scoring)."""
    full = {"b-8-2": "owl", "b-8-3": "owl", "b-9-3": "bat", "b-9-4": "bat"}
    t = act(_income_assistant("AS14", brewer=full), 0, {"type": "assistant", "assistant": "AS14"})
    assert t["alch"][0]["score"] == 2
    t = act(_income_assistant("AS16", scrolls=["owl", "rat"]), 0,
            {"type": "assistant", "assistant": "AS16"})
    assert t["alch"][0]["score"] == 2
    t = act(_income_assistant("AS15", free=3, score=5, taken=["bc-1-e"]), 0,
            {"type": "assistant", "assistant": "AS15"})
    assert t["alch"][0]["score"] == 6
    s = _income_assistant("AS18", free=3, score=5)
    assert {a.get("rats") for a in ENGINE.legal_actions(s, 0)} == {1, 2, None}
    t = act(s, 0, {"type": "assistant", "assistant": "AS18", "rats": 2})
    assert t["alch"][0]["captured"] == 2 and t["alch"][0]["score"] == 5 - 1


def test_final_scoring_vials_rats_recipes_and_breakdown():
    """End of the Game: Score Track + completed Vials at current Toxicity (Spiders count as the
    Vial's type; incomplete Vials score nothing) + Captured Rats x Rat Toxicity + Recipes."""
    s = income_state(score=10, captured=2)
    s["round"] = 3
    s["recipes"] = [["R4", "owl"], ["R8", "bat"]]
    a = s["alch"][0]
    a["tox"]["salamander"] = 6
    a["brewer"] = {"b-8-2": "salamander", "b-8-3": "spider",      # H complete: salamander 6
                   "b-4-1": "owl", "b-4-2": "owl",                # B incomplete: 0
                   "b-7-4": "owl", "b-8-4": "owl"}                # L complete: owl 2
    income.step(s)
    bd = ENGINE.result(s)["breakdown"]["0"]
    assert bd["Score Track"] == 10
    assert bd["Completed Vials"] == 6 + 2
    assert bd["Captured Rats"] == 2 * 2
    assert bd["Recipe: Spreading Blight"] == 3                   # columns 4, 7, 8 (owl+spider)
    assert bd["Recipe: Winding Venom"] == 0
    assert bd["Total"] == 10 + 8 + 4 + 3
    assert ENGINE.result(s)["scores"]["0"] == bd["Total"]
    assert ENGINE.view(s, None)["game"]["breakdown"]["0"] == bd


def test_tie_broken_by_turn_order():
    """End of the Game: in case of a tie, the tied player first in turn order wins."""
    s = income_state(players=3)
    s["round"] = 3
    s["order"] = [2, 0, 1]
    income.step(s)
    assert ENGINE.result(s)["ranks"] == [[2], [0], [1]]
