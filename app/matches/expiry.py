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

#: At most this many rows of each kind per statement (a short transaction: rows are locked
#: only for that long).
BATCH = 500
#: At most this many batches of each kind per sweep: a backlog is drained batch after batch
#: within one sweep, yielding to the event loop between them; one larger than this waits for
#: the next sweep.
MAX_BATCHES = 100


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
        """One sweep: ``(matches deleted, guests deleted)``; each kind batch after batch
        until none is left (at most ``MAX_BATCHES`` of each)."""
        now = self.service.now()
        matches = await self._drain(self._matches, now - timedelta(seconds=self.match_ttl)) \
            if self.match_ttl > 0 else 0
        guests = await self._drain(self._guests, now - timedelta(seconds=self.guest_ttl)) \
            if self.guest_ttl > 0 else 0
        if matches or guests:
            log.info("expired %d never-started match(es) and %d unused guest(s)", matches,
                     guests, extra={"event": "expired", "matches": matches, "guests": guests})
        return matches, guests

    @staticmethod
    async def _drain(batch, cutoff) -> int:
        """Run ``batch(cutoff)`` (``(rows deleted, whether the batch was full)``) until a batch
        is not full, at most ``MAX_BATCHES`` times; returns the rows deleted."""
        total = 0
        for _ in range(MAX_BATCHES):
            gone, full = await batch(cutoff)
            total += gone
            if not full:
                break
            await asyncio.sleep(0)  # other work of the process runs between batches
        return total

    async def _matches(self, cutoff) -> tuple[int, bool]:
        never_started = and_(Match.status.in_(("open", "cancelled")), Match.version == 0,
                             Match.updated_at < cutoff,
                             ~exists().where(ChatMessage.match_id == Match.id,
                                             ChatMessage.created_at >= cutoff))
        async with self.service.sm() as s:
            ids = (await s.execute(select(Match.id).where(never_started).limit(BATCH))
                   ).scalars().all()
            if not ids:
                return 0, False
            # the condition again: a match started between the select and the delete stays
            # seats and chat lines go with it (ON DELETE CASCADE)
            gone = (await s.execute(delete(Match).where(Match.id.in_(ids), never_started)
                                    .returning(Match.id))).scalars().all()
            await s.commit()
        for match_id in gone:
            self.service.forget(match_id)
        return len(gone), len(ids) == BATCH

    async def _guests(self, cutoff) -> tuple[int, bool]:
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
                return 0, False
            gone = (await s.execute(delete(User).where(User.id.in_(ids), unused)
                                    .returning(User.id))).scalars().all()
            await s.commit()
        return len(gone), len(ids) == BATCH

    async def _run(self) -> None:
        while True:
            if not self.service.stopping:
                await self.sweep()  # a failure: logged once, retried with back-off
                self.failures.ok()
            await asyncio.sleep(self.every)
