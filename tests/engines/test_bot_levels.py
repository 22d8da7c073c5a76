"""Bot levels for every game (issue 17): every level finishes its matches with bounded turns,
and the hard bot decides from what its seat may know.

Matches here are all-bot, seeded, in-process: :data:`QUICK_MATCHES` (`make test-slow`: :data:`MATCHES`) per game and player count for
``easy`` and ``normal``; :data:`HARD_MATCHES` at :data:`HARD_ITERATIONS` iterations a decision
for ``hard`` -- in ``make test`` the hard bot in one seat among normal bots (the benchmark's
setting; :data:`HARD_CONFIGS`), in ``make test-slow`` in every seat (the hundreds of matches at a real budget are in
``make bots``: bench/bots.py).
"""
from __future__ import annotations

import pytest

from engines import levels, registry
from engines.base import Rng, clone, is_listed, random_bot
from engines.search import Budget, decide

#: Seeded matches per game, player count and level: ``make test`` plays the first
#: :data:`QUICK_MATCHES` (~45 s of CPU in all), ``make test-slow`` all :data:`MATCHES`, as issue
#: 17 asks (~105 s). The suite had room for the 30 on 2026-12-06; on 2026-12-08 ``make test`` was
#: past its 15 minutes on the 2-core machine, and this sweep is the kind the budget sends to the
#: slow runs.
MATCHES = 30
QUICK_MATCHES = 12
#: As issue 17 asks. In ``make test`` the hard bot plays one seat of each match (match ``i``:
#: seat ``i % players``) among normal bots: ~35 s of CPU for every game and player count,
#: where hard bots in every seat cost ~115 s (measured 2026-12-06 on the 2-core machine, after
#: the search's speed-ups; 142 s before them) -- that sweep is marked slow.
HARD_MATCHES = 3
HARD_ITERATIONS = 20
#: Most actions a seat may make in a row (one turn; Brewing is the longest: every Resource
#: once, Assistants, Done).
TURN_BOUND = 60
MAX_ACTIONS = 3000

#: The games Lair ships (engines/<game>/); the app tests' toy games register themselves too
#: when the whole tree runs in one process, and have no bots of their own to measure.
SHIPPED = sorted(g for g, e in registry.ENGINES.items() if type(e).__module__.startswith("engines."))
CONFIGS = [(game, p) for game in SHIPPED
           for p in range(max(2, registry.get(game).min_players),
                          registry.get(game).max_players + 1)]


def play(game: str, players: int, seed: int, bot) -> tuple[dict, int]:
    """One all-bot match (the lowest prompted seat moves: a turn is a run of one seat's
    actions). Returns ``(final state, longest run of one seat's actions)``; fails when a turn
    exceeds :data:`TURN_BOUND` or the match :data:`MAX_ACTIONS`."""
    engine = registry.get(game)
    state = engine.setup(players, {}, seed)
    rng = Rng(seed * 31 + 5)
    run, longest, last = 0, 0, None
    for _ in range(MAX_ACTIONS):
        prompts = engine.prompts(state)
        if not prompts:
            return state, longest
        # the lowest prompted seat with a legal action; its actions are listed once, for the
        # legality check too (apply would list them again: a third of a normal bot's move)
        seat, legal = next((s, acts) for s in sorted(prompts)
                           if (acts := engine.legal_actions(state, s)))
        action = bot(engine, state, seat, rng)
        assert is_listed(legal, action), f"{game} {players}p seed {seed}: illegal {action}"
        state = clone(state)
        engine.apply_trusted(state, seat, action)
        run = run + 1 if seat == last else 1
        last = seat
        longest = max(longest, run)
        assert run <= TURN_BOUND, f"{game} {players}p seed {seed}: seat {seat} made {run} " \
                                  "actions in a row"
    pytest.fail(f"{game} {players}p seed {seed}: no result after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("matches", [
    pytest.param(QUICK_MATCHES, id="quick"),
    pytest.param(MATCHES, id="all", marks=pytest.mark.slow)])
@pytest.mark.parametrize("level", ["easy", "normal"])
@pytest.mark.parametrize("game,players", CONFIGS)
def test_levels_finish_every_match_with_bounded_turns(game: str, players: int, level: str,
                                                      matches: int):
    """Issue 17 item 7: every bot, at every level, ends its turn in a bounded number of actions
    and finishes its match (``matches`` seeded matches per game and player count: see
    :data:`MATCHES`)."""
    engine = registry.get(game)
    bot = levels.bots(engine)[level]
    for seed in range(matches):
        final, _ = play(game, players, seed, bot)
        assert engine.result(final) is not None


def _hard(iterations: int):
    """The hard level at ``iterations`` a decision, salted from the match's bot RNG."""
    def hard(engine, state, seat, rng):
        return decide(engine, levels.spec_of(engine), state, seat,
                      Budget(seconds=None, iterations=iterations, salt=rng.next64()))
    return hard


