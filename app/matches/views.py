"""Per-viewer views: the engine's view plus what the service knows (names, presence, version).

Only ``engine.view(state, viewer)`` decides what a viewer may know; this module adds public
facts (seat names, bots, host, connection) and never reads hidden parts of the state.
"""
from __future__ import annotations

from typing import Iterable

from app.matches.service import Snapshot
from engines.base import Engine


def build_view(engine: Engine, snap: Snapshot, state: dict, version: int, viewer: int | None,
               *, connected: Iterable[int] = (), spectators: int = 0,
               reveal: bool = False) -> dict:
    """The view sent to ``viewer`` (seat or None for a spectator) at ``version``.

    Shape: DESIGN.md's engine view with ``version`` set, ``labels`` (one per legal action),
    seats augmented with ``name``/``bot``/``host``/``connected``, and ``match``
    (``{id, game, title, status, players, spectators}``).
    """
    m = snap.match
    view = engine.view(state, viewer, reveal=reveal)
    view["version"] = version
    view["labels"] = [engine.describe(state, a) for a in view["legal_actions"]]
    online = set(connected)
    for info, seat_view in zip(snap.seats, view["seats"]):
        seat_view.update(name=info.name or (f"{info.bot.title()} bot" if info.bot else "—"),
                         bot=bool(info.bot), host=info.user_id == m.host_id and info.user_id
                         is not None, connected=bool(info.bot) or info.seat in online)
    view["match"] = {"id": m.id, "game": m.game, "title": engine.title, "status": m.status,
                     "players": m.players, "spectators": spectators}
    return view


def seats_summary(snap: Snapshot, connected: Iterable[int] = ()) -> list[dict]:
    """Public seat list for the waiting room: ``[{seat, name, bot, host, connected, empty}]``."""
    online = set(connected)
    return [{"seat": i.seat, "name": i.name, "bot": i.bot,
             "host": i.user_id is not None and i.user_id == snap.match.host_id,
             "connected": i.seat in online, "empty": i.user_id is None and i.bot is None}
            for i in snap.seats]
