"""The path of every move (docs: "One picture", "Sequencing"): per-match lock -> the match as
last committed -> :func:`decide` (seat, version, legality, ``engine.apply``) -> one transaction
(``app.matches.commit``) -> COMMIT -> the change listeners are told (the websocket hub, the
bot runner, the other processes). Nothing is sent for a move that is not durable. The service
knows no game: it talks to engines only through the contract in ``engines/base.py``.

Two ways to one decision: the common move is built on this process's cached snapshot and
commits in one round trip (:meth:`Moves.submit_cached`); anything it cannot settle from memory
(no cache, an old version, an undo, a reused action id, a clock to charge) takes the full path
(:meth:`Moves.submit_loaded`), which reads the database. Both judge with the same
:func:`decide`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncSession

from app.matches import access, changes, commit
from app.matches.commit import BOT
from app.matches.errors import ErrorCode, ServiceError, busy
from app.matches.pace import clocks
from app.matches.snapshot import Outcome, Snapshot, engine_for
from app.matches.store import Store
from app.models import ActionRow, Match, utcnow
from app.telemetry import events as ops_events
from engines.base import Engine, IllegalAction
from engines.records import UNDO

__all__ = ["BOT", "Decision", "Moves", "decide", "require_actor"]

#: ``late_ok(engine, match)``: whether an action built on an older version still stands.
LateCheck = Callable[[Engine, Match], Awaitable[bool]]


@dataclass
class Decision:
    """An action judged legal: the engine, the state it was built on, the state after it, its
    events and the final result (None while the match goes on)."""

    engine: Engine
    state: dict
    new_state: dict
    events: list[dict]
    result: dict | None


def require_actor(snap: Snapshot, seat: int, actor: str | None) -> None:
    """Raises ``ServiceError('not_your_seat')`` unless ``actor`` may act for ``seat`` now: a
    user id (``access.may_act``), ``BOT`` (the seat must still be a bot's), or None (trusted
    internal callers)."""
    if actor is None:
        return
    if not 0 <= seat < len(snap.seats):
        raise ServiceError(ErrorCode.NOT_YOUR_SEAT, "No such seat.")
    info = snap.seats[seat]
    if actor == BOT:
        if info.bot is None:
            raise ServiceError(ErrorCode.NOT_YOUR_SEAT, "This seat is played by a person again.")
    elif not access.may_act(snap, seat, actor):
        raise ServiceError(ErrorCode.NOT_YOUR_SEAT, "This seat is not yours (any more): a bot "
                                                    "may play it; take it back from the table "
                                                    "page.")


async def decide(snap: Snapshot, seat: int, version: int, action: Any, actor: str | None,
                 late_ok: LateCheck,
                 undo: Callable[[], Awaitable[tuple[dict, list[dict]]]] | None = None,
                 now: float | None = None) -> Decision:
    """THE judgment of one action from ``seat`` built on ``version``, against ``snap`` (an
    active match as committed): the actor holds the seat, the seat is not out of time at
    ``now`` (epoch s, the service's clock, taken just before the commit; None: not checked),
    the version is current (or ``late_ok`` says the late action still stands: a simultaneous
    frame), and the engine accepts the action (``Engine.apply``: exactly a legal action, JSON
    types included). ``undo()`` gives the state after taking back the seat's latest move
    (``action`` is ``UNDO``). Nothing is written.

    Raises ``ServiceError``: ``not_your_seat`` (not the actor's seat, not its turn, or its
    time ran out: the clock timer hands it to a bot),
    ``stale`` (built on an old version), ``illegal`` (the engine's reason), ``bad_request``
    (rules the site no longer has)."""
    m = snap.match
    require_actor(snap, seat, actor)
    if now is not None and clocks.out_of_time(snap, seat, now):
        # The clocks are those of the version the commit is conditional on: a move from a seat
        # whose deadline passed is refused even if it arrives before the clock timer looks.
        raise ServiceError(ErrorCode.NOT_YOUR_SEAT, "Your time ran out: a bot plays this seat "
                                                    "now; take it back from the table page.")
    engine = engine_for(m)
    state = m.started_state
    if version != m.version and not await late_ok(engine, m):
        raise ServiceError(ErrorCode.STALE, "The table changed before your move arrived; "
                                            "here is the current state.")
    try:
        if action == UNDO and undo is not None:
            new_state, events = await undo()
        else:  # legality is type-exact: 1, 1.0 and true are three actions (engines.base)
            new_state, events = engine.apply(state, seat, action)
    except IllegalAction as exc:
        if action != UNDO and seat not in engine.prompts(state) and \
                not engine.legal_actions(state, seat):
            raise ServiceError(ErrorCode.NOT_YOUR_SEAT, "It is not your turn.") from exc
        raise ServiceError(ErrorCode.ILLEGAL, exc.reason) from exc
    return Decision(engine, state, new_state, events, engine.result(new_state))


#: What a committed move hands back: ``(snapshot as committed, new version, result, events)``.
Moved = tuple[Snapshot, int, "dict | None", "list[dict]"]


class Moves:
    """Submit actions: decide, commit, tell the listeners."""

    def __init__(self, store: Store):
        self.store = store
        #: Awaited before each action is decided (None: nothing): the clock timer's
        #: ``Heartbeats.catch_up``, so that a move after an outage is not charged for it.
        self.before: Callable[[], Awaitable[None]] | None = None

    async def submit(self, match_id: str, seat: int | None, action_id: str, version: int,
                     action: Any, *, actor: str | None = None) -> Outcome:
        """Apply one action from ``seat`` built on ``version``; see docs "Sequencing".

        ``actor`` is who claims the seat: a user id (checked against the seat's owner now, so a
        player whose seat was given to a bot cannot act any more), ``BOT`` for the bot runner
        (the seat must still be a bot's), or None for trusted internal callers.
        Raises ``ServiceError`` with code ``spectator`` (no seat), ``finished``, ``stale``,
        ``illegal`` (with the engine's reason), ``bad_message``, or ``busy`` (no database
        connection free within ``DB_POOL_TIMEOUT``, or the database unreachable: the same
        action may be sent again). A re-sent ``action_id`` is acknowledged as a duplicate and never applied
        twice. The state is unchanged on error.
        """
        if seat is None:
            raise ServiceError(ErrorCode.SPECTATOR, "Spectators watch; they cannot act.")
        started = time.perf_counter()
        try:
            if self.before is not None:
                await self.before()
            return await self._submit(match_id, seat, action_id, version, action, actor,
                                      started)
        except PoolTimeout:  # every pooled connection stayed busy for DB_POOL_TIMEOUT seconds
            raise busy() from None
        except (OSError, DBAPIError) as exc:
            # The database cannot be reached (an outage: the connection refused, or dropped
            # again on the retry). Retryable: a commit that did land is recognised when the
            # same action is sent again.
            if isinstance(exc, DBAPIError) and not exc.connection_invalidated:
                raise
            raise busy() from None

    async def _submit(self, match_id: str, seat: int, action_id: str, version: int,
                      action: Any, actor: str | None, started: float) -> Outcome:
        async with self.store.locks[match_id]:
            moved: Moved | Outcome | None = await self.submit_cached(
                match_id, seat, action_id, version, action, actor)
            for attempt in (1, 2):
                if moved is not None:
                    break
                try:
                    moved = await self.submit_loaded(match_id, seat, action_id, version,
                                                     action, actor)
                except DBAPIError as exc:
                    # PostgreSQL dropped a pooled connection (restart, failover): the pool is
                    # invalidated by now, so one retry runs on a fresh connection. A commit
                    # that did land is then recognised as a duplicate.
                    if attempt == 2 or not exc.connection_invalidated:
                        raise
                    self.store.snaps.pop(match_id, None)
            if isinstance(moved, Outcome):
                return moved
            assert moved is not None  # the full path answers or raises
            snap, new_version, result, events = moved
        m = snap.match
        ops_events.action_applied(match_id, m.game, seat, new_version, started)
        if result is not None:
            ops_events.match_ended(match_id, "finished", new_version)
        # the listeners: the hub sends the new views, the bot runner plays the bot seats
        await self.store.changed(match_id, changes.Moved(), snap, notified=True)
        return Outcome(applied=True, version=new_version, events=events)

    # ----- the common move: from the cache, one round trip ------------------------------------
    def late_ok(self, match_id: str, engine: Engine, m: Match, seat: int, version: int
                ) -> bool:
        """:meth:`still_valid` from memory alone, for the fast path: True only when this
        process knows the seat's prompt at ``version`` was part of a simultaneous frame that
        still stands and that the seat made none of the moves since; False also when it does
        not know (then the full path decides, reading the database)."""
        if not 0 <= version < m.version:
            return False
        old = self.store.prompts_at.get(match_id, {}).get(version)
        if old is None or len(old) < 2:
            return False
        prompts = engine.prompts(m.started_state)
        if seat not in prompts or old.get(seat) != prompts[seat]:
            return False
        movers = self.store.movers.get(match_id, {})
        since = [movers.get(v) for v in range(version + 1, m.version + 1)]
        return None not in since and seat not in since

    async def submit_cached(self, match_id: str, seat: int, action_id: str, version: int,
                            action: Any, actor: str | None) -> Moved | None:
        """The common move, built on the version of this process's cached snapshot: no read,
        one transaction (PostgreSQL: one statement, UPDATE + INSERT + NOTIFY, one round trip;
        SQLite: UPDATE then INSERT with SQLAlchemy Core), no ORM session.

        The ``UPDATE ... WHERE version = v AND status = 'active'`` matching no row means the
        cache is old (another process moved, or ended the match). Then, and for anything else
        this path does not decide (no cache, another version, an undo, a refused or reused
        action id, a dropped connection), it returns None with nothing written, and
        :meth:`submit_loaded` decides and answers exactly as it always did."""
        store = self.store
        snap = store.snaps.get(match_id)
        if snap is None or action == UNDO:
            return None
        m = snap.match
        if m.status != "active" or m.state is None:
            return None

        # a late action of a simultaneous frame (others moved meanwhile) is common in
        # simultaneous phases: judged here from memory when this process knows enough
        async def from_memory(engine: Engine, m: Match) -> bool:
            return self.late_ok(match_id, engine, m, seat, version)

        at = store.ts()  # the clocks' time of this move: its deadline check and its charge
        try:
            d = await decide(snap, seat, version, action, actor, from_memory, now=at)
        except ServiceError:
            return None
        engine, state, new_state, events, result = (d.engine, d.state, d.new_state, d.events,
                                                    d.result)
        if clocks.move_values(store, snap, engine, state, new_state, seat, False, result, at):
            return None  # clocks, deadlines or resignations to write: the full path does that
        now = utcnow()
        current = m.version
        irreversible = commit.cannot_take_back(events, actor)
        try:
            if store.pg:
                committed = await commit.commit_move_pg(
                    store, match_id, current, seat, action_id, action, new_state, result, now,
                    irreversible)
            else:
                committed = await commit.commit_move_core(
                    store, match_id, current, seat, action_id, action, new_state, result, now,
                    irreversible)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            committed = False
        if not committed:
            store.snaps.pop(match_id, None)
            return None
        m.state, m.version, m.updated_at = new_state, current + 1, now
        if result is not None:
            m.status, m.result, m.finished_at = "finished", result, now
        snap.note_move(seat, irreversible, False)
        store.keep(match_id, snap)
        if current not in store.prompts_at[match_id]:  # usually remembered by the last move
            store.remember_prompts(match_id, current, engine.prompts(state))
        store.remember_prompts(match_id, current + 1, engine.prompts(new_state), seat)
        return snap, current + 1, result, events

    # ----- the full path: reads the database ----------------------------------------------------
    async def still_valid(self, s: AsyncSession, engine: Engine, m: Match, seat: int, version: int,
                          action: Any) -> bool:
        """A late action is accepted only in a simultaneous frame: the seat's prompt at
        ``version`` had other seats waited for too and equals its prompt now, this seat has not
        acted since, and the action is still legal. Unknown old prompts (another process, a
        restart) mean stale: the client simply retries on the fresh view."""
        if not isinstance(version, int) or version > m.version or version < 0:
            return False
        old = self.store.prompts_at.get(m.id, {}).get(version)
        prompts = engine.prompts(m.started_state)
        if old is None or len(old) < 2 or seat not in prompts or old.get(seat) != prompts[seat]:
            return False
        acted = await s.scalar(select(func.count()).select_from(ActionRow).where(
            ActionRow.match_id == m.id, ActionRow.seat == seat, ActionRow.seq > version))
        return not acted and action in engine.legal_actions(m.started_state, seat)

    async def submit_loaded(self, match_id: str, seat: int, action_id: str, version: int,
                            action: Any, actor: str | None) -> Moved | Outcome:
        """The full move path: reads the match's status and version, reloads the snapshot when
        the cache is old, handles resent actions, simultaneous frames and undo. Returns the
        ``Outcome`` of a duplicate, or ``(snapshot, new version, result, events)``."""
        store = self.store
        async with store.sm() as s:
            row = (await s.execute(select(Match.status, Match.version)
                                   .where(Match.id == match_id))).first()
            if row is None:
                raise ServiceError(ErrorCode.BAD_MESSAGE, "No such match.")
            if row.status in ("finished", "cancelled"):
                raise ServiceError(ErrorCode.FINISHED, "The match is over.")
            if row.status != "active":
                raise ServiceError(ErrorCode.ILLEGAL, "The match has not started yet.")
            # A resent message carries the version it was built on, which is then old.
            if version != row.version and await commit.is_duplicate(s, match_id, seat,
                                                                     action_id):
                return Outcome(applied=False, version=row.version, duplicate=True)
            snap = store.snaps.get(match_id)
            # the status too: a read outside the lock (a socket, the bot runner) that began
            # before the start may have cached the open match at the same version 0
            if snap is None or (snap.match.version, snap.match.status) != (row.version,
                                                                           row.status):
                snap = await store.load(match_id, s)
            m = snap.match

            async def from_log(engine: Engine, m: Match) -> bool:
                return await self.still_valid(s, engine, m, seat, version, action)

            async def take_back() -> tuple[dict, list[dict]]:
                return await commit.undo(s, snap, seat)

            at = store.ts()  # the clocks' time of this move: its deadline check and its charge
            d = await decide(snap, seat, version, action, actor, from_log, take_back, now=at)
            engine, state, new_state, events, result = (d.engine, d.state, d.new_state,
                                                        d.events, d.result)
            now = utcnow()
            current = m.version
            values: dict[str, Any] = {"state": new_state, "version": current + 1,
                                      "updated_at": now}
            if result is not None:
                values.update(status="finished", result=result, finished_at=now)
            values.update(clocks.move_values(store, snap, engine, state, new_state, seat,
                                             action == UNDO, result, at))
            irreversible = commit.cannot_take_back(events, actor)
            duplicate = await commit.commit_move_orm(store, s, match_id, current, seat,
                                                     action_id, action, values, now,
                                                     irreversible)
            if duplicate is not None:
                return duplicate
            for key, value in values.items():  # the cached snapshot follows the commit
                setattr(m, key, value)
            snap.note_move(seat, irreversible, action == UNDO, current + 1)
            store.keep(match_id, snap)
            new_version = current + 1
            store.remember_prompts(match_id, current, engine.prompts(state))
            store.remember_prompts(match_id, new_version, engine.prompts(new_state), seat)
        return snap, new_version, result, events