#: The hard level's sweep in ``make test``: every game and player count but Evil Corp.'s three
#: and four players (its slowest: ~110 s of a loaded run's 240 for the sweep, 2026-12-08), which
#: ``make test-slow`` plays with the rest; Evil Corp.'s two players stay.
HARD_CONFIGS = [pytest.param(g, p, marks=pytest.mark.slow) if (g, p) in {("evil_corp", 3), ("evil_corp", 4)}
                else (g, p) for g, p in CONFIGS]


@pytest.mark.parametrize("every_seat", [
    pytest.param(False, id="one-seat"),
    pytest.param(True, id="every-seat", marks=pytest.mark.slow)])
@pytest.mark.parametrize("game,players", HARD_CONFIGS)
def test_hard_finishes_matches_with_bounded_turns(game: str, players: int, every_seat: bool):
    """The hard level too: :data:`HARD_MATCHES` seeded matches per game and player count at
    :data:`HARD_ITERATIONS` search iterations a decision, the hard bot in one seat (match ``i``:
    seat ``i % players``; the others normal) or in every seat."""
    engine = registry.get(game)
    assert levels.spec_of(engine) is not None, f"{game} has no search spec"
    hard, normal = _hard(HARD_ITERATIONS), levels.bots(engine)["normal"]
    for seed in range(HARD_MATCHES):
        def bot(engine, state, seat, rng, at=seed % players):
            return (hard if every_seat or seat == at else normal)(engine, state, seat, rng)
        final, _ = play(game, players, 100 + seed, bot)
        assert engine.result(final) is not None


def test_plain_random_bot_can_loop_in_brewing():
    """Why the levels exclude take-backs: the plain random bot (the old ``random``) can keep
    placing and taking back a Resource in Drops of Evil's Brewing (issue 17 item 7)."""
    with pytest.raises(AssertionError, match="in a row"):
        for seed in range(MATCHES):
            play("drops_of_evil", 4, seed, random_bot)


def _searched_states(game: str, players: int, seed: int, every: int = 9) -> list[tuple[dict, int]]:
    """States of a normal-bot match where the prompted seat has a real choice."""
    engine = registry.get(game)
    normal = levels.bots(engine)["normal"]
    spec = levels.spec_of(engine)
    state = engine.setup(players, {}, seed)
    rng = Rng(seed)
    out = []
    for step in range(400):
        prompts = engine.prompts(state)
        if not prompts:
            break
        seat = min(s for s in prompts if engine.legal_actions(state, s))
        if step % every == 0 and len(engine.legal_actions(state, seat)) > 1 \
                and spec.searchable(engine, state, seat):
            out.append((state, seat))
        state, _ = engine.apply(state, seat, normal(engine, state, seat, rng))
    return out


@pytest.mark.parametrize("game", SHIPPED)
def test_hard_choice_is_the_same_for_indistinguishable_states(game: str):
    """Issue 17 "It cannot cheat, provably": for two states the seat cannot tell apart (the
    real one, and one whose hidden information was resampled), the hard bot with the same
    budget and salt makes the same choice -- it is seeded from the seat's view, and every sample
    it searches is canonical (``determinize``)."""
    engine = registry.get(game)
    spec = levels.spec_of(engine)
    budget = Budget(seconds=None, iterations=24, salt=7)
    checked = differs = 0
    for state, seat in _searched_states(game, 3 if engine.max_players >= 3 else 2, 11)[:8]:
        other = engine.determinize(state, seat, Rng(99))
        assert engine.view(other, seat) == engine.view(state, seat)
        differs += other != state
        assert decide(engine, spec, state, seat, budget) == decide(engine, spec, other, seat,
                                                                   budget)
        checked += 1
    assert checked >= 4
    assert differs >= 1, "no sampled state had hidden information to resample"


@pytest.mark.parametrize("game", SHIPPED)
def test_bots_are_built_once_per_game_and_version(game: str):
    """``registry.bots`` is looked up on every bot move: the same read-only mapping each time,
    one per rules version (a frozen version's levels are its own copy's bots)."""
    live = registry.bots(game)
    assert registry.bots(game) is live and registry.bots(game, registry.get(game).version) is live
    assert levels.bots(registry.get(game)) is live
    with pytest.raises(TypeError):
        live["hard"] = live["easy"]  # type: ignore[index]
    assert levels.spec_of(registry.get(game)) is registry.get(game).search_spec is not None
    for version in registry.versions(game)[:-1]:
        old = registry.bots(game, version)
        assert old is not live and registry.bots(game, version) is old
        assert old["normal"] is registry.get(game, version).bots["greedy"]


@pytest.mark.parametrize("game", SHIPPED)
def test_rules_version_1_plays_hard_as_normal(game: str):
    """Version 1's frozen copies have no search spec, so their ``hard`` is their greedy bot:
    their ``determinize`` keeps the real hidden order in its sample (it was made canonical in
    version 2, and a frozen copy is never edited), so a search on it could not be shown to
    decide from the seat's view alone (see engines/levels.py)."""
    engine = registry.get(game, 1)
    assert levels.spec_of(engine) is None
    assert registry.bots(game, 1)["hard"] is engine.bots["greedy"]
