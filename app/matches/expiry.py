"""Anonymous storage does not grow for ever (issue 13, item 5; docs/operations.md, "Settings").

Every ``every`` seconds (and once at start-up) the sweeper deletes, by the service's clock:

- **never-started matches** (waiting room, or cancelled before the start: no move was ever made)
  untouched for ``match_ttl`` seconds — no seat taken or left, no setting changed, no chat line
  in that time — with their seats and chat;
- **unused guests**: identities older than ``guest_ttl`` seconds that never did anything: no
  seat (nor a seat a bot keeps for them, nor one granted by a rejoin link), no match hosted,
  no chat line, no record uploaded.
  Their browser, if it comes back, is simply asked for a name again.

A ttl of 0 switches that expiry off. Several processes may sweep at once: each delete is one
statement whose conditions are checked by the database, so a match started (or a guest who sat
down) meanwhile is not deleted. Finished matches and imported records are kept (their replays
have URLs people share); uploads are bounded by the per-address limit ``RATE_RECORDS``
(``app.ratelimit``).
"""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy import and_, delete, exists, or_, select

from app.background import Background
from app.models import ChatMessage, Match, Record, Seat, SeatGrant, User

log = logging.getLogger("lair.expiry")

#: At most this many rows of each kind per sweep (the next sweep takes the rest).
BATCH = 500


class Expiry(Background):
    """Deletes expired never-started matches and unused guests of ``service``'s database
    every ``every`` seconds."""

    name = "expiry"

    def __init__(self, service, match_ttl: float, guest_ttl: float, every: float = 3600.0):
        self.service = service
        self.match_ttl = match_ttl
        self.guest_ttl = guest_ttl
        self.every = every

    async def sweep(self) -> tuple[int, int]:
        """One sweep: ``(matches deleted, guests deleted)``."""
        now = self.service.now()
        matches = await self._matches(now - timedelta(seconds=self.match_ttl)) \
            if self.match_ttl > 0 else 0
        guests = await self._guests(now - timedelta(seconds=self.guest_ttl)) \
            if self.guest_ttl > 0 else 0
        if matches or guests:
            log.info("expired %d never-started match(es) and %d unused guest(s)", matches,
                     guests, extra={"event": "expired", "matches": matches, "guests": guests})
        return matches, guests

    async def _matches(self, cutoff) -> int:
        never_started = and_(Match.status.in_(("open", "cancelled")), Match.version == 0,
                             Match.updated_at < cutoff,
                             ~exists().where(ChatMessage.match_id == Match.id,
                                             ChatMessage.created_at >= cutoff))
        async with self.service.sm() as s:
            ids = (await s.execute(select(Match.id).where(never_started).limit(BATCH))
                   ).scalars().all()
            if not ids:
                return 0
            # the condition again: a match started between the select and the delete stays
            # seats and chat lines go with it (ON DELETE CASCADE)
            gone = (await s.execute(delete(Match).where(Match.id.in_(ids), never_started)
                                    .returning(Match.id))).scalars().all()
            await s.commit()
        for match_id in gone:
            self.service.forget(match_id)
        return len(gone)

    async def _guests(self, cutoff) -> int:
        unused = and_(
            User.created_at < cutoff,
            ~exists().where(or_(Seat.user_id == User.id, Seat.away_user_id == User.id,
                                Seat.player_id == User.id)),
            ~exists().where(SeatGrant.user_id == User.id),  # another device of a player
            ~exists().where(Match.host_id == User.id),
            ~exists().where(ChatMessage.user_id == User.id),
            ~exists().where(Record.uploader_id == User.id))
        async with self.service.sm() as s:
            ids = (await s.execute(select(User.id).where(unused).limit(BATCH))).scalars().all()
            if not ids:
                return 0
            gone = (await s.execute(delete(User).where(User.id.in_(ids), unused)
                                    .returning(User.id))).scalars().all()
            await s.commit()
        return len(gone)

    async def _run(self) -> None:
        while True:
            if not self.service.stopping:
                await self.sweep()  # a failure: logged once, retried with back-off
                self.failures.ok()
            await asyncio.sleep(self.every)
