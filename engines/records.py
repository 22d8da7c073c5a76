"""Match records: replaying an action log from its seed, and hashing states (golden records).

A record is ``{"game", "version", "players", "options", "seed", "actions": [[seat, action], ...],
"final_hash"}``. Pure functions; used by the service's replay and by ``tests/records``.
"""
from __future__ import annotations

import hashlib
from typing import Iterable

import orjson

from engines import registry


def state_hash(state: dict) -> str:
    """SHA-256 of the state's canonical JSON (sorted keys): equal states, equal hashes."""
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).hexdigest()


def replay_states(game: str, players: int, options: dict, seed: int,
                  actions: Iterable[tuple[int, dict]]):
    """Yield the state before any action, then after each action (step 0, 1, ...).

    Raises ``engines.base.IllegalAction`` if the log does not fit the rules (a changed engine).
    """
    engine = registry.get(game)
    state = engine.setup(players, options, seed)
    yield state
    for seat, action in actions:
        state, _ = engine.apply(state, seat, action)
        yield state


def replay_record(record: dict) -> dict:
    """The final state of a record."""
    state = None
    for state in replay_states(record["game"], record["players"], record["options"],
                               record["seed"], record["actions"]):
        pass
    return state
