"""The pace operations on seats (issue 7, "Pace"): the host sets the pace before the start; a
player resigns; the players vote an absent player's seat to a bot; seats out of time are
handed to bots (``expire_due``, run by ``app.matches.pace.timer``). The rules they apply are
``app.matches.pace.rules``; the values they write, ``app.matches.pace.clocks``. The bot runner
hears of every seat change and plays the seats handed to bots.
"""
from __future__ import annotations

import logging
from datetime import timezone
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select, update

from app.matches.changes import Finished, SeatsChanged
from app.matches.chat import Chat
from app.matches.errors import ErrorCode, ServiceError
from app.matches.pace import clocks, rules
from app.matches.snapshot import engine_for, seat_name
from app.matches.store import Store
from app.models import Match, Seat, utcnow
from app.telemetry import events as ops_events

log = logging.getLogger("lair.service")


class PaceSeats:
    """Set the pace, resign, vote a bot in, expire seats out of time."""

    def __init__(self, store: Store, chat: Chat):
        self.store = store
        self.chat = chat

    async def set_pace(self, match_id: str, host_id: str, raw: dict) -> rules.PaceSettings:
        """Host only, before the start: the match's pace, clocks, replacement limit and webhook
        (fields of ``rules.PaceSettings``; a solo match keeps no replacement limit). Raises
        ``ServiceError('bad_request')`` with the first
        validation message."""
        try:
            settings = rules.PaceSettings.model_validate(raw)
        except ValueError as exc:
            errors = exc.errors() if isinstance(exc, ValidationError) else []
            first = errors[0] if errors else {"msg": str(exc), "loc": ()}
            where = " ".join(str(x) for x in first.get("loc", ())).replace("_", " ")
            message = str(first["msg"])
            if message.startswith("Value error, "):  # our own words: they name the field
                message, where = message.removeprefix("Value error, "), ""
                message = message[:1].upper() + message[1:]
            raise ServiceError(ErrorCode.BAD_REQUEST, f"{where}: {message}" if where else message
                               ) from None
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                snap.require_host(host_id)
                snap.require_open()
                if snap.match.players < 2:  # solo: nobody to vote the only seat to a bot
                    settings = settings.model_copy(update={"replace_after_minutes": 0})
                await s.execute(update(Match).where(Match.id == match_id)
                                .values(settings=rules.stored(settings), updated_at=utcnow()))
                await s.commit()
        await self.store.changed(match_id, SeatsChanged())
        return settings

    async def resign(self, match_id: str, user_id: str) -> bool:
        """The user resigns their seat. When one side is left that has not resigned (the other
        player, with two seats), the match ends: that side wins, the others rank by
        resignation (the latest highest). Otherwise a bot plays the seat to the end and it
        ranks last. Returns True if the match ended. Raises ``ServiceError``."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                m = snap.match
                if m.status != "active":
                    raise ServiceError(ErrorCode.FINISHED if m.status in ("finished", "cancelled")
                                       else ErrorCode.BAD_REQUEST,
                                       "Only a running match can be resigned.")
                seat = snap.seat_of(user_id)
                if seat is None:
                    raise ServiceError(ErrorCode.NOT_YOUR_SEAT,
                                       "You have no seat to resign in this match.")
                info = snap.seats[seat]
                engine = engine_for(m)
                order = clocks.resigned_order(snap) + [seat]
                now = self.store.now()
                ended = rules.last_side(m.players, engine.teams, order) is not None
                if ended:
                    names = [seat_name(i) for i in snap.seats]
                    result = rules.resigned_result(m.players, engine.teams, order, names)
                    values: dict[str, Any] = {"status": "finished", "result": result,
                                              "finished_at": now, "updated_at": now}
                    if m.settings:
                        settings = rules.settings_of(m.settings)
                        values.update(deadline=None, clocks=rules.advance(
                            settings, m.clocks, engine.prompts(m.started_state), {}, -1,
                            {i.seat for i in snap.seats if i.bot}, now.timestamp()))
                    done = await s.execute(update(Match).where(
                        Match.id == match_id, Match.version == m.version,
                        Match.status == "active").values(**values)
                        .execution_options(synchronize_session=False))
                    if done.rowcount != 1:
                        await s.rollback()
                        raise ServiceError(ErrorCode.STALE,
                                           "The table changed meanwhile; try again.")
                    await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                       Seat.seat == seat)
                                    .values(resigned_at=now))
                else:
                    await clocks.hand_to_bot(self.store, s, snap, info, resigned=True)
                    await clocks.refresh_clock(self.store, s, snap, snap.humans() - {seat})
                await self.store.touch(s, match_id)
                await s.commit()
        name = seat_name(info)
        if ended:
            ops_events.match_ended(match_id, "resigned", m.version)
            await self.chat.notice(match_id, f"{name} resigned. The match is over.")
            await self.store.changed(match_id, Finished())
        else:
            await self.chat.notice(match_id, f"{name} resigned: a bot plays the seat to the end "
                                             "and it ranks last.")
            await self.store.changed(match_id, SeatsChanged())  # the bot runner plays the seat
        return ended

    async def vote_replace(self, match_id: str, voter_id: str, seat: int,
                           away_since: float | None) -> bool:
        """A player votes to hand the seat of an absent player to a bot. Allowed once the seat
        is prompted and its player has been away (no open socket since ``away_since``, epoch
        s: ``Hub.away_since``, as this process saw it or else as stored with the seat, so a
        match this process forgot while idle, or a restart, keeps the time) for the match's
        ``replace_after_minutes``. A majority of
        the other human players replaces the seat (the player can take it back). Votes count
        for the current prompt only. Returns True when the seat was handed to a bot. Raises
        ``ServiceError``."""
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                m = snap.match
                if m.status != "active":
                    raise ServiceError(ErrorCode.BAD_REQUEST, "The match is not running.")
                voter = snap.seat_of(voter_id)
                if voter is None:
                    raise ServiceError(ErrorCode.FORBIDDEN, "Only the players vote.", 403)
                info = snap.seat(seat)
                if info.user_id is None or seat == voter:
                    raise ServiceError(ErrorCode.BAD_REQUEST, "You can vote only about another "
                                                              "player's seat.")
                settings = rules.settings_of(m.settings)
                limit = settings.replace_after_minutes * 60
                if not limit:
                    raise ServiceError(ErrorCode.BAD_REQUEST,
                                       "This match has no replacement limit.")
                name = seat_name(info)
                since = (m.clocks or {}).get("since", {}).get(str(seat))
                engine = engine_for(m)
                if since is None or seat not in engine.prompts(m.started_state):
                    raise ServiceError(ErrorCode.BAD_REQUEST, f"Nobody waits for {name} now.")
                if away_since is None or self.store.ts() - away_since < limit:
                    raise ServiceError(ErrorCode.BAD_REQUEST,
                                       f"{name} has not been away for "
                                       f"{settings.replace_after_minutes} min.")
                votes = info.votes if (info.votes or {}).get("since") == since else None
                voters = sorted(set((votes or {}).get("voters", [])) | {voter})
                needed = rules.votes_needed(snap.humans(), seat)
                replaced = len(voters) >= needed
                if replaced:
                    await clocks.hand_to_bot(self.store, s, snap, info)
                    await clocks.refresh_clock(self.store, s, snap, snap.humans() - {seat})
                else:
                    await s.execute(update(Seat).where(Seat.match_id == match_id,
                                                       Seat.seat == seat)
                                    .values(replace_votes={"since": since, "voters": voters}))
                await self.store.touch(s, match_id)
                await s.commit()
        if replaced:
            await self.chat.notice(match_id, f"{name} was away: the players voted a bot in. "
                                             f"{name} can take the seat back.")
        await self.store.changed(match_id, SeatsChanged())  # the bot runner plays a seat handed over
        return replaced

    async def expire_due(self) -> float | None:
        """Hand every seat out of time to a bot (the timer calls this; so do tests, after
        moving ``now``). Returns the next deadline (epoch s) of any running match, or None."""
        now = self.store.now()
        async with self.store.sm() as s:
            due = (await s.execute(select(Match.id).where(
                Match.status == "active", Match.deadline.is_not(None), Match.deadline <= now)
                .order_by(Match.deadline).limit(100))).scalars().all()
        for match_id in due:
            try:
                await self._expire(match_id)
            except Exception:  # one broken match must not stop every other clock
                log.exception("clock expiry failed in match %s", match_id)
        async with self.store.sm() as s:
            nxt = await s.scalar(select(func.min(Match.deadline)).where(
                Match.status == "active", Match.deadline.is_not(None)))
        if nxt is not None and nxt.tzinfo is None:  # SQLite returns naive UTC
            nxt = nxt.replace(tzinfo=timezone.utc)
        return None if nxt is None else nxt.timestamp()

    async def _expire(self, match_id: str) -> None:
        names: list[str] = []
        async with self.store.locks[match_id]:
            async with self.store.sm() as s:
                snap = await self.store.snapshot(match_id, s)
                m = snap.match
                if m.status != "active":
                    return
                settings = rules.settings_of(m.settings)
                humans = snap.humans()
                now = self.store.ts()
                late = [seat for seat, t in rules.deadlines(settings, m.clocks, humans).items()
                        if t <= now]
                left = humans - set(late)
                done = await s.execute(update(Match).where(
                    Match.id == match_id, Match.version == m.version).values(
                    deadline=clocks.when(rules.next_deadline(settings, m.clocks, left)))
                    .execution_options(synchronize_session=False))
                if done.rowcount != 1:  # a move came in: its clocks are the truth now
                    await s.rollback()
                    return
                for seat in late:
                    if await clocks.hand_to_bot(self.store, s, snap, snap.seats[seat]):
                        names.append(seat_name(snap.seats[seat]))
                await s.commit()
        if not names:
            return
        for name in names:
            await self.chat.notice(match_id, f"{name} ran out of time: a bot plays the seat until "
                                             f"{name} takes it back.")
        ops_events.clock_expired(match_id, len(names))
        await self.store.changed(match_id, SeatsChanged())  # the bot runner plays those seats
