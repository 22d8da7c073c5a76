"""The tests every game must pass (docs/design.md, "Tests every game must pass"), one call per game.

Usage, in ``tests/engines/<game>/test_harness.py``::

    from engines.<game> import ENGINE
    from tests.engines.harness import engine_suite

    TestHarness = engine_suite(ENGINE, configs=[(2, {}), (3, {}), (4, {})])

``configs`` lists ``(players, options)`` pairs: every player count and variant the game has.
The returned class holds pytest tests for playouts (no exception, no dead end, bounded length,
``check_invariants``), determinism (replay from the seed, JSON round trip) and leak tests
(``view(determinize(s, v), v) == view(s, v)`` for every viewer and spectator, and determinize
really resamples hidden information).
"""
from __future__ import annotations

from typing import Any, Callable

import orjson
import pytest

from engines.base import Engine, Rng, clone

#: ``(players, options)``
Config = tuple[int, dict]


def json_exact(value: Any) -> bool:
    """``value`` survives the database unchanged: the JSON columns store orjson's text
    (app/db.py), so the round trip is orjson's. (The standard library's ``json`` took 10x the
    time: on long playouts it was most of the engines' part of ``make test``.) A value orjson
    cannot write at all (a non-string key, an int over 64 bits) raises ``TypeError``."""
    return orjson.loads(orjson.dumps(value)) == value


def _text(state: dict) -> bytes:
    return orjson.dumps(state, option=orjson.OPT_SORT_KEYS)


def playout(engine: Engine, players: int, options: dict, seed: int, *, max_actions: int = 5000,
            on_state: Callable[[dict, int], None] | None = None,
            chooser: Callable[[Engine, dict, int, Rng], dict] | None = None) -> tuple[dict, list]:
    """Play one seeded random game to its end.

    Returns ``(final_state, actions)`` where ``actions`` is ``[(seat, action), ...]``. At every
    step asserts there is no dead end (some waited-for seat has a legal action) and calls
    ``on_state(state, step)`` when given. Fails if the game needs more than ``max_actions``.
    """
    rng = Rng(seed * 7919 + 17)
    state = engine.setup(players, options, seed)
    actions: list = []
    for step in range(max_actions):
        if on_state:
            on_state(state, step)
        if engine.result(state) is not None:
            assert engine.prompts(state) == {}, "a finished match still prompts seats"
            return state, actions
        prompts = engine.prompts(state)
        assert prompts, "dead end: no result and nobody is prompted"
        movers = [s for s in sorted(prompts) if engine.legal_actions(state, s)]
        assert movers, f"dead end: prompted seats {sorted(prompts)} have no legal action"
        seat = rng.choice(movers)
        action = (chooser or (lambda e, st, se, r: r.choice(e.legal_actions(st, se))))(
            engine, state, seat, rng)
        before = _text(state)
        new_state, events = engine.apply(state, seat, action)
        assert _text(state) == before, "apply() mutated its input"
        assert isinstance(events, list)
        engine.check_invariants(new_state)
        actions.append((seat, action))
        state = new_state
    pytest.fail(f"{engine.id}: no result after {max_actions} actions (seed {seed})")


def replay(engine: Engine, players: int, options: dict, seed: int, actions: list) -> dict:
    """Rebuild a state from its seed and logged actions."""
    state = engine.setup(players, options, seed)
    for seat, action in actions:
        state, _ = engine.apply(state, seat, action)
    return state


def _viewers(players: int) -> list[int | None]:
    return [*range(players), None]


