"""Bots (greedy beats random), views (VIEW.md) and describe() labels.

No timing here: bot speed is measured by ``bench/engine_profile.py``, not asserted in tests.
"""
from engines.base import Rng, random_bot
from engines.drops_of_evil import ENGINE
from engines.drops_of_evil.bots import greedy

from .helpers import brewing_state, new_game


def _play(seed, bots):
    s = ENGINE.setup(2, {"side": "AB"[seed % 2]}, seed)
    rng = Rng(seed)
    while ENGINE.result(s) is None:
        movers = [x for x in sorted(ENGINE.prompts(s)) if ENGINE.legal_actions(s, x)]
        seat = rng.choice(movers)
        action = bots[seat](ENGINE, s, seat, rng)
        assert action in ENGINE.legal_actions(s, seat)
        s, _ = ENGINE.apply(s, seat, action)
    return ENGINE.result(s)


def test_greedy_beats_random_in_at_least_80_percent_of_2p_games():
    """Bots: the greedy bot wins >= 80% of 20 two-player games against the random bot."""
    wins = 0
    for seed in range(20):
        g = seed % 2
        bots = {g: greedy, 1 - g: random_bot}
        wins += _play(seed, bots)["ranks"][0] == [g]
    assert wins >= 16


def test_greedy_vs_greedy_game_reaches_final_scoring():
    """Bots: two greedy bots play a whole 2-player game to a ranked result (no deadlock)."""
    result = _play(5, {0: greedy, 1: greedy})
    assert sorted(s for group in result["ranks"] for s in group) == [0, 1]


def test_engine_exposes_greedy_bot():
    assert ENGINE.bots["greedy"] is greedy


def test_view_shape_matches_view_md():
    """VIEW.md (a) and (b): geometry and public state keys, bag by type only."""
    s = new_game(2, "A")
    v = ENGINE.view(s, 0)
    g = v["game"]
    assert {"geometry", "round", "phase", "turn_order", "current", "forest", "bag", "bag_total",
            "worm_supply", "assistants", "recipes", "bonus_layout", "alchilabs",
            "breakdown"} <= set(g)
    geo = g["geometry"]
    assert {"board", "forest", "brewer", "distiller", "toxicity", "names"} <= set(geo)
    assert {"cols", "rows", "gathering", "action_spaces", "assistant_spaces"} <= set(geo["forest"])
    assert {"cells", "vials", "connections", "columns"} <= set(geo["brewer"])
    lab = g["alchilabs"][0]
    assert {"seat", "score", "pool", "cheese", "worm_tokens", "free_rats", "captured_rats",
            "toxicity", "scrolls", "brewer", "distiller", "taken", "income_icons",
            "pawns_home", "assistant", "done", "pending"} <= set(lab)
    assert sum(g["bag"].values()) == g["bag_total"] == len(s["bag"])
    # every legal action names ids the geometry knows
    ids = {x["id"] for x in geo["forest"]["gathering"]} | {
        x["id"] for x in geo["forest"]["action_spaces"]} | {
        x["id"] for x in geo["forest"]["assistant_spaces"]}
    for a in v["legal_actions"]:
        assert a["space"] in ids


def test_view_shows_brewing_live_and_bag_order_hidden():
    """Hidden information: only the bag's order is hidden; brewing is shown live."""
    s = brewing_state({"owl": 1})
    s2, _ = ENGINE.apply(s, 0, {"type": "brew", "res": "owl", "cell": "b-4-1"})
    assert ENGINE.view(s2, 1)["game"]["alchilabs"][0]["brewer"] == {
        "b-4-1": {"res": "owl", "fresh": True}}
    d = ENGINE.determinize(s2, 1, Rng(3))
    assert d["bag"] != s2["bag"] and sorted(d["bag"]) == sorted(s2["bag"])
    assert ENGINE.view(d, 1) == ENGINE.view(s2, 1)


def test_describe_uses_rulebook_words():
    """describe(): rulebook-worded labels."""
    s = new_game(2, "A")
    assert ENGINE.describe(s, {"type": "place", "pawn": "crow", "space": "g-3-2"}) == \
        "Place Crow on Gathering space (3,2)"
    assert ENGINE.describe(s, {"type": "brew", "res": "owl", "cell": "b-3-2"}) == \
        "Brew Owl Claw into Vial A (3,2)"
    assert ENGINE.describe(s, {"type": "done"}) == "Done brewing"
    for seat in range(2):
        for a in ENGINE.legal_actions(s, seat):
            assert ENGINE.describe(s, a)


def test_describe_every_action_kind_in_a_playout():
    """describe() labels every legal action met in a random 3-player game."""
    s = ENGINE.setup(3, {}, 11)
    rng = Rng(11)
    kinds = set()
    step = 0
    while ENGINE.result(s) is None:
        movers = [x for x in sorted(ENGINE.prompts(s)) if ENGINE.legal_actions(s, x)]
        seat = rng.choice(movers)
        acts = ENGINE.legal_actions(s, seat)
        if step % 5 == 0:
            for a in acts:
                label = ENGINE.describe(s, a)
                assert label and "None" not in label
                kinds.add(a["type"])
        s, _ = ENGINE.apply(s, seat, rng.choice(acts))
        step += 1
    assert {"place", "brew", "done"} <= kinds
