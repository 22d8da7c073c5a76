"""A move's SQL: the one transaction that makes a move durable (docs: "One picture").

``UPDATE matches ... WHERE version = <built on>`` then ``INSERT actions``, in one transaction,
with the NOTIFY to the other processes (PostgreSQL) inside it: nothing is announced for a move
that did not commit, and an action id is never applied twice. Three ways to write it:

- :func:`commit_move_pg` — PostgreSQL, the common move: one statement on the asyncpg driver.
- :func:`commit_move_core` — SQLite, the common move: SQLAlchemy Core, no ORM session.
- :func:`commit_move_orm` — the full path (any backend, also clocks and undo), in a session.

Plus what the full path reads: :func:`is_duplicate` and :func:`undo` (the log replayed).
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import asyncpg
from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import json_text, rowcount
from app.matches.changes import Moved
from app.matches.errors import ErrorCode, ServiceError
from app.matches.snapshot import Outcome, Snapshot
from app.models import ActionRow, Match
from engines.base import IllegalAction
from engines.records import UNDO, replay_log

if TYPE_CHECKING:
    from app.matches.store import Store

log = logging.getLogger("lair.service")

# The Core tables of the SQLite move (a mapped class's ``__table__`` is typed as any FROM clause,
# which ``update``/``insert`` do not take).
_MATCHES = Match.metadata.tables[Match.__tablename__]
_ACTIONS = ActionRow.metadata.tables[ActionRow.__tablename__]

#: ``submit(actor=BOT)``: the bot runner acting for a bot seat.
BOT = "\x00bot"

#: A move on PostgreSQL in one statement, sent alone (no BEGIN/COMMIT: a single statement is its
#: own transaction), so one round trip: the UPDATE commits only on the version the move was
#: built on, the INSERT only if the UPDATE matched, and the NOTIFY (delivered by PostgreSQL at
#: COMMIT, never for a move that did not commit) only then. Parameters: $1 state (json text),
#: $2 new version, $3 now, $4 status, $5 result (json text or NULL), $6 finished_at, $7 match
#: id, $8 version built on, $9 seat, $10 action id, $11 action (json text), $12 irreversible
#: [, $13 channel, $14 payload].
_PG_MOVE_SQL = """
WITH u AS (
  UPDATE matches SET state = $1::json, version = $2::integer, updated_at = $3::timestamptz,
         status = $4::varchar, result = $5::json, finished_at = $6::timestamptz
  WHERE id = $7::varchar AND version = $8::integer AND status = 'active'
  RETURNING id
){notify_cte}
INSERT INTO actions (match_id, seq, seat, action_id, action, created_at, irreversible, undo)
SELECT u.id, $2::integer, $9::integer, $10::varchar, $11::json, $3::timestamptz,
       $12::boolean, false
FROM u{notify_join}
"""
_PG_MOVE = _PG_MOVE_SQL.format(notify_cte="", notify_join="")
_PG_MOVE_NOTIFY = _PG_MOVE_SQL.format(
    notify_cte=",\nn AS (SELECT pg_notify($13::text, $14::text) FROM u)",
    notify_join=" CROSS JOIN n")
_PG_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class _Refused(Exception):
    """The cached fast path cannot commit this move; the full path decides (and answers)."""


def cannot_take_back(events: list[dict], actor: str | None) -> bool:
    """The ``actions.irreversible`` flag of a move: an irreversible event (something drawn or
    revealed), or a bot's move: a player takes back only their own moves, not those a bot
    made for their seat (issue 7, undo)."""
    return actor == BOT or any(e.get("irreversible") for e in events)


def move_notify(store: Store, match_id: str) -> dict[str, str] | None:
    """``{"channel", "payload"}`` of the NOTIFY a move's transaction carries, or None."""
    if store.notifier is None or not store.pg:
        return None
    channel, payload = store.notifier.notice(match_id, Moved())
    return {"channel": channel, "payload": payload}


async def commit_move_pg(store: Store, match_id: str, current: int, seat: int, action_id: str,
                         action: Any, state: dict, result: dict | None, now: Any,
                         irreversible: bool) -> bool:
    """Commit a move with ``_PG_MOVE`` on a pooled connection's asyncpg driver (no
    SQLAlchemy statement machinery, no BEGIN/COMMIT round trips). True if committed; False
    if the row is not at ``current`` any more or not active, the action id was used, or
    the connection broke (it is then dropped from the pool). Nothing is written then."""
    args: list[Any] = [json_text(state), current + 1, now,
                       "finished" if result is not None else "active",
                       None if result is None else json_text(result),
                       now if result is not None else None, match_id, current, seat,
                       action_id, json_text(action), irreversible]
    sql = _PG_MOVE
    if store.notifier is not None:
        sql = _PG_MOVE_NOTIFY
        args += store.notifier.notice(match_id, Moved())
    async with store.db.connect() as conn:
        # Checked out already: reading it needs no I/O (no greenlet hop, unlike
        # ``await conn.get_raw_connection()``).
        driver = conn.sync_connection.connection.driver_connection
        try:
            status = await driver.execute(sql, *args)
        except asyncpg.UniqueViolationError:  # a reused action id: the full path decides
            return False
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError,
                asyncpg.InternalClientError) as exc:
            # Mostly a connection the server dropped (restart, failover). The statement is
            # its own transaction: if it committed anyway, the full path finds the action
            # id and answers "duplicate"; it never applies the move twice.
            log.warning("move on match %s: %s; taking the full path", match_id,
                        type(exc).__name__)
            await conn.invalidate()  # the pool must not hand this connection out again
            return False
    return status == "INSERT 0 1"


