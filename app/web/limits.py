"""Request body limits: every HTTP request body is capped (issue 13, item 2).

:class:`BodyLimit` is a pure ASGI middleware (added last in ``app.main``, so it wraps every other
middleware and nothing reads an unbounded body): a declared ``Content-Length`` above the limit is
refused before the body is read; a body without one (chunked) is counted as it arrives and
refused once it passes the limit. Forms get ``FORM_MAX_BYTES``; a few paths their own limit and
wording (the record upload: ``RECORD_MAX_BYTES`` plus its multipart envelope). The refusal is a
413 that says the limit: a page, or JSON ``{"detail": ...}`` for a client that asks for JSON.
(Starlette's own ``RequestBodyLimitMiddleware`` answers a bare "Content Too Large" and
replaces any answer of ours when the declared size is over, hence this one.)
"""
from __future__ import annotations

import logging
from typing import NamedTuple

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from app.telemetry.metrics import LIMIT_HITS
from app.web.templating import Pages

log = logging.getLogger("lair.http")
#: Where the limit of the request being served is kept in its ASGI scope: a :class:`Limit`.
SCOPE_KEY = "lair.body_limit"


class Limit(NamedTuple):
    """A body limit (bytes) and the refusal's page title and text (None: the generic ones)."""

    size: int
    title: str | None = None
    text: str | None = None


class BodyTooLarge(HTTPException):
    """The request body passed its limit (raised from ``receive``; FastAPI re-raises
    HTTPExceptions met while reading a body, so the app's 413 handler words it)."""

    def __init__(self) -> None:
        super().__init__(status_code=413, detail="Content Too Large")


class BodyLimit:
    """ASGI middleware capping HTTP request bodies: ``default`` bytes, or ``paths[path]``."""

    def __init__(self, app, default: int, paths: dict[str, Limit] | None = None):
        self.app = app
        self.default = default
        self.paths = paths or {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = scope[SCOPE_KEY] = self.paths.get(scope.get("path", ""), Limit(self.default))
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit.size:
            return await self._refuse(scope, receive, send, limit)
        received = 0
        started = False

        async def counted():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit.size:
                    raise BodyTooLarge()
            return message

        async def watched(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:  # read outside the routes (a middleware): answer here
            if started:
                raise
            await self._refuse(scope, receive, send, limit)

    @staticmethod
    async def _refuse(scope, receive, send, limit: Limit) -> None:
        response = await too_large(Request(scope, receive), BodyTooLarge())
        await response(scope, receive, send)


def _kb(n: int) -> str:
    return f"{n / 1000:.0f} kB" if n >= 1000 else f"{n} bytes"


async def too_large(request: Request, exc: HTTPException) -> Response:
    """The answer to a request whose body is over its limit (status 413), logged
    (``body_too_large``) and counted (``lair_limit_hits_total``) here: the one place both a
    declared size refused before the body and a chunked body refused as a route read it pass."""
    limit = request.scope.get(SCOPE_KEY) or Limit(0)
    log.info("request body over %s bytes refused", limit.size,
             extra={"event": "body_too_large", "path": request.scope.get("path"),
                    "limit": limit.size})
    LIMIT_HITS.labels("body_too_large").inc()  # lair_limit_hits_total, with the others
    text = limit.text or ("That request is too large for this site"
                          + (f": at most {_kb(limit.size)} can be sent here." if limit.size
                             else "."))
    accept = request.headers.get("accept", "")
    if "application/json" in accept and "text/html" not in accept:
        return JSONResponse({"detail": text}, status_code=413)
    return Pages(request).message(limit.title or "Too large", text, 413)
