"""The operator's admin pages (``/admin``), enabled by ``ADMIN_TOKEN``.

Access: sign in once with the token (``POST /admin/login``; a signed, HttpOnly, SameSite=Strict
cookie valid 12 hours, invalidated when the token changes), or send ``Authorization: Bearer
<ADMIN_TOKEN>`` (scripts). Without ``ADMIN_TOKEN`` every admin URL is 404. Not signed in: 401.
Sign-in compares the token in constant time, logs each refusal (``admin_login``, ok false) and
is throttled per client address (the rate limit ``admin_login``, ``RATE_ADMIN_LOGIN`` attempts,
app/ratelimit.py: shared by the processes on PostgreSQL): past it, 429 with ``Retry-After`` and
a ``rate_limited`` event, whatever token is given.

Pages: matches by status (``GET /admin?status=active``), one match (``GET /admin/m/{id}``: seats
and players, the public log — the spectator's view, never hidden information — and chat),
``POST /admin/m/{id}/end`` (end an abandoned match), ``POST /admin/chat/{id}/delete``.
"""
from __future__ import annotations

import hashlib
import hmac
import logging

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from itsdangerous import BadSignature, TimestampSigner
from sqlalchemy import delete, func, select

from app.matches.service import MatchService, ServiceError
from app.matches.views import build_view
from app.models import ChatMessage, Match, User
from app.ratelimit import address_key
from app.telemetry.metrics import authorized
from app.web.templating import templates
from engines import registry

log = logging.getLogger("lair.admin")
router = APIRouter(prefix="/admin")
COOKIE = "lair_admin"
MAX_AGE = 12 * 60 * 60
STATUSES = ("active", "open", "finished", "cancelled")


def _signer(request: Request) -> TimestampSigner:
    return TimestampSigner(request.app.state.settings.secret_key, salt="lair-admin")


def _marker(token: str) -> str:
    # The cookie proves knowledge of *this* token without containing it.
    return hashlib.sha256(f"lair-admin:{token}".encode()).hexdigest()[:32]


def is_admin(request: Request) -> bool:
    """True for a valid admin cookie or bearer token. 404 when admin is not configured."""
    token = request.app.state.settings.admin_token
    if not token:
        raise HTTPException(404)
    if authorized(request, token):
        return True
    raw = request.cookies.get(COOKIE)
    if not raw:
        return False
    try:
        value = _signer(request).unsign(raw, max_age=MAX_AGE).decode()
    except BadSignature:
        return False
    return hmac.compare_digest(value, _marker(token))


def _page(request: Request, name: str, status_code: int = 200, **ctx) -> HTMLResponse:
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


def _login(request: Request, error: str | None = None) -> HTMLResponse:
    return _page(request, "admin_login.html", 401, error=error)


def _service(request: Request) -> MatchService:
    return request.app.state.service


@router.post("/login")
async def login(request: Request, token: str = Form("")) -> Response:
    """Check the token; on success set the admin cookie and go to ``/admin``. 429 past
    ``RATE_ADMIN_LOGIN`` attempts from this address (the token is then not even compared)."""
    settings = request.app.state.settings
    if not settings.admin_token:
        raise HTTPException(404)
    limiter = getattr(request.app.state, "limiter", None)
    if limiter is not None:
        verdict = await limiter.hit("admin_login", address_key(
            request.client.host if request.client else None))
        if not verdict.allowed:
            response = _page(request, "admin_login.html", 429, error=verdict.message)
            response.headers["Retry-After"] = str(verdict.retry_after)
            return response
    if not hmac.compare_digest(token.encode(), settings.admin_token.encode()):
        log.warning("admin sign-in refused", extra={"event": "admin_login", "ok": False})
        return _login(request, "Wrong token.")
    log.info("admin signed in", extra={"event": "admin_login", "ok": True})
    signed_in = RedirectResponse("/admin", status_code=303)
    signed_in.set_cookie(COOKIE, _signer(request).sign(_marker(settings.admin_token)).decode(),
                         max_age=MAX_AGE, httponly=True, samesite="strict",
                         secure=settings.cookie_secure, path="/admin")
    return signed_in


@router.post("/logout")
async def logout() -> Response:
    """Forget the admin cookie."""
    response = RedirectResponse("/admin", status_code=303)
    response.delete_cookie(COOKIE, path="/admin")
    return response


@router.get("", response_class=HTMLResponse)
async def matches(request: Request, status: str = "active") -> Response:
    """Matches with ``status`` (most recently updated first, 200 at most) and counts."""
    if not is_admin(request):
        return _login(request)
    status = status if status in STATUSES else "active"
    async with _service(request).sm() as s:
        counts = dict((await s.execute(select(Match.status, func.count())
                                       .group_by(Match.status))).all())
        rows = (await s.execute(
            select(Match, User.name).outerjoin(User, Match.host_id == User.id)
            .where(Match.status == status).order_by(Match.updated_at.desc()).limit(200))).all()
    titles = {e.id: e.title for e in registry.ENGINES.values()}
    return _page(request, "admin.html", status=status, statuses=STATUSES, counts=counts,
                 rows=[{"match": m, "host": host, "title": titles.get(m.game, m.game)}
                       for m, host in rows])


@router.get("/m/{match_id}", response_class=HTMLResponse)
async def match(request: Request, match_id: str) -> Response:
    """One match: seats and players, the public log and result, chat (with remove buttons)."""
    if not is_admin(request):
        return _login(request)
    service = _service(request)
    try:
        snap = await service.snapshot(match_id)
    except ServiceError:
        raise HTTPException(404, "No such match.") from None
    m = snap.match
    view = None
    if m.state is not None:
        hub = request.app.state.hub
        view = build_view(registry.get(m.game, m.engine_version), snap, m.state, m.version, None,
                          presence=hub.presence_of(snap))
    chat = await service.chat_history(match_id, 200)
    return _page(request, "admin_match.html", m=snap.match, seats=snap.seats, view=view,
                 chat=chat)


@router.post("/m/{match_id}/end")
async def end(request: Request, match_id: str) -> Response:
    """End a match that is not over (it becomes cancelled; players' tables reload)."""
    if not is_admin(request):
        return _login(request)
    try:
        await _service(request).end(match_id)
    except ServiceError as exc:
        if exc.code == "not_found":
            raise HTTPException(404, exc.message) from None
    return RedirectResponse(f"/admin/m/{match_id}", status_code=303)


async def remove_chat(service: MatchService, message_id: int) -> str | None:
    """Delete one chat message; returns its match id (None if there was no such message)."""
    async with service.sm() as s:
        match_id = await s.scalar(select(ChatMessage.match_id)
                                  .where(ChatMessage.id == message_id))
        if match_id is not None:
            await s.execute(delete(ChatMessage).where(ChatMessage.id == message_id))
            await s.commit()
    return match_id


@router.post("/chat/{message_id}/delete")
async def delete_chat(request: Request, message_id: int) -> Response:
    """Remove a chat message (it no longer appears in any chat history)."""
    if not is_admin(request):
        return _login(request)
    match_id = await remove_chat(_service(request), message_id)
    if match_id is None:
        raise HTTPException(404, "No such message.")
    log.info("chat message removed", extra={"event": "chat_removed", "match_id": match_id})
    return RedirectResponse(f"/admin/m/{match_id}", status_code=303)
