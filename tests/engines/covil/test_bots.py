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
