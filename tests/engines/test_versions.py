"""Every rules version of every game stays runnable (issue 15 §0, docs/versioning.md).

The registry resolves ``(game, version)``: the live engine, or a frozen copy of an earlier
version under ``engines/<game>/legacy/v<N>/`` that imports only itself and the shared contract
(so later edits to the live package cannot change it). Its golden records
(``tests/records/<game>/v<N>/``) replay in ``tests/records``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engines import registry
from engines.records import Replayer, replay_log
from tests.records.freeze_version import foreign_imports

ROOT = Path(__file__).resolve().parents[2]
FROZEN = [(game, v) for game in registry.GAME_PACKAGES for v in registry.versions(game)[:-1]]


@pytest.mark.parametrize("game", registry.GAME_PACKAGES)
def test_every_version_up_to_the_live_one_is_kept(game):
    live = registry.get(game)
    assert registry.versions(game) == list(range(1, live.version + 1))
    assert registry.get(game, live.version) is live and registry.get(game, None) is live


@pytest.mark.parametrize(("game", "version"), FROZEN, ids=[f"{g}-v{v}" for g, v in FROZEN])
def test_a_frozen_version_is_its_own_self_contained_package(game, version):
    engine = registry.get(game, version)
    assert (engine.id, engine.version) == (game, version)
    assert engine is not registry.get(game) and registry.get(game, version) is engine
    assert type(engine).__module__.startswith(f"engines.{game}.legacy.v{version}.")
    assert {"easy", "normal", "hard"} <= set(registry.bots(game, version))  # its own bots, by level
    assert foreign_imports(ROOT / "engines" / game / "legacy" / f"v{version}") == []


def test_the_import_check_catches_a_copy_that_reaches_the_live_package(tmp_path):
    (tmp_path / "a.py").write_text("from engines.covil import data\nfrom ..rules_help import x\n"
                                   "from .data import y\nfrom engines.base import Rng\n"
                                   "import engines.evil_corp.night\n")
    assert foreign_imports(tmp_path) == ["a.py:1: engines.covil", "a.py:2: ..rules_help",
                                         "a.py:5: engines.evil_corp.night"]


def test_a_frozen_copy_may_keep_its_hard_bot_on_the_shared_search(tmp_path):
    """The hard bots' search (engines.search) is game-agnostic and picks among legal actions
    only, so a frozen bots.py may import it (the first freeze after the hard bots came in,
    Evil Corp.'s version 2, was refused for it)."""
    (tmp_path / "bots.py").write_text("from engines.search import SearchSpec, sampled_greedy\n"
                                      "import engines.search\n")
    assert foreign_imports(tmp_path) == []


@pytest.mark.parametrize("version", [0, -1, 99, "1", 1.0, True, None])
def test_an_unknown_version_is_a_typed_key_error(version):
    live = registry.get("covil")
    if version is None:
        assert registry.get("covil", version) is live
        return
    with pytest.raises(registry.UnknownVersion):
        registry.get("covil", version)
    with pytest.raises(KeyError):
        registry.get("no_such_game", 1)


@pytest.mark.parametrize(("game", "version"), FROZEN, ids=[f"{g}-v{v}" for g, v in FROZEN])
def test_replays_run_on_the_version_asked_for(game, version):
    """A short random log made on an old version replays on it (setup, moves, views)."""
    from engines.base import Rng

    engine = registry.get(game, version)
    players = engine.min_players if engine.min_players > 1 else 2
    state, rng, log = engine.setup(players, {}, 5), Rng(5), []
    for _ in range(30):
        prompts = engine.prompts(state)
        if not prompts:
            break
        seat = min(prompts)
        action = rng.choice(engine.legal_actions(state, seat))
        state, _ = engine.apply(state, seat, action)
        log.append((seat, action))
    again, _ = replay_log(game, players, {}, 5, log, version)
    assert again == state
    assert Replayer(game, players, {}, 5, log, version=version).state_at(len(log)) == state
    assert engine.view(state, 0)["game"] is not None
