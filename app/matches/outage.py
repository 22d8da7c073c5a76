"""Time nobody could play is charged to nobody (issue 13, item 8; README "Playing" > clocks).

Every live process beats one shared heartbeat row (``heartbeats``, id 1: when a process last
served, epoch s from the service's clock) at most every ``every`` seconds, from its clock timer
just before it looks for seats out of time (``app.matches.pace.timer``). A beat that finds the
previous one older than ``after`` seconds means nothing was served in between: every process
was down (a restart after an outage), or the database failed (no process could beat, and no
move could commit). That gap, less the one ``every`` a serving process may leave between two
beats, is given back to every running match: each running clock's start (``clocks.since``), the
match's deadline and the replacement votes of the current prompts move later by it, so nobody
is charged for the outage and no seat runs out of time because of it.

The beat is a conditional UPDATE (``WHERE beat_at = <the value read>``) in the transaction that
moves the clocks: when two processes come back at once, only one of them gives the time back.
The changed matches are announced as ``"clocks"`` changes (views pushed here and, through the
fan-out, by the other processes, whose cached snapshots are dropped).
"""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.matches.changes import ClocksChanged
from app.models import Heartbeat, Match, Seat
from app.telemetry import events as ops_events

log = logging.getLogger("lair.outage")


def shift_clocks(clocks: dict | None, seconds: float) -> dict | None:
    """``clocks`` with every running clock's start (``since``) ``seconds`` later."""
    if not clocks or not clocks.get("since"):
        return clocks
    return dict(clocks, since={seat: round(float(t) + seconds, 3)
                               for seat, t in clocks["since"].items()})


class Heartbeats:
    """This process's beat of the shared heartbeat, for ``service`` (an
    ``app.matches.service.MatchService``: its sessions, clock and listeners). ``every``: seconds
    between beats; ``after``: a longer gap between two beats is an outage."""

    def __init__(self, service, every: float = 5.0, after: float = 15.0):
        self.service = service
        self.every = every
        self.after = max(after, 3 * every)  # a busy timer may beat up to 2 × every apart
        self._last: float | None = None  # this process's last successful beat (service clock)
        self._catching = asyncio.Lock()  # one catch-up beat at a time (:meth:`catch_up`)

    async def beat(self) -> float:
        """Beat, unless this process beat less than ``every`` s ago; after an outage give its
        time back to the running matches. Returns the seconds given back (0.0: none). Raises
        the database's errors (the timer then backs off and beats again)."""
        now = self.service.now().timestamp()
        if self._last is not None and 0 <= now - self._last < self.every:
            return 0.0
        credit, changed = await self._beat(now)
        self._last = now
        if credit:
            ops_events.outage_credited(credit, len(changed))
            for match_id in changed:
                await self.service.changed(match_id, ClocksChanged())
        return credit

    async def catch_up(self) -> None:
        """Before a move (``app.matches.moves.Moves.before``): when this process has not beaten
        for longer than an outage (``after`` s: the database was away, or the process has just
        started), beat now, so that the outage's time is given back before the move charges
        anyone's clock. A move can reach the database before the clock timer's next look (seen
        live: the players' re-sent moves committed as the database came back, each charging its
        mover the whole outage). Then the cached snapshots are dropped: another process may have
        given the time back, and its news may not have arrived yet. Otherwise (the timer beats
        every ``every`` s) nothing: no database work. Raises the database's errors."""
        if not self._stale():
            return
        async with self._catching:  # the moves waiting here are decided after one beat
            if not self._stale():
                return
            await self.beat()
            self.service.store.snaps.clear()

    def _stale(self) -> bool:
        return self._last is None or self.service.now().timestamp() - self._last > self.after

    async def _beat(self, now: float) -> tuple[float, list[str]]:
        async with self.service.sm() as s:
            last = await s.scalar(select(Heartbeat.beat_at).where(Heartbeat.id == 1))
            if last is None:  # a new database (or one just migrated): nothing to give back
                s.add(Heartbeat(id=1, beat_at=now))
                try:
                    await s.commit()
                except IntegrityError:  # another process inserted it first
                    await s.rollback()
                return 0.0, []
            if now <= last:  # another process beat since (or a clock set back): all served
                return 0.0, []
            done = await s.execute(update(Heartbeat).where(
                Heartbeat.id == 1, Heartbeat.beat_at == last).values(beat_at=now)
                .execution_options(synchronize_session=False))
            if done.rowcount != 1:  # another process beat meanwhile (and gave the time back)
                await s.rollback()
                return 0.0, []
            gap = now - last
            if gap <= self.after:
                await s.commit()
                return 0.0, []
            credit = gap - self.every
            changed = await self._give_back(s, credit)
            await s.commit()
        log.warning("nothing was served for %.0f s: %.0f s given back to %d running match(es)",
                    gap, credit, len(changed))
        return credit, changed

    @staticmethod
    async def _give_back(s, credit: float) -> list[str]:
        """Move the running clocks of every active match ``credit`` seconds later (in the
        session's transaction); returns the ids of the matches changed."""
        rows = (await s.execute(select(Match.id, Match.clocks, Match.deadline).where(
            Match.status == "active", Match.clocks.is_not(None)))).all()
        changed = []
        for match_id, clocks, deadline in rows:
            moved = shift_clocks(clocks, credit)
            if moved is clocks:
                continue
            values = {"clocks": moved}
            if deadline is not None:
                values["deadline"] = deadline + timedelta(seconds=credit)
            await s.execute(update(Match).where(Match.id == match_id).values(**values)
                            .execution_options(synchronize_session=False))
            votes = (await s.execute(select(Seat.seat, Seat.replace_votes).where(
                Seat.match_id == match_id, Seat.replace_votes.is_not(None)))).all()
            for seat, vote in votes:
                if isinstance(vote, dict) and vote.get("since") is not None:
                    await s.execute(update(Seat).where(
                        Seat.match_id == match_id, Seat.seat == seat).values(
                        replace_votes=dict(vote, since=round(float(vote["since"]) + credit, 3)))
                        .execution_options(synchronize_session=False))
            changed.append(match_id)
        return changed
