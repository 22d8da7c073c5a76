"""The bot runner: plays the bot seats of this process's matches.

It listens to the service's changes (``Store.subscribe``) instead of being called by the move
path: after a move that leaves the match running, a start, or a seat change (a seat handed to
a bot), it looks whether a bot seat is prompted and, after ``delay`` seconds, submits that
bot's action through ``Moves.submit`` like any player (``actor=BOT``). The decisions run in
``app.matches.botpool`` (hard ones in worker processes). A failed move is retried later each
time (a busy or locked database), never left waiting for ever.

A seat's move is *pending* from the moment it is scheduled until it is committed or given up:
a change that comes meanwhile starts no second move for that seat, and the look it started is
taken again once the pending move is done (the seat, or another, may be to move again then).
"""
from __future__ import annotations

import asyncio
import logging

from sqlalchemy import select

from app.background import spawn
from app.matches.botpool import BotPool
from app.matches.changes import Cancelled, Change, Finished, Moved, SeatsChanged, Started
from app.matches.errors import ErrorCode, ServiceError
from app.matches.moves import BOT, Moves
from app.matches.snapshot import SeatInfo, Snapshot, engine_for
from app.matches.store import Store
from app.models import Match
from app.telemetry import events as ops_events
from engines import levels, registry
from engines.base import Rng
from engines.search import public_seed

log = logging.getLogger("lair.service")