# Complex on purpose: the contract tests are methods of one generated class sharing its parameters.
def engine_suite(engine: Engine, configs: list[Config], *, games: int = 6,  # noqa: C901
                 leak_games: int = 3, leak_every: int = 7, max_actions: int = 5000,
                 hidden: bool = True) -> type:
    """Build the pytest class of contract tests for ``engine`` over ``configs``.

    ``games``: random playouts per config; ``leak_games``/``leak_every``: how many games and how
    often (in actions) the leak test samples; ``hidden``: whether the game has hidden
    information that ``determinize`` must resample in most samples (else it must be a no-op).
    """
    ids = [f"{p}p-{'-'.join(f'{k}={v}' for k, v in sorted(o.items())) or 'default'}"
           for p, o in configs]

    class EngineContract:
        @pytest.mark.parametrize("players,options", configs, ids=ids)
        def test_playouts(self, players: int, options: dict) -> None:
            """Playouts: many seeded random games end with a result, no exception or dead end."""
            lengths = []
            for seed in range(games):
                final, actions = playout(engine, players, options, seed, max_actions=max_actions)
                res = engine.result(final)
                assert res is not None
                ranked = [s for group in res["ranks"] for s in group]
                assert sorted(ranked) == list(range(players)), "ranks must list every seat once"
                assert set(res["scores"]) == {str(s) for s in range(players)}, (
                    "scores are keyed by seat as a string (JSON keys)")
                assert json_exact(res), "the result must be JSON-exact"
                lengths.append(len(actions))
            assert min(lengths) > 0

        @pytest.mark.parametrize("players,options", configs, ids=ids)
        def test_determinism_and_json(self, players: int, options: dict) -> None:
            """Determinism: same seed + same actions -> same state; the state survives JSON."""
            for seed in range(2):
                seen: list[dict] = []

                def check(state: dict, step: int) -> None:
                    assert json_exact(state), "state is not JSON-exact"
                    if step % 25 == 0:
                        seen.append(clone(state))

                final, actions = playout(engine, players, options, 1000 + seed, on_state=check,
                                         max_actions=max_actions)
                again = replay(engine, players, options, 1000 + seed, actions)
                assert again == final
                assert engine.setup(players, options, 1000 + seed) == engine.setup(
                    players, options, 1000 + seed)

        @pytest.mark.parametrize("players,options", configs, ids=ids)
        def test_views_hide_nothing_beyond_determinize(self, players: int, options: dict) -> None:
            """Leak test: no view changes when what the viewer cannot know is resampled."""
            samples = 0
            changed = 0
            for seed in range(leak_games):
                rng = Rng(4242 + seed)

                def check(state: dict, step: int) -> None:
                    nonlocal samples, changed
                    if step % leak_every:
                        return
                    for viewer in _viewers(players):
                        det = engine.determinize(state, viewer, rng)
                        assert engine.view(det, viewer) == engine.view(state, viewer), (
                            f"view of {viewer} reveals hidden information at step {step}")
                        assert json_exact(det)
                        samples += 1
                        changed += det != state

                playout(engine, players, options, 2000 + seed, on_state=check,
                        max_actions=max_actions)
            assert samples > 0
            if hidden:
                assert changed >= samples // 2, (
                    f"determinize changed hidden information in only {changed}/{samples} samples")
            else:
                assert changed == 0

        @pytest.mark.parametrize("players,options", configs, ids=ids)
        def test_determinize_is_canonical(self, players: int, options: dict) -> None:
            """determinize is canonical (issue 17, "It cannot cheat, provably"): for two states
            a viewer cannot tell apart (``other``: the real state with its hidden information
            resampled, so every view is equal) and equal rngs, the samples are equal -- so a bot
            that decides from samples decides the same in both states."""
            samples = 0
            for seed in range(2):
                def check(state: dict, step: int) -> None:
                    nonlocal samples
                    if step % leak_every:
                        return
                    for viewer in _viewers(players):
                        other = engine.determinize(state, viewer, Rng(step * 31 + 7))
                        assert engine.view(other, viewer) == engine.view(state, viewer)
                        for k in (1, 2):
                            assert engine.determinize(state, viewer, Rng(k)) == \
                                engine.determinize(other, viewer, Rng(k)), (
                                f"determinize for {viewer} depends on hidden information "
                                f"at step {step}")
                        samples += 1

                playout(engine, players, options, 2100 + seed, on_state=check,
                        max_actions=max_actions)
            assert samples > 0

        @pytest.mark.parametrize("players,options", configs, ids=ids)
        def test_views_are_json_and_complete(self, players: int, options: dict) -> None:
            """Views: the contract's common keys, JSON-serialisable, reveal only at the end."""
            keys = {"version", "you", "seats", "header", "prompt", "legal_actions", "log",
                    "result", "game"}

            def check(state: dict, step: int) -> None:
                if step % 11:
                    return
                for viewer in _viewers(players):
                    v = engine.view(state, viewer)
                    assert keys <= set(v), f"view lacks {keys - set(v)}"
                    orjson.dumps(v)
                    assert {"round", "phase", "waiting_for"} <= set(v["header"])
                    if viewer is None:
                        assert v["legal_actions"] == [] and v["prompt"] is None
                    for ev in v["log"]:
                        if viewer is None and ev.get("spectators"):
                            # the public wording of a private event: every seat but its owner
                            assert len(ev["to"]) == players - 1
                        else:
                            assert ev["to"] == "all" or viewer in ev["to"]

            final, _ = playout(engine, players, options, 3000, on_state=check,
                               max_actions=max_actions)
            orjson.dumps(engine.view(final, None, reveal=True))

        @pytest.mark.parametrize("players,options", configs, ids=ids)
        def test_static_view_keys_never_change(self, players: int, options: dict) -> None:
            """``static_view_keys`` (sent once per socket): equal for every viewer and at
            every step of a match, so a socket's first copy stays right."""
            first: dict = {}

            def check(state: dict, step: int) -> None:
                if step % 9:
                    return
                for viewer in _viewers(players):
                    game = engine.view(state, viewer)["game"]
                    for key in engine.static_view_keys:
                        assert key in game, f"static key {key!r} missing from the view"
                        assert first.setdefault(key, game[key]) == game[key], (
                            f"static key {key!r} changed at step {step} (viewer {viewer})")

            playout(engine, players, options, 3100, on_state=check, max_actions=max_actions)
            assert len(first) == len(engine.static_view_keys)

    EngineContract.__name__ = f"Test{engine.id.title().replace('_', '')}Contract"
    return EngineContract


def assert_illegal(engine: Engine, state: dict, seat: int, action: Any) -> None:
    """Assert that ``action`` is refused and the state is unchanged."""
    from engines.base import IllegalAction

    before = clone(state)
    with pytest.raises(IllegalAction):
        engine.apply(state, seat, action)
    assert state == before
