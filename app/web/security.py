"""Public-site basics (issue 12 §4): security headers on every response and the refusal of the
development ``SECRET_KEY`` anywhere but on this machine.

Headers (:class:`SecurityHeaders`, every HTTP response, pages, JSON, static files and errors):

- ``Content-Security-Policy``: scripts, styles, images, fonts and connections (the websocket
  included) only from this site; no inline scripts (they are files under ``static/js``),
  inline *styles* allowed (renderers colour seats with ``style`` attributes); no plugins;
  forms post only here; ``frame-ancestors 'self'``: no other site can frame a page and trick a
  click on Resign, Cancel or Start.
- ``X-Frame-Options: SAMEORIGIN`` (the same for browsers without CSP 2),
  ``Referrer-Policy: same-origin`` (invite, spectator and rejoin URLs never reach another site),
  ``X-Content-Type-Options: nosniff``, and with ``COOKIE_SECURE=true`` (served over HTTPS)
  ``Strict-Transport-Security: max-age=31536000``.

Development secret: :func:`refuse_dev_secret` (at start-up) stops a process that would serve
beyond loopback with the published default key (anyone could sign identity cookies with it):
the ``HOST`` setting must be a loopback address, ``PUBLIC_URL`` (if set) must name a loopback
host, and ``COOKIE_SECURE`` must be off. A server started another way (``uvicorn --host
0.0.0.0`` without ``HOST``, or behind a proxy) is caught per request: with the default key, a
request that reached a non-loopback address of this machine, or came through a proxy
(``X-Forwarded-For``/``Forwarded``), is answered 503 with the reason.
"""
from __future__ import annotations

import ipaddress
import logging
from urllib.parse import urlsplit

from app.settings import DEV_SECRET, Settings

log = logging.getLogger("lair")

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
])
HSTS = "max-age=31536000"
_DEV_MESSAGE = ("SECRET_KEY is the development default, which anyone can read: set SECRET_KEY "
                "to a long random string (python3 -c 'import secrets; "
                "print(secrets.token_urlsafe(32))') before serving beyond this machine, or "
                "listen on loopback only (HOST=127.0.0.1).")


def headers(settings: Settings) -> list[tuple[bytes, bytes]]:
    """The security headers of every response (HSTS only when served over HTTPS)."""
    out = [(b"content-security-policy", CSP.encode()),
           (b"x-frame-options", b"SAMEORIGIN"),
           (b"referrer-policy", b"same-origin"),
           (b"x-content-type-options", b"nosniff")]
    if settings.cookie_secure:
        out.append((b"strict-transport-security", HSTS.encode()))
    return out


def is_loopback(host: str | None) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1); False for anything
    else, ``0.0.0.0`` and ``::`` (every interface) included."""
    host = (host or "").strip().strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class DevSecretRefused(RuntimeError):
    """The development SECRET_KEY with a HOST beyond loopback: the process does not start."""


def refuse_dev_secret(settings: Settings) -> None:
    """Raise :class:`DevSecretRefused` (clear message) when the development ``SECRET_KEY`` is
    set and ``HOST`` is not a loopback address; log a warning when it is."""
    if settings.secret_key != DEV_SECRET:
        return
    if not is_loopback(settings.host):
        raise DevSecretRefused(f"Refusing to start on HOST={settings.host}: {_DEV_MESSAGE}")
    public = urlsplit(settings.public_url).hostname if settings.public_url else None
    if public is not None and not is_loopback(public):
        raise DevSecretRefused(f"Refusing to start for PUBLIC_URL={settings.public_url}: "
                               f"{_DEV_MESSAGE}")
    if settings.cookie_secure:
        raise DevSecretRefused(f"Refusing to start with COOKIE_SECURE=true (served over "
                               f"HTTPS): {_DEV_MESSAGE}")
    log.warning("SECRET_KEY is the development default: fine on loopback only; set it before "
                "hosting")


def _beyond_loopback(scope) -> bool:
    """Whether a request reached this process from beyond this machine: on a non-loopback
    address of its socket, or through a proxy (``X-Forwarded-For``/``Forwarded``)."""
    server = scope.get("server") or (None, None)
    try:  # an address, not a test client's "testserver" (or a unix socket's path)
        beyond = not ipaddress.ip_address(str(server[0]).strip("[]")).is_loopback
    except ValueError:
        beyond = False
    names = {k.lower() for k, _ in scope.get("headers") or ()}
    return beyond or b"x-forwarded-for" in names or b"forwarded" in names


class SecurityHeaders:
    """ASGI middleware: :func:`headers` on every HTTP response; with the development secret, a
    request that arrived on a non-loopback address gets 503 instead of an answer."""

    def __init__(self, app, settings: Settings):
        self.app = app
        self.headers = headers(settings)
        self.dev_secret = settings.secret_key == DEV_SECRET

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if self.dev_secret and _beyond_loopback(scope):
            log.error(_DEV_MESSAGE)
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1011,
                            "reason": "server misconfigured"})
                return
            body = _DEV_MESSAGE.encode()
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"content-length", str(len(body)).encode()),
                                    *self.headers]})
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in self.headers if h[0] not in have)]
            await send(message)

        await self.app(scope, receive, send_with_headers)
