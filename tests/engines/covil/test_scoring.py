"""Final Scoring: VP sources, the 47 VP example, Influence at the end, Tie Breakers."""
from engines.covil import scoring

from .helpers import placed, set_hall, set_hand, set_troops


def test_final_scoring_example_47_vp():
    """Final Scoring (example): living fortress 5 + 5 gold + Minions 27 (+1 for the Private
    from his Dark Overlord) + Power Relics 10 (6, +1 each from the Donnish Druid) = 47 VP."""
    s = placed(2)
    set_hall(s, 0, ["O4", "H1.0", "W7", "G7", "S3", "A3"])
    set_hand(s, 0, ["P01", "P02", "P03", "P04"])
    s["own"][0]["gold"] = 5
    b = scoring.breakdown(s, 0)
    assert b["fortress"] == 5 and b["treasury"] == 5
    assert b["minions"] + 1 == 27  # 26 printed + Goblin King's +1 for the Private
    assert b["relics"] + 4 == 10
    assert b["influence"] == 1 + 4
    assert b["total"] == 47


def test_destroyed_fortress_scores_nothing():
    """Final Scoring: a destroyed fortress gives 0 VP."""
    s = placed(2)
    s["own"][0]["hp"] = 0
    s["own"][0]["dead"] = True
    assert scoring.breakdown(s, 0)["fortress"] == 0


def _equalize(s):
    for o in (0, 1):
        set_hall(s, o, [("O1", "O2")[o], f"H1.{o}"])
        set_hand(s, o, [])
        s["own"][o]["gold"] = 3
        s["own"][o]["hp"] = 5
        set_troops(s, o, [("E", False)])


def test_tie_breakers_in_order():
    """Tie Breakers: most troops on the board, then fortress hp, then gold, then the most
    expensive Minion; still tied: shared victory."""
    s = placed(2)
    _equalize(s)
    assert scoring.result(s)["ranks"] == [[0, 1]]
    set_troops(s, 1, [("E", False), ("C", False)])
    s["own"][1]["gold"] = 2  # same VP (troops do not score)
    s["own"][0]["gold"] = 3
    s["own"][0]["hp"] = 5
    set_hall(s, 0, ["O1", "H1.0"])
    r = scoring.result(s)
    assert r["scores"]["0"] == r["scores"]["1"] + 1
    _equalize(s)
    set_troops(s, 1, [("E", False), ("C", False)])
    assert scoring.result(s)["ranks"] == [[1], [0]]  # more troops
    _equalize(s)
    s["own"][0]["hp"] = 4
    s["own"][0]["gold"] = 4  # equal VP: 4+... fortress alive either way
    assert scoring.result(s)["scores"]["0"] == scoring.result(s)["scores"]["1"] + 1
    _equalize(s)
    s["own"][0]["hp"] = 3
    assert scoring.result(s)["ranks"] == [[1], [0]]  # more hp
    _equalize(s)
    set_hall(s, 0, ["O1", "G1", "H1.0"])
    set_hall(s, 1, ["O2", "W1", "H1.1"])
    assert scoring.result(s)["ranks"] == [[0, 1]]
    set_hall(s, 0, ["O1", "W3"])
    set_hall(s, 1, ["O2", "H1.1", "G1"])
    assert scoring.result(s)["ranks"] == [[0], [1]]  # same VP, most expensive Minion


def test_solo_goal_more_vp_than_the_dummy():
    """Evil Prevails: the goal of the solo game is more VP than the Dummy player (the dummy's
    face-down relics count for it)."""
    s = placed(1, "B", forts=("A", "B"))
    r = scoring.result(s)
    assert r["ranks"] == [[0]] and set(r["dummy_scores"]) == {"1"}
    d = scoring.breakdown(s, 1)["total"]
    s["own"][0]["gold"] = 0
    set_hall(s, 0, ["O1"] if s["own"][0]["hall"][0]["id"] == "O1" else [s["own"][0]["hall"][0]["id"]])
    set_hand(s, 0, [])
    assert scoring.breakdown(s, 0)["total"] == 5 < d
    assert scoring.result(s)["won"] is False
