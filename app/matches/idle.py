"""Frees the memory a process keeps per match once the match is idle (issue 13, item 4).

The service keeps a snapshot, a lock and recent prompts for every match this process touched,
and the hub when each seat's player left: without this, one entry more for every match ever
served. Every ``MATCH_IDLE_TTL`` seconds the sweeper looks at each match with such entries: one
with no socket in this process that did not change since the previous sweep (one whole period)
is dropped from the service's maps (it reloads from the database when needed), unless its lock
is held or a bot move is pending. The hub's "away since" times are kept while they can still
matter: those of finished or cancelled matches go with the rest, those of running matches once
they are older than the longest replacement delay a table can set (``pace``: 14 days); until
then a dropped time would make a player look away since the process started.
"""
from __future__ import annotations

import asyncio
import logging

from app.background import Background
from app.matches import pace

log = logging.getLogger("lair.idle")
def _longest_replace_delay() -> float:
    field = pace.PaceSettings.model_fields["replace_after_minutes"]
    return next(m.le for m in field.metadata if hasattr(m, "le")) * 60.0


#: How long (s) a seat's "away since" can matter: the largest ``replace_after_minutes``.
AWAY_MATTERS = _longest_replace_delay()


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
        now = service.now().timestamp()
        idle: dict[str, tuple] = {}
        dropped = []
        for match_id in service.remembered() - busy:
            footprint = service.footprint(match_id)
            if self._idle.get(match_id) == footprint and service.drop(match_id):
                dropped.append(match_id)
                if footprint[1] in ("finished", "cancelled"):  # nobody will be away any more
                    for key in [k for k in hub.left_at if k[0] == match_id]:
                        del hub.left_at[key]
            else:
                idle[match_id] = footprint
        for key, left in list(hub.left_at.items()):
            if key[0] not in busy and now - left > AWAY_MATTERS:
                del hub.left_at[key]
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
