"""The replay viewer's states, kept between slider steps (issue 7 item 4, "Replays").

Each request for a step used to replay the log from the setup, on the event loop: for a long
match every click cost the whole match again and held up every table of the process. Now a
few recently viewed logs keep their ``engines.records.Replayer`` (a state every 25 steps), the
replay runs in a worker thread, and a running match's replayer grows with its log.
"""
from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Sequence

from engines.records import Replayer

#: How many logs keep their replayer (each holds about steps/25 states).
KEEP = 16

_lock = threading.Lock()
_replayers: OrderedDict[tuple, Replayer] = OrderedDict()


def _replayer(key: tuple, game: str, players: int, options: dict, seed: int,
              actions: Sequence[tuple[int, dict]], version: int | None) -> Replayer:
    key = (*key, version)
    with _lock:
        rep = _replayers.get(key)
        if rep is not None:  # a shorter ``actions`` is a prefix of what it holds
            _replayers.move_to_end(key)
            if len(rep.actions) < len(actions):  # the match went on: its log only grew
                rep.extend(actions[len(rep.actions):])
            return rep
        rep = _replayers[key] = Replayer(game, players, options, seed, actions, version=version)
        while len(_replayers) > KEEP:
            _replayers.popitem(last=False)
        return rep


def _state(key: tuple, game: str, players: int, options: dict, seed: int,
           actions: Sequence[tuple[int, dict]], step: int, version: int | None
           ) -> tuple[dict, list[int]]:
    rep = _replayer(key, game, players, options, seed, actions, version)
    with _lock:  # one replay at a time per process: steps are quick once marks exist
        return rep.at(step)


async def step_at(key: tuple, game: str, players: int, options: dict, seed: int,
                  actions: Sequence[tuple[int, dict]], step: int,
                  version: int | None = None) -> tuple[dict, list[int]]:
    """``(state, written_at)``: the state after ``actions[:step]`` of the log identified by
    ``key`` (e.g. ``("match", id)``; the log must only ever grow under one key), computed in a
    worker thread on the rules ``version`` the log was made with (``None``: the live rules),
    and for each event of its log the step that wrote it (``Replayer.at``). Raises
    ``IllegalAction`` when the log does not fit those rules, ``KeyError`` for a version this
    code does not have."""
    return await asyncio.to_thread(_state, key, game, players, options, seed, list(actions),
                                   step, version)

