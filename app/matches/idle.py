"""Frees the memory a process keeps per match once the match is idle (issue 13, item 4).

The service keeps a snapshot, a lock and recent prompts for every match this process touched,
and the hub when each seat's player left: without this, one entry more for every match ever
served. Every ``MATCH_IDLE_TTL`` seconds the sweeper looks at each match with such entries: one
with no socket in this process that did not change since the previous sweep (one whole period)
is dropped from the service's maps and the hub's "away since" times (it reloads from the
database when needed), unless its lock is held or a bot move is pending. Running matches too:
the away times are stored with the seats (``Seat.away_since``), which the reloaded snapshot
brings back.
"""
from __future__ import annotations

import asyncio
import logging

from app.background import Background

log = logging.getLogger("lair.idle")


class IdleSweeper(Background):
    """Runs :meth:`sweep` every ``ttl`` seconds for ``service`` and ``hub``."""

    name = "idle sweeper"

    def __init__(self, service, hub, ttl: float):
        self.service = service
        self.hub = hub
        self.ttl = ttl
        #: Matches idle at the last sweep, with their footprint then.
        self._idle: dict[str, tuple] = {}

    def sweep(self) -> list[str]:
        """Drop the per-match memory of every match idle (no socket here, unchanged) since the
        previous sweep; returns their ids."""
        service, hub = self.service, self.hub
        busy = {match_id for match_id, conns in hub.conns.items() if conns}
        away: dict[str, list[tuple[int, float]]] = {}
        for (match_id, seat), left in hub.left_at.items():
            away.setdefault(match_id, []).append((seat, left))
        # a match this process only heard of (another process's sockets) has away times only
        idle: dict[str, tuple] = {}
        dropped = []
        for match_id in (service.remembered() | set(away)) - busy:
            # what changes when the match changes here
            footprint = (service.footprint(match_id), sorted(away.get(match_id, ())))
            if self._idle.get(match_id) == footprint and service.drop(match_id):
                hub.tracker.forget(match_id)
                dropped.append(match_id)
            else:
                idle[match_id] = footprint
        self._idle = idle
        if dropped:
            log.debug("freed the memory of %d idle match(es)", len(dropped))
        return dropped

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.ttl)
            try:
                self.sweep()
            except Exception as exc:  # never let a bug here stop the sweeps for good
                self.failures.failed(exc)
            else:
                self.failures.ok()
