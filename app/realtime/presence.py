"""Who is connected to a match: this process's sockets and, as they announce them, the others'.

A player may be connected to another process than the one serving the others (PostgreSQL,
several processes): without the announces, their seat would look away here (no dot, an
"away" timer, even a replacement vote). Each process announces its socket counts per match
through the fan-out (app.realtime.fanout) on every connect and close and every
``PresenceTracker.EVERY`` seconds; an announce older than three periods (a killed process)
no longer counts. What views need of it is :class:`app.matches.views.Presence`, plain data.

Since when each seat has been away is kept here (``left_at``) and in the database
(``Seat.away_since``, written by the hub): once a match is idle this process forgets its copy
(app.matches.idle), and the stored time, read with the match's snapshot, takes its place.
"""
from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.matches.views import Presence

if TYPE_CHECKING:
    from app.realtime.connection import Connection


@dataclass(frozen=True)
class Announce:
    """One process's sockets of one match: ``seats`` (seat -> open sockets) and
    ``spectators`` (spectator sockets)."""

    seats: dict[int, int] = field(default_factory=dict)
    spectators: int = 0
    kind = "presence"

    def as_dict(self) -> dict[str, Any]:
        """``{"kind": "presence", "seats": {"<seat>": n}, "spectators": n}`` (JSON keys are
        strings)."""
        return {"kind": self.kind, "seats": {str(s): n for s, n in sorted(self.seats.items())},
                "spectators": self.spectators}

    @classmethod
    def from_dict(cls, data: dict) -> Announce | None:
        """The announce ``as_dict`` made, or None when ``data`` is not one."""
        try:
            seats = {int(s): int(n) for s, n in data["seats"].items()}
            return cls(seats, int(data["spectators"]))
        except (KeyError, AttributeError, TypeError, ValueError):
            return None


#: ``(seats connected, spectators)`` of a match at one moment.
_Count = tuple[set[int], int]


