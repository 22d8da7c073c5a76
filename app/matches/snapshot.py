"""A match as the service sees it: :class:`Snapshot` (the match row and its seats), the seats'
public facts (:class:`SeatInfo`), what a submitted action became (:class:`Outcome`), and THE
one name of a seat (:func:`seat_name`).

Plain data: no database access here (``app.matches.store`` loads and caches snapshots).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.matches import access
from app.matches.errors import ErrorCode, ServiceError
from app.models import Match
from engines import registry
from engines.base import Engine


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
    #: The other players' votes to hand this seat to a bot (``app.matches.pace.seats``).
    votes: dict | None = None
    #: The device (identity) playing the seat now when not its owner (app/matches/access.py).
    player_id: str | None = None
    #: Identities the seat was granted to by its rejoin link (other devices of its player).
    grants: frozenset[str] = frozenset()
    #: Since when (epoch s) the player has had no socket open, as stored (``Seat.away_since``;
    #: None: connected, or not seen since). app.realtime.presence prefers its own memory.
    away_since: float | None = None


@dataclass(frozen=True)
class HintUse:
    """A hint a player asked for (public; app.matches.hints): the seat, the match's version
    it was asked at (the position: the seat's move number ``version + 1``), and when
    (``at``: ISO 8601 text, or None in a hand-made record)."""

    seat: int
    version: int
    at: str | None = None
    #: How many events the match's log held then (``HintUseRow.log_at``): where its line goes
    #: in the live table's log. None: unknown (an older use, an imported record's).
    log_at: int | None = None

    def as_dict(self) -> dict:
        """``{"seat", "version", "at"}``: the record file's and the database's shape."""
        return {"seat": self.seat, "version": self.version, "at": self.at}


def default_name(seat: int) -> str:
    """What a seat's player is called when nobody named them: "Player 2" for seat 1 — the
    engines' own word in their logs (``app.matches.views`` puts the names in its place)."""
    return f"Player {seat + 1}"


def seat_name(info: SeatInfo) -> str:
    """THE name of a seat wherever a person is meant (notices, results, links, the log):
    its player's name, also while a bot stands in for them (they may take the seat back);
    else the bot's (``"Normal bot 2"``: numbered by seat, so two bots can be told apart);
    else :func:`default_name`."""
    return info.name or info.away_name or (
        f"{info.bot.title()} bot {info.seat + 1}" if info.bot else default_name(info.seat))


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
    #: events after it (app.realtime, "incremental log").
    log_since: int = 0
    #: The hints the players asked for, oldest first (public: every view lists them).
    hint_uses: list[HintUse] = field(default_factory=list)

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

    # ----- the refusals every operation shares ----------------------------------------------
    def seat(self, seat: int) -> SeatInfo:
        """The seat ``seat``. Raises ``ServiceError('bad_request')`` for one the match lacks."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise ServiceError(ErrorCode.BAD_REQUEST, "No such seat.")
        return self.seats[seat]

    def humans(self) -> set[int]:
        """The seats a person plays now (not a bot, not empty)."""
        return {i.seat for i in self.seats if i.user_id is not None}

    def require_open(self) -> None:
        """Raises ``ServiceError('bad_request')`` unless the match waits for its start."""
        if self.match.status != "open":
            raise ServiceError(ErrorCode.BAD_REQUEST, "The match has already started or ended.")

    def require_host(self, user_id: str) -> None:
        """Raises ``ServiceError('forbidden')`` (403) unless ``user_id`` hosts the match."""
        if self.match.host_id != user_id:
            raise ServiceError(ErrorCode.FORBIDDEN, "Only the host can do that.", 403)


@dataclass
class Outcome:
    """What became of a submitted action: applied (with the new version) or a duplicate."""

    applied: bool
    version: int
    duplicate: bool = False
    events: list[dict] = field(default_factory=list)


def already_started() -> ServiceError:
    """The start that lost a race (409)."""
    return ServiceError(ErrorCode.ALREADY_STARTED, "The match has already started.", 409)


def engine_of(game: str, version: int | None = None) -> Engine:
    """The engine of ``game`` at rules ``version`` (a match's ``engine_version``: a match
    finishes under the rules it started with; ``None``: the live rules). Raises
    ``ServiceError('bad_request')`` for an unknown game or version."""
    try:
        return registry.get(game, version)
    except registry.UnknownVersion:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"This site no longer has version {version} "
                                                  f"of the rules of {game!r}.") from None
    except KeyError:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"Unknown game {game!r}.") from None


def engine_for(m: Match) -> Engine:
    """The engine a started match plays under (its game at its ``engine_version``)."""
    return engine_of(m.game, m.engine_version)
