"""Cross-site request forgery guard (issue 12 §2): where a state-changing request came from,
and a token bound to who sends it.

Every POST/PUT/PATCH/DELETE route passes :func:`protect` (an app-wide dependency) unless it
opts out with :func:`checks_itself` and calls :func:`check` itself (the record upload, which
reads its own body). A request is accepted only when both hold:

- **Origin.** ``Sec-Fetch-Site`` is ``same-origin`` or ``none`` (typed by the user); any other
  value (``same-site``: another port of this host; ``cross-site``) is refused. Without that
  header, an ``Origin`` header must be this site's own origin: the scheme uvicorn took from the
  trusted proxy (``--proxy-headers``) with the ``Host`` header, or ``PUBLIC_URL``'s origin;
  ``Origin: null`` (sandboxed frames, ``data:`` pages, some redirects) is refused. A request
  with neither header (curl, scripts) passes this part: it carries no visitor's cookies by
  accident, and the token below still applies to it.
- **Token.** The form field ``csrf_token`` or the header ``X-CSRF-Token`` equals the HMAC
  (itsdangerous, ``SECRET_KEY``) of the sender's identity: the user id of a valid identity
  cookie, or else the random pre-session value of the ``lair_pre`` cookie (before a name is
  chosen, so ``POST /name`` and the rejoin confirmation are bound too: login CSRF). A token made
  for another identity (a tab opened before the identity changed) is *stale*: the answer says
  "reload and try again". A request with no token at all is told so apart (reason
  ``missing``): the page or script that sent it never had one.

Refusals raise :class:`Refused` (403): a page for a browser, JSON
``{"detail", "code": "csrf_origin" | "csrf_missing" | "csrf_token"}`` for other clients (``app.web.refusals``);
each is logged (``csrf_refused``) and counted (``lair_csrf_refused_total{reason}``).
Pages get the token from the template globals ``csrf_field()`` (a hidden input, in every
form) and ``csrf_token()`` (``<meta name="csrf-token">`` for the table's scripts). The
pre-session cookie is set by :class:`PreSessionCookie` on the response of a page that needed it.

Requests with a valid ``Authorization: Bearer <ADMIN_TOKEN>`` (operator scripts) carry no
ambient authority and skip both checks.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from fastapi import Request
from itsdangerous import BadSignature, Signer
from markupsafe import Markup, escape
from starlette.requests import HTTPConnection

from app.identity import COOKIE as IDENTITY_COOKIE
from app.identity import read_user_id
from app.settings import Settings
from app.telemetry import events as ops_events
from app.telemetry.metrics import authorized

FIELD = "csrf_token"
HEADER = "x-csrf-token"
PRE_COOKIE = "lair_pre"
_PRE_AGE = 60 * 60 * 24 * 30
_PRE_RE = re.compile(r"^[A-Za-z0-9_-]{22,64}$")
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Bodies that may carry the token as the form field :data:`FIELD`.
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_DEFAULT_PORTS = {"http": 80, "https": 443}


class Refused(Exception):
    """A state-changing request refused: ``reason`` "origin" (sent from another site),
    "missing" (no token at all: a form or script that never had one) or "token" (a forged or
    stale token: typically a tab opened before the identity changed)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