class PresenceTracker:
    """Counts of the sockets of every match, here and (as announced) elsewhere, and since when
    each seat has been away."""

    #: Seconds between two announces of the same match (and the freshness horizon's third).
    EVERY = 20.0

    def __init__(self, conns: Mapping[str, set[Connection]], now: Callable[[], float]):
        """``conns``: this process's sockets by match (the hub's); ``now()``: epoch s."""
        self.conns = conns
        self.now = now
        #: When each seat's last socket closed (epoch s): how long a player has been away.
        self.left_at: dict[tuple[str, int], float] = {}
        self.born = now()
        #: The other processes' sockets, as they announce them: match id -> process ->
        #: (socket count per seat, spectators, monotonic time of the announce).
        self.remote: dict[str, dict[str, tuple[dict[int, int], int, float]]] = defaultdict(dict)

    def _fresh(self, match_id: str, everything: bool = False
               ) -> list[tuple[dict[int, int], int, float]]:
        horizon = -1.0 if everything else time.monotonic() - 3 * self.EVERY
        return [entry for entry in self.remote.get(match_id, {}).values() if entry[2] > horizon]

    def connected_seats(self, match_id: str, everything: bool = False) -> set[int]:
        """Seats with at least one open socket, in this process or (as last announced, within
        three announce periods unless ``everything``) in another one."""
        seats = {c.seat for c in self.conns.get(match_id, ()) if c.seat is not None}
        for remote, _, _ in self._fresh(match_id, everything):
            seats.update(seat for seat, n in remote.items() if n)
        return seats

    def spectators(self, match_id: str, everything: bool = False) -> int:
        """Number of spectator sockets, in this process and (as announced) the others."""
        return (sum(1 for c in self.conns.get(match_id, ()) if c.seat is None)
                + sum(watching for _, watching, _ in self._fresh(match_id, everything)))

    def away_since(self, match_id: str, seat: int, stored: float | None = None
                   ) -> float | None:
        """Since when (epoch s) no socket of ``seat`` is open in this process or, as they
        announce it, in the others, or None while connected: when this process saw its last
        socket close, else ``stored`` (the seat's ``away_since`` in the database), else since
        this process started (a player not seen since)."""
        if seat in self.connected_seats(match_id):
            return None
        left = self.left_at.get((match_id, seat), stored)
        return self.born if left is None else left

    def presence_of(self, match_id: str, players: int = 0,
                    stored: Mapping[int, float | None] | None = None) -> Presence:
        """The match's presence as data, for views (``players``: how many seats to report
        ``left_at`` for; ``stored``: seat -> its stored away time, used where this process
        saw no socket of the seat close)."""
        stored = stored or {}
        left = {seat: t for seat in range(players)
                if (t := self.left_at.get((match_id, seat), stored.get(seat))) is not None}
        return Presence(frozenset(self.connected_seats(match_id)), self.spectators(match_id),
                        left, self.born)

    def note_joined(self, match_id: str, seat: int | None) -> bool:
        """A socket of ``seat`` is about to open (call before it counts): True if the seat
        had none open anywhere, so its player is back (the stored away time goes)."""
        return seat is not None and seat not in self.connected_seats(match_id)

    def note_left(self, match_id: str, seat: int | None) -> float | None:
        """A socket of ``seat`` closed: if it was the seat's last one, the player is away
        from now on; returns since when (epoch s), else None."""
        if seat is None or seat in self.connected_seats(match_id):
            return None
        at = self.left_at[(match_id, seat)] = self.now()
        return at

    def forget(self, match_id: str) -> None:
        """Drop what this process remembers of when the match's seats left (the times are
        stored: app.matches.idle calls this once the match is idle)."""
        for key in [k for k in self.left_at if k[0] == match_id]:
            del self.left_at[key]

    def local(self, match_id: str) -> Announce:
        """This process's sockets of the match, to announce."""
        seats: dict[int, int] = defaultdict(int)
        spectators = 0
        for c in self.conns.get(match_id, ()):
            if c.seat is None:
                spectators += 1
            else:
                seats[c.seat] += 1
        return Announce(dict(seats), spectators)

    def heard(self, match_id: str, origin: str, announce: Announce
              ) -> tuple[bool, bool, list[int]]:
        """Another process (``origin``) announced its sockets: seats that it alone held and no
        longer holds are away from now on. Returns ``(presence changed, seats changed, the
        seats away from now on)``."""
        before = self._count(match_id)
        if announce.seats or announce.spectators:
            self.remote[match_id][origin] = (dict(announce.seats), announce.spectators,
                                             time.monotonic())
        else:
            self.remote.get(match_id, {}).pop(origin, None)
            if not self.remote.get(match_id):
                self.remote.pop(match_id, None)
        return self._settle(match_id, before)

    def forget_stale(self) -> list[tuple[str, bool, list[int]]]:
        """Forget what processes that stopped announcing had said: ``[(match id, seats
        changed, the seats away from now on)]`` of the matches whose presence changed."""
        horizon = time.monotonic() - 3 * self.EVERY
        changed = []
        for match_id, by_origin in list(self.remote.items()):
            stale = [o for o, entry in by_origin.items() if entry[2] <= horizon]
            if not stale:
                continue
            before = self._count(match_id, everything=True)
            for origin in stale:
                del by_origin[origin]
            if not by_origin:
                del self.remote[match_id]
            moved, seats, gone = self._settle(match_id, before)
            if moved:
                changed.append((match_id, seats, gone))
        return changed

    def _count(self, match_id: str, everything: bool = False) -> _Count:
        return (self.connected_seats(match_id, everything),
                self.spectators(match_id, everything))

    def _settle(self, match_id: str, before: _Count) -> tuple[bool, bool, list[int]]:
        after = self._count(match_id)
        if after == before:
            return False, False, []
        now = self.now()
        gone = sorted(before[0] - after[0])
        for seat in gone:
            self.left_at[(match_id, seat)] = now
        return True, before[0] != after[0], gone
