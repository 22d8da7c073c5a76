"""The lobby and a match's life around its play: users, the lobby's lists, creating a match,
starting it, cancelling it (the host) and ending it (an operator)."""
from __future__ import annotations

import secrets
from typing import Any, Awaitable, Callable

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.matches.changes import Cancelled, Started
from app.matches.errors import ErrorCode, ServiceError
from app.matches.pace import clocks
from app.matches.snapshot import already_started, engine_of
from app.matches.store import Store
from app.models import Match, Seat, SeatGrant, User, utcnow
from app.telemetry import events as ops_events
from engines import registry


def new_token() -> str:
    """A new invite, spectator or rejoin link token (about 190 bits)."""
    return secrets.token_urlsafe(24)


#: Match id characters: letters and digits (ids appear in URLs and file names).
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def new_match_id() -> str:
    """A new match id: 16 random letters/digits, about 95 bits (issue 12: at least 64, so ids
    cannot be guessed). Older matches keep their 8-character ids."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(16))


class Lobby:
    """Users, the lobby, and creating, starting, cancelling and ending matches."""

    def __init__(self, store: Store):
        self.store = store

    # ----- users -------------------------------------------------------------------------------
    async def ensure_user(self, user_id: str, name: str) -> User:
        """Create the guest user ``user_id`` or rename it. Returns the row."""
        async with self.store.sm() as s:
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
        async with self.store.sm() as s:
            return await s.get(User, user_id)

    # ----- the lobby's lists -------------------------------------------------------------------
    async def lobby(self, user_id: str | None) -> dict[str, Any]:
        """``{"open": public open matches, "running": public matches being played (to watch),
        "mine": matches the user hosts or sits in, "your_turn": ids of the user's running
        matches waiting for them, "free_seats": {match id: empty seats}, "hosts": {match id:
        host name}}``; in "mine" the matches waiting for the user come first."""
        async with self.store.sm() as s:
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
                            and seats[m.id] in engine_of(m.game, m.engine_version
                                                            ).prompts(m.started_state):
                        your_turn.add(m.id)
                mine.sort(key=lambda m: m.id not in your_turn)  # stable: recency kept
            opponents = await self.opponents(s, [m.id for m in mine], user_id)
            return {"open": list(open_), "running": list(running), "mine": mine,
                    "your_turn": your_turn, "free_seats": free, "hosts": hosts,
                    "opponents": opponents}

    @staticmethod

    @staticmethod
    async def opponents(s: AsyncSession, match_ids: list[str],
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

    # ----- a match's life ----------------------------------------------------------------------
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
        engine = engine_of(game)
        if not engine.min_players <= players <= engine.max_players:
            raise ServiceError(ErrorCode.BAD_REQUEST, f"{engine.title} is for {engine.min_players}–"
                                                      f"{engine.max_players} players.")
        try:
            opts = engine.parse_options(players, options).model_dump(mode="json")
            engine.setup(players, opts, 0)  # options that only fail for this player count
        except Exception as exc:  # noqa: BLE001 - any refusal of the engine is the host's input
            message = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
            raise ServiceError(ErrorCode.BAD_REQUEST, f"Invalid options: {message}") from exc
        match = Match(id=new_match_id(),
                      game=game, engine_version=engine.version, options=opts,
                      seed=seed if seed is not None else secrets.randbits(62), players=players,
                      status="open", version=0, state=None, host_id=host_id, public=public,
                      invite_token=new_token(), watch_token=new_token(), rematch_of=rematch_of)
        async with self.store.sm() as s:
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


    async def start(self, match_id: str, host_id: str) -> None:
        """Host only: start when every seat is filled; runs the engine's ``setup``.

        Applied once across processes (issue 13, item 6): ``UPDATE matches ... WHERE status =
        'open'``; the start that loses a race (a double click reaching two processes) gets
        ``ServiceError('already_started')`` (409). Raises ``forbidden`` for a guest,
        ``bad_request`` for an empty seat or a match that is over."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                await self.store.lock_match(s, match_id)
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                if snap.match.status == "active":
                    raise already_started()
                snap.require_open()
                if any(i.user_id is None and i.bot is None for i in snap.seats):
                    raise ServiceError(ErrorCode.BAD_REQUEST,
                                       "Every seat must be taken (or given to a "
                                       "bot) before the start.")
                m = snap.match
                # A match starts on the live rules, even if it was opened before a version
                # bump; from then on it finishes under the rules it started with.
                engine = engine_of(m.game)
                try:
                    options = engine.parse_options(m.players, m.options).model_dump(mode="json")
                    state = engine.setup(m.players, options, m.seed)
                except Exception:  # noqa: BLE001 - options the new rules refuse: keep the old
                    engine, options = engine_of(m.game, m.engine_version), m.options
                    state = engine.setup(m.players, options, m.seed)
                done = await s.execute(
                    update(Match).where(Match.id == match_id, Match.status == "open")
                    .values(status="active", state=state, version=0,
                            engine_version=engine.version, options=options,
                            updated_at=utcnow(),
                            **clocks.start_values(self.store, snap, engine, state))
                    .execution_options(synchronize_session=False))
                if done.rowcount != 1:
                    await s.rollback()
                    raise already_started()
                await s.commit()
                self.store.remember_prompts(match_id, 0, engine.prompts(state))
        ops_events.match_started(match_id, m.game, m.players)
        await self.store.changed(match_id, Started())  # the bot runner plays the bot seats


    async def cancel(self, match_id: str, host_id: str) -> None:
        """Host only: cancel a match that is not finished."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                if snap.match.status in ("finished", "cancelled"):
                    raise ServiceError(ErrorCode.FINISHED, "The match is already over.")
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(status="cancelled", updated_at=utcnow()))
                await s.commit()
        ops_events.match_ended(match_id, "cancelled")
        await self.store.changed(match_id, Cancelled())

    async def end(self, match_id: str) -> None:
        """Operator: end a match that is not over (e.g. abandoned). It becomes ``cancelled``
        (its log is kept) and its sockets reload. Raises ``ServiceError`` ``not_found``, or
        ``finished`` when it is already over."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                await self.store.snapshot(match_id, s)
                done = await s.execute(update(Match).where(
                    Match.id == match_id, Match.status.in_(("open", "active")))
                    .values(status="cancelled", updated_at=utcnow())
                    .execution_options(synchronize_session=False))
                if done.rowcount != 1:
                    raise ServiceError(ErrorCode.FINISHED, "The match is already over.")
                await s.commit()
        ops_events.match_ended(match_id, "ended_by_admin")
        await self.store.changed(match_id, Cancelled())

