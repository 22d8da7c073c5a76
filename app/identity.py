"""Guest identity: a signed, HttpOnly, SameSite=Lax cookie holding the user's id.

SameSite=Lax (not Strict) so an invite link opened from a chat app arrives with the cookie.
The cookie carries only an opaque id signed with ``SECRET_KEY`` (itsdangerous); names live in
the ``users`` table.
"""
from __future__ import annotations

import unicodedata
import uuid

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeSerializer

from app.settings import Settings

COOKIE = "lair_user"
_MAX_AGE = 60 * 60 * 24 * 365


def _serializer(settings: Settings) -> URLSafeSerializer:
    return URLSafeSerializer(settings.secret_key, salt="lair-identity")


def new_user_id() -> str:
    """A fresh random user id (UUID4 string)."""
    return str(uuid.uuid4())


def read_user_id(cookies: dict[str, str], settings: Settings) -> str | None:
    """The user id in a valid cookie, else None (missing, tampered or signed with another key)."""
    raw = cookies.get(COOKIE)
    if not raw:
        return None
    try:
        value = _serializer(settings).loads(raw)
    except BadSignature:
        return None
    return value if isinstance(value, str) else None


def set_user_cookie(response: Response, user_id: str, settings: Settings) -> None:
    """Attach the signed identity cookie to ``response``."""
    response.set_cookie(COOKIE, _serializer(settings).dumps(user_id), max_age=_MAX_AGE,
                        httponly=True, samesite="lax", secure=settings.cookie_secure, path="/")


def request_user_id(request: Request) -> str | None:
    """The user id of an HTTP request's cookie (see :func:`read_user_id`)."""
    return read_user_id(request.cookies, request.app.state.settings)


def clean_name(name: str) -> str:
    """A display name: invisible characters removed, whitespace collapsed, 1-24 characters.

    Raises ``ValueError`` when nothing is left.
    """
    # Control and format characters (NUL, zero-width spaces, right-to-left overrides) would
    # make a name invisible or reverse the text around it in every log line.
    visible = "".join(ch for ch in str(name) if unicodedata.category(ch) not in ("Cc", "Cf"))
    name = " ".join(visible.split())[:24]
    if not name:
        raise ValueError("Please choose a name.")
    return name
