"""The game-agnostic match service: lobby operations and the path of every move.

A move (DESIGN.md, "One picture"): per-match lock -> load match -> check seat, action id,
version -> ``engine.apply`` -> one transaction (UPDATE matches ... WHERE version = current, INSERT
actions) -> COMMIT -> listeners (the websocket hub, the bot runner) are told. Nothing is sent for
a move that is not durable. The service knows no game: it talks to engines only through the
contract in ``engines/base.py``.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import asyncpg
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.background import spawn
from app.db import json_text
from app.matches import access, pace
from app.matches.botpool import BotPool
from app.matches.changes import (Bus, Cancelled, Change, ChatPosted, Finished, Listener, Moved,
                                 Notice, Rematch, SeatsChanged, Started, keeps_snapshot)
from app.matches.exact import require_exact
from app.models import (CHAT_CHANNELS, ActionRow, ChatMessage, Match, Seat, SeatGrant, User,
                        utcnow)
from app.telemetry import events as ops_events
from engines import levels, registry
from engines.base import Engine, IllegalAction
from engines.search import public_seed
from engines.records import UNDO, replay_log

log = logging.getLogger("lair.service")


class ServiceError(Exception):
    """A refused request. ``code`` is one of the wire's error codes (DESIGN.md, "The wire");
    ``message`` is safe to show to the requesting client (it never names hidden information)."""

    def __init__(self, code: str, message: str, status: int = 400):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass
class SeatInfo:
    """Public facts about a seat, for views and the waiting room."""

    seat: int
    user_id: str | None
    name: str | None
    bot: str | None
    #: A bot standing in for this player (who left mid-match and may take the seat back).
    away_user_id: str | None = None
    away_name: str | None = None
    #: When the player resigned (a bot plays on), or None.
    resigned_at: Any = None
    #: The other players' votes to hand this seat to a bot (see ``MatchService.vote_replace``).
    votes: dict | None = None
    #: The device (identity) playing the seat now when not its owner (app/matches/access.py).
    player_id: str | None = None
    #: Identities the seat was granted to by its rejoin link (other devices of its player).
    grants: frozenset[str] = frozenset()


def _cannot_take_back(events: list[dict], actor: str | None) -> bool:
    """The ``actions.irreversible`` flag of a move: an irreversible event (something drawn or
    revealed), or a bot's move: a player takes back only their own moves, not those a bot
    made for their seat (issue 7, undo)."""
    return actor == BOT or any(e.get("irreversible") for e in events)


@dataclass
class Snapshot:
    """A match as loaded from the database, with its seats."""

    match: Match
    seats: list[SeatInfo]
    #: The seat that may undo now and how many of its latest moves (see engines.records.UndoTrail).
    undo_seat: int | None = None
    undo_depth: int = 0
    #: The version since which the state's event log only grew (the latest undo's version, 0
    #: if none): a viewer holding the log of any version from here on can be sent just the
    #: events after it (app.realtime.hub, "incremental log").
    log_since: int = 0

    def note_move(self, seat: int, irreversible: bool, undo: bool,
                  version: int | None = None) -> None:
        """Follow the undo rule for one committed log row (same logic as ``UndoTrail``);
        ``version`` is the row's (its ``seq``), which an undo makes ``log_since``."""
        if undo:
            if version is not None:
                self.log_since = max(self.log_since, version)
            self.undo_depth -= 1
            if self.undo_depth <= 0:
                self.undo_seat, self.undo_depth = None, 0
        elif irreversible:
            self.undo_seat, self.undo_depth = None, 0
        elif seat != self.undo_seat:
            self.undo_seat, self.undo_depth = seat, 1
        else:
            self.undo_depth += 1

    def can_undo(self, seat: int | None) -> bool:
        """True if ``seat`` may take back its latest move now."""
        return (seat is not None and seat == self.undo_seat and self.undo_depth > 0
                and self.match.status == "active")

    def seat_of(self, user_id: str | None) -> int | None:
        """The seat ``user_id`` plays now, or None (``app.matches.access.seat_of``)."""
        return access.seat_of(self, user_id)


@dataclass
class Outcome:
    """What became of a submitted action: applied (with the new version) or a duplicate."""

    applied: bool
    version: int
    duplicate: bool = False
    events: list[dict] = field(default_factory=list)


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


def _busy() -> ServiceError:
    return ServiceError("busy", "The server is busy; please try again in a moment.", 503)


def _token() -> str:
    return secrets.token_urlsafe(24)


