"""bench/bots.py --combine: chunks of one FULL row, run apart, tabled as one row."""
from __future__ import annotations

import pytest

from bench.bots import combine, table, wilson


def _report(first: int, matches: int, wins: int, decisions: int, mean: float, p99: float,
            budget: float = 0.2) -> dict:
    row = {"game": "covil", "config": "2p", "players": 2, "matches": matches,
           "hard_wins": wins, "win_rate": wins / matches, "ci95": list(wilson(wins, matches)),
           "chance": 0.5, "decisions": decisions, "mean_s": mean, "p99_s": p99,
           "cpu_mean_s": mean / 4, "cpu_p99_s": p99 / 4, "iterations_mean": 100.0,
           "wall_s": 60.0}
    return {"budget": {"seconds": budget, "iterations": None}, "matches": matches,
            "first": first, "spec": None, "rows": [row], "cpus": 2,
            "time": f"2026-12-06T0{first // 100}:00:00Z"}


def test_chunks_add_up_and_the_interval_is_recomputed():
    got = combine([_report(100, 10, 9, 700, 1.0, 6.0), _report(110, 10, 7, 300, 2.0, 3.0)])
    (row,) = got["rows"]
    assert (row["hard_wins"], row["matches"], row["decisions"]) == (16, 20, 1000)
    assert row["win_rate"] == pytest.approx(0.8)
    assert row["ci95"] == pytest.approx(list(wilson(16, 20)))
    assert row["mean_s"] == pytest.approx((700 * 1.0 + 300 * 2.0) / 1000)  # by decisions
    assert row["p99_s"] == 6.0 and row["cpu_p99_s"] == 1.5  # the largest chunk's
    assert row["ranges"] == [(100, 110), (110, 120)]
    assert "| covil | 2p | 16/20 (80%) |" in table(got)


def test_the_same_matches_twice_or_other_budgets_are_refused():
    with pytest.raises(ValueError, match="overlap"):
        combine([_report(100, 10, 9, 700, 1.0, 6.0), _report(105, 10, 7, 300, 2.0, 3.0)])
    with pytest.raises(ValueError, match="different budgets"):
        combine([_report(100, 10, 9, 700, 1.0, 6.0),
                 _report(110, 10, 7, 300, 2.0, 3.0, budget=0.195)])
    with pytest.raises(ValueError, match="nothing"):
        combine([])
