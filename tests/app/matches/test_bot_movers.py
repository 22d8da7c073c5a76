"""The bot runner's seats under racing changes (issue 13; app/matches/bots.py).

(a) A bot seat stays pending from the moment its move is scheduled until that move is committed
(or given up): a change that comes while the move is on its way to the database must not start a
second move for the same seat. (b) A look at the bots that skipped a seat because its move was
pending is not lost: once that move is done, the runner looks again, so a seat that is to move
again (the same one or another) is played and a bot-only match never freezes.
"""
from __future__ import annotations

import asyncio
import json

import pytest

from app.matches.changes import SeatsChanged
from engines import registry
from engines.base import Engine, event, seed_state
from tests.app.processes import services


class RelayEngine(Engine):
    """Two seats; a turn is two steps by the same seat (so a bot's own move prompts it
    again), six steps in all."""

    id = "relay"
    title = "Relay"
    min_players = 2
    max_players = 2
    version = 1

    def _setup(self, players, options, seed):
        return {"rng": seed_state(seed), "log": [event("The relay begins.")], "steps": 0,
                "turn": 0, "winner": None}

    def prompts(self, state):
        if state["winner"] is not None:
            return {}
        return {state["turn"]: {"kind": "step", "text": "Step"}}

    def legal_actions(self, state, seat):
        return [{"type": "step"}] if seat in self.prompts(state) else []

    def _apply(self, state, seat, action):
        state["steps"] += 1
        state["log"].append(event(f"Seat {seat} steps."))
        if state["steps"] == 6:
            state["winner"] = seat
        elif state["steps"] % 2 == 0:
            state["turn"] = 1 - seat

    def result(self, state):
        w = state["winner"]
        if w is None:
            return None
        return {"ranks": [[w], [1 - w]], "scores": {str(w): 1, str(1 - w): 0},
                "tiebreak": "", "breakdown": None}

    def _game_view(self, state, viewer, reveal):
        return {"steps": state["steps"], "turn": state["turn"]}

    def describe(self, state, action):
        return "Step"


RELAY = RelayEngine()


@pytest.fixture(autouse=True, scope="module")
def relay():
    registry.register(RELAY)
    yield
    registry.ENGINES.pop(RELAY.id, None)
    registry._VERSIONS.pop((RELAY.id, RELAY.version), None)


async def _others_done(store, deadline: float = 20.0) -> None:
    """Wait (bounded) until every background task but the current one has ended."""
    me = asyncio.current_task()
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while True:
        others = [t for t in store.tasks if t is not me and not t.done()]
        if not others:
            return
        left = end - loop.time()
        assert left > 0, f"background tasks still running: {others}"
        await asyncio.wait(others, timeout=left)


async def _bots_only(service, game: str) -> str:
    """A started match of ``game`` with a random bot in each of its two seats (the host
    watches)."""
    await service.ensure_user("host", "Host")
    match = await service.create_match("host", game, 2, {}, public=True, host_seat=None)
    await service.fill_with_bots(match.id, "host", "random")
    return match.id


class Recorder:
    """Wraps the runner's ``moves.submit``: records each bot submission as ``(seat, version)``
    and lets a test run code around the first one that matches ``when(action)``."""

    def __init__(self, service, when, before=None, after=None):
        self.runner = service.bots
        self.real = self.runner.moves.submit
        self.calls: list[tuple[int, int]] = []
        self.when, self.before, self.after = when, before, after
        self.fired = False
        self.runner.moves.submit = self

    async def __call__(self, match_id, seat, action_id, version, action, **kw):
        self.calls.append((seat, version))
        hook = not self.fired and self.when(action)
        self.fired = self.fired or hook
        if hook and self.before:
            await self.before(match_id)
        outcome = await self.real(match_id, seat, action_id, version, action, **kw)
        if hook and self.after:
            await self.after(match_id)
        return outcome


async def test_a_change_while_a_bot_move_is_committed_does_not_start_a_second_one(
        database_url):
    engines, (service,) = await services(database_url, 1)
    decided: list[tuple[int, str]] = []
    real_decide = service.bots.pool.decide

    async def decide(engine, name, state, seat, rng, **kwargs):
        decided.append((seat, json.dumps(state, sort_keys=True)))
        return await real_decide(engine, name, state, seat, rng, **kwargs)

    service.bots.pool.decide = decide

    async def another_change(match_id):
        # a seat change (say, a spectator's) reaches the runner while the bot's move is on its
        # way to the database; the looks it starts run before the move commits
        await service.store.changed(match_id, SeatsChanged())
        await _others_done(service.store)

    rec = Recorder(service, lambda action: action["type"] == "take", before=another_change)
    try:
        mid = await _bots_only(service, "toy")
        await service.start(mid, "host")
        await service.drain()
        snap = await service.snapshot(mid)
        assert snap.match.status == "finished"
        assert rec.fired
        # one submission and one decision per seat and position: no duplicate move
        assert len(rec.calls) == len(set(rec.calls)), rec.calls
        assert len(decided) == len(set(decided)), [seat for seat, _ in decided]
        assert len(rec.calls) == snap.match.version
    finally:
        await service.drain()
        for e in engines:
            await e.dispose()


async def test_a_bot_whose_own_move_prompts_it_again_moves_again(database_url):
    """The runner's look after a bot's commit may run before the move's task has dropped its
    pending mark (here forced: the mover resumes only once that look is done); the seat that
    is to move again must still be played."""
    engines, (service,) = await services(database_url, 1)

    async def runner_looks_first(_match_id):
        await _others_done(service.store)

    rec = Recorder(service, lambda action: True, after=runner_looks_first)
    try:
        mid = await _bots_only(service, "relay")
        await service.start(mid, "host")

        async def finished() -> bool:
            loop = asyncio.get_running_loop()
            end = loop.time() + 20.0
            while loop.time() < end:
                await service.drain()
                if (await service.snapshot(mid)).match.status == "finished":
                    return True
                await asyncio.sleep(0.02)
            return False

        assert await finished(), f"the bot-only match froze after {rec.calls}"
        assert rec.calls == [(0, 0), (0, 1), (1, 2), (1, 3), (0, 4), (0, 5)]
    finally:
        await service.drain()
        for e in engines:
            await e.dispose()
