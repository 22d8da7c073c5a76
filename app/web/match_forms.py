"""A match's form posts: seats, bots, start, cancel, pace, resign, votes, rematch, host, links
and the rejoin links of a seat.

Every post answers with a redirect (303) to the match page, so a reload never re-posts. Who
may act is decided twice over: ``Actor`` (app/web/deps.py) asks a visitor without a name for
one and answers a match they may not see as a missing one; the service refuses what the
visitor may not do (host, seat, phase) with a ``ServiceError``, which the app's one handler
shows as a page leading back to the match (``app.web.deps.service_refused``).
"""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from app.identity import clean_name, new_user_id, request_user_id, set_user_cookie
from app.matches import access, pace
from app.matches.service import MatchService, ServiceError
from app.matches.snapshot import seat_name
from app.web.deps import (
    Actor,
    AppSettings,
    CurrentUser,
    Page,
    Service,
    VisibleMatch,
    no_store,
    redirect,
    refusals,
)
from app.web.match import render_match
from engines import registry

router = APIRouter()


# ----- seats --------------------------------------------------------------------------------
@router.post("/rejoin/{token}")
@refusals(not_found="Invalid link")
async def rejoin_confirmed(token: str, service: Service, user: CurrentUser,
                           settings: AppSettings) -> Response:
    """Confirmed: this browser's identity (a new nameless-guest one, named after the seat, if
    it has none) is granted that one seat of that match and plays it from now on; the device
    that played it shows "Continued on another device". Nothing else of the player's
    (other matches, the host role) comes with it."""
    seat = await service.seat_by_rejoin(token)
    if user is not None:
        identity = user.id
    else:
        snap = await service.snapshot(seat.match_id)
        info = snap.seats[seat.seat]
        identity = new_user_id()
        await service.ensure_user(identity, clean_name(
            seat_name(info)))
    match_id = await service.grant_seat(token, identity)
    response = redirect(f"/m/{match_id}")
    if user is None:  # the new identity's cookie
        set_user_cookie(response, identity, settings)
    return response


@router.post("/m/{match_id}/rejoin-link")
async def make_rejoin_link(request: Request, match_id: str, user: CurrentUser,
                           snap: VisibleMatch, service: Service, page: Page) -> Response:
    """The seat's owner: a new link to play the seat on another device, shown once on the
    answer page (only its hash is kept). The previous link stops working and the devices that
    took the seat with it lose it."""
    if user is None:
        raise access.not_found()
    token = await service.make_rejoin_link(match_id, user.id)
    base = str(request.base_url).rstrip("/")
    return no_store(page.render("rejoin_link.html", user=user, match=snap.match,
                                title=registry.get(snap.match.game).title,
                                link=f"{base}/rejoin/{token}"))


@router.post("/m/{match_id}/play-here")
async def play_here(match_id: str, user: Actor, service: Service) -> Response:
    """"Play here": this device takes the player's seat back from their other device."""
    await service.take_seat_here(match_id, user.id)
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/links")
async def replace_link(match_id: str, user: Actor, service: Service,
                       link: str = Form(...)) -> Response:
    """Host: replace the invite (``link=invite``) or spectator (``link=watch``) link; the old
    one stops working."""
    await service.replace_link(match_id, user.id, link)
    return redirect(f"/m/{match_id}#links")


async def _taken(service: MatchService, match_id: str, seat: int, user_id: str) -> bool:
    """Whether ``seat`` of the still open match went to someone else (a bot or another
    person) meanwhile."""
    now = await service.snapshot(match_id)
    target = next((i for i in now.seats if i.seat == seat), None)
    return now.match.status == "open" and target is not None and \
        (target.bot is not None or target.user_id not in (None, user_id))


@router.post("/m/{match_id}/seat")
async def take_seat(request: Request, match_id: str, service: Service, user: CurrentUser,
                    page: Page, seat: int = Form(...), invite: str = Form("")) -> Response:
    """Take an empty seat (a private match needs its invite token)."""
    snap = await access.visible(service, match_id, request_user_id(request), invite or None)
    invited = access.same_token(invite or None, snap.match.invite_token)
    if not access.may_join(snap, request_user_id(request), invite or None):
        return page.message("Private match", "You need the invite link to join.", 403)
    if user is None:
        return page.name(f"/invite/{invite}" if invited else f"/m/{match_id}")
    try:
        await service.take_seat(match_id, user.id, seat)
    except ServiceError:
        if not await _taken(service, match_id, seat, user.id):
            raise
        # Someone took it a moment ago: back to the room (the invite page for an invited
        # friend), which says so and shows the seats still free.
        back = f"/invite/{invite}" if invited else f"/m/{match_id}"
        return redirect(f"{back}?taken={seat}")
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/leave")
async def leave_seat(request: Request, match_id: str, user: Actor,
                     service: Service) -> Response:
    """Leave your seat before the start. A guest of a private match goes back to its invite
    page (they held the invite to sit there), not to a room they may no longer see."""
    await service.leave_seat(match_id, user.id)
    snap = await service.snapshot(match_id)
    if not access.may_see(snap, request_user_id(request)):
        return redirect(f"/invite/{snap.match.invite_token}")
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/bot")
async def set_bot(match_id: str, user: Actor, service: Service, seat: int = Form(...),
                  bot: str = Form("")) -> Response:
    """Host: put a bot in a seat, or (empty ``bot``) empty the seat / remove its player."""
    await service.set_seat(match_id, user.id, seat, bot or None)
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/fill")
async def fill(match_id: str, user: Actor, service: Service,
               bot: str = Form("random")) -> Response:
    """Host: give every empty seat to a bot."""
    await service.fill_with_bots(match_id, user.id, bot)
    return redirect(f"/m/{match_id}")


