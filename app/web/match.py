"""A match's pages: ``GET /m/{id}`` (the waiting room while the match is open, then the table),
the invite and spectator links (``/invite/{token}``, ``/watch/{token}``) and a seat's rejoin
link (``GET /rejoin/{token}``: a page asking to play the seat here; opening it changes nothing).

Who sees what is decided by ``app.matches.access`` (the ``VisibleMatch`` dependency and the
words below); a private match the visitor may not see answers as a missing one (404). The
waiting room works without JavaScript; the table is the live page of ``static/``.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.identity import request_user_id
from app.matches import access, chat_policy, pace
from app.matches.service import Snapshot
from app.matches.snapshot import seat_name
from app.matches.views import seats_summary
from app.models import User
from app.web.deps import (
    CurrentUser,
    Page,
    Service,
    VisibleMatch,
    get_service,
    no_store,
    redirect,
    refusals,
)
from app.web.options import describe_options
from app.web.templating import Pages, renderer_url
from engines import registry

router = APIRouter()


async def render_match(request: Request, snap: Snapshot, user: User | None, *,
                       invite: str | None = None, watch: str | None = None,
                       pace_entered: dict | None = None, pace_error: str | None = None,
                       status_code: int = 200) -> Response:
    """The match page for ``user`` (None: a visitor without a name): the waiting room while
    open, else the table. ``invite``/``watch``: the link token the page was opened with.
    ``pace_entered`` and ``pace_error``: the host's refused pace form, shown again as typed
    with the reason."""
    page = Pages(request)
    m = snap.match
    # An open match lists the live rules (it starts on them); a started one its own version.
    engine = registry.get(m.game, None if m.status == "open" else m.engine_version)
    uid = user.id if user else None
    base = str(request.base_url).rstrip("/")
    links = {"invite": f"{base}/invite/{m.invite_token}", "watch": f"{base}/watch/{m.watch_token}"}
    # the seat's owner (not a device it was granted to) makes its links for other devices
    own_seat = next((i.seat for i in snap.seats if uid and access.owner(i) == uid), None)
    # The invite page listens as a spectator of the waiting room (the invite leads to watching
    # once the match starts anyway): without the spectator token a private match refuses it.
    ws_path = f"/ws/matches/{m.id}" + (f"?watch={m.watch_token}" if watch or invite else "")
    ctx: dict[str, Any] = {
        "user": user, "match": m, "title": engine.title, "you": access.seat_of(snap, uid),
        "is_host": access.is_host(snap, uid),
        "links": links if access.participant(snap, uid) else None,
        "owns_seat": own_seat is not None and m.status != "cancelled", "own_seat": own_seat,
        "elsewhere": access.elsewhere(snap, uid), "ws_path": ws_path, "invite": invite,
        "engine": engine}
    if m.status == "open":
        return page.render("waiting.html", status_code=status_code,
                           **_waiting_room(request, snap, engine, pace_entered, pace_error),
                           **ctx)
    if m.status == "cancelled":
        return page.message("Match cancelled", "The host cancelled this match.", 200)
    rematch_id = (await get_service(request).rematch_id(m.id)) if m.status == "finished" \
        else None
    return page.render("table.html", **_table(snap, engine, user, ctx, watch, rematch_id), **ctx)


def _waiting_room(request: Request, snap: Snapshot, engine, pace_entered: dict | None,
                  pace_error: str | None) -> dict[str, Any]:
    """The waiting room's own context: seats (with who is connected here), teams, bots, the
    match's options and its pace form."""
    m = snap.match
    teams = engine.teams.get(m.players)
    saved = pace.settings_of(m.settings)
    form = dict(pace.stored(saved), **(pace_entered or {}))
    seats = seats_summary(snap, request.app.state.hub.presence_of(snap))
    taken = request.query_params.get("taken", "")
    return dict(seats=seats, empty_seats=sum(1 for x in seats if x["empty"]),
                taken=int(taken) if taken.isdigit() and int(taken) < m.players else None,
                team_of={s: i for i, team in enumerate(teams or []) for s in team},
                bots=list(registry.bots(m.game)),
                option_labels=describe_options(engine, m.options, m.players),
                pace=SimpleNamespace(**form), pace_error=pace_error,
                pace_summary=pace.describe(saved))


