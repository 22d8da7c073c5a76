"""Who sits where: taking, leaving and setting seats before the start (bots included), a bot
standing in for a player during the match and the player taking the seat back, the host role,
the spectators' chat switch, and the rematch (the same players in the same seats).

Seats are taken atomically across processes (issue 13, item 6): conditional updates, the
match's row lock (``Store.lock_match``) and a unique index on ``(match, user)``.
"""
from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.matches import access
from app.matches.changes import Rematch, SeatsChanged
from app.matches.chat import Chat
from app.matches.errors import ErrorCode, ServiceError
from app.matches.links import empty_seat
from app.matches.lobby import Lobby
from app.matches.pace import clocks
from app.matches.snapshot import Snapshot, seat_name
from app.matches.store import Store
from app.models import Match, Seat, SeatGrant, utcnow
from engines import levels, registry


def _require_bot(snap: Snapshot, bot: str) -> None:
    """Refuses (``bad_request``) a bot kind or level the match's game does not have."""
    if levels.canonical(bot) not in registry.bots(snap.match.game):
        raise ServiceError(ErrorCode.BAD_REQUEST, "Unknown bot.")


def seat_taken(seat: int) -> ServiceError:
    """The loser of a race for ``seat`` (the waiting room shows the same words)."""
    return ServiceError(ErrorCode.SEAT_TAKEN, f"Seat {seat + 1} was taken by someone else a "
                                              "moment ago.", 409)


