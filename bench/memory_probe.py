"""Lair's app with one extra read-only route for the bench: ``GET /_bench/memory`` answers the
sizes of the per-match maps this process keeps in memory (issue 13, item 4), so the churn run
can check they empty once every socket has been idle for ``MATCH_IDLE_TTL``.

Served by ``bench/load.py`` instead of ``app.main:app`` (started the same way, ``lair serve``'s
options); every other path goes to the app unchanged. Bench only: never deployed.
"""
from __future__ import annotations

import orjson

from app.main import app as lair

#: The per-match maps of the service's store and bot runner and of the hub and its presence
#: tracker (dotted paths from ``app.state``; a missing one counts -1, so a renamed map shows up
#: in the bench's output instead of passing silently as empty).
MAPS = ("service.store.snaps", "service.store.locks", "service.store.prompts_at",
        "service.store.movers", "service.bots.failures", "hub.conns", "hub.tracker.left_at",
        "hub.tracker.remote", "hub._writes")


def sizes(state) -> dict[str, int]:
    """``{"service.store.snaps": n, ..., "hub.conns": n, ...}`` for the app's ``state``."""
    out = {}
    for path in MAPS:
        obj = state
        for name in path.split("."):
            obj = getattr(obj, name, None)
        out[path] = -1 if obj is None else len(obj)
    return out


async def app(scope, receive, send):
    """ASGI: the probe at ``/_bench/memory``, Lair for everything else (lifespan included)."""
    if scope["type"] == "http" and scope["path"] == "/_bench/memory":
        body = orjson.dumps(sizes(lair.state))
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
        return
    await lair(scope, receive, send)