def _table(snap: Snapshot, engine, user: User | None, ctx: dict[str, Any],
           watch: str | None, rematch_id: str | None) -> dict[str, Any]:
    """The table page's own context (``ctx``: the context both pages share)."""
    m = snap.match
    uid = user.id if user else None
    you = ctx["you"]
    replay_url = f"/m/{m.id}/replay" + (f"?watch={m.watch_token}" if watch else "")
    replaceable = [i for i in snap.seats if i.user_id and (not user or i.user_id != user.id)]
    resigned = [i.seat for i in snap.seats if i.resigned_at is not None]
    settings = pace.settings_of(m.settings)
    # Participants write the table chat; anyone else is a spectator (app.realtime.at_table
    # decides with app.matches.access, this only words the chat panel).
    return dict(renderer_url=renderer_url(m.game), replay_url=replay_url,
                rematch_url=f"/m/{rematch_id}" if rematch_id else "",
                lobby_url="/", away_seat=access.away_seat(snap, uid),
                # participants write the table chat; anyone else is a spectator
                # (app.matches.chat_policy decides, this only words the chat panel)
                chat_role="table" if chat_policy.at_table(snap, uid) else "spectator",
                can_resign=you is not None and m.status == "active",
                pace_summary=pace.describe(settings),
                resign_ends=you is not None and pace.last_side(
                    m.players, engine.teams, resigned + [you]) is not None,
                replaceable=replaceable if ctx["is_host"] and m.status == "active" else [],
                bots=list(registry.bots(m.game, m.engine_version)),
                stand_in=settings.stand_in)


@router.get("/m/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str, snap: VisibleMatch, user: CurrentUser,
                     page: Page) -> Response:
    """The waiting room (open match) or the live table (started or finished). A private match
    the visitor may not see answers as a missing one (404)."""
    if request_user_id(request) is None and snap.match.status == "open":
        return page.name(f"/m/{match_id}")
    return await render_match(request, snap, user)


@router.get("/invite/{token}", response_class=HTMLResponse)
@refusals(not_found="Invalid invite")
async def invite(request: Request, token: str, service: Service, user: CurrentUser,
                 page: Page) -> Response:
    """An invite link: pick a name if needed, then choose a seat in the waiting room."""
    match = await service.by_token("invite", token)
    if match.status != "open":
        # Too late to take a seat: the invite still lets a friend watch the table.
        return redirect(f"/watch/{match.watch_token}")
    if request_user_id(request) is None or user is None:
        return page.name(f"/invite/{token}", invited_to=match)
    snap = await service.snapshot(match.id)
    return await render_match(request, snap, user, invite=token)


@router.get("/watch/{token}", response_class=HTMLResponse)
@refusals(not_found="Invalid link")
async def watch(request: Request, token: str, service: Service, user: CurrentUser) -> Response:
    """A spectator link: the live public view of the match."""
    match = await service.by_token("watch", token)
    snap = await service.snapshot(match.id)
    return await render_match(request, snap, user, watch=token)


@router.get("/rejoin/{token}")
@refusals(not_found="Invalid link")
async def rejoin(token: str, service: Service, current: CurrentUser, page: Page) -> Response:
    """A rejoin link (a seat's link for another device): a page asking to play that seat here.
    Opening it changes nothing; only the confirmed ``POST`` acts. The seat's own identity is
    sent straight to the match."""
    seat = await service.seat_by_rejoin(token)
    snap = await service.snapshot(seat.match_id)
    info = snap.seats[seat.seat]
    if current is not None and access.owner(info) == current.id \
            and access.player(info) in (None, current.id):
        return redirect(f"/m/{seat.match_id}")
    return no_store(page.render("rejoin.html", user=current, token=token,
                                target=seat_name(info),
                                seat=seat.seat, title=registry.get(snap.match.game).title))
