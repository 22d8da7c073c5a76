"""Bots: greedy (one-ply) plays legal moves and beats the random bot."""
from engines.base import Rng, random_bot
from engines.evil_corp import ENGINE
from engines.evil_corp.bots import greedy


def play_match(players, seed, greedy_seats):
    s = ENGINE.setup(players, {}, seed)
    rng = Rng(seed + 1)
    for _ in range(3000):
        if ENGINE.result(s) is not None:
            return ENGINE.result(s)
        seat = min(ENGINE.prompts(s))
        bot = greedy if seat in greedy_seats else random_bot
        a = bot(ENGINE, s, seat, rng)
        assert a in ENGINE.legal_actions(s, seat)
        s, _ = ENGINE.apply(s, seat, a)
    raise AssertionError("match did not end")


def test_greedy_beats_random_two_players():
    """The greedy bot wins at least 80 % of 2-player games against the random bot."""
    wins = 0
    n = 10
    for g in range(n):
        seat = g % 2
        r = play_match(2, 500 + g, {seat})
        wins += seat in r["ranks"][0]
    assert wins >= 8, wins


def test_greedy_fills_three_and_four_player_seats():
    """Bots can fill every seat of 3- and 4-player matches."""
    assert play_match(3, 7, {0, 1, 2})["ranks"]
    r = play_match(4, 7, {0, 2})
    assert sorted(map(sorted, r["ranks"])) == [[0, 2], [1, 3]]
    assert ENGINE.bots["greedy"] is greedy


def test_hard_evaluation_reads_the_best_opponent_and_the_whole_deck():
    """Hard's own evaluation (greedy's stays the normal level's): "The first employee who
    achieves success in frightening 2 human settlements becomes the new champion", so a victory
    token of the best other side counts in full (greedy averages the others); and a monster
    drawn from the bag into the supply is still the side's (Draw new monsters)."""
    from engines.base import clone
    from engines.evil_corp.bots import evaluate, hard_evaluate
    s = ENGINE.setup(3, {}, 3)
    t = clone(s)
    t["sides"][1]["vp"] = 1
    assert hard_evaluate(s, 0) - hard_evaluate(t, 0) == 120
    assert evaluate(s, 0) - evaluate(t, 0) == 60
    hired = clone(s)
    hired["sides"][0]["bag"].append(hired["queue"].pop())  # a monster with a hire cost
    drawn = clone(hired)
    drawn["seats"][0]["supply"].append(drawn["sides"][0]["bag"].pop())
    assert hard_evaluate(hired, 0) > hard_evaluate(s, 0)
    assert hard_evaluate(drawn, 0) == hard_evaluate(hired, 0)
    assert evaluate(drawn, 0) < evaluate(hired, 0)
