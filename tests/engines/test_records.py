"""The canonical replay with undo (engines/records.py; docs/design.md "Undo is an action too")."""
from __future__ import annotations

import pytest

from engines import registry
from engines.base import IllegalAction, Rng
from engines.records import UNDO, Replayer, UndoTrail, replay_log, replay_states, step


def _to_brewing(seed: int = 3):
    engine = registry.get("drops_of_evil")
    state = engine.setup(2, {}, seed)
    rng = Rng(1)
    log = []
    while len(engine.prompts(state)) < 2:
        seat = min(engine.prompts(state))
        action = rng.choice([a for a in engine.legal_actions(state, seat)
                             if a["type"] != "take_back"])
        log.append((seat, action))
        state, _ = engine.apply(state, seat, action)
    return engine, state, log


def test_undo_walks_back_a_run_of_one_seats_reversible_moves():
    engine, state, log = _to_brewing()
    trail = UndoTrail()
    start = state
    moves = [a for a in engine.legal_actions(state, 0) if a["type"] == "brew"][:1]
    assert moves, "seat 0 has something to brew"
    state, _ = step(engine, state, trail, 0, moves[0])
    second = [a for a in engine.legal_actions(state, 0) if a["type"] == "brew"]
    if second:
        state, _ = step(engine, state, trail, 0, second[0])
    depth = len(trail.before)
    assert trail.can_undo(0) and not trail.can_undo(1)
    for _ in range(depth):
        state, events = step(engine, state, trail, 0, UNDO)
        assert events[-1]["text"] == "Player 1 took back a move."
    assert not trail.can_undo(0)
    assert engine.view(state, 0)["game"] == engine.view(start, 0)["game"]
    with pytest.raises(IllegalAction):
        step(engine, state, trail, 0, UNDO)


def test_another_seats_move_ends_the_undo_run():
    engine, state, _ = _to_brewing()
    trail = UndoTrail()
    a0 = [a for a in engine.legal_actions(state, 0) if a["type"] == "brew"][0]
    state, _ = step(engine, state, trail, 0, a0)
    a1 = [a for a in engine.legal_actions(state, 1) if a["type"] == "brew"][0]
    state, _ = step(engine, state, trail, 1, a1)
    assert not trail.can_undo(0) and trail.can_undo(1)


def test_irreversible_events_cannot_be_undone():
    trail = UndoTrail()
    trail.moved(0, {"log": []}, [{"text": "drew", "to": "all", "irreversible": True}])
    assert not trail.can_undo(0)


def test_replaying_a_log_with_undos_is_deterministic():
    engine, state, log = _to_brewing()
    a0 = [a for a in engine.legal_actions(state, 0) if a["type"] == "brew"][0]
    full = log + [(0, a0), (0, UNDO)]
    first, _ = replay_log("drops_of_evil", 2, {}, 3, full)
    again, _ = replay_log("drops_of_evil", 2, {}, 3, full)
    assert first == again
    assert first["log"][-1]["text"] == "Player 1 took back a move."


def test_replayer_gives_every_step_in_any_order_across_undos():
    """The replay viewer's random access (app.matches.replays) equals the canonical replay at
    every step, also when a checkpoint falls inside a run of undoable moves."""
    engine, state, log = _to_brewing()
    brews = [a for a in engine.legal_actions(state, 0) if a["type"] == "brew"]
    full = log + [(0, brews[0]), (0, UNDO), (0, brews[-1]), (0, UNDO)]
    expected = list(replay_states("drops_of_evil", 2, {}, 3, full))
    rep = Replayer("drops_of_evil", 2, {}, 3, full[:-3], every=len(log) + 1)
    order = list(range(len(full) - 2))
    Rng(5).shuffle(order)
    for n in order:
        assert rep.state_at(n) == expected[n]
    rep.extend(full[-3:])  # the match went on
    for n in (len(full), len(full) - 2, len(log) + 1, 0):
        assert rep.state_at(n) == expected[n]
    with pytest.raises(ValueError):
        rep.state_at(len(full) + 1)


def test_replayer_names_the_step_that_wrote_each_log_line_across_undos():
    """``Replayer.at`` (the replay viewer's log: each line belongs to a move): a move's lines
    carry its step, the setup's 0; after an undo the lines of the undone move are gone and the
    others keep their steps, the undo's own line carries the undo's step; random access from a
    checkpoint gives what stepping from the setup gives."""
    engine, state, log = _to_brewing()
    brews = [a for a in engine.legal_actions(state, 0) if a["type"] == "brew"]
    full = log + [(0, brews[0]), (0, UNDO), (0, brews[-1]), (0, UNDO)]
    states = list(replay_states("drops_of_evil", 2, {}, 3, full))
    every_step = Replayer("drops_of_evil", 2, {}, 3, full, every=1)
    sparse = Replayer("drops_of_evil", 2, {}, 3, full, every=7)
    written = []
    for n in range(len(full) + 1):
        got_state, got = every_step.at(n)
        assert got_state == states[n] and len(got) == len(states[n]["log"])
        written.append(got)
    assert set(written[0]) == {0} and written[0]
    b = len(log)  # the brew is step b + 1, its undo b + 2
    assert written[b + 1][:len(written[b])] == written[b]
    assert written[b + 1][len(written[b]):] == [b + 1] * (len(written[b + 1]) - len(written[b]))
    assert written[b + 2] == written[b] + [b + 2]  # the brew's lines are gone
    assert states[b + 2]["log"][-1]["text"] == "Player 1 took back a move."
    assert written[b + 4] == written[b + 2] + [b + 4]  # back to step b + 2: its line stays
    assert all(x <= y for w in written for x, y in zip(w, w[1:]))  # oldest first
    order = list(range(len(full) + 1))
    Rng(2).shuffle(order)
    for n in order:
        assert sparse.at(n) == (states[n], written[n])
