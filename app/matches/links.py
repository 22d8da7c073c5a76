"""A seat's links and devices: the invite and spectator links, a seat's rejoin link (its other
devices), granting a seat to the device that redeems it, and "Play here".

Who may see and play what stays in ``app.matches.access`` (THE policy); this module only
changes the rows it rules on.
"""
from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import rowcount
from app.matches import access
from app.matches.changes import SeatsChanged
from app.matches.errors import ErrorCode, ServiceError
from app.matches.lobby import new_token
from app.matches.store import Store
from app.models import Match, Seat, SeatGrant, utcnow


async def drop_grants(s: AsyncSession, match_id: str, seat: int) -> None:
    """Forget every other device of a seat (its grants and who plays it); the caller sets
    the seat's link."""
    await s.execute(delete(SeatGrant).where(SeatGrant.match_id == match_id,
                                            SeatGrant.seat == seat))
    await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                    .values(player_id=None))


async def empty_seat(s: AsyncSession, match_id: str, seat: int,
                     user_id: str | None = None) -> None:
    """No one sits in ``seat`` any more: its owner, link and other devices are gone. With
    ``user_id``: only if that user still sits there (otherwise nothing changes)."""
    where = [Seat.match_id == match_id, Seat.seat == seat]
    if user_id is not None:
        where.append(Seat.user_id == user_id)
    done = await s.execute(update(Seat).where(*where)
                           .values(user_id=None, rejoin_hash=None)
                           .execution_options(synchronize_session=False))
    if rowcount(done):
        await drop_grants(s, match_id, seat)


class Links:
    """Invite, spectator and rejoin links; seats granted to a player's other devices."""

    def __init__(self, store: Store):
        self.store = store

    async def by_token(self, kind: str, token: str) -> Match:
        """The match whose ``invite``/``watch`` token is ``token`` (checked again in constant
        time). Raises ``not_found`` ("This link is not valid (any more).")."""
        column = {"invite": Match.invite_token, "watch": Match.watch_token}[kind]
        async with self.store.sm() as s:
            match = (await s.execute(select(Match).where(column == token))).scalar_one_or_none()
        if match is None or not access.same_token(token, getattr(match, f"{kind}_token")):
            raise ServiceError(ErrorCode.NOT_FOUND, "This link is not valid (any more).", 404)
        return match

    async def seat_by_rejoin(self, token: str) -> Seat:
        """The seat whose current rejoin link has ``token`` (looked up by its SHA-256, checked
        again in constant time), in a match not cancelled, with an owner. Raises
        ``not_found`` ("This rejoin link is not valid (any more).")."""
        digest = access.token_hash(token)
        async with self.store.sm() as s:
            row = (await s.execute(select(Seat, Match.status).join(Match, Match.id == Seat.match_id)
                                   .where(Seat.rejoin_hash == digest))).first()
        if (row is None or not access.same_token(digest, row[0].rejoin_hash)
                or (row[0].user_id or row[0].away_user_id) is None or row[1] == "cancelled"):
            raise ServiceError(ErrorCode.NOT_FOUND,
                               "This rejoin link is not valid (any more).", 404)
        return row[0]

    async def make_rejoin_link(self, match_id: str, user_id: str) -> str:
        """A new rejoin link token for the seat ``user_id`` owns in the match (shown to them
        once; only its hash is stored). It replaces the seat's previous link, and the devices
        that took the seat with an earlier link lose it (this device plays the seat). Raises
        ``ServiceError('not_your_seat')`` when the user owns no seat (a device that was granted
        a seat cannot make links)."""
        token = new_token()
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                mine = next((i for i in snap.seats if access.owner(i) == user_id), None)
                if mine is None or snap.match.status == "cancelled":
                    raise ServiceError(ErrorCode.NOT_YOUR_SEAT,
                                       "Only a seat's own player can make its "
                                       "link for another device.", 403)
                await drop_grants(s, match_id, mine.seat)
                await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                   Seat.seat == mine.seat)
                                .values(rejoin_hash=access.token_hash(token)))
                await s.commit()
        if mine.grants or mine.player_id:
            await self.store.changed(match_id, SeatsChanged())  # the other devices' tables reload
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
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                again = await self.seat_by_rejoin(token)  # not replaced meanwhile
                if (again.match_id, again.seat) != (match_id, seat.seat):
                    raise ServiceError(ErrorCode.NOT_FOUND,
                                       "This rejoin link is not valid (any more).",
                                       404)
                snap = await self.store.snapshot(match_id, s)
                info = snap.seats[seat.seat]
                if any(access.holds(i, user_id) for i in snap.seats if i.seat != seat.seat):
                    # one identity, one seat: otherwise which one would it play?
                    raise ServiceError(ErrorCode.BAD_REQUEST,
                                       "You have another seat in this match: "
                                       "open this link on another device.")
                if access.owner(info) != user_id and user_id not in info.grants:
                    s.add(SeatGrant(match_id=match_id, seat=seat.seat, user_id=user_id))
                    await s.flush()
                await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                   Seat.seat == seat.seat)
                                .values(player_id=None if access.owner(info) == user_id
                                        else user_id))
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())
        return match_id

    async def take_seat_here(self, match_id: str, user_id: str) -> int:
        """"Play here": a holder of a seat that another of the player's devices plays takes
        it (app/matches/access.py). Returns the seat. Raises ``ServiceError('bad_request')``
        when no such seat waits for this identity."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                seat = access.elsewhere(snap, user_id)
                if seat is None or snap.match.status in ("finished", "cancelled"):
                    raise ServiceError(ErrorCode.BAD_REQUEST,
                                       "No seat of yours is played on another "
                                       "device.")
                info = snap.seats[seat]
                await s.execute(update(Seat).where(Seat.match_id == match_id, Seat.seat == seat)
                                .values(player_id=None if info.user_id == user_id
                                        else user_id))
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())
        return seat

    async def replace_link(self, match_id: str, host_id: str, kind: str) -> str:
        """Host only: a new ``invite`` or ``watch`` (spectator) link; the old one stops
        working. Returns the new token. Raises ``ServiceError`` (``forbidden``,
        ``bad_request``)."""
        if kind not in ("invite", "watch"):
            raise ServiceError(ErrorCode.BAD_REQUEST, "Unknown link.")
        token = new_token()
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(**{f"{kind}_token": token}, updated_at=utcnow()))
                await s.commit()
        self.store.forget(match_id)
        await self.store.changed(match_id, SeatsChanged())
        return token

