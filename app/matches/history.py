"""Finished matches with their results, for the list of past matches (README "Playing").

A private match is listed only to its participants: the players (also one a bot stood in for)
and the host. Spectator-link holders may open its replay but do not find it listed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.orm import aliased

from app.matches.snapshot import SeatInfo
from app.matches.views import seat_label
from app.models import Match, Seat, SeatGrant, User


@dataclass
class FinishedMatch:
    """One finished match as listed: ``seats`` are display names by seat; ``places`` are the
    ranks best first, each ``[(name, score), ...]`` (a shared place has several); ``solo`` is
    "won"/"lost" for a solo game that says so; ``mine`` marks the viewer's own matches."""

    id: str
    game: str
    players: int
    public: bool
    finished_at: datetime | None
    seats: list[str]
    places: list[list[tuple[str, object]]] = field(default_factory=list)
    solo: str | None = None
    mine: bool = False


def _places(result: dict | None, seats: list[str]) -> tuple[list[list[tuple[str, object]]],
                                                           str | None]:
    if not isinstance(result, dict):
        return [], None
    scores = result.get("scores") or {}
    resigned = set(result.get("resigned") or [])
    places = []
    for group in result.get("ranks") or []:
        places.append([((seats[s] if isinstance(s, int) and 0 <= s < len(seats) else "?")
                        + (" (resigned)" if s in resigned else ""),
                        scores.get(str(s), scores.get(s) if isinstance(scores, dict) else None))
                       for s in group])
    solo = None
    if "won" in result and len(seats) == 1:
        solo = "won" if result["won"] else "lost"
    return places, solo


async def finished_matches(sm: async_sessionmaker, user_id: str | None, *, mine: bool = False,
                           page: int = 1, per_page: int = 20
                           ) -> tuple[list[FinishedMatch], bool]:
    """Finished matches the user may see listed, most recently ended first.

    ``mine``: only the user's own (played or hosted). Returns ``(matches of page ``page``
    (1-based), whether an older page exists)``.
    """
    page = max(1, page)
    own = None
    if user_id:
        # the participants of app/matches/access.py: owners, and devices granted a seat
        played = select(Seat.match_id).where(or_(Seat.user_id == user_id,
                                                 Seat.away_user_id == user_id)).union(
            select(SeatGrant.match_id).where(SeatGrant.user_id == user_id))
        own = or_(Match.host_id == user_id, Match.id.in_(played))
    q = select(Match).where(Match.status == "finished")
    if mine:
        if own is None:
            return [], False
        q = q.where(own)
    else:
        q = q.where(Match.public.is_(True) if own is None else or_(Match.public.is_(True), own))
    q = q.order_by(Match.finished_at.desc(), Match.id).offset((page - 1) * per_page) \
        .limit(per_page + 1)
    async with sm() as s:
        matches = list((await s.execute(q)).scalars().all())
        more = len(matches) > per_page
        matches = matches[:per_page]
        ids = [m.id for m in matches]
        away = aliased(User)
        rows = (await s.execute(
            select(Seat, User.name, away.name).outerjoin(User, Seat.user_id == User.id)
            .outerjoin(away, Seat.away_user_id == away.id)
            .where(Seat.match_id.in_(ids)).order_by(Seat.match_id, Seat.seat))).all() \
            if ids else []
        granted = set((await s.execute(select(SeatGrant.match_id).where(
            SeatGrant.user_id == user_id, SeatGrant.match_id.in_(ids)))).scalars()) \
            if ids and user_id else set()
    seats: dict[str, list[Seat]] = {}
    names: dict[str, list[str]] = {}
    for seat, name, away_name in rows:
        seats.setdefault(seat.match_id, []).append(seat)
        names.setdefault(seat.match_id, []).append(seat_label(SeatInfo(
            seat.seat, seat.user_id, name, seat.bot, seat.away_user_id, away_name)))
    out = []
    for m in matches:
        listed = names.get(m.id, [])
        places, solo = _places(m.result, listed)
        is_mine = bool(user_id) and (m.host_id == user_id or m.id in granted or any(
            user_id in (i.user_id, i.away_user_id) for i in seats.get(m.id, [])))
        out.append(FinishedMatch(id=m.id, game=m.game, players=m.players, public=m.public,
                                 finished_at=m.finished_at, seats=listed, places=places,
                                 solo=solo, mine=is_mine))
    return out, more
