"""Request ids and the request log (a pure ASGI middleware: HTTP and websockets).

Each HTTP request or websocket gets a ``request_id`` (the client's ``X-Request-ID`` when it is a
plain id of at most 64 characters, else a fresh one; echoed in the response header) and, when the
path names a match, a ``match_id``; both are put in context variables, so every log line written
while serving it carries them. One ``request`` event per HTTP request: method, the route's
*template* (``/invite/{token}``, never the token), status, duration. Probe paths (``/healthz``,
``/readyz``, ``/metrics``) and static files are logged at DEBUG only.
"""
from __future__ import annotations

import logging
import re
import secrets
import time

from app.telemetry.logs import match_id, request_id

log = logging.getLogger("lair.http")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_MATCH_PATH = re.compile(r"^/(?:ws/matches|m|matches|admin/m)/([A-Za-z0-9]{1,16})(?:/|$)")
_QUIET = ("/healthz", "/readyz", "/metrics", "/static/", "/favicon.ico")


class RequestContext:
    """ASGI middleware: request/match ids in context, one log line per HTTP request."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        rid = given if _SAFE_ID.match(given) else secrets.token_hex(8)
        found = _MATCH_PATH.match(scope.get("path", ""))
        tokens = (request_id.set(rid), match_id.set(found.group(1) if found else None))
        status = 500
        started = time.perf_counter()

        async def send_with_id(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            if scope["type"] == "http":
                route = scope.get("route")
                path = getattr(route, "path", None) or "(unmatched)"
                quiet = scope.get("path", "").startswith(_QUIET)
                log.log(logging.DEBUG if quiet else logging.INFO, "request",
                        extra={"event": "request", "method": scope.get("method"), "route": path,
                               "status": status,
                               "ms": round((time.perf_counter() - started) * 1000, 2)})
            request_id.reset(tokens[0])
            match_id.reset(tokens[1])
