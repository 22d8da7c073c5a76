"""`bench/load.py --ab` (bench/ab.py, issue 16): its command line, the commit export, the CSRF
check against a side's own modules and the comparison of rounds. No server is started."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench import ab, load

ROOT = Path(__file__).resolve().parents[2]


def test_ab_mode_measures_only_paced_and_saturation_runs():
    args = load.parse_args(["--ab", "adc4b1c", "--game", "covil"])
    assert (args.ab, args.ab_rounds, args.churn) == ("adc4b1c", 3, 0)
    assert (args.matches, args.sat_matches, args.seconds) == (40, 40, 6)
    assert load.parse_args([]).ab is None and load.parse_args([]).churn == 300


@pytest.mark.parametrize("argv", [["--ab", "x", "--ab-rounds", "0"],
                                  ["--ab", "x", "--churn-only"]])
def test_ab_mode_refuses_what_it_cannot_measure(argv):
    with pytest.raises(SystemExit):
        load.parse_args(argv)


def test_export_commit_extracts_that_commit_and_leaves_the_repository_alone(tmp_path):
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()
    worktrees = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True,
                               text=True).stdout
    assert ab.export_commit("HEAD", tmp_path / "old") == head
    shown = subprocess.run(["git", "show", "HEAD:app/main.py"], cwd=ROOT, capture_output=True,
                           check=True).stdout
    assert (tmp_path / "old" / "app" / "main.py").read_bytes() == shown
    assert subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True,
                          text=True).stdout == worktrees
    with pytest.raises(ValueError, match="not a commit"):
        ab.export_commit("no-such-revision-here", tmp_path / "none")


def test_the_load_generators_csrf_headers_are_checked_against_the_sides_module():
    probe = ab.csrf_probe(ROOT, "bench")
    assert probe["module"] == "app.web.csrf"
    assert ab.tokens_accepted(probe) == []
    wrong = {**probe, "user_token": "other", "pre_cookie": "lair_other"}
    problems = ab.tokens_accepted(wrong)
    assert len(problems) == 2 and problems[0].startswith("user token")
    assert problems[1].startswith("pre cookie")


def test_compare_takes_medians_per_side_and_flags_ratios_outside_ten_percent():
    def fig(paced, sat, rate, share=50.0):
        return {"paced_cpu_us_per_action": paced, "sat_cpu_us_per_action": sat,
                "sat_actions_per_s": rate, "sat_server_cpu_pct": share}
    rounds = [{"old": fig(1000, 2000, 100.0), "new": fig(1050, 2500, 80.0)},
              {"old": fig(1100, 2000, 110.0), "new": fig(9999, 2400, 95.0)},
              {"old": fig(900, 2100, 90.0), "new": fig(1000, 2300, 120.0)}]
    got = ab.compare(rounds)
    assert got["median"]["old"] == fig(1000, 2000, 100.0)
    assert got["median"]["new"] == fig(1050, 2400, 95.0)
    assert got["ratio_new_over_old"] == {"paced_cpu_us_per_action": 1.05,
                                         "sat_cpu_us_per_action": 1.2,
                                         "sat_actions_per_s": 0.95, "sat_server_cpu_pct": 1.0}
    assert got["flagged"] == {"sat_cpu_us_per_action": "new worse"}
    faster = ab.compare([{"old": fig(1000, 2000, 100.0),
                          "new": fig(800, 2000, 120.0, share=80.0)}])  # a share is not judged
    assert faster["flagged"] == {"paced_cpu_us_per_action": "new better",
                                 "sat_actions_per_s": "new better"}