class BotRunner:
    """Schedules and makes bot moves; ``stopping`` hands them to another process instead."""

    def __init__(self, store: Store, moves: Moves, *, delay: float = 0.6,
                 pool: BotPool | None = None):
        self.store = store
        self.moves = moves
        #: Seconds a bot waits before it moves (players see the move happen).
        self.delay = delay
        #: Runs bot decisions off the event loop (hard ones in worker processes).
        self.pool = pool or BotPool()
        #: ``(match id, seat)`` of every bot move scheduled and not yet done: from the moment
        #: it is scheduled until it is committed or given up, so a change that comes meanwhile
        #: never starts a second move for the seat.
        self.pending: set[tuple[str, int]] = set()
        #: Matches a look skipped a prompted seat of because its move was pending: once that
        #: move is done the runner looks again (the seat may be to move again; a bot-only match
        #: must not wait for a change that never comes).
        self.again: set[str] = set()
        #: Bot moves that failed in a row, per match (a busy or locked database): the next try
        #: waits 2**n s, at most a minute, instead of leaving the match waiting for ever.
        self.failures: dict[str, int] = {}
        #: The first of those waits (s); it doubles with each failure in a row.
        self.retry_first = 1.0
        # Graceful shutdown (app.ops.shutdown): no new bot move is started once ``stopping``;
        # ``handoff`` collects the matches whose bot moves another process must make.
        self.stopping = False
        self.handoff: set[str] = set()
        # After the other listeners: the hub has sent the change before a bot acts on it.
        store.subscribe(self.on_change, after=True)

    async def on_change(self, match_id: str, change: Change, snap: Snapshot | None) -> None:
        """A committed change: look at the bot seats after a start, a seat change, or a move
        that leaves the match running with a bot at the table. A match that is over (cancelled,
        ended, or finished by this move) drops its hard decisions still waiting for a worker."""
        if isinstance(change, (Cancelled, Finished)) or (
                isinstance(change, Moved) and snap is not None and snap.match.status != "active"):
            self.pool.drop(match_id)
            return
        if isinstance(change, (Started, SeatsChanged)) or (
                isinstance(change, Moved) and snap is not None and snap.match.status == "active"
                and any(info.bot for info in snap.seats)):
            self.schedule(match_id)

    def schedule(self, match_id: str) -> None:
        """Start a task that makes the bot seats now waited for move (through ``submit``)."""
        if self.stopping:  # shutting down: another process takes this match's bots over
            self.handoff.add(match_id)
            return
        spawn(self._run(match_id), f"bots of {match_id}", self.store.tasks)

    def busy(self, match_id: str) -> bool:
        """True while a bot move of the match is pending."""
        return any(pending == match_id for pending, _seat in self.pending)

    def forget(self, match_id: str) -> None:
        """Drop the match's failure streak (its memory is freed)."""
        self.failures.pop(match_id, None)
        self.again.discard(match_id)

    async def _run(self, match_id: str) -> None:
        try:
            snap = await self.store.current(match_id)
        except ServiceError:
            return
        except Exception:  # the database away or its pool starved: look again later
            if not self.failures.get(match_id):  # once per streak, not at every retry
                log.warning("bots of match %s wait for the database", match_id, exc_info=True)
            self._retry(match_id)
            return
        m = snap.match
        if m.status != "active":
            return
        prompts = engine_for(m).prompts(m.started_state)
        for info in snap.seats:
            key = (match_id, info.seat)
            if not info.bot or info.seat not in prompts:
                continue
            if key in self.pending:  # its move looks again when it is done
                self.again.add(match_id)
            else:
                self.pending.add(key)
                spawn(self._move(match_id, info), f"bot move in {match_id}", self.store.tasks)

    async def _move(self, match_id: str, info: SeatInfo) -> None:
        key = (match_id, info.seat)
        look_again = retrying = cancelled = False
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.stopping:
                self.handoff.add(match_id)
                return
            snap = await self.store.current(match_id)
            m = snap.match
            engine = engine_for(m)
            if m.status != "active" or info.seat not in engine.prompts(m.started_state):
                return
            # Seeded from the seat's view, never from the match seed (which decides the hidden
            # information): a bot knows only what its seat may know (issue 17).
            rng = Rng(public_seed(engine, m.started_state, info.seat))
            name = info.bot or "easy"
            if levels.canonical(name) not in registry.bots(m.game, m.engine_version):
                name = "easy"  # a bot the game no longer has: still finish the match
            action = await self.pool.decide(engine, name, m.started_state, info.seat, rng,
                                            tag=match_id)
            outcome = await self.moves.submit(match_id, info.seat,
                                              f"bot-{m.version}-{info.seat}", m.version, action,
                                              actor=BOT)
            if outcome.applied:
                ops_events.bot_move(match_id, m.game, info.seat, info.bot or "random",
                                    outcome.version)
            self.failures.pop(match_id, None)
        except asyncio.CancelledError:  # shutting down, or the match is over: no new look
            cancelled = True
            raise
        except ServiceError as exc:
            ops_events.action_rejected(match_id, info.seat, exc.code, bot=True)
            if exc.code == ErrorCode.STALE:  # someone moved first; look again
                look_again = True
            elif exc.code == ErrorCode.BUSY:
                self._retry(match_id)
                retrying = True
        except Exception:
            if not self.failures.get(match_id):  # once per streak, not at every retry
                log.exception("bot move failed in match %s seat %s", match_id, info.seat)
            self._retry(match_id)
            retrying = True
        finally:
            # Only now, the move committed or given up, is the seat free for another move.
            self.pending.discard(key)
            if match_id in self.again:
                self.again.discard(match_id)
                look_again = True
            # a retry looks again itself, after its back-off
            if look_again and not retrying and not cancelled:
                self.schedule(match_id)

    def _retry(self, match_id: str) -> None:
        """Look at the match's bots again after a failed move, later each time it fails."""
        n = self.failures[match_id] = self.failures.get(match_id, 0) + 1
        if not self.stopping:
            asyncio.get_running_loop().call_later(
                min(60.0, self.retry_first * 2.0 ** (n - 1)), self._retry_scheduled, match_id)

    def _retry_scheduled(self, match_id: str) -> None:
        if not self.stopping:
            self.schedule(match_id)

    async def resume(self) -> int:
        """At start-up: schedule bots of every active match. Returns how many were looked at."""
        async with self.store.sm() as s:
            ids = (await s.execute(select(Match.id).where(Match.status == "active"))
                   ).scalars().all()
        for match_id in ids:
            self.schedule(match_id)
        return len(ids)
