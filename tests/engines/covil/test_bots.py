"""Bots: greedy (one-ply evaluation) beats random; the overlord bot plays the dummy's
priorities from a seat."""
from engines.base import Rng, random_bot
from engines.covil import ENGINE
from engines.covil.bots import greedy, overlord


def _game(bots, players, seed, options=None):
    s = ENGINE.setup(players, options or {}, seed)
    rng = Rng(seed + 99)
    for _ in range(3000):
        if ENGINE.result(s) is not None:
            return ENGINE.result(s)
        seat = min(ENGINE.prompts(s))
        a = bots[seat](ENGINE, s, seat, rng)
        assert a in ENGINE.legal_actions(s, seat)
        s, _ = ENGINE.apply(s, seat, a)
    raise AssertionError("game did not end")


def test_greedy_beats_random_in_most_two_player_games():
    """bots.greedy wins most 2-player games against the random bot (seats alternate)."""
    wins = 0
    for seed in range(6):
        g = seed % 2
        bots = [greedy, random_bot] if g == 0 else [random_bot, greedy]
        r = _game(bots, 2, seed)
        wins += r["ranks"][0] == [g]
    assert wins >= 5


def test_overlord_bot_and_solo_greedy_finish_games():
    """bots.overlord (dummy priorities) and greedy in solo play legal games to the end."""
    r = _game([overlord, random_bot, overlord], 3, 1, {"board": "B"})
    assert sorted(s for g in r["ranks"] for s in g) == [0, 1, 2]
    r = _game([greedy], 1, 2, {"dummies": 2})
    assert set(r["dummy_scores"]) == {"1", "2"}


def test_registered_bots():
    """The engine exposes its bots (registry.bots adds random)."""
    assert set(ENGINE.bots) == {"greedy", "overlord"}


def _afternoon(players=3, seed=4):
    """A seeded match played by greedy until the first Afternoon prompt."""
    s = ENGINE.setup(players, {}, seed)
    rng = Rng(seed)
    while s["phase"] != "afternoon":
        seat = min(x for x in ENGINE.prompts(s) if ENGINE.legal_actions(s, x))
        s, _ = ENGINE.apply(s, seat, greedy(ENGINE, s, seat, rng))
    return s


def test_hard_evaluation_counts_tonights_protection_fee_and_raid():
    """Hard's own evaluation (greedy's stays the normal level's) counts what the Night brings:
    3.3 "For each dominance over a kind of terrain, you gain +2 gold" (up to the Treasury cap)
    and 3.4 "Players draw 1 Power Relic from the deck for each troop that they have on the town
    zone", at NIGHT_SHARE of their value."""
    from engines.covil import core
    from engines.covil.bots import NIGHT_SHARE, RELIC_MEAN, evaluate, hard_evaluate
    from engines.covil.data import FEE_TERRAINS
    s = _afternoon()
    town = core.town_zones(s)[0]
    for p in s["own"]:
        p["troops"] = []
    s["own"][0]["troops"] = [{"z": town, "up": False}]
    fees = sum(1 for t in core.terrain(s, town) if t in FEE_TERRAINS)
    room = core.treasury_cap(s, 0) - s["own"][0]["gold"]
    night = NIGHT_SHARE * (min(2 * fees, room) + RELIC_MEAN)
    assert abs(hard_evaluate(s, 0) - evaluate(s, 0) - night) < 1e-9
    # the other seats gain nothing tonight: their margin drops by seat 0's projection
    assert abs(hard_evaluate(s, 1) - evaluate(s, 1) + night) < 1e-9
    s["phase"] = "night"
    assert hard_evaluate(s, 0) == evaluate(s, 0)