# ----- where the request came from ------------------------------------------------------------
def _origin(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin or URL, default ports filled in; None if unusable."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port or _DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:
        return None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname or port is None:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def own_origins(conn: HTTPConnection, settings: Settings) -> set[tuple[str, str, int]]:
    """This site's origins for this request: the scheme (as the trusted proxy forwarded it,
    applied by uvicorn) with the ``Host`` header, and ``PUBLIC_URL``'s origin when set."""
    out = set()
    host = conn.headers.get("host")
    if host:
        found = _origin(f"{conn.url.scheme}://{host}")
        if found:
            out.add(found)
    if settings.public_url:
        found = _origin(settings.public_url)
        if found:
            out.add(found)
    return out


def same_origin(conn: HTTPConnection, settings: Settings) -> bool:
    """Whether the browser says (``Sec-Fetch-Site``) or shows (``Origin``) that the request was
    sent by a page of this site; True for clients that send neither (not a browser)."""
    site = conn.headers.get("sec-fetch-site")
    if site is not None:
        return site.strip().lower() in ("same-origin", "none")
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    found = _origin(origin)  # "null" and anything malformed: None, refused
    return found is not None and found in own_origins(conn, settings)


# ----- the token --------------------------------------------------------------------------------
def _signer(settings: Settings) -> Signer:
    return Signer(settings.secret_key, salt="lair-csrf")


def _subject(cookies: dict[str, str], settings: Settings) -> str | None:
    """What a token is bound to: ``u:<user id>`` of a valid identity cookie, else
    ``p:<pre-session value>``; None when there is neither."""
    user_id = read_user_id(cookies, settings)
    if user_id is not None:
        return f"u:{user_id}"
    pre = cookies.get(PRE_COOKIE, "")
    return f"p:{pre}" if _PRE_RE.match(pre) else None


def token_for(cookies: dict[str, str], settings: Settings) -> str | None:
    """The token a request with these cookies must carry (None: no identity of either kind)."""
    subject = _subject(cookies, settings)
    return _signer(settings).get_signature(subject).decode() if subject else None


def token(request: Request) -> str:
    """This request's token for its page; makes a pre-session value (a cookie set on the
    response by :class:`PreSessionCookie`) when the visitor has no identity yet."""
    settings = request.app.state.settings
    cookies = dict(request.cookies)
    made = getattr(request.state, "csrf_pre", None)
    if made is not None:
        cookies[PRE_COOKIE] = made
    found = token_for(cookies, settings)
    if found is not None:
        return found
    request.state.csrf_pre = cookies[PRE_COOKIE] = secrets.token_urlsafe(24)
    return token_for(cookies, settings) or ""


def _token_ok(given: str, cookies: dict[str, str], settings: Settings) -> bool:
    subject = _subject(cookies, settings)
    if subject is None or not given:
        return False
    try:
        return _signer(settings).verify_signature(subject.encode(), given.encode())
    except BadSignature:  # malformed base64 and the like
        return False


# ----- the checks -------------------------------------------------------------------------------
def check(request: Request, given: str | None) -> None:
    """Refuse (:class:`Refused`, logged and counted) a state-changing request sent from another
    site, or whose token ``given`` is not this sender's."""
    settings = request.app.state.settings
    if authorized(request, settings.admin_token):
        return
    route = getattr(request.scope.get("route"), "path", None) or request.url.path
    if not same_origin(request, settings):
        ops_events.csrf_refused("origin", route, origin=request.headers.get("origin"),
                                site=request.headers.get("sec-fetch-site"))
        raise Refused("origin")
    given = given or request.headers.get(HEADER, "")
    if not given:
        ops_events.csrf_refused("missing", route)
        raise Refused("missing")
    if not _token_ok(given, request.cookies, settings):
        ops_events.csrf_refused("token", route)
        raise Refused("token")


def could_pass(request: Request, *, anonymous_ok: bool = False) -> bool:
    """Whether ``request`` could pass :func:`check`, told from its headers and cookies alone
    (the body unread: a form's token may be in it), cheaply enough for a middleware that runs
    before the route (the per-address rate limits, ``app.web.ratelimits``: a forged request
    must not spend the budget of the address it was sent from).

    False only for a request :func:`check` is sure to refuse: sent from another site, with a
    token header that is not this sender's, or without one and with no identity to bind a
    token to or a body that is not a form. ``anonymous_ok``: the route asks no token of a
    sender without an identity cookie (the record upload, ``app.web.records``), but refuses
    one from another site like every other."""
    settings = request.app.state.settings
    if authorized(request, settings.admin_token):
        return True
    if not same_origin(request, settings):
        return False
    if anonymous_ok and not has_identity_cookie(request):
        return True
    given = request.headers.get(HEADER)
    if given:
        return _token_ok(given, request.cookies, settings)
    return (request.headers.get("content-type", "").startswith(FORM_TYPES)
            and _subject(request.cookies, settings) is not None)


def has_identity_cookie(request: Request) -> bool:
    """Whether the request carries an identity cookie at all (valid or not)."""
    return IDENTITY_COOKIE in request.cookies


#: The attribute :func:`checks_itself` sets on a route's endpoint.
_CHECKS_ITSELF = "csrf_checks_itself"
_Endpoint = TypeVar("_Endpoint", bound=Callable[..., Any])


def checks_itself(endpoint: _Endpoint) -> _Endpoint:
    """Mark a route that calls :func:`check` itself (it reads its own body): :func:`protect`
    leaves it alone."""
    setattr(endpoint, _CHECKS_ITSELF, True)  # a function attribute: no declared field to type
    return endpoint


async def protect(conn: HTTPConnection) -> None:
    """App-wide dependency: :func:`check` every state-changing HTTP request, the token taken
    from the ``X-CSRF-Token`` header or the form field ``csrf_token``."""
    if conn.scope["type"] != "http" or conn.scope.get("method") not in UNSAFE:
        return
    if getattr(conn.scope.get("endpoint"), _CHECKS_ITSELF, False):
        return
    # FastAPI hands an app-wide dependency of an HTTP request the Request itself.
    assert isinstance(conn, Request)
    request = conn
    given = request.headers.get(HEADER)
    if not given and request.headers.get("content-type", "").startswith(FORM_TYPES):
        form = await request.form()  # cached: the route's own Form(...) reads this again
        value = form.get(FIELD)
        given = value if isinstance(value, str) else None
    check(request, given)


# ----- pages ------------------------------------------------------------------------------------
def install(env) -> None:
    """Add ``csrf_token()`` and ``csrf_field()`` to a Jinja2 environment whose templates get
    ``request`` in their context (FastAPI's ``TemplateResponse`` does)."""
    from jinja2 import pass_context

    # A template rendered outside a request (a test of its markup) has no token to give.
    @pass_context
    def csrf_token(ctx) -> str:
        request = ctx.get("request")
        return token(request) if request is not None else ""

    @pass_context
    def csrf_field(ctx) -> Markup:
        return Markup('<input type="hidden" name="%s" value="%s">'
                      % (FIELD, escape(csrf_token(ctx))))

    env.globals.update(csrf_token=csrf_token, csrf_field=csrf_field)


class PreSessionCookie:
    """ASGI middleware: set the ``lair_pre`` cookie made while rendering a page for a visitor
    without an identity (HttpOnly, SameSite=Lax, Secure with ``COOKIE_SECURE``)."""

    def __init__(self, app, settings: Settings):
        self.app = app
        self.secure = settings.cookie_secure

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_cookie(message):
            if message["type"] == "http.response.start":
                made = (scope.get("state") or {}).get("csrf_pre")
                if made:
                    cookie = (f"{PRE_COOKIE}={made}; Max-Age={_PRE_AGE}; Path=/; HttpOnly; "
                              "SameSite=lax" + ("; Secure" if self.secure else ""))
                    message["headers"] = [*message.get("headers", []),
                                          (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, send_with_cookie)
