"""What the pace rules (``app.matches.pace.rules``) write into a match when it changes: the
first clocks at the start, the clocks and deadline after a move, the deadline after a seat
changed hands, and a seat handed to a stand-in bot. Called inside the caller's transaction;
times come from the store's injectable clock (``Store.now``/``Store.ts``, epoch seconds).
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import rowcount
from app.matches.pace import rules
from app.matches.snapshot import SeatInfo, Snapshot
from app.models import Match, Seat
from engines.base import Engine

if TYPE_CHECKING:
    from app.matches.store import Store


def when(ts: float | None) -> datetime | None:
    """Epoch seconds as a UTC datetime (the ``matches.deadline`` column), None kept."""
    return None if ts is None else datetime.fromtimestamp(ts, timezone.utc)


def resigned_order(snap: Snapshot) -> list[int]:
    """Resigned seats, earliest first."""
    return [i.seat for i in sorted((i for i in snap.seats if i.resigned_at is not None),
                                   key=lambda i: (i.resigned_at, i.seat))]


def stand_in(m: Match) -> str:
    """The bot that takes over a seat (a time-out, a vote, a resignation, the host handing a
    seat without naming a bot): the match's ``stand_in`` level (default ``normal``)."""
    return rules.settings_of(m.settings).stand_in


def start_values(store: Store, snap: Snapshot, engine: Engine, state: dict) -> dict:
    """``matches`` values for the start: the first clocks and deadline."""
    m = snap.match
    if not m.settings:
        return {}
    settings = rules.settings_of(m.settings)
    clocks = rules.start_clocks(settings, engine.prompts(state), m.players, store.ts())
    return {"clocks": clocks,
            "deadline": when(rules.next_deadline(settings, clocks, snap.humans()))}


def out_of_time(snap: Snapshot, seat: int, now: float) -> bool:
    """Whether ``seat``'s deadline (a prompted human seat's time bank or move limit, from the
    clocks as last committed) had passed at ``now`` (epoch s): the clock timer hands such a seat
    to a bot (``pace.seats``, ``t <= now``), and a move from it is refused even when it reaches
    the service before the timer does."""
    m = snap.match
    if not m.settings:
        return False
    due = rules.deadlines(rules.settings_of(m.settings), m.clocks, snap.humans()).get(seat)
    return due is not None and due <= now


def move_values(store: Store, snap: Snapshot, engine: Engine, state: dict, new_state: dict,
                seat: int, undo: bool, result: dict | None, now: float | None = None) -> dict:
    """``matches`` values a move adds: the clocks charged (at ``now``, epoch s; default the
    store's clock) and the next deadline; a final result with the resigned seats ranked last.
    Empty for a plain live match."""
    m = snap.match
    resigned = resigned_order(snap)
    if not m.settings and not resigned:
        return {}
    out: dict[str, Any] = {}
    if result is not None and resigned:
        out["result"] = rules.rank_resigned_last(result, resigned)
    if m.settings:
        settings = rules.settings_of(m.settings)
        bots = {i.seat for i in snap.seats if i.bot}
        after = {} if result is not None else engine.prompts(new_state)
        clocks = rules.advance(settings, m.clocks, engine.prompts(state), after, seat, bots,
                               store.ts() if now is None else now, increment=not undo)
        out["clocks"] = clocks
        out["deadline"] = when(rules.next_deadline(settings, clocks, snap.humans()))
    return out


async def refresh_clock(store: Store, s: AsyncSession, snap: Snapshot, humans: set[int],
                        reseat: int | None = None) -> None:
    """After a seat changed hands: the deadline without the bots' seats (and a fresh
    prompt for a player back in their seat). Skipped if a move committed meanwhile: that
    move computed the clocks itself."""
    m = snap.match
    if not m.settings or m.status != "active":
        return
    settings = rules.settings_of(m.settings)
    clocks = m.clocks
    if reseat is not None:
        clocks = rules.reseat(settings, clocks, reseat, store.ts())
    await s.execute(update(Match).where(Match.id == m.id, Match.version == m.version)
                    .values(clocks=clocks, deadline=when(
                        rules.next_deadline(settings, clocks, humans)))
                    .execution_options(synchronize_session=False))


async def hand_to_bot(store: Store, s: AsyncSession, snap: Snapshot, info: SeatInfo,
                      resigned: bool = False) -> bool:
    """A bot plays ``info``'s seat from now on (the player may take it back unless they
    resigned). Returns False if the seat changed hands meanwhile."""
    m = snap.match
    values: dict[str, Any] = {"user_id": None,
                              "bot": stand_in(m),
                              "away_user_id": info.user_id, "replace_votes": None}
    if resigned:
        values["resigned_at"] = store.now()
    done = await s.execute(update(Seat).where(
        Seat.match_id == snap.match.id, Seat.seat == info.seat,
        Seat.user_id == info.user_id).values(**values)
        .execution_options(synchronize_session=False))
    return rowcount(done) == 1
