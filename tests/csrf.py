"""Test clients that send forms as a page of the site does (issue 12 §2).

Browsers post forms with the page's CSRF token (``app.web.csrf``); the HTTP-level tests post with
httpx clients instead, so :func:`as_browser` gives a client a request hook that adds the
``X-CSRF-Token`` header the site would have put in the page: the HMAC of the request's own
identity cookie, or of a pre-session cookie (added, as the page would have set it, when the
client has no identity yet). The server's check is unchanged: a request whose cookies were
forged still fails it, and the CSRF tests themselves (tests/app/web/test_csrf.py) post without this
hook, taking the token from the served page.
"""
from __future__ import annotations

import secrets
from http.cookies import SimpleCookie

import httpx

from app.settings import Settings
from app.web import csrf

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def as_browser(client: httpx.Client, secret_key: str | None = None) -> httpx.Client:
    """Make ``client`` (a TestClient or an httpx.Client on a test server) send the CSRF token
    with each POST/PUT/PATCH/DELETE that has none. ``secret_key``: the server's (default: the
    TestClient's app's). Returns ``client``."""
    if secret_key is None:
        secret_key = client.app.state.settings.secret_key  # type: ignore[attr-defined]
    settings = Settings(secret_key=secret_key)
    pre = secrets.token_urlsafe(24)

    def add_token(request: httpx.Request) -> None:
        if request.method not in UNSAFE or csrf.HEADER in request.headers:
            return
        jar = SimpleCookie(request.headers.get("cookie", ""))
        cookies = {k: m.value for k, m in jar.items()}
        token = csrf.token_for(cookies, settings)
        if token is None:  # no identity yet: the pre-session cookie a page would have set
            cookies[csrf.PRE_COOKIE] = pre
            request.headers["cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
            token = csrf.token_for(cookies, settings)
        request.headers[csrf.HEADER] = token or ""

    hooks = client.event_hooks
    client.event_hooks = {**hooks, "request": [*hooks.get("request", []), add_token]}
    return client
