"""The lobby: ``GET /`` (your name, create a match, public open matches, your matches), the
guest's name (``POST /name``) and a new match (``POST /matches``).

Every form post answers with a redirect (303) so a reload never re-posts; a refused one shows
the lobby again with the reason, or the name page with it.
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.identity import clean_name, new_user_id, request_user_id, set_user_cookie
from app.web.deps import (
    AppSettings,
    CurrentUser,
    NamedUser,
    Page,
    Service,
    local_path,
    redirect,
    refusals,
    to_lobby,
)
from app.web.options import option_fields, options_from_form
from engines import registry

router = APIRouter()


def _games() -> list[dict[str, Any]]:
    return [{"id": e.id, "title": e.title, "min": e.min_players, "max": e.max_players,
             "fields": option_fields(e), "bots": list(registry.bots(e.id))}
            for e in registry.ENGINES.values()]


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, user: CurrentUser, service: Service, page: Page) -> Response:
    """The lobby: your name, create a match, public open matches, your matches."""
    lists = await service.lobby(user.id if user else None)
    titles = {e.id: e.title for e in registry.ENGINES.values()}
    return page.render("lobby.html", user=user, games=_games(), titles=titles,
                       error=request.query_params.get("error"), **lists)


@router.post("/name")
async def set_name(request: Request, service: Service, settings: AppSettings, page: Page,
                   name: str = Form(""), next: str = Form("/")) -> Response:
    """Create or rename this browser's guest identity, then go to ``next`` (a local path)."""
    try:  # control characters are no part of a name (and PostgreSQL refuses NUL)
        name = clean_name("".join(ch for ch in name if ch.isprintable() or ch == " "))
    except ValueError as exc:
        return page.name(next, str(exc))
    user_id = request_user_id(request) or new_user_id()
    await service.ensure_user(user_id, name)
    response = redirect(next if local_path(next) else "/")
    set_user_cookie(response, user_id, settings)
    return response


@router.post("/matches")
@refusals(answer="lobby")
async def create_match(request: Request, user: NamedUser, service: Service) -> Response:
    """Create a match from the lobby form: ``game``, ``players``, ``public``, ``opt_<name>``."""
    form = await request.form()
    game = str(form.get("game", ""))
    try:
        engine = registry.get(game)
        players = int(str(form.get(f"players_{game}") or form.get("players") or 0))
    except (KeyError, ValueError):
        return to_lobby("Choose a game and a player count.")
    try:
        options = options_from_form(engine, form)
        match = await service.create_match(
            user.id, game, players, options, public="public" in form,
            host_seat=None if form.get("host_plays") == "no" else 0)
    except ValueError as exc:  # a refused option value (a ServiceError: app.web.deps)
        return to_lobby(str(exc))
    return redirect(f"/m/{match.id}")
