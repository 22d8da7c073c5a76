"""Per-address rate limits of the HTTP routes that create something (issue 13, item 3).

:class:`AddressLimits` is a pure ASGI middleware: before a request that would create a guest
identity (``POST /name`` or a confirmed ``POST /rejoin/<token>`` without a valid identity
cookie: a rename is not counted), a match
(``POST /matches``, ``POST /m/<id>/rematch``) or an imported record (``POST /records``) reaches its
route, it counts one hit of that rule for the client's address (``app.ratelimit``). Over the
limit: 429 with ``Retry-After``, a page saying how long to wait, or JSON ``{"detail": ...}`` for
a client that asks for JSON; the route does not run. Another route is limited by adding it to
:data:`ROUTES`.

A request that cannot pass the CSRF check (``app.web.csrf.could_pass``: sent from another site,
no valid token) is not counted: it is refused anyway, and a forged form posted from a visitor's
browser by another site must not use up the budget of the visitor's address.
"""
from __future__ import annotations

import re

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from app.identity import read_user_id
from app.ratelimit import Verdict, address_key
from app.web import csrf
from app.web.templating import Pages

#: ``(method, path pattern, rule)``: the requests counted per address.
ROUTES: list[tuple[str, re.Pattern, str]] = [
    ("POST", re.compile(r"/name"), "identities"),
    # a rejoin link confirmed by a browser without an identity gives it one (app.matches.access)
    ("POST", re.compile(r"/rejoin/[^/]+"), "identities"),
    ("POST", re.compile(r"/matches"), "matches"),
    ("POST", re.compile(r"/m/[^/]+/rematch"), "matches"),
    ("POST", re.compile(r"/records"), "records"),
]

#: Rules whose route checks no CSRF token for a sender without an identity cookie (the record
#: upload acts for nobody then: ``app.web.records``).
ANONYMOUS_OK = frozenset({"records"})


def rule_of(request: Request) -> str | None:
    """The rule a request counts against, or None."""
    for method, pattern, rule in ROUTES:
        if request.method == method and pattern.fullmatch(request.url.path):
            if rule == "identities" and read_user_id(request.cookies,
                                                     request.app.state.settings):
                return None  # renaming an identity the browser already has creates nothing
            return rule
    return None


class AddressLimits:
    """ASGI middleware applying the per-address limits of :data:`ROUTES` with the app's
    ``state.limiter`` (an ``app.ratelimit.Limiter``)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") != "POST":
            return await self.app(scope, receive, send)
        request = Request(scope, receive)
        limiter = getattr(request.app.state, "limiter", None)
        rule = rule_of(request) if limiter is not None else None
        if rule is not None and not csrf.could_pass(request,
                                                    anonymous_ok=rule in ANONYMOUS_OK):
            rule = None  # refused by the CSRF check anyway: counts against nobody's budget
        if limiter is not None and rule is not None:
            client = scope.get("client")
            verdict = await limiter.hit(rule, address_key(client[0] if client else None))
            if not verdict.allowed:
                response = too_many(request, verdict)
                return await response(scope, receive, send)
        return await self.app(scope, receive, send)


def too_many(request: Request, verdict: Verdict) -> Response:
    """The 429 answer to a request over its rate limit (page or JSON, with Retry-After)."""
    headers = {"Retry-After": str(verdict.retry_after)}
    accept = request.headers.get("accept", "")
    if "application/json" in accept and "text/html" not in accept:
        return JSONResponse({"detail": verdict.message, "code": "rate_limited",
                             "retry_after": verdict.retry_after}, status_code=429,
                            headers=headers)
    response = Pages(request).message("Slow down", verdict.message, 429)
    response.headers.update(headers)
    return response
