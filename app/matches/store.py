"""Where the service keeps matches: the database sessions, one lock per match, this process's
cache of each match's latest committed snapshot, the recent prompts a late action is judged
by, and the bus that tells listeners about every committed change.

Everything here is game-agnostic and holds no rule. The cache is used only when the database
says its version (and status) is still current, so another process's commit is never missed.
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from datetime import datetime, timezone
from typing import Any, Callable

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.matches import access
from app.matches.changes import Bus, Change, Listener, keeps_snapshot
from app.matches.snapshot import HintUse, SeatInfo, Snapshot
from app.models import ActionRow, HintUseRow, Match, Seat, SeatGrant, User, utcnow

log = logging.getLogger("lair.service")

def aware(at: datetime) -> datetime:
    """A stored time as UTC-aware (SQLite gives it back without its zone)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=timezone.utc)


class Store:
    """Sessions, locks, the snapshot cache and the change bus of one process."""

    def __init__(self, sessionmaker: async_sessionmaker):
        self.sm = sessionmaker
        #: The engine behind the sessions: the move path uses its pool directly (PostgreSQL:
        #: the asyncpg driver; SQLite: SQLAlchemy Core), not an ORM session.
        self.db = sessionmaker.kw["bind"]
        self.pg = self.db.dialect.name == "postgresql"
        #: Set on PostgreSQL (``app.realtime.fanout.PgFanout``): tells the other processes
        #: about every committed change. ``notifier.notice(match_id, change)`` gives
        #: ``(channel, payload)`` for a NOTIFY inside a move's own transaction; ``await
        #: notifier.publish(match_id, change)`` announces the other changes after their commit.
        self.notifier: Any = None
        #: The clock of every pace rule (tests inject a fake one instead of sleeping).
        self.now: Callable[[], Any] = utcnow
        #: One lock per match: its operations in this process take turns.
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: The listeners told after every committed change (app.matches.changes).
        self.changes = Bus()
        #: Listeners told after the others and the other processes (``subscribe(after=True)``).
        self.followers = Bus()
        #: Background work of the service (bot moves, webhook calls): drained at shutdown.
        self.tasks: set[asyncio.Task] = set()
        # The latest committed snapshot of each match this process has touched.
        self.snaps: dict[str, Snapshot] = {}
        # Recent versions' prompts per match: lets a late action in a simultaneous frame be
        # recognised as built on the same prompt (docs: "Sequencing").
        self.prompts_at: dict[str, dict[int, dict]] = defaultdict(dict)
        #: match id -> {version: the seat whose move made it}, beside ``prompts_at``.
        self.movers: dict[str, dict[int, int]] = defaultdict(dict)

    def ts(self) -> float:
        """``now`` in epoch seconds (the unit of the pace rules)."""
        return self.now().timestamp()

    # ----- the change bus ----------------------------------------------------------------------
    def subscribe(self, listener: Listener, *, after: bool = False) -> None:
        """Call ``listener(match_id, change, snap)`` after every committed change; with
        ``after``, once every other listener and the other processes were told (the bot
        runner: a bot acts on what every viewer has been sent)."""
        (self.followers if after else self.changes).subscribe(listener)

    async def changed(self, match_id: str, change: Change, snap: Snapshot | None = None,
                      *, notified: bool = False) -> None:
        """Tell the listeners, then (unless the commit itself carried the NOTIFY: ``notified``)
        the other processes, then the followers (``subscribe(after=True)``)."""
        if not keeps_snapshot(change):
            self.snaps.pop(match_id, None)  # seats or status changed: reload when needed
        await self.changes.emit(match_id, change, snap)
        if self.notifier is not None and not notified:
            try:
                await self.notifier.publish(match_id, change)
            except Exception:
                log.exception("fan-out failed for match %s", match_id)
        await self.followers.emit(match_id, change, snap)

    # ----- per-match memory (app.matches.idle frees it once a match is idle) ------------------
    def remember_prompts(self, match_id: str, version: int, prompts: dict,
                         mover: int | None = None) -> None:
        """Keep the prompts at ``version`` (and the seat whose move made it) for the 64
        latest versions: late actions in simultaneous frames are judged with them."""
        recent = self.prompts_at[match_id]
        recent[version] = prompts
        movers = self.movers[match_id]
        if mover is not None:
            movers[version] = mover
        for old in [v for v in recent if v < version - 64]:
            del recent[old]
            movers.pop(old, None)

    def forget(self, match_id: str) -> None:
        """Drop the cached snapshot (another process changed seats or status, which does not
        bump the version the cache is checked against)."""
        self.snaps.pop(match_id, None)

    def remembered(self) -> set[str]:
        """The matches this process keeps something in memory for: a snapshot, a lock, recent
        prompts."""
        return set(self.snaps) | set(self.locks) | set(self.prompts_at) | set(self.movers)

    def footprint(self, match_id: str) -> tuple:
        """What changes when the match changes here: ``(cached version, cached status, latest
        remembered prompt version)`` (None for what is not kept)."""
        snap, prompts = self.snaps.get(match_id), self.prompts_at.get(match_id)
        return (snap.match.version if snap else None, snap.match.status if snap else None,
                max(prompts) if prompts else None)

    def in_use(self, match_id: str) -> bool:
        """True while the match's lock is held or awaited."""
        lock = self.locks.get(match_id)
        return lock is not None and bool(lock.locked() or getattr(lock, "_waiters", None))

    def drop(self, match_id: str) -> None:
        """Free what this process keeps in memory for the match (it reloads when needed)."""
        for kept in (self.snaps, self.locks, self.prompts_at, self.movers):
            kept.pop(match_id, None)

    # ----- reading -----------------------------------------------------------------------------
    async def snapshot(self, match_id: str, session: AsyncSession | None = None) -> Snapshot:
        """Load a match and its seats. Raises ``ServiceError('not_found')``."""
        if session is None:
            async with self.sm() as s:
                return await self.snapshot(match_id, s)
        match = (await session.execute(
            select(Match).where(Match.id == match_id).execution_options(populate_existing=True)
        )).scalar_one_or_none()
        if match is None:
            raise access.not_found()
        away = aliased(User)
        rows = (await session.execute(
            select(Seat, User.name, away.name).outerjoin(User, Seat.user_id == User.id)
            .outerjoin(away, Seat.away_user_id == away.id)
            .where(Seat.match_id == match_id).order_by(Seat.seat)
        )).all()
        granted: dict[int, set[str]] = defaultdict(set)
        for n, grantee in (await session.execute(
                select(SeatGrant.seat, SeatGrant.user_id).where(SeatGrant.match_id == match_id)
        )).all():
            granted[n].add(grantee)
        seats = [SeatInfo(seat.seat, seat.user_id, name, seat.bot, seat.away_user_id, away_name,
                          seat.resigned_at, seat.replace_votes, seat.player_id,
                          frozenset(granted.get(seat.seat, ())), seat.away_since)
                 for seat, name, away_name in rows]
        snap = Snapshot(match, seats)
        if match.status in ("active", "finished"):
            used = (await session.execute(
                select(HintUseRow.seat, HintUseRow.version, HintUseRow.created_at,
                       HintUseRow.log_at)
                .where(HintUseRow.match_id == match_id).order_by(HintUseRow.id))).all()
            snap.hint_uses = [HintUse(seat, version, aware(at).isoformat(), log_at)
                              for seat, version, at, log_at in used]
        if match.status == "active":
            for seq, seat, irreversible, undo in (await session.execute(
                    select(ActionRow.seq, ActionRow.seat, ActionRow.irreversible, ActionRow.undo)
                    .where(ActionRow.match_id == match_id).order_by(ActionRow.seq))).all():
                snap.note_move(seat, irreversible, undo, seq)
        elif match.status == "finished":
            snap.log_since = (await session.execute(  # an aggregate: always one row
                select(func.coalesce(func.max(ActionRow.seq), 0))
                .where(ActionRow.match_id == match_id, ActionRow.undo.is_(True)))).scalar_one()
        return snap

    async def load(self, match_id: str, session: AsyncSession) -> Snapshot:
        """:meth:`snapshot`, cached (unless a newer version is cached already)."""
        snap = await self.snapshot(match_id, session)
        cached = self.snaps.get(match_id)
        # A read outside the match's lock (bots, sockets) may finish after a move committed
        # meanwhile: never let it put back an older version than the one cached (an older
        # status at the same version is caught by ``current``'s check).
        if cached is None or cached.match.version <= snap.match.version:
            self.snaps[match_id] = snap
        return snap

    def keep(self, match_id: str, snap: Snapshot) -> None:
        """Cache ``snap`` just after a move committed on it (under the match's lock). A read
        outside the lock (a bot looking, a socket connecting) may meanwhile have cached another
        snapshot of the version this move was built on; left there, the next move would find
        an old version in the cache and take the full path for nothing."""
        cached = self.snaps.get(match_id)
        if cached is not snap and (cached is None
                                   or cached.match.version < snap.match.version):
            self.snaps[match_id] = snap

    async def heads(self, match_ids: list[str]) -> dict[str, tuple[str, int]]:
        """``{match_id: (status, version)}`` as committed, for those of ``match_ids`` that
        exist (one query; app.matches.watch compares them with the cache)."""
        async with self.sm() as s:
            rows = (await s.execute(select(Match.id, Match.status, Match.version)
                                    .where(Match.id.in_(match_ids)))).all()
        return {r.id: (r.status, r.version) for r in rows}

    def cached(self, match_id: str) -> Snapshot | None:
        """This process's latest snapshot of the match, if it has one (no database access)."""
        return self.snaps.get(match_id)

    async def current(self, match_id: str) -> Snapshot:
        """The match as last committed: this process's cached snapshot when its version and
        status are still the database's, else a fresh load. Raises
        ``ServiceError('not_found')``.

        The status too: starting a match keeps version 0, and a read that began before the
        start could put the open match back in the cache after the start dropped it — its bots
        then never moved (a bot-only match stood still)."""
        async with self.sm() as s:
            row = (await s.execute(select(Match.version, Match.status)
                                   .where(Match.id == match_id))).first()
            snap = self.snaps.get(match_id)
            if snap is not None and row is not None and \
                    (snap.match.version, snap.match.status) == (row.version, row.status):
                return snap
            return await self.load(match_id, s)

    async def actions(self, match_id: str, upto: int | None = None) -> list[ActionRow]:
        """The action log (ordered by seq), optionally only rows with ``seq <= upto``."""
        async with self.sm() as s:
            q = select(ActionRow).where(ActionRow.match_id == match_id)
            if upto is not None:
                q = q.where(ActionRow.seq <= upto)
            return list((await s.execute(q.order_by(ActionRow.seq))).scalars().all())

    # ----- writing helpers ----------------------------------------------------------------------
    async def lock_match(self, s: AsyncSession, match_id: str) -> None:
        """Take the match's row lock for the rest of ``s``'s transaction (PostgreSQL: ``SELECT
        ... FOR UPDATE``): the seat changes and the start of one match, in any process, take
        turns, so each reads the seats and status as the previous one committed them (a player
        leaving while the host starts cannot leave an empty seat in a running match). SQLite
        serves one process, where the per-match ``asyncio.Lock`` does this. The conditional
        updates and the unique seat index (``uq_seats_match_user``) hold even without it."""
        if self.pg:
            await s.execute(select(Match.id).where(Match.id == match_id).with_for_update())

    @staticmethod
    async def touch(s: AsyncSession, match_id: str) -> None:
        """Mark the match as changed now (``updated_at``) in ``s``'s transaction."""
        await s.execute(update(Match).where(Match.id == match_id).values(updated_at=utcnow()))