async def commit_move_core(store: Store, match_id: str, current: int, seat: int,
                           action_id: str, action: Any, state: dict, result: dict | None,
                           now: Any, irreversible: bool) -> bool:
    """Commit a move with SQLAlchemy Core (SQLite): UPDATE, then INSERT, one transaction.
    True if committed; False (nothing written) if the row is not at ``current`` any more
    or not active, or the action id was used."""
    values: dict[str, Any] = {"state": state, "version": current + 1, "updated_at": now}
    if result is not None:
        values.update(status="finished", result=result, finished_at=now)
    try:
        async with store.db.begin() as conn:
            done = await conn.execute(
                update(_MATCHES)
                .where(Match.id == match_id, Match.version == current,
                       Match.status == "active").values(**values))
            if done.rowcount != 1:
                raise _Refused
            await conn.execute(insert(_ACTIONS).values(
                match_id=match_id, seq=current + 1, seat=seat, action_id=action_id,
                action=action, created_at=now, irreversible=irreversible, undo=False))
    except (_Refused, IntegrityError):
        return False
    return True


async def commit_move_orm(store: Store, s: AsyncSession, match_id: str, current: int,
                          seat: int, action_id: str, action: Any, values: dict[str, Any],
                          now: Any, irreversible: bool) -> Outcome | None:
    """The full path's commit in session ``s``: ``values`` onto the match row at version
    ``current``, the action row (``undo`` when ``action`` is ``UNDO``), the NOTIFY, COMMIT.
    Returns None once committed, or the ``Outcome`` of a duplicate (``action_id`` was applied
    before). Raises ``ServiceError('stale')`` when another move was applied first; nothing is
    written then and the cached snapshot is dropped."""
    done = await s.execute(update(Match).where(Match.id == match_id,
                                               Match.version == current)
                           .values(**values)
                           .execution_options(synchronize_session=False))
    if rowcount(done) != 1:
        await s.rollback()
        store.snaps.pop(match_id, None)
        raise ServiceError(ErrorCode.STALE, "Another move was applied first.")
    try:  # the INSERT itself fails on a reused action id at the current version
        await s.execute(insert(ActionRow).values(
            match_id=match_id, seq=current + 1, seat=seat, action_id=action_id,
            action=action, created_at=now, irreversible=irreversible,
            undo=action == UNDO))
        notice = move_notify(store, match_id)
        if notice is not None:  # PostgreSQL delivers it at COMMIT
            await s.execute(_PG_NOTIFY, notice)
        await s.commit()
    except IntegrityError:
        await s.rollback()
        store.snaps.pop(match_id, None)
        async with store.sm() as s2:
            if await is_duplicate(s2, match_id, seat, action_id):
                cur = await s2.scalar(select(Match.version)
                                      .where(Match.id == match_id))
                return Outcome(applied=False, version=cur, duplicate=True)
        raise ServiceError(ErrorCode.STALE, "Another move was applied first.")
    return None


async def is_duplicate(s: AsyncSession, match_id: str, seat: int, action_id: str) -> bool:
    """True if ``seat`` already sent ``action_id`` in this match (a resent message)."""
    return await s.scalar(select(ActionRow.seq).where(
        ActionRow.match_id == match_id, ActionRow.seat == seat,
        ActionRow.action_id == action_id)) is not None


async def undo(s: AsyncSession, snap: Snapshot, seat: int) -> tuple[dict, list[dict]]:
    """The state after ``seat`` takes back its latest move: the whole log is replayed
    with the canonical replay (engines.records), so the result is what any later replay
    of the log gives. Returns ``(state, events)``. Raises ``IllegalAction`` when the undo
    rule forbids it."""
    if not snap.can_undo(seat):
        raise IllegalAction("You can only take back your own latest moves, before anything "
                            "was drawn or revealed and before another player moved.")
    m = snap.match
    rows = (await s.execute(select(ActionRow.seat, ActionRow.action)
                            .where(ActionRow.match_id == m.id).order_by(ActionRow.seq))).all()
    state, _trail = await asyncio.to_thread(
        replay_log, m.game, m.players, m.options, m.seed,
        [(r.seat, r.action) for r in rows] + [(seat, UNDO)], m.engine_version)
    return state, state["log"][-1:]