# ----- the match ----------------------------------------------------------------------------
@router.post("/m/{match_id}/start")
async def start(match_id: str, user: Actor, service: Service) -> Response:
    """Host: start the match (every seat filled). A second click (a double-click, or the
    host's other tab, maybe on another process) finds it started and opens the table."""
    try:
        await service.start(match_id, user.id)
    except ServiceError as exc:
        if exc.code != "already_started":
            raise
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/cancel")
async def cancel(match_id: str, user: Actor, service: Service) -> Response:
    """Host: cancel the match."""
    await service.cancel(match_id, user.id)
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/replace")
async def replace_with_bot(match_id: str, user: Actor, service: Service,
                           seat: int = Form(...), bot: str = Form("")) -> Response:
    """Host, during the match: a bot plays the seat of a player who left (who may come back)."""
    await service.replace_with_bot(match_id, user.id, seat, bot)
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/reclaim")
async def reclaim(match_id: str, user: Actor, service: Service) -> Response:
    """The player a bot stood in for takes the seat back."""
    await service.reclaim_seat(match_id, user.id)
    return redirect(f"/m/{match_id}")


def _pace_form(form) -> dict[str, Any]:
    """The pace form's fields as ``MatchService.set_pace`` takes them (numbers as ints)."""
    raw: dict[str, Any] = {"pace": str(form.get("pace") or "live"),
                           "webhook": str(form.get("webhook") or ""),
                           "stand_in": str(form.get("stand_in") or "normal")}
    for key in ("bank_minutes", "increment_seconds", "turn_hours", "replace_after_minutes"):
        value = str(form.get(key) or "").strip()
        if value:
            raw[key] = value if not value.isdigit() else int(value)
    # The hints checkbox sends "on" after a hidden "off" (an unticked box sends nothing): a
    # form without the field at all (an older page, a script) leaves hints on.
    said = form.getlist("hints") if hasattr(form, "getlist") else []
    if said:
        raw["hints"] = said[-1] == "on"
    return raw


@router.post("/m/{match_id}/pace")
async def set_pace(request: Request, match_id: str, user: Actor, service: Service,
                   settings: AppSettings) -> Response:
    """Host, in the waiting room: pace (live/turn), time bank, move limit, replacement limit,
    stand-in level, hints on or off, and webhook URL. A typing mistake shows the waiting room again (400) with the form as
    typed and the reason beside it."""
    raw = _pace_form(await request.form())
    try:
        if raw["webhook"] and not settings.webhook_allow_private \
                and pace.literal_private_host(raw["webhook"]):
            raise ServiceError("bad_request", "The webhook must be a public address.")
        await service.set_pace(match_id, user.id, raw)
    except ServiceError as exc:
        if exc.code != "bad_request":
            raise
        snap = await service.snapshot(match_id)
        if snap.match.host_id != user.id:
            raise ServiceError("forbidden", "Only the host can do that.", 403) from None
        if snap.match.status != "open":  # too late
            raise
        return await render_match(request, snap, user, pace_entered=raw,
                                  pace_error=exc.message, status_code=400)
    return redirect(f"/m/{match_id}#pace")


@router.post("/m/{match_id}/resign")
async def resign(match_id: str, user: Actor, service: Service) -> Response:
    """A player resigns (the table asks for confirmation first)."""
    await service.resign(match_id, user.id)
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/vote")
async def vote_replace(request: Request, match_id: str, user: Actor, service: Service,
                       seat: int = Form(...)) -> Response:
    """A player votes to hand an absent player's seat to a bot (after the match's limit)."""
    away_since = request.app.state.hub.away_since(await service.current(match_id), seat)
    await service.vote_replace(match_id, user.id, seat, away_since)
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/rematch")
async def rematch(match_id: str, user: Actor, service: Service) -> Response:
    """Host, after the end: the same players again in a new match (its waiting room); once it
    exists, anyone's click (a second or double click) leads to it."""
    new = await service.rematch(match_id, user.id)
    return redirect(f"/m/{new.id}")


@router.post("/m/{match_id}/host")
async def hand_host(match_id: str, user: Actor, service: Service,
                    seat: int = Form(...)) -> Response:
    """Host: hand the host role to the player in ``seat``."""
    await service.set_host(match_id, user.id, seat)
    return redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/spectator-chat")
async def spectator_chat(match_id: str, user: Actor, service: Service,
                         open: str = Form("")) -> Response:
    """Host: ``open=1`` lets the spectators talk to the table; anything else keeps their chat
    apart from the players' table chat."""
    await service.set_spectator_chat(match_id, user.id, open == "1")
    return redirect(f"/m/{match_id}")


# ----- addresses ----------------------------------------------------------------------------
# Last of the /m/{match_id}/... routes (app.main includes this router after the replay's):
# it answers every other GET address under a match.
@router.get("/m/{match_id}/{form}", include_in_schema=False)
async def form_address(match_id: str, form: str) -> Response:
    """The address of a refused form's answer page (``/m/ID/pace`` after a typing mistake),
    opened again by a reload, a bookmark or the back button: the match page, not a 405."""
    return redirect(f"/m/{quote(match_id, safe='')}" + ("#pace" if form == "pace" else ""))
