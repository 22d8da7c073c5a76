"""Action logs: the one canonical replay (with undo), and state hashes for golden records.

A record is ``{"game", "version", "players", "options", "seed", "actions": [[seat, action], ...],
"final_hash"}``. The log may contain ``{"type": "undo"}`` actions (docs/design.md, "Undo is an action
too"): an undo takes the table back to the state before that seat's latest move and adds a
public event saying so. Nothing is ever removed from the log; replaying it always gives the same
state. Pure functions; used by the service, the replay view, ``tests/records`` and verification.
"""
from __future__ import annotations

import hashlib
from typing import Iterable, Iterator

import orjson

from engines import registry
from engines.base import Engine, IllegalAction, clone, event

UNDO = {"type": "undo"}


def state_hash(state: dict) -> str:
    """SHA-256 of the state's canonical JSON (sorted keys): equal states, equal hashes."""
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).hexdigest()


class UndoTrail:
    """Which seat may undo now, and the states to go back to.

    Undo is allowed only for the seat's own latest moves, none of whose events was irreversible
    (nothing random drawn, nothing hidden revealed), with no other seat having acted since.
    So the trail holds only the current run of one seat's reversible moves (a list of the
    states before each of them); any other seat's move or an irreversible event clears it.
    """

    def __init__(self) -> None:
        self.seat: int | None = None
        self.before: list[dict] = []

    def can_undo(self, seat: int | None) -> bool:
        """True if ``seat`` may undo its latest move now."""
        return seat is not None and seat == self.seat and bool(self.before)

    def moved(self, seat: int, before: dict, events: list[dict]) -> None:
        """Record a move by ``seat`` from state ``before`` that produced ``events``."""
        if any(e.get("irreversible") for e in events):
            self.seat, self.before = None, []
            return
        if seat != self.seat:
            self.seat, self.before = seat, []
        self.before.append(before)

    def undo(self, seat: int) -> dict:
        """The state after ``seat`` undoes its latest move. Raises ``IllegalAction``."""
        if not self.can_undo(seat):
            raise IllegalAction("You can only take back your own latest moves, before anything "
                                "was drawn or revealed and before another player moved.")
        state = clone(self.before.pop())
        if not self.before:
            self.seat = None
        state["log"].append(event(f"Player {seat + 1} took back a move."))
        return state


def step(engine: Engine, state: dict, trail: UndoTrail, seat: int, action: dict
         ) -> tuple[dict, list[dict]]:
    """Apply one logged action (an engine action or an undo); returns ``(state, events)``.

    Raises ``IllegalAction`` when the action is not allowed.
    """
    if action == UNDO:
        new = trail.undo(seat)
        return new, new["log"][-1:]
    new, events = engine.apply(state, seat, action)
    trail.moved(seat, state, events)
    return new, events


def replay_states(game: str, players: int, options: dict, seed: int,
                  actions: Iterable[tuple[int, dict]], version: int | None = None
                  ) -> Iterator[dict]:
    """Yield the state before any action, then after each logged action (step 0, 1, ...),
    on the rules ``version`` the log was made with (``None``: the live rules).

    Raises ``engines.base.IllegalAction`` if the log does not fit the rules (a changed engine),
    ``KeyError`` for an unknown game or version (``registry.get``).
    """
    engine = registry.get(game, version)
    state = engine.setup(players, options, seed)
    trail = UndoTrail()
    yield state
    for seat, action in actions:
        state, _ = step(engine, state, trail, seat, action)
        yield state


class Replayer:
    """Random access to the states of one log (the replay viewer's slider): keeps the state
    and undo trail at every ``every``-th step it has passed, so a step is replayed from the
    nearest of them instead of from the setup. ``extend`` adds actions committed since (logs
    only grow). States are never changed in place (``Engine.apply`` copies), so keeping them
    is safe. ``version``: the rules version the log was made with (``None``: the live one).
    Raises ``IllegalAction`` and ``KeyError`` like :func:`replay_states`."""

    def __init__(self, game: str, players: int, options: dict, seed: int,
                 actions: Iterable[tuple[int, dict]], every: int = 25,
                 version: int | None = None) -> None:
        self.engine = registry.get(game, version)
        self.actions = list(actions)
        self.every = every
        state = self.engine.setup(players, options, seed)
        # step -> (state, undo trail's seat, its states, the step each log event was written at)
        self._marks: dict[int, tuple[dict, int | None, list[dict], list[int]]] = {
            0: (state, None, [], [0] * len(state["log"]))}

    def extend(self, actions: Iterable[tuple[int, dict]]) -> None:
        """Append actions logged after the ones given so far."""
        self.actions.extend(actions)

    def state_at(self, n: int) -> dict:
        """The state after the first ``n`` actions (0: after setup); ``0 <= n <= len``."""
        return self.at(n)[0]

    def at(self, n: int) -> tuple[dict, list[int]]:
        """``(state, written_at)``: the state after the first ``n`` actions (0: after setup;
        ``0 <= n <= len``, else ``ValueError``), and for each event of its log the step that
        wrote it (0: the setup; ``k``: the ``k``-th action). An undo's state is an earlier
        state plus the undo's own event, so its events keep the steps they were written at
        then: the replay viewer names the move a log line belongs to."""
        if not 0 <= n <= len(self.actions):
            raise ValueError(f"step {n} is outside 0..{len(self.actions)}")
        start = max(k for k in self._marks if k <= n)
        state, seat, before, written = self._marks[start]
        trail = UndoTrail()
        trail.seat, trail.before = seat, list(before)
        for i in range(start, n):
            seat_i, action = self.actions[i]
            new, _ = step(self.engine, state, trail, seat_i, action)
            # An engine's move appends to the log; an undo goes back to an earlier state, whose
            # log is a prefix of this one, and appends its own event.
            kept = len(new["log"]) - 1 if action == UNDO else len(state["log"])
            written = written[:kept] + [i + 1] * (len(new["log"]) - kept)
            state = new
            if (i + 1) % self.every == 0 and i + 1 not in self._marks:
                self._marks[i + 1] = (state, trail.seat, list(trail.before), written)
        return state, list(written)


def replay_log(game: str, players: int, options: dict, seed: int,
               actions: Iterable[tuple[int, dict]], version: int | None = None
               ) -> tuple[dict, UndoTrail]:
    """The state after the whole log, and the undo trail at that point, on the rules
    ``version`` the log was made with (``None``: the live rules). Raises like
    :func:`replay_states`."""
    engine = registry.get(game, version)
    state = engine.setup(players, options, seed)
    trail = UndoTrail()
    for seat, action in actions:
        state, _ = step(engine, state, trail, seat, action)
    return state, trail


def replay_record(record: dict) -> dict:
    """The final state of a record, replayed on the rules version it names."""
    state, _ = replay_log(record["game"], record["players"], record["options"], record["seed"],
                          record["actions"], record.get("version"))
    return state
