"""``Engine.apply`` checks legality type-exactly (issue 16): ``1``, ``1.0`` and ``True`` are
three different actions, although Python's ``==`` takes them for one. A state that took a
client's ``2.0`` for a legal ``2`` would hold a float; one that took ``true`` for ``1``, a bool."""
from __future__ import annotations

import pytest

from engines import registry
from engines.base import IllegalAction, is_listed, same_types


def _int_path(value, path=()):
    """The path (keys and indexes) to the first int inside ``value``, or None."""
    if type(value) is int:
        return path
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        found = _int_path(inner, (*path, key))
        if found is not None:
            return found
    return None


def _replaced(value, path, new):
    """A copy of ``value`` with ``new`` at ``path``."""
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


def _get(value, path):
    for key in path:
        value = value[key]
    return value


def _with_an_int(engine, state):
    """``(seat, action, path)``: a legal action with an int somewhere (at ``path``)."""
    for seat in sorted(engine.prompts(state)):
        for action in engine.legal_actions(state, seat):
            path = _int_path(action)
            if path is not None:
                return seat, action, path
    return None


@pytest.mark.parametrize("game", sorted(registry.ENGINES))
def test_a_float_or_a_bool_for_a_legal_int_is_refused_and_the_int_applies(game):
    engine = registry.get(game)
    players = max(2, engine.min_players)
    state = engine.setup(players, engine.parse_options(players, {}).model_dump(mode="json"), 7)
    for _ in range(200):  # play the first legal actions until one carries an int
        found = _with_an_int(engine, state)
        if found is not None:
            break
        seat = sorted(engine.prompts(state))[0]
        state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[-1])
    assert found is not None, f"{game}: no legal action with an int in 200 moves"
    seat, action, path = found
    number = _get(action, path)
    loose = [float(number)] + ([bool(number)] if number in (0, 1) else [])
    for value in loose:
        twin = _replaced(action, path, value)
        assert twin == action  # what Python's == alone would let through
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, twin)
    new, _ = engine.apply(state, seat, dict(action))
    assert new is not state


def test_same_types_walks_dicts_and_lists():
    assert same_types({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "x"}]})
    assert not same_types({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2.0}]})
    assert not same_types({"a": [True]}, {"a": [1]})
    assert not same_types({"a": None}, {"a": 0})


def test_is_listed_finds_an_exact_twin_after_a_loose_one():
    legal = [{"n": True}, {"n": 1}]  # equal under ==, different actions
    assert is_listed(legal, {"n": 1}) and is_listed(legal, {"n": True})
    assert not is_listed(legal, {"n": 1.0})
    assert not is_listed(legal, {"n": 2})