#: Match id characters: letters and digits (ids appear in URLs and file names).
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def new_match_id() -> str:
    """A new match id: 16 random letters/digits, about 95 bits (issue 12: at least 64, so ids
    cannot be guessed). Older matches keep their 8-character ids."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(16))


class MatchService:
    """Lobby and play operations on matches, safe against concurrent requests and processes."""

    def __init__(self, sessionmaker: async_sessionmaker, *, bot_delay: float = 0.6,
                 bot_pool: BotPool | None = None):
        self.sm = sessionmaker
        #: The engine behind the sessions: the move path uses its pool directly (PostgreSQL:
        #: the asyncpg driver; SQLite: SQLAlchemy Core), not an ORM session.
        self.db = sessionmaker.kw["bind"]
        self._pg = self.db.dialect.name == "postgresql"
        #: Set on PostgreSQL (``app.realtime.fanout.PgFanout``): tells the other processes
        #: about every committed change. ``notifier.notice(match_id, change)`` gives
        #: ``(channel, payload)`` for a NOTIFY inside a move's own transaction; ``await
        #: notifier.publish(match_id, change)`` announces the other changes after their commit.
        self.notifier: Any = None
        self.bot_delay = bot_delay
        #: Runs bot decisions off the event loop (hard ones in worker processes).
        self.bot_pool = bot_pool or BotPool()
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: The listeners told after every committed change (app.matches.changes).
        self.changes = Bus()
        self._bot_pending: set[tuple[str, int]] = set()
        #: Bot moves that failed in a row, per match (a busy or locked database): the next try
        #: waits 2**n s, at most a minute, instead of leaving the match waiting for ever.
        self._bot_failures: dict[str, int] = {}
        #: The first of those waits (s); it doubles with each failure in a row.
        self.bot_retry_first = 1.0
        self._tasks: set[asyncio.Task] = set()
        # Graceful shutdown (app.ops.shutdown): no new bot move is started once ``stopping``;
        # ``handoff`` collects the matches whose bot moves another process must make.
        self.stopping = False
        self.handoff: set[str] = set()
        # Recent versions' prompts per match: lets a late action in a simultaneous frame be
        # recognised as built on the same prompt (DESIGN.md, "Sequencing").
        self._prompts_at: dict[str, dict[int, dict]] = defaultdict(dict)
        #: match id -> {version: the seat whose move made it}, beside ``_prompts_at``.
        self._movers: dict[str, dict[int, int]] = defaultdict(dict)
        # The latest committed snapshot of each match this process has touched. Used only when
        # the database says its version is current, so another process's commit is never missed.
        self._snaps: dict[str, Snapshot] = {}
        #: The clock of every pace rule (tests inject a fake one instead of sleeping).
        self.now: Callable[[], Any] = utcnow

    def _remember_prompts(self, match_id: str, version: int, prompts: dict,
                          mover: int | None = None) -> None:
        """Keep the prompts at ``version`` (and the seat whose move made it) for the 64
        latest versions: late actions in simultaneous frames are judged with them."""
        recent = self._prompts_at[match_id]
        recent[version] = prompts
        movers = self._movers[match_id]
        if mover is not None:
            movers[version] = mover
        for old in [v for v in recent if v < version - 64]:
            del recent[old]
            movers.pop(old, None)

    def _late_ok(self, match_id: str, engine: Engine, m: Match, seat: int, version: int
                 ) -> bool:
        """:meth:`_still_valid` from memory alone, for the fast path: True only when this
        process knows the seat's prompt at ``version`` was part of a simultaneous frame that
        still stands and that the seat made none of the moves since; False also when it does
        not know (then the full path decides, reading the database)."""
        if not 0 <= version < m.version:
            return False
        old = self._prompts_at.get(match_id, {}).get(version)
        if old is None or len(old) < 2:
            return False
        prompts = engine.prompts(m.state)
        if seat not in prompts or old.get(seat) != prompts[seat]:
            return False
        movers = self._movers.get(match_id, {})
        since = [movers.get(v) for v in range(version + 1, m.version + 1)]
        return None not in since and seat not in since

    # ----- listeners -------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(match_id, change, snapshot)`` after every committed change
        (app.matches.changes)."""
        self.changes.subscribe(listener)

    async def _changed(self, match_id: str, change: Change, snap: Snapshot | None = None,
                       *, notified: bool = False) -> None:
        """Tell the listeners, then (unless the commit itself carried the NOTIFY: ``notified``)
        the other processes."""
        if not keeps_snapshot(change):
            self._snaps.pop(match_id, None)  # seats or status changed: reload when needed
        await self.changes.emit(match_id, change, snap)
        if self.notifier is not None and not notified:
            try:
                await self.notifier.publish(match_id, change)
            except Exception:
                log.exception("fan-out failed for match %s", match_id)

    def forget(self, match_id: str) -> None:
        """Drop the cached snapshot (another process changed seats or status, which does not
        bump the version the cache is checked against)."""
        self._snaps.pop(match_id, None)

    # ----- per-match memory (app.matches.idle frees it once a match is idle) ------------------
    def remembered(self) -> set[str]:
        """The matches this process keeps something in memory for: a snapshot, a lock, recent
        prompts."""
        return set(self._snaps) | set(self._locks) | set(self._prompts_at) | set(self._movers)

    def footprint(self, match_id: str) -> tuple:
        """What changes when the match changes here: ``(cached version, cached status, latest
        remembered prompt version)`` (None for what is not kept)."""
        snap, prompts = self._snaps.get(match_id), self._prompts_at.get(match_id)
        return (snap.match.version if snap else None, snap.match.status if snap else None,
                max(prompts) if prompts else None)

    def drop(self, match_id: str) -> bool:
        """Free what this process keeps in memory for the match (all of it reloads from the
        database when needed), unless it is in use: its lock held or awaited, or a bot move
        pending. Returns whether it was freed."""
        lock = self._locks.get(match_id)
        if lock is not None and (lock.locked() or getattr(lock, "_waiters", None)):
            return False
        if any(pending == match_id for pending, _seat in self._bot_pending):
            return False
        for kept in (self._snaps, self._locks, self._prompts_at, self._movers,
                     self._bot_failures):
            kept.pop(match_id, None)
        return True

    # ----- users -----------------------------------------------------------------------------
    async def ensure_user(self, user_id: str, name: str) -> User:
        """Create the guest user ``user_id`` or rename it. Returns the row."""
        async with self.sm() as s:
            user = await s.get(User, user_id)
            if user is None:
                user = User(id=user_id, name=name)
                s.add(user)
            else:
                user.name = name
            await s.commit()
            return user

    async def get_user(self, user_id: str | None) -> User | None:
        """The user row, or None."""
        if not user_id:
            return None
        async with self.sm() as s:
            return await s.get(User, user_id)

    # ----- reading ---------------------------------------------------------------------------
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
                          frozenset(granted.get(seat.seat, ())))
                 for seat, name, away_name in rows]
        snap = Snapshot(match, seats)
        if match.status == "active":
            for seq, seat, irreversible, undo in (await session.execute(
                    select(ActionRow.seq, ActionRow.seat, ActionRow.irreversible, ActionRow.undo)
                    .where(ActionRow.match_id == match_id).order_by(ActionRow.seq))).all():
                snap.note_move(seat, irreversible, undo, seq)
        elif match.status == "finished":
            snap.log_since = await session.scalar(
                select(func.coalesce(func.max(ActionRow.seq), 0))
                .where(ActionRow.match_id == match_id, ActionRow.undo.is_(True)))
        return snap

    async def _load(self, match_id: str, session: AsyncSession) -> Snapshot:
        snap = await self.snapshot(match_id, session)
        cached = self._snaps.get(match_id)
        # A read outside the match's lock (bots, sockets) may finish after a move committed
        # meanwhile: never let it put back an older version than the one cached (an older
        # status at the same version is caught by ``current``'s check).
        if cached is None or cached.match.version <= snap.match.version:
            self._snaps[match_id] = snap
        return snap

    def _keep(self, match_id: str, snap: Snapshot) -> None:
        """Cache ``snap`` just after a move committed on it (under the match's lock). A read
        outside the lock (a bot looking, a socket connecting) may meanwhile have cached another
        snapshot of the version this move was built on; left there, the next move would find
        an old version in the cache and take the full path for nothing."""
        cached = self._snaps.get(match_id)
        if cached is not snap and (cached is None
                                   or cached.match.version < snap.match.version):
            self._snaps[match_id] = snap

    async def heads(self, match_ids: list[str]) -> dict[str, tuple[str, int]]:
        """``{match_id: (status, version)}`` as committed, for those of ``match_ids`` that
        exist (one query; app.matches.watch compares them with the cache)."""
        async with self.sm() as s:
            rows = (await s.execute(select(Match.id, Match.status, Match.version)
                                    .where(Match.id.in_(match_ids)))).all()
        return {r.id: (r.status, r.version) for r in rows}

    def cached(self, match_id: str) -> Snapshot | None:
        """This process's latest snapshot of the match, if it has one (no database access)."""
        return self._snaps.get(match_id)

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
            snap = self._snaps.get(match_id)
            if snap is not None and row is not None and \
                    (snap.match.version, snap.match.status) == (row.version, row.status):
                return snap
            return await self._load(match_id, s)

    async def lobby(self, user_id: str | None) -> dict[str, Any]:
        """``{"open": public open matches, "running": public matches being played (to watch),
        "mine": matches the user hosts or sits in, "your_turn": ids of the user's running
        matches waiting for them, "free_seats": {match id: empty seats}, "hosts": {match id:
        host name}}``; in "mine" the matches waiting for the user come first."""
        async with self.sm() as s:
            open_ = (await s.execute(
                select(Match).where(Match.status == "open", Match.public.is_(True))
                .order_by(Match.created_at.desc()).limit(50))).scalars().all()
            running = (await s.execute(
                select(Match).where(Match.status == "active", Match.public.is_(True))
                .order_by(Match.updated_at.desc()).limit(20))).scalars().all()
            ids = [m.id for m in [*open_, *running]]
            free = dict((await s.execute(
                select(Seat.match_id, func.count()).where(
                    Seat.match_id.in_(ids), Seat.user_id.is_(None), Seat.bot.is_(None))
                .group_by(Seat.match_id))).all()) if ids else {}
            hosts = dict((await s.execute(
                select(Match.id, User.name).join(User, Match.host_id == User.id)
                .where(Match.id.in_(ids)))).all()) if ids else {}
            mine: list[Match] = []
            your_turn: set[str] = set()
            if user_id:
                seats = dict((await s.execute(select(Seat.match_id, Seat.seat).where(
                    (Seat.user_id == user_id) & Seat.player_id.is_(None)
                    | (Seat.player_id == user_id)))).all())
                # seats a bot plays for them, or played on another device, are theirs too
                held = select(SeatGrant.match_id).where(SeatGrant.user_id == user_id).union(
                    select(Seat.match_id).where((Seat.user_id == user_id)
                                                | (Seat.away_user_id == user_id)))
                mine = list((await s.execute(
                    select(Match).where((Match.host_id == user_id) | Match.id.in_(held))
                    .where(Match.status != "cancelled")
                    .order_by(Match.updated_at.desc()).limit(50))).scalars().all())
                for m in mine:
                    if m.status == "active" and m.id in seats and m.game in registry.ENGINES \
                            and seats[m.id] in self._engine(m.game, m.engine_version
                                                            ).prompts(m.state):
                        your_turn.add(m.id)
                mine.sort(key=lambda m: m.id not in your_turn)  # stable: recency kept
            opponents = await self._opponents(s, [m.id for m in mine], user_id)
            return {"open": list(open_), "running": list(running), "mine": mine,
                    "your_turn": your_turn, "free_seats": free, "hosts": hosts,
                    "opponents": opponents}

    @staticmethod
    async def _opponents(s: AsyncSession, match_ids: list[str],
                         user_id: str | None) -> dict[str, list[str]]:
        """``{match id: [the other seats' names in seat order]}``: a player's name (also of one
        a bot stands in for), ``"<kind> bot"`` for a bot seat; empty seats are left out."""
        if not match_ids:
            return {}
        away = aliased(User)
        rows = (await s.execute(
            select(Seat.match_id, Seat.user_id, Seat.away_user_id, Seat.bot, User.name, away.name,
                   Seat.player_id)
            .outerjoin(User, Seat.user_id == User.id)
            .outerjoin(away, Seat.away_user_id == away.id)
            .where(Seat.match_id.in_(match_ids)).order_by(Seat.match_id, Seat.seat))).all()
        out: dict[str, list[str]] = {}
        for match_id, uid, away_id, bot, name, away_name, player_id in rows:
            if user_id is not None and user_id in (uid, away_id, player_id):  # own seat
                continue
            label = name if uid else away_name if away_id else f"{bot} bot" if bot else None
            if label:
                out.setdefault(match_id, []).append(label)
        return out

    async def by_token(self, kind: str, token: str) -> Match:
        """The match whose ``invite``/``watch`` token is ``token`` (checked again in constant
        time). Raises ``not_found`` ("This link is not valid (any more).")."""
        column = {"invite": Match.invite_token, "watch": Match.watch_token}[kind]
        async with self.sm() as s:
            match = (await s.execute(select(Match).where(column == token))).scalar_one_or_none()
        if match is None or not access.same_token(token, getattr(match, f"{kind}_token")):
            raise ServiceError("not_found", "This link is not valid (any more).", 404)
        return match

    async def seat_by_rejoin(self, token: str) -> Seat:
        """The seat whose current rejoin link has ``token`` (looked up by its SHA-256, checked
        again in constant time), in a match not cancelled, with an owner. Raises
        ``not_found`` ("This rejoin link is not valid (any more).")."""
        digest = access.token_hash(token)
        async with self.sm() as s:
            row = (await s.execute(select(Seat, Match.status).join(Match, Match.id == Seat.match_id)
                                   .where(Seat.rejoin_hash == digest))).first()
        if (row is None or not access.same_token(digest, row[0].rejoin_hash)
                or (row[0].user_id or row[0].away_user_id) is None or row[1] == "cancelled"):
            raise ServiceError("not_found", "This rejoin link is not valid (any more).", 404)
        return row[0]

    async def make_rejoin_link(self, match_id: str, user_id: str) -> str:
        """A new rejoin link token for the seat ``user_id`` owns in the match (shown to them
        once; only its hash is stored). It replaces the seat's previous link, and the devices
        that took the seat with an earlier link lose it (this device plays the seat). Raises
        ``ServiceError('not_your_seat')`` when the user owns no seat (a device that was granted
        a seat cannot make links)."""
        token = _token()
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                mine = next((i for i in snap.seats if access.owner(i) == user_id), None)
                if mine is None or snap.match.status == "cancelled":
                    raise ServiceError("not_your_seat", "Only a seat's own player can make its "
                                                        "link for another device.", 403)
                await self._drop_grants(s, match_id, mine.seat)
                await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                   Seat.seat == mine.seat)
                                .values(rejoin_hash=access.token_hash(token)))
                await s.commit()
        if mine.grants or mine.player_id:
            await self._changed(match_id, SeatsChanged())  # the other devices' tables reload
        return token

    async def grant_seat(self, token: str, user_id: str) -> str:
        """Redeem a rejoin link for the identity ``user_id`` (this browser): it may play that
        seat of that match from now on, and plays it now (the last device to take a seat plays
        it; the others show "Continued on another device"). Its owner redeeming their own
        link just takes the seat here. Returns the match id. Raises ``not_found`` for a link
        that is not (any more) valid, ``bad_request`` when the identity has another seat in
        the match (one identity plays one seat)."""
        seat = await self.seat_by_rejoin(token)
        match_id = seat.match_id
        async with self._locks[match_id]:
            async with self.sm() as s:
                again = await self.seat_by_rejoin(token)  # not replaced meanwhile
                if (again.match_id, again.seat) != (match_id, seat.seat):
                    raise ServiceError("not_found", "This rejoin link is not valid (any more).",
                                       404)
                snap = await self.snapshot(match_id, s)
                info = snap.seats[seat.seat]
                if any(access.holds(i, user_id) for i in snap.seats if i.seat != seat.seat):
                    # one identity, one seat: otherwise which one would it play?
                    raise ServiceError("bad_request", "You have another seat in this match: "
                                                      "open this link on another device.")
                if access.owner(info) != user_id and user_id not in info.grants:
                    s.add(SeatGrant(match_id=match_id, seat=seat.seat, user_id=user_id))
                    await s.flush()
                await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                   Seat.seat == seat.seat)
                                .values(player_id=None if access.owner(info) == user_id
                                        else user_id))
                await s.commit()
        await self._changed(match_id, SeatsChanged())
        return match_id

    async def take_seat_here(self, match_id: str, user_id: str) -> int:
        """"Play here": a holder of a seat that another of the player's devices plays takes
        it (app/matches/access.py). Returns the seat. Raises ``ServiceError('bad_request')``
        when no such seat waits for this identity."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                seat = access.elsewhere(snap, user_id)
                if seat is None or snap.match.status in ("finished", "cancelled"):
                    raise ServiceError("bad_request", "No seat of yours is played on another "
                                                      "device.")
                info = snap.seats[seat]
                await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                                .values(player_id=None if info.user_id == user_id
                                        else user_id))
                await s.commit()
        await self._changed(match_id, SeatsChanged())
        return seat

    async def replace_link(self, match_id: str, host_id: str, kind: str) -> str:
        """Host only: a new ``invite`` or ``watch`` (spectator) link; the old one stops
        working. Returns the new token. Raises ``ServiceError`` (``forbidden``,
        ``bad_request``)."""
        if kind not in ("invite", "watch"):
            raise ServiceError("bad_request", "Unknown link.")
        token = _token()
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(**{f"{kind}_token": token}, updated_at=utcnow()))
                await s.commit()
        self.forget(match_id)
        await self._changed(match_id, SeatsChanged())
        return token

    @classmethod
    async def _empty_seat(cls, s: AsyncSession, match_id: str, seat: int,
                          user_id: str | None = None) -> None:
        """No one sits in ``seat`` any more: its owner, link and other devices are gone. With
        ``user_id``: only if that user still sits there (otherwise nothing changes)."""
        where = [Seat.match_id == match_id, Seat.seat == seat]
        if user_id is not None:
            where.append(Seat.user_id == user_id)
        done = await s.execute(update(Seat).where(*where)
                               .values(user_id=None, rejoin_hash=None)
                               .execution_options(synchronize_session=False))
        if done.rowcount:
            await cls._drop_grants(s, match_id, seat)

    @staticmethod
    async def _drop_grants(s: AsyncSession, match_id: str, seat: int) -> None:
        """Forget every other device of a seat (its grants and who plays it); the caller sets
        the seat's link."""
        await s.execute(delete(SeatGrant).where(SeatGrant.match_id == match_id,
                                                SeatGrant.seat == seat))
        await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                        .values(player_id=None))

    async def actions(self, match_id: str, upto: int | None = None) -> list[ActionRow]:
        """The action log (ordered by seq), optionally only rows with ``seq <= upto``."""
        async with self.sm() as s:
            q = select(ActionRow).where(ActionRow.match_id == match_id)
            if upto is not None:
                q = q.where(ActionRow.seq <= upto)
            return list((await s.execute(q.order_by(ActionRow.seq))).scalars().all())

    async def chat_history(self, match_id: str, limit: int = 100,
                           channels: tuple[str, ...] | None = None) -> list[ChatMessage]:
        """The latest chat lines (of ``channels`` only, if given), oldest first."""
        q = select(ChatMessage).where(ChatMessage.match_id == match_id)
        if channels is not None:
            q = q.where(ChatMessage.channel.in_(channels))
        async with self.sm() as s:
            rows = (await s.execute(q.order_by(ChatMessage.id.desc()).limit(limit))
                    ).scalars().all()
        return list(reversed(rows))

    # ----- lobby operations -------------------------------------------------------------------
    async def create_match(self, host_id: str, game: str, players: int, options: dict | None,
                           public: bool, seed: int | None = None, host_seat: int | None = 0,
                           rematch_of: str | None = None,
                           prepare: Callable[[AsyncSession, Match], Awaitable[None]] | None = None
                           ) -> Match:
        """Create an open match; the host takes ``host_seat`` (None: host only watches).
        ``rematch_of``: the finished match this is the rematch of; ``prepare(session, match)``
        runs in the same transaction before the commit (the rematch seats its players).

        Raises ``ServiceError('bad_request')`` for an unknown game, a bad player count or
        invalid options (the pydantic message is passed on); ``IntegrityError`` when
        ``rematch_of`` already has a rematch (nothing is created).
        """
        engine = self._engine(game)
        if not engine.min_players <= players <= engine.max_players:
            raise ServiceError("bad_request", f"{engine.title} is for {engine.min_players}–"
                                              f"{engine.max_players} players.")
        try:
            opts = engine.parse_options(players, options).model_dump(mode="json")
            engine.setup(players, opts, 0)  # options that only fail for this player count
        except Exception as exc:  # noqa: BLE001 - any refusal of the engine is the host's input
            message = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
            raise ServiceError("bad_request", f"Invalid options: {message}") from exc
        match = Match(id=new_match_id(),
                      game=game, engine_version=engine.version, options=opts,
                      seed=seed if seed is not None else secrets.randbits(62), players=players,
                      status="open", version=0, state=None, host_id=host_id, public=public,
                      invite_token=_token(), watch_token=_token(), rematch_of=rematch_of)
        async with self.sm() as s:
            s.add(match)
            await s.flush()
            for n in range(players):
                s.add(Seat(match_id=match.id, seat=n))
            await s.flush()
            if host_seat is not None:
                await s.execute(update(Seat).where(Seat.match_id == match.id,
                                                   Seat.seat == host_seat)
                                .values(user_id=host_id))
            if prepare is not None:
                await prepare(s, match)
            await s.commit()
        return match

    async def _lock_match(self, s: AsyncSession, match_id: str) -> None:
        """Take the match's row lock for the rest of ``s``'s transaction (PostgreSQL: ``SELECT
        ... FOR UPDATE``): the seat changes and the start of one match, in any process, take
        turns, so each reads the seats and status as the previous one committed them (a player
        leaving while the host starts cannot leave an empty seat in a running match). SQLite
        serves one process, where the per-match ``asyncio.Lock`` does this. The conditional
        updates and the unique seat index (``uq_seats_match_user``) hold even without it."""
        if self._pg:
            await s.execute(select(Match.id).where(Match.id == match_id).with_for_update())

    @staticmethod
    def _seat_taken(seat: int) -> ServiceError:
        """The loser of a race for ``seat`` (the waiting room shows the same words)."""
        return ServiceError("seat_taken", f"Seat {seat + 1} was taken by someone else a "
                                          "moment ago.", 409)

    async def take_seat(self, match_id: str, user_id: str, seat: int) -> None:
        """Sit ``user_id`` in an empty seat of an open match (moving from their old seat).

        Atomic across processes (issue 13, item 6): the seat is taken only by ``UPDATE ...
        WHERE user_id IS NULL AND bot IS NULL`` and a user holds one seat per match (a unique
        index), so of two users racing for a seat exactly one sits and the other gets
        ``ServiceError('seat_taken')`` (409, "Seat N was taken by someone else a moment
        ago."). Raises ``bad_request`` for a started match, an unknown seat, or a user who
        plays another player's seat here."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                await self._lock_match(s, match_id)
                snap = await self.snapshot(match_id, s)
                self._require_open(snap)
                target = self._seat(snap, seat)
                if target.user_id == user_id:
                    return
                if target.user_id is not None or target.bot is not None:
                    raise self._seat_taken(seat)
                if any(user_id in i.grants for i in snap.seats):
                    raise ServiceError("bad_request", "You play another player's seat in this "
                                                      "match on this device.")
                for old in snap.seats:
                    if old.user_id == user_id:
                        await self._empty_seat(s, match_id, old.seat, user_id)
                try:
                    done = await s.execute(
                        update(Seat).where(Seat.match_id == match_id, Seat.seat == seat,
                                           Seat.user_id.is_(None), Seat.bot.is_(None))
                        .values(user_id=user_id).execution_options(synchronize_session=False))
                except IntegrityError:  # the user sat down elsewhere meanwhile (one seat each)
                    await s.rollback()
                    raise ServiceError("stale", "You took another seat meanwhile; reload the "
                                                "page.", 409) from None
                if done.rowcount != 1:
                    await s.rollback()
                    raise self._seat_taken(seat)
                await self._touch(s, match_id)
                await s.commit()
        await self._changed(match_id, SeatsChanged())

    async def leave_seat(self, match_id: str, user_id: str) -> None:
        """The seat's owner leaves it before the start; its link and other devices go with
        it (a device it was granted to plays the seat, but cannot give it away). Raises
        ``ServiceError('bad_request')`` once the match has started."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                await self._lock_match(s, match_id)
                snap = await self.snapshot(match_id, s)
                self._require_open(snap)
                for info in snap.seats:
                    if info.user_id == user_id:
                        await self._empty_seat(s, match_id, info.seat, user_id)
                await self._touch(s, match_id)
                await s.commit()
        await self._changed(match_id, SeatsChanged())

    async def set_seat(self, match_id: str, host_id: str, seat: int, bot: str | None) -> None:
        """Host only, before the start: put a bot (``bot`` = kind) in a seat, or empty it
        (``bot=None``, which also removes a seated player)."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                await self._lock_match(s, match_id)
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                self._require_open(snap)
                self._seat(snap, seat)
                if bot is not None and levels.canonical(bot) not in registry.bots(snap.match.game):
                    raise ServiceError("bad_request", "Unknown bot.")
                await self._empty_seat(s, match_id, seat)
                await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                                .values(bot=bot))
                await self._touch(s, match_id)
                await s.commit()
        await self._changed(match_id, SeatsChanged())

    async def fill_with_bots(self, match_id: str, host_id: str, bot: str = "random") -> None:
        """Host only, before the start: every seat still empty gets a bot of kind ``bot`` (a
        player who sat down meanwhile, in any process, keeps their seat: the update is
        conditional). Raises ``ServiceError`` (``forbidden``, ``bad_request``)."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                await self._lock_match(s, match_id)
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                self._require_open(snap)
                if levels.canonical(bot) not in registry.bots(snap.match.game):
                    raise ServiceError("bad_request", "Unknown bot.")
                await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                   Seat.user_id.is_(None), Seat.bot.is_(None))
                                .values(bot=bot).execution_options(synchronize_session=False))
                await self._touch(s, match_id)
                await s.commit()
        await self._changed(match_id, SeatsChanged())

    async def cancel(self, match_id: str, host_id: str) -> None:
        """Host only: cancel a match that is not finished."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                if snap.match.status in ("finished", "cancelled"):
                    raise ServiceError("finished", "The match is already over.")
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(status="cancelled", updated_at=utcnow()))
                await s.commit()
        ops_events.match_ended(match_id, "cancelled")
        await self._changed(match_id, Cancelled())

    async def end(self, match_id: str) -> None:
        """Operator: end a match that is not over (e.g. abandoned). It becomes ``cancelled``
        (its log is kept) and its sockets reload. Raises ``ServiceError`` ``not_found``, or
        ``finished`` when it is already over."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                await self.snapshot(match_id, s)
                done = await s.execute(update(Match).where(
                    Match.id == match_id, Match.status.in_(("open", "active")))
                    .values(status="cancelled", updated_at=utcnow())
                    .execution_options(synchronize_session=False))
                if done.rowcount != 1:
                    raise ServiceError("finished", "The match is already over.")
                await s.commit()
        ops_events.match_ended(match_id, "ended_by_admin")
        await self._changed(match_id, Cancelled())

    async def start(self, match_id: str, host_id: str) -> None:
        """Host only: start when every seat is filled; runs the engine's ``setup``.

        Applied once across processes (issue 13, item 6): ``UPDATE matches ... WHERE status =
        'open'``; the start that loses a race (a double click reaching two processes) gets
        ``ServiceError('already_started')`` (409). Raises ``forbidden`` for a guest,
        ``bad_request`` for an empty seat or a match that is over."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                await self._lock_match(s, match_id)
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                if snap.match.status == "active":
                    raise self._already_started()
                self._require_open(snap)
                if any(i.user_id is None and i.bot is None for i in snap.seats):
                    raise ServiceError("bad_request", "Every seat must be taken (or given to a "
                                                      "bot) before the start.")
                m = snap.match
                # A match starts on the live rules, even if it was opened before a version
                # bump; from then on it finishes under the rules it started with.
                engine = self._engine(m.game)
                try:
                    options = engine.parse_options(m.players, m.options).model_dump(mode="json")
                    state = engine.setup(m.players, options, m.seed)
                except Exception:  # noqa: BLE001 - options the new rules refuse: keep the old
                    engine, options = self._engine(m.game, m.engine_version), m.options
                    state = engine.setup(m.players, options, m.seed)
                done = await s.execute(
                    update(Match).where(Match.id == match_id, Match.status == "open")
                    .values(status="active", state=state, version=0,
                            engine_version=engine.version, options=options,
                            updated_at=utcnow(), **self._pace_start(snap, engine, state))
                    .execution_options(synchronize_session=False))
                if done.rowcount != 1:
                    await s.rollback()
                    raise self._already_started()
                await s.commit()
                self._remember_prompts(match_id, 0, engine.prompts(state))
        ops_events.match_started(match_id, m.game, m.players)
        await self._changed(match_id, Started())
        self.schedule_bots(match_id)

    # ----- play ------------------------------------------------------------------------------
    async def submit(self, match_id: str, seat: int | None, action_id: str, version: int,
                     action: Any, *, actor: str | None = None) -> Outcome:
        """Apply one action from ``seat`` built on ``version``; see DESIGN.md "Sequencing".

        ``actor`` is who claims the seat: a user id (checked against the seat's owner now, so a
        player whose seat was given to a bot cannot act any more), ``BOT`` for the bot runner
        (the seat must still be a bot's), or None for trusted internal callers.
        Raises ``ServiceError`` with code ``spectator`` (no seat), ``finished``, ``stale``,
        ``illegal`` (with the engine's reason), ``bad_message``, or ``busy`` (no database
        connection free within ``DB_POOL_TIMEOUT``: nothing was done, the same action may be
        sent again). A re-sent ``action_id`` is acknowledged as a duplicate and never applied
        twice. The state is unchanged on error.
        """
        if seat is None:
            raise ServiceError("spectator", "Spectators watch; they cannot act.")
        started = time.perf_counter()
        try:
            return await self._submit(match_id, seat, action_id, version, action, actor,
                                      started)
        except PoolTimeout:  # every pooled connection stayed busy for DB_POOL_TIMEOUT seconds
            raise _busy() from None

    async def _submit(self, match_id: str, seat: int, action_id: str, version: int,
                      action: Any, actor: str | None, started: float) -> Outcome:
        async with self._locks[match_id]:
            moved = await self._submit_cached(match_id, seat, action_id, version, action, actor)
            for attempt in (1, 2):
                if moved is not None:
                    break
                try:
                    moved = await self._submit_loaded(match_id, seat, action_id, version,
                                                      action, actor)
                except DBAPIError as exc:
                    # PostgreSQL dropped a pooled connection (restart, failover): the pool is
                    # invalidated by now, so one retry runs on a fresh connection. A commit
                    # that did land is then recognised as a duplicate.
                    if attempt == 2 or not exc.connection_invalidated:
                        raise
                    self._snaps.pop(match_id, None)
            if isinstance(moved, Outcome):
                return moved
            snap, new_version, result, events = moved
        m = snap.match
        ops_events.action_applied(match_id, m.game, seat, new_version, started)
        if result is not None:
            ops_events.match_ended(match_id, "finished", new_version)
        await self._changed(match_id, Moved(), snap, notified=True)
        if result is None and any(info.bot for info in snap.seats):
            self.schedule_bots(match_id)
        return Outcome(applied=True, version=new_version, events=events)

    def _move_notify(self, match_id: str) -> dict[str, str] | None:
        """``{"channel", "payload"}`` of the NOTIFY a move's transaction carries, or None."""
        if self.notifier is None or not self._pg:
            return None
        channel, payload = self.notifier.notice(match_id, Moved())
        return {"channel": channel, "payload": payload}

    async def _submit_cached(self, match_id: str, seat: int, action_id: str, version: int,
                             action: Any, actor: str | None
                             ) -> tuple[Snapshot, int, dict | None, list[dict]] | None:
        """The common move, built on the version of this process's cached snapshot: no read,
        one transaction (PostgreSQL: one statement, UPDATE + INSERT + NOTIFY, one round trip;
        SQLite: UPDATE then INSERT with SQLAlchemy Core), no ORM session.

        The ``UPDATE ... WHERE version = v AND status = 'active'`` matching no row means the
        cache is old (another process moved, or ended the match). Then, and for anything else
        this path does not decide (no cache, another version, an undo, a refused or reused
        action id, a dropped connection), it returns None with nothing written, and
        :meth:`_submit_loaded` decides and answers exactly as it always did.
        Returns ``(snapshot as committed, new version, result, events)``."""
        snap = self._snaps.get(match_id)
        if snap is None or action == UNDO:
            return None
        m = snap.match
        if m.status != "active" or m.state is None:
            return None
        try:
            self._require_actor(snap, seat, actor)
            engine = self._engine(m.game, m.engine_version)
            state = m.state
            # a late action of a simultaneous frame (others moved meanwhile) is common in
            # simultaneous phases: judged here from memory when this process knows enough
            if version != m.version and not self._late_ok(match_id, engine, m, seat, version):
                return None
            require_exact(engine, state, seat, action)
            new_state, events = engine.apply(state, seat, action)
        except (ServiceError, IllegalAction):
            return None
        result = engine.result(new_state)
        if self._pace_values(snap, engine, state, new_state, seat, False, result):
            return None  # clocks, deadlines or resignations to write: the full path does that
        now = utcnow()
        current = m.version
        irreversible = _cannot_take_back(events, actor)
        try:
            if self._pg:
                committed = await self._commit_move_pg(
                    match_id, current, seat, action_id, action, new_state, result, now,
                    irreversible)
            else:
                committed = await self._commit_move_core(
                    match_id, current, seat, action_id, action, new_state, result, now,
                    irreversible)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            committed = False
        if not committed:
            self._snaps.pop(match_id, None)
            return None
        m.state, m.version, m.updated_at = new_state, current + 1, now
        if result is not None:
            m.status, m.result, m.finished_at = "finished", result, now
        snap.note_move(seat, irreversible, False)
        self._keep(match_id, snap)
        if current not in self._prompts_at[match_id]:  # usually remembered by the last move
            self._remember_prompts(match_id, current, engine.prompts(state))
        self._remember_prompts(match_id, current + 1, engine.prompts(new_state), seat)
        return snap, current + 1, result, events

    async def _commit_move_pg(self, match_id: str, current: int, seat: int, action_id: str,
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
        if self.notifier is not None:
            sql = _PG_MOVE_NOTIFY
            args += self.notifier.notice(match_id, Moved())
        async with self.db.connect() as conn:
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

    async def _commit_move_core(self, match_id: str, current: int, seat: int, action_id: str,
                                action: Any, state: dict, result: dict | None, now: Any,
                                irreversible: bool) -> bool:
        """Commit a move with SQLAlchemy Core (SQLite): UPDATE, then INSERT, one transaction.
        True if committed; False (nothing written) if the row is not at ``current`` any more
        or not active, or the action id was used."""
        values: dict[str, Any] = {"state": state, "version": current + 1, "updated_at": now}
        if result is not None:
            values.update(status="finished", result=result, finished_at=now)
        try:
            async with self.db.begin() as conn:
                done = await conn.execute(
                    update(Match.__table__)
                    .where(Match.id == match_id, Match.version == current,
                           Match.status == "active").values(**values))
                if done.rowcount != 1:
                    raise _Refused
                await conn.execute(insert(ActionRow.__table__).values(
                    match_id=match_id, seq=current + 1, seat=seat, action_id=action_id,
                    action=action, created_at=now, irreversible=irreversible, undo=False))
        except (_Refused, IntegrityError):
            return False
        return True

    async def _submit_loaded(self, match_id: str, seat: int, action_id: str, version: int,
                             action: Any, actor: str | None
                             ) -> tuple[Snapshot, int, dict | None, list[dict]] | Outcome:
        """The full move path: reads the match's status and version, reloads the snapshot when
        the cache is old, handles resent actions, simultaneous frames and undo. Returns the
        ``Outcome`` of a duplicate, or ``(snapshot, new version, result, events)``."""
        async with self.sm() as s:
            row = (await s.execute(select(Match.status, Match.version)
                                   .where(Match.id == match_id))).first()
            if row is None:
                raise ServiceError("bad_message", "No such match.")
            if row.status in ("finished", "cancelled"):
                raise ServiceError("finished", "The match is over.")
            if row.status != "active":
                raise ServiceError("illegal", "The match has not started yet.")
            # A resent message carries the version it was built on, which is then old.
            if version != row.version and await self._is_duplicate(s, match_id, seat,
                                                                    action_id):
                return Outcome(applied=False, version=row.version, duplicate=True)
            snap = self._snaps.get(match_id)
            if snap is None or snap.match.version != row.version:
                snap = await self._load(match_id, s)
            m = snap.match
            self._require_actor(snap, seat, actor)
            engine = self._engine(m.game, m.engine_version)
            state = m.state
            if version != m.version and not await self._still_valid(
                    s, engine, m, seat, version, action):
                raise ServiceError("stale", "The table changed before your move arrived; "
                                            "here is the current state.")
            try:
                if action == UNDO:
                    new_state, events = await self._undo(s, snap, seat)
                else:
                    require_exact(engine, state, seat, action)
                    new_state, events = engine.apply(state, seat, action)
            except IllegalAction as exc:
                if action != UNDO and seat not in engine.prompts(state) and \
                        not engine.legal_actions(state, seat):
                    raise ServiceError("not_your_seat", "It is not your turn.") from exc
                raise ServiceError("illegal", exc.reason) from exc
            result = engine.result(new_state)
            now = utcnow()
            current = m.version
            values: dict[str, Any] = {"state": new_state, "version": current + 1,
                                      "updated_at": now}
            if result is not None:
                values.update(status="finished", result=result, finished_at=now)
            values.update(self._pace_values(snap, engine, state, new_state, seat,
                                            action == UNDO, result))
            done = await s.execute(update(Match).where(Match.id == match_id,
                                                       Match.version == current)
                                   .values(**values)
                                   .execution_options(synchronize_session=False))
            if done.rowcount != 1:
                await s.rollback()
                self._snaps.pop(match_id, None)
                raise ServiceError("stale", "Another move was applied first.")
            irreversible = _cannot_take_back(events, actor)
            try:  # the INSERT itself fails on a reused action id at the current version
                await s.execute(insert(ActionRow).values(
                    match_id=match_id, seq=current + 1, seat=seat, action_id=action_id,
                    action=action, created_at=now, irreversible=irreversible,
                    undo=action == UNDO))
                notice = self._move_notify(match_id)
                if notice is not None:  # PostgreSQL delivers it at COMMIT
                    await s.execute(_PG_NOTIFY, notice)
                await s.commit()
            except IntegrityError:
                await s.rollback()
                self._snaps.pop(match_id, None)
                async with self.sm() as s2:
                    if await self._is_duplicate(s2, match_id, seat, action_id):
                        cur = await s2.scalar(select(Match.version)
                                              .where(Match.id == match_id))
                        return Outcome(applied=False, version=cur, duplicate=True)
                raise ServiceError("stale", "Another move was applied first.")
            for key, value in values.items():  # the cached snapshot follows the commit
                setattr(m, key, value)
            snap.note_move(seat, irreversible, action == UNDO, current + 1)
            self._keep(match_id, snap)
            new_version = current + 1
            self._remember_prompts(match_id, current, engine.prompts(state))
            self._remember_prompts(match_id, new_version, engine.prompts(new_state), seat)
        return snap, new_version, result, events

    @staticmethod
    def _require_actor(snap: Snapshot, seat: int, actor: str | None) -> None:
        if actor is None:
            return
        if not 0 <= seat < len(snap.seats):
            raise ServiceError("not_your_seat", "No such seat.")
        info = snap.seats[seat]
        if actor == BOT:
            if info.bot is None:
                raise ServiceError("not_your_seat", "This seat is played by a person again.")
        elif not access.may_act(snap, seat, actor):
            raise ServiceError("not_your_seat", "This seat is not yours (any more): a bot may "
                                                "play it; take it back from the table page.")

    async def replace_with_bot(self, match_id: str, host_id: str, seat: int,
                               bot: str | None = None) -> None:
        """Host only, during the match: a bot plays ``seat`` for a player who left (``bot``; none
        or "": the match's stand-in level); the player can take the seat back with :meth:`reclaim_seat`. Raises ``ServiceError``."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                if snap.match.status != "active":
                    raise ServiceError("bad_request", "Only a running match's seats can be "
                                                      "handed to a bot.")
                info = self._seat(snap, seat)
                if info.user_id is None:
                    raise ServiceError("bad_request", "A bot already plays that seat.")
                bot = bot or self._stand_in(snap.match)
                if levels.canonical(bot) not in registry.bots(snap.match.game,
                                                              snap.match.engine_version):
                    raise ServiceError("bad_request", "Unknown bot.")
                await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                                .values(user_id=None, bot=bot, away_user_id=info.user_id))
                await self._refresh_clock(s, snap, self._humans(snap) - {seat})
                await self._touch(s, match_id)
                await s.commit()
        await self._changed(match_id, SeatsChanged())
        name = info.name or f"Player {seat + 1}"
        await self._notice(match_id, f"The host handed {name}'s seat to a bot; {name} can "
                                     "take it back at any time.")
        self.schedule_bots(match_id)

    async def reclaim_seat(self, match_id: str, user_id: str) -> int:
        """The player a bot stood in for takes the seat back. Returns the seat.
        Raises ``ServiceError('bad_request')`` if no seat waits for this user."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                seat = access.away_seat(snap, user_id)
                if seat is None:
                    raise ServiceError("bad_request", "No seat of yours is played by a bot.")
                mine = [snap.seats[seat]]
                owner = mine[0].away_user_id
                # the owner's seat again; a device it was granted to plays it now
                await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                   Seat.seat == mine[0].seat)
                                .values(user_id=owner, bot=None, away_user_id=None,
                                        player_id=None if user_id == owner else user_id))
                await self._refresh_clock(s, snap, self._humans(snap) | {mine[0].seat},
                                          reseat=mine[0].seat)
                await self._touch(s, match_id)
                await s.commit()
        await self._changed(match_id, SeatsChanged())
        name = mine[0].away_name or f"Player {mine[0].seat + 1}"
        await self._notice(match_id, f"{name} took their seat back from the bot.")
        return mine[0].seat

    async def rematch_id(self, match_id: str) -> str | None:
        """The id of ``match_id``'s rematch, None if it has none (yet)."""
        async with self.sm() as s:
            return await s.scalar(select(Match.id).where(Match.rematch_of == match_id))

    async def rematch(self, match_id: str, user_id: str) -> Match:
        """After the end: the match's rematch, a new open match with the same game, options,
        pace and players in the same seats (bots included); everyone at the old table is told.
        Idempotent: once the host made it, any later click (a double-click, another player's,
        another process's) gets the same rematch; only the host makes it (the unique
        ``matches.rematch_of`` decides between concurrent clicks)."""
        existing = await self._rematch(match_id)
        if existing is not None:
            return existing
        snap = await self.snapshot(match_id)
        self._require_host(snap, user_id)
        m = snap.match
        if m.status != "finished":
            raise ServiceError("bad_request", "A rematch is offered once the match is over.")

        async def seat_players(s: AsyncSession, new: Match) -> None:
            await s.execute(update(Match).where(Match.id == new.id)
                            .values(settings=m.settings))  # the same pace and webhook
            for info in snap.seats:
                user = access.owner(info)
                await s.execute(update(Seat).where(Seat.match_id == new.id,
                                                   Seat.seat == info.seat)
                                .values(user_id=user, bot=None if user else info.bot,
                                        player_id=info.player_id if user else None))
                # the player's other devices follow them to the rematch
                for grantee in sorted(info.grants) if user else ():
                    s.add(SeatGrant(match_id=new.id, seat=info.seat, user_id=grantee))

        try:
            new = await self.create_match(user_id, m.game, m.players, m.options, m.public,
                                          host_seat=None, rematch_of=match_id,
                                          prepare=seat_players)
        except IntegrityError:  # another click made it first
            existing = await self._rematch(match_id)
            if existing is None:
                raise
            return existing
        await self._changed(match_id, Rematch(new.id))
        return new

    async def _rematch(self, match_id: str) -> Match | None:
        async with self.sm() as s:
            return await s.scalar(select(Match).where(Match.rematch_of == match_id))

    async def set_host(self, match_id: str, host_id: str, seat: int) -> None:
        """Host only: hand the host role to the player in ``seat``."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                info = self._seat(snap, seat)
                if info.user_id is None:
                    raise ServiceError("bad_request", "Only a player can be the host.")
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(host_id=info.user_id, updated_at=utcnow()))
                await s.commit()
        await self._changed(match_id, SeatsChanged())
        await self._notice(match_id, f"{info.name or f'Player {seat + 1}'} is the host now.")

    async def set_spectator_chat(self, match_id: str, host_id: str, open_: bool) -> None:
        """Host only: let the spectators talk to the table (their lines go to the table chat,
        read by everyone) or keep their chat apart (``open_=False``, the default)."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(spectator_chat_open=open_, updated_at=utcnow()))
                await s.commit()
        await self._changed(match_id, SeatsChanged())  # every table's chat panel shows the change

    async def _undo(self, s: AsyncSession, snap: Snapshot, seat: int
                    ) -> tuple[dict, list[dict]]:
        """The state after ``seat`` takes back its latest move: the whole log is replayed
        with the canonical replay (engines.records), so the result is what any later replay
        of the log gives. Raises ``IllegalAction`` when the undo rule forbids it."""
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

    async def _is_duplicate(self, s: AsyncSession, match_id: str, seat: int, action_id: str
                            ) -> bool:
        return await s.scalar(select(ActionRow.seq).where(
            ActionRow.match_id == match_id, ActionRow.seat == seat,
            ActionRow.action_id == action_id)) is not None

    async def _still_valid(self, s: AsyncSession, engine: Engine, m: Match, seat: int,
                           version: int, action: Any) -> bool:
        """A late action is accepted only in a simultaneous frame: the seat's prompt at
        ``version`` had other seats waited for too and equals its prompt now, this seat has not
        acted since, and the action is still legal. Unknown old prompts (another process, a
        restart) mean stale: the client simply retries on the fresh view."""
        if not isinstance(version, int) or version > m.version or version < 0:
            return False
        old = self._prompts_at.get(m.id, {}).get(version)
        prompts = engine.prompts(m.state)
        if old is None or len(old) < 2 or seat not in prompts or old.get(seat) != prompts[seat]:
            return False
        acted = await s.scalar(select(func.count()).select_from(ActionRow).where(
            ActionRow.match_id == m.id, ActionRow.seat == seat, ActionRow.seq > version))
        return not acted and action in engine.legal_actions(m.state, seat)

    async def post_chat(self, match_id: str, user_id: str | None, name: str, text: str,
                        max_chars: int = 500, channel: str = "table") -> ChatMessage:
        """Store a chat line (trimmed to ``max_chars``) in ``channel`` (``CHAT_CHANNELS``).
        Raises ``bad_message`` when empty."""
        text = text.strip()[:max_chars]
        if not text:
            raise ServiceError("bad_message", "Empty chat message.")
        if channel not in CHAT_CHANNELS:
            raise ServiceError("bad_message", "Unknown chat channel.")
        msg = ChatMessage(match_id=match_id, user_id=user_id, name=name, text=text,
                          channel=channel)
        async with self.sm() as s:
            s.add(msg)
            await s.commit()
        # Listeners deliver it: this process's hub, and the other processes' through fan-out.
        await self._changed(match_id, ChatPosted(msg.id))
        return msg

    async def chat_line(self, match_id: str, line_id: int) -> ChatMessage | None:
        """The chat line ``line_id`` of ``match_id`` (None if removed or not of this match)."""
        async with self.sm() as s:
            msg = await s.get(ChatMessage, line_id)
        return msg if msg is not None and msg.match_id == match_id else None

    # ----- bots ------------------------------------------------------------------------------
    def schedule_bots(self, match_id: str) -> None:
        """Start a task that makes the bot seats now waited for move (through ``submit``)."""
        if self.stopping:  # shutting down: another process takes this match's bots over
            self.handoff.add(match_id)
            return
        spawn(self._run_bots(match_id), f"bots of {match_id}", self._tasks)

    async def _run_bots(self, match_id: str) -> None:
        try:
            snap = await self.current(match_id)
        except ServiceError:
            return
        except Exception:  # the database away or its pool starved: look again later
            if not self._bot_failures.get(match_id):  # once per streak, not at every retry
                log.warning("bots of match %s wait for the database", match_id, exc_info=True)
            self._retry_bots(match_id)
            return
        m = snap.match
        if m.status != "active":
            return
        engine = self._engine(m.game, m.engine_version)
        prompts = engine.prompts(m.state)
        for info in snap.seats:
            key = (match_id, info.seat)
            if info.bot and info.seat in prompts and key not in self._bot_pending:
                self._bot_pending.add(key)
                spawn(self._bot_move(match_id, info), f"bot move in {match_id}", self._tasks)

    async def _bot_move(self, match_id: str, info: SeatInfo) -> None:
        from engines.base import Rng

        key = (match_id, info.seat)
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            if self.stopping:
                self.handoff.add(match_id)
                return
            snap = await self.current(match_id)
            m = snap.match
            engine = self._engine(m.game, m.engine_version)
            if m.status != "active" or info.seat not in engine.prompts(m.state):
                return
            # Seeded from the seat's view, never from the match seed (which decides the hidden
            # information): a bot knows only what its seat may know (issue 17).
            rng = Rng(public_seed(engine, m.state, info.seat))
            name = info.bot or "easy"
            if levels.canonical(name) not in registry.bots(m.game, m.engine_version):
                name = "easy"  # a bot the game no longer has: still finish the match
            action = await self.bot_pool.decide(engine, name, m.state, info.seat, rng)
            self._bot_pending.discard(key)
            outcome = await self.submit(match_id, info.seat, f"bot-{m.version}-{info.seat}",
                                        m.version, action, actor=BOT)
            if outcome.applied:
                ops_events.bot_move(match_id, m.game, info.seat, info.bot or "random",
                                    outcome.version)
            self._bot_failures.pop(match_id, None)
        except ServiceError as exc:
            ops_events.action_rejected(match_id, info.seat, exc.code, bot=True)
            if exc.code == "stale":  # someone moved first; look again
                self._bot_pending.discard(key)
                self.schedule_bots(match_id)
            elif exc.code == "busy":
                self._retry_bots(match_id)
        except Exception:
            if not self._bot_failures.get(match_id):  # once per streak, not at every retry
                log.exception("bot move failed in match %s seat %s", match_id, info.seat)
            self._retry_bots(match_id)
        finally:
            self._bot_pending.discard(key)

    def _retry_bots(self, match_id: str) -> None:
        """Look at the match's bots again after a failed move, later each time it fails."""
        n = self._bot_failures[match_id] = self._bot_failures.get(match_id, 0) + 1
        if not self.stopping:
            asyncio.get_running_loop().call_later(
                min(60.0, self.bot_retry_first * 2.0 ** (n - 1)), self._retry_scheduled,
                match_id)

    def _retry_scheduled(self, match_id: str) -> None:
        if not self.stopping:
            self.schedule_bots(match_id)

    async def resume_bots(self) -> int:
        """At start-up: schedule bots of every active match. Returns how many were looked at."""
        async with self.sm() as s:
            ids = (await s.execute(select(Match.id).where(Match.status == "active"))
                   ).scalars().all()
        for match_id in ids:
            self.schedule_bots(match_id)
        return len(ids)

    async def drain(self) -> None:
        """Wait for the running bot tasks (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def pending(self) -> int:
        """How many bot tasks are running (the shutdown logs it)."""
        return len(self._tasks)

    async def settle(self) -> None:
        """Wait for the running bot tasks, then for every action holding its match's lock: the
        lock is held until the action's commit and fan-out are done (app.ops.shutdown)."""
        await self.drain()
        for lock in list(self._locks.values()):
            async with lock:
                pass

    # ----- pace: clocks, resignation, replacement votes (app.matches.pace) -------------------
    def _ts(self) -> float:
        return self.now().timestamp()

    @staticmethod
    def _humans(snap: Snapshot) -> set[int]:
        return {i.seat for i in snap.seats if i.user_id is not None}

    @staticmethod
    def _resigned_order(snap: Snapshot) -> list[int]:
        """Resigned seats, earliest first."""
        return [i.seat for i in sorted((i for i in snap.seats if i.resigned_at is not None),
                                       key=lambda i: (i.resigned_at, i.seat))]

    @staticmethod
    def _when(ts: float | None):
        from datetime import datetime, timezone
        return None if ts is None else datetime.fromtimestamp(ts, timezone.utc)

    @staticmethod
    def _display_name(info: SeatInfo) -> str:
        return info.name or info.away_name or f"Seat {info.seat + 1}"

    @staticmethod
    def _stand_in(m: Match) -> str:
        """The bot that takes over a seat (a time-out, a vote, a resignation, the host handing a
        seat without naming a bot): the match's ``stand_in`` level (default ``normal``)."""
        return pace.settings_of(m.settings).stand_in

    def _pace_start(self, snap: Snapshot, engine: Engine, state: dict) -> dict:
        """``matches`` values for the start: the first clocks and deadline."""
        m = snap.match
        if not m.settings:
            return {}
        settings = pace.settings_of(m.settings)
        clocks = pace.start_clocks(settings, engine.prompts(state), m.players, self._ts())
        return {"clocks": clocks,
                "deadline": self._when(pace.next_deadline(settings, clocks, self._humans(snap)))}

    def _pace_values(self, snap: Snapshot, engine: Engine, state: dict, new_state: dict,
                     seat: int, undo: bool, result: dict | None) -> dict:
        """``matches`` values a move adds: the clocks charged and the next deadline; a final
        result with the resigned seats ranked last. Empty for a plain live match."""
        m = snap.match
        resigned = self._resigned_order(snap)
        if not m.settings and not resigned:
            return {}
        out: dict[str, Any] = {}
        if result is not None and resigned:
            out["result"] = pace.rank_resigned_last(result, resigned)
        if m.settings:
            settings = pace.settings_of(m.settings)
            bots = {i.seat for i in snap.seats if i.bot}
            after = {} if result is not None else engine.prompts(new_state)
            clocks = pace.advance(settings, m.clocks, engine.prompts(state), after, seat, bots,
                                  self._ts(), increment=not undo)
            out["clocks"] = clocks
            out["deadline"] = self._when(pace.next_deadline(settings, clocks,
                                                            self._humans(snap)))
        return out

    async def _refresh_clock(self, s: AsyncSession, snap: Snapshot, humans: set[int],
                             reseat: int | None = None) -> None:
        """After a seat changed hands: the deadline without the bots' seats (and a fresh
        prompt for a player back in their seat). Skipped if a move committed meanwhile: that
        move computed the clocks itself."""
        m = snap.match
        if not m.settings or m.status != "active":
            return
        settings = pace.settings_of(m.settings)
        clocks = m.clocks
        if reseat is not None:
            clocks = pace.reseat(settings, clocks, reseat, self._ts())
        await s.execute(update(Match).where(Match.id == m.id, Match.version == m.version)
                        .values(clocks=clocks, deadline=self._when(
                            pace.next_deadline(settings, clocks, humans)))
                        .execution_options(synchronize_session=False))

    async def _notice(self, match_id: str, text: str) -> None:
        """Tell the table (a chat line from "Lair", kept in the history, and a toast)."""
        await self.post_chat(match_id, None, "Lair", text)
        await self._changed(match_id, Notice(text))

    async def _hand_to_bot(self, s: AsyncSession, snap: Snapshot, info: SeatInfo,
                           resigned: bool = False) -> bool:
        """A bot plays ``info``'s seat from now on (the player may take it back unless they
        resigned). Returns False if the seat changed hands meanwhile."""
        m = snap.match
        values: dict[str, Any] = {"user_id": None,
                                  "bot": self._stand_in(m),
                                  "away_user_id": info.user_id, "replace_votes": None}
        if resigned:
            values["resigned_at"] = self.now()
        done = await s.execute(update(Seat).where(
            Seat.match_id == snap.match.id, Seat.seat == info.seat,
            Seat.user_id == info.user_id).values(**values)
            .execution_options(synchronize_session=False))
        return done.rowcount == 1

    async def set_pace(self, match_id: str, host_id: str, raw: dict) -> pace.PaceSettings:
        """Host only, before the start: the match's pace, clocks, replacement limit and webhook
        (fields of ``pace.PaceSettings``; a solo match keeps no replacement limit). Raises ``ServiceError('bad_request')`` with the first
        validation message."""
        try:
            settings = pace.PaceSettings.model_validate(raw)
        except ValueError as exc:
            errors = getattr(exc, "errors", lambda: [])()
            first = errors[0] if errors else {"msg": str(exc), "loc": ()}
            where = " ".join(str(x) for x in first.get("loc", ())).replace("_", " ")
            message = str(first["msg"])
            if message.startswith("Value error, "):  # our own words: they name the field
                message, where = message.removeprefix("Value error, "), ""
                message = message[:1].upper() + message[1:]
            raise ServiceError("bad_request", f"{where}: {message}" if where else message
                               ) from None
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                self._require_host(snap, host_id)
                self._require_open(snap)
                if snap.match.players < 2:  # solo: nobody to vote the only seat to a bot
                    settings = settings.model_copy(update={"replace_after_minutes": 0})
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(settings=pace.stored(settings), updated_at=utcnow()))
                await s.commit()
        await self._changed(match_id, SeatsChanged())
        return settings

    async def resign(self, match_id: str, user_id: str) -> bool:
        """The user resigns their seat. When one side is left that has not resigned (the other
        player, with two seats), the match ends: that side wins, the others rank by
        resignation (the latest highest). Otherwise a bot plays the seat to the end and it
        ranks last. Returns True if the match ended. Raises ``ServiceError``."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                m = snap.match
                if m.status != "active":
                    raise ServiceError("finished" if m.status in ("finished", "cancelled")
                                       else "bad_request", "Only a running match can be resigned.")
                seat = snap.seat_of(user_id)
                if seat is None:
                    raise ServiceError("not_your_seat", "You have no seat to resign in this match.")
                info = snap.seats[seat]
                engine = self._engine(m.game, m.engine_version)
                order = self._resigned_order(snap) + [seat]
                now = self.now()
                ended = pace.last_side(m.players, engine.teams, order) is not None
                if ended:
                    names = [self._display_name(i) for i in snap.seats]
                    result = pace.resigned_result(m.players, engine.teams, order, names)
                    values: dict[str, Any] = {"status": "finished", "result": result,
                                              "finished_at": now, "updated_at": now}
                    if m.settings:
                        settings = pace.settings_of(m.settings)
                        values.update(deadline=None, clocks=pace.advance(
                            settings, m.clocks, engine.prompts(m.state), {}, -1,
                            {i.seat for i in snap.seats if i.bot}, now.timestamp()))
                    done = await s.execute(update(Match).where(
                        Match.id == match_id, Match.version == m.version,
                        Match.status == "active").values(**values)
                        .execution_options(synchronize_session=False))
                    if done.rowcount != 1:
                        await s.rollback()
                        raise ServiceError("stale", "The table changed meanwhile; try again.")
                    await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                       Seat.seat == seat)
                                    .values(resigned_at=now))
                else:
                    await self._hand_to_bot(s, snap, info, resigned=True)
                    await self._refresh_clock(s, snap, self._humans(snap) - {seat})
                await self._touch(s, match_id)
                await s.commit()
        name = self._display_name(info)
        if ended:
            ops_events.match_ended(match_id, "resigned", m.version)
            await self._notice(match_id, f"{name} resigned. The match is over.")
            await self._changed(match_id, Finished())
        else:
            await self._notice(match_id, f"{name} resigned: a bot plays the seat to the end "
                                         "and it ranks last.")
            await self._changed(match_id, SeatsChanged())
            self.schedule_bots(match_id)
        return ended

    async def vote_replace(self, match_id: str, voter_id: str, seat: int,
                           away_since: float | None) -> bool:
        """A player votes to hand the seat of an absent player to a bot. Allowed once the seat
        is prompted and its player has been away (no open socket since ``away_since``, epoch
        s, as the websocket hub saw it) for the match's ``replace_after_minutes``. A majority of
        the other human players replaces the seat (the player can take it back). Votes count
        for the current prompt only. Returns True when the seat was handed to a bot. Raises
        ``ServiceError``."""
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                m = snap.match
                if m.status != "active":
                    raise ServiceError("bad_request", "The match is not running.")
                voter = snap.seat_of(voter_id)
                if voter is None:
                    raise ServiceError("forbidden", "Only the players vote.", 403)
                info = self._seat(snap, seat)
                if info.user_id is None or seat == voter:
                    raise ServiceError("bad_request", "You can vote only about another "
                                                      "player's seat.")
                settings = pace.settings_of(m.settings)
                limit = settings.replace_after_minutes * 60
                if not limit:
                    raise ServiceError("bad_request", "This match has no replacement limit.")
                name = self._display_name(info)
                since = (m.clocks or {}).get("since", {}).get(str(seat))
                engine = self._engine(m.game, m.engine_version)
                if since is None or seat not in engine.prompts(m.state):
                    raise ServiceError("bad_request", f"Nobody waits for {name} now.")
                if away_since is None or self._ts() - away_since < limit:
                    raise ServiceError("bad_request", f"{name} has not been away for "
                                                      f"{settings.replace_after_minutes} min.")
                votes = info.votes if (info.votes or {}).get("since") == since else None
                voters = sorted(set((votes or {}).get("voters", [])) | {voter})
                needed = pace.votes_needed(self._humans(snap), seat)
                replaced = len(voters) >= needed
                if replaced:
                    await self._hand_to_bot(s, snap, info)
                    await self._refresh_clock(s, snap, self._humans(snap) - {seat})
                else:
                    await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                       Seat.seat == seat)
                                    .values(replace_votes={"since": since, "voters": voters}))
                await self._touch(s, match_id)
                await s.commit()
        if replaced:
            await self._notice(match_id, f"{name} was away: the players voted a bot in. "
                                         f"{name} can take the seat back.")
            self.schedule_bots(match_id)
        await self._changed(match_id, SeatsChanged())
        return replaced

    async def expire_due(self) -> float | None:
        """Hand every seat out of time to a bot (the timer calls this; so do tests, after
        moving ``now``). Returns the next deadline (epoch s) of any running match, or None."""
        now = self.now()
        async with self.sm() as s:
            due = (await s.execute(select(Match.id).where(
                Match.status == "active", Match.deadline.is_not(None), Match.deadline <= now)
                .order_by(Match.deadline).limit(100))).scalars().all()
        for match_id in due:
            try:
                await self._expire(match_id)
            except Exception:  # one broken match must not stop every other clock
                log.exception("clock expiry failed in match %s", match_id)
        async with self.sm() as s:
            nxt = await s.scalar(select(func.min(Match.deadline)).where(
                Match.status == "active", Match.deadline.is_not(None)))
        if nxt is not None and nxt.tzinfo is None:  # SQLite returns naive UTC
            from datetime import timezone
            nxt = nxt.replace(tzinfo=timezone.utc)
        return None if nxt is None else nxt.timestamp()

    async def _expire(self, match_id: str) -> None:
        names: list[str] = []
        async with self._locks[match_id]:
            async with self.sm() as s:
                snap = await self.snapshot(match_id, s)
                m = snap.match
                if m.status != "active":
                    return
                settings = pace.settings_of(m.settings)
                humans = self._humans(snap)
                now = self._ts()
                late = [seat for seat, t in pace.deadlines(settings, m.clocks, humans).items()
                        if t <= now]
                left = humans - set(late)
                done = await s.execute(update(Match).where(
                    Match.id == match_id, Match.version == m.version).values(
                    deadline=self._when(pace.next_deadline(settings, m.clocks, left)))
                    .execution_options(synchronize_session=False))
                if done.rowcount != 1:  # a move came in: its clocks are the truth now
                    await s.rollback()
                    return
                for seat in late:
                    if await self._hand_to_bot(s, snap, snap.seats[seat]):
                        names.append(self._display_name(snap.seats[seat]))
                await s.commit()
        if not names:
            return
        for name in names:
            await self._notice(match_id, f"{name} ran out of time: a bot plays the seat until "
                                         f"{name} takes it back.")
        ops_events.clock_expired(match_id, len(names))
        await self._changed(match_id, SeatsChanged())
        self.schedule_bots(match_id)

    # ----- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _engine(game: str, version: int | None = None) -> Engine:
        """The engine of ``game`` at rules ``version`` (a match's ``engine_version``: a match
        finishes under the rules it started with; ``None``: the live rules). Raises
        ``ServiceError('bad_request')`` for an unknown game or version."""
        try:
            return registry.get(game, version)
        except registry.UnknownVersion:
            raise ServiceError("bad_request", f"This site no longer has version {version} of "
                                              f"the rules of {game!r}.") from None
        except KeyError:
            raise ServiceError("bad_request", f"Unknown game {game!r}.") from None

    @staticmethod
    def _seat(snap: Snapshot, seat: int) -> SeatInfo:
        if not isinstance(seat, int) or not 0 <= seat < len(snap.seats):
            raise ServiceError("bad_request", "No such seat.")
        return snap.seats[seat]

    @staticmethod
    def _already_started() -> ServiceError:
        return ServiceError("already_started", "The match has already started.", 409)

    @staticmethod
    def _require_open(snap: Snapshot) -> None:
        if snap.match.status != "open":
            raise ServiceError("bad_request", "The match has already started or ended.")

    @staticmethod
    def _require_host(snap: Snapshot, user_id: str) -> None:
        if snap.match.host_id != user_id:
            raise ServiceError("forbidden", "Only the host can do that.", 403)

    @staticmethod
    async def _touch(s: AsyncSession, match_id: str) -> None:
        await s.execute(update(Match).where(Match.id == match_id).values(updated_at=utcnow()))