class Seats:
    """Seat changes, stand-in bots, the host role and rematches."""

    def __init__(self, store: Store, chat: Chat, lobby: Lobby):
        self.store = store
        self.chat = chat
        self.lobby = lobby

    @asynccontextmanager
    async def _hosts_open_room(self, match_id: str, host_id: str
                               ) -> AsyncIterator[tuple[AsyncSession, Snapshot]]:
        """The host's change to the seats of a match not started yet: under the match's lock
        (this process's and the row's), yields ``(session, snapshot)`` once ``host_id`` is
        checked to be the host and the match open (else ``ServiceError``: ``forbidden``,
        ``already_started``); after the body, the match is touched, the change committed and
        ``SeatsChanged`` announced."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                await self.store.lock_match(s, match_id)
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                snap.require_open()
                yield s, snap
                await self.store.touch(s, match_id)
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())

    async def take_seat(self, match_id: str, user_id: str, seat: int) -> None:
        """Sit ``user_id`` in an empty seat of an open match (moving from their old seat).

        Atomic across processes (issue 13, item 6): the seat is taken only by ``UPDATE ...
        WHERE user_id IS NULL AND bot IS NULL`` and a user holds one seat per match (a unique
        index), so of two users racing for a seat exactly one sits and the other gets
        ``ServiceError('seat_taken')`` (409, "Seat N was taken by someone else a moment
        ago."). Raises ``bad_request`` for a started match, an unknown seat, or a user who
        plays another player's seat here."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                await self.store.lock_match(s, match_id)
                snap = await self.store.snapshot(match_id, s)
                snap.require_open()
                target = snap.seat(seat)
                if target.user_id == user_id:
                    return
                if target.user_id is not None or target.bot is not None:
                    raise seat_taken(seat)
                if any(user_id in i.grants for i in snap.seats):
                    raise ServiceError(ErrorCode.BAD_REQUEST,
                                       "You play another player's seat in this "
                                       "match on this device.")
                for old in snap.seats:
                    if old.user_id == user_id:
                        await empty_seat(s, match_id, old.seat, user_id)
                try:
                    done = await s.execute(
                        update(Seat).where(Seat.match_id == match_id, Seat.seat == seat,
                                           Seat.user_id.is_(None), Seat.bot.is_(None))
                        .values(user_id=user_id).execution_options(synchronize_session=False))
                except IntegrityError:  # the user sat down elsewhere meanwhile (one seat each)
                    await s.rollback()
                    raise ServiceError(ErrorCode.STALE,
                                       "You took another seat meanwhile; reload the "
                                       "page.", 409) from None
                if done.rowcount != 1:
                    await s.rollback()
                    raise seat_taken(seat)
                await self.store.touch(s, match_id)
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())

    async def leave_seat(self, match_id: str, user_id: str) -> None:
        """The seat's owner leaves it before the start; its link and other devices go with
        it (a device it was granted to plays the seat, but cannot give it away). Raises
        ``ServiceError('bad_request')`` once the match has started."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                await self.store.lock_match(s, match_id)
                snap = await self.store.snapshot(match_id, s)
                snap.require_open()
                for info in snap.seats:
                    if info.user_id == user_id:
                        await empty_seat(s, match_id, info.seat, user_id)
                await self.store.touch(s, match_id)
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())

    async def set_seat(self, match_id: str, host_id: str, seat: int, bot: str | None) -> None:
        """Host only, before the start: put a bot (``bot`` = kind) in a seat, or empty it
        (``bot=None``, which also removes a seated player)."""
        async with self._hosts_open_room(match_id, host_id) as (s, snap):
            snap.seat(seat)
            if bot is not None:
                _require_bot(snap, bot)
            await empty_seat(s, match_id, seat)
            await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                            .values(bot=bot))

    async def fill_with_bots(self, match_id: str, host_id: str, bot: str = "random") -> None:
        """Host only, before the start: every seat still empty gets a bot of kind ``bot`` (a
        player who sat down meanwhile, in any process, keeps their seat: the update is
        conditional). Raises ``ServiceError`` (``forbidden``, ``bad_request``)."""
        async with self._hosts_open_room(match_id, host_id) as (s, snap):
            _require_bot(snap, bot)
            await s.execute(update(Seat).where(Seat.match_id == match_id,
                                               Seat.user_id.is_(None), Seat.bot.is_(None))
                            .values(bot=bot).execution_options(synchronize_session=False))


    async def replace_with_bot(self, match_id: str, host_id: str, seat: int,
                               bot: str | None = None) -> None:
        """Host only, during the match: a bot plays ``seat`` for a player who left (``bot``; none
        or "": the match's stand-in level); the player can take the seat back with
        :meth:`reclaim_seat`. The bot runner hears of the seat change and plays it. Raises
        ``ServiceError``."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                if snap.match.status != "active":
                    raise ServiceError(ErrorCode.BAD_REQUEST, "Only a running match's seats can be "
                                                              "handed to a bot.")
                info = snap.seat(seat)
                if info.user_id is None:
                    raise ServiceError(ErrorCode.BAD_REQUEST, "A bot already plays that seat.")
                bot = bot or clocks.stand_in(snap.match)
                if levels.canonical(bot) not in registry.bots(snap.match.game,
                                                              snap.match.engine_version):
                    raise ServiceError(ErrorCode.BAD_REQUEST, "Unknown bot.")
                await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                                .values(user_id=None, bot=bot, away_user_id=info.user_id))
                await clocks.refresh_clock(self.store, s, snap, snap.humans() - {seat})
                await self.store.touch(s, match_id)
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())
        name = seat_name(info)
        await self.chat.notice(match_id, f"The host handed {name}'s seat to a bot; {name} can "
                                         "take it back at any time.")

    async def reclaim_seat(self, match_id: str, user_id: str) -> int:
        """The player a bot stood in for takes the seat back. Returns the seat.
        Raises ``ServiceError('bad_request')`` if no seat waits for this user."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                seat = access.away_seat(snap, user_id)
                if seat is None:
                    raise ServiceError(ErrorCode.BAD_REQUEST,
                                       "No seat of yours is played by a bot.")
                mine = [snap.seats[seat]]
                owner = mine[0].away_user_id
                # the owner's seat again; a device it was granted to plays it now
                await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                   Seat.seat == mine[0].seat)
                                .values(user_id=owner, bot=None, away_user_id=None,
                                        player_id=None if user_id == owner else user_id))
                await clocks.refresh_clock(self.store, s, snap, snap.humans() | {mine[0].seat},
                                           reseat=mine[0].seat)
                await self.store.touch(s, match_id)
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())
        name = seat_name(mine[0])
        await self.chat.notice(match_id, f"{name} took their seat back from the bot.")
        return mine[0].seat

    async def mark_away(self, match_id: str, seat: int, at: float) -> None:
        """The last socket of ``seat`` (in any process) closed at ``at`` (epoch s): store since
        when its player is away (``Seat.away_since``), unless a later time is stored already.
        Every process that sees the seat go may write it (the one whose socket closed, and
        the others as they hear its announce): the latest wins, and a repeat changes nothing."""
        async with self.store.sm() as s:
            await s.execute(update(Seat).where(
                Seat.match_id == match_id, Seat.seat == seat,
                or_(Seat.away_since.is_(None), Seat.away_since < at))
                .values(away_since=at).execution_options(synchronize_session=False))
            await s.commit()

    async def mark_back(self, match_id: str, seat: int, at: float) -> None:
        """A socket of ``seat`` opened at ``at`` (epoch s): its player is no longer away (the
        stored time is cleared). A time stored after ``at`` stays: the socket closed again
        meanwhile, and that write came first."""
        async with self.store.sm() as s:
            await s.execute(update(Seat).where(
                Seat.match_id == match_id, Seat.seat == seat, Seat.away_since <= at)
                .values(away_since=None).execution_options(synchronize_session=False))
            await s.commit()

    async def rematch_id(self, match_id: str) -> str | None:
        """The id of ``match_id``'s rematch, None if it has none (yet)."""
        async with self.store.sm() as s:
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
        snap = await self.store.snapshot(match_id)
        snap.require_host(user_id)
        m = snap.match
        if m.status != "finished":
            raise ServiceError(ErrorCode.BAD_REQUEST,
                               "A rematch is offered once the match is over.")

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
            new = await self.lobby.create_match(user_id, m.game, m.players, m.options, m.public,
                                          host_seat=None, rematch_of=match_id,
                                          prepare=seat_players)
        except IntegrityError:  # another click made it first
            existing = await self._rematch(match_id)
            if existing is None:
                raise
            return existing
        await self.store.changed(match_id, Rematch(new.id))
        return new

    async def _rematch(self, match_id: str) -> Match | None:
        async with self.store.sm() as s:
            return await s.scalar(select(Match).where(Match.rematch_of == match_id))

    async def set_host(self, match_id: str, host_id: str, seat: int) -> None:
        """Host only: hand the host role to the player in ``seat``."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                info = snap.seat(seat)
                if info.user_id is None:
                    raise ServiceError(ErrorCode.BAD_REQUEST, "Only a player can be the host.")
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(host_id=info.user_id, updated_at=utcnow()))
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())
        await self.chat.notice(match_id, f"{seat_name(info)} is the host now.")

    async def set_spectator_chat(self, match_id: str, host_id: str, open_: bool) -> None:
        """Host only: let the spectators talk to the table (their lines go to the table chat,
        read by everyone) or keep their chat apart (``open_=False``, the default)."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(spectator_chat_open=open_, updated_at=utcnow()))
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())  # every table's chat panel shows the change

