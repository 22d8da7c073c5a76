"""HTML pages and form posts: lobby, names, create/join/leave/start, invite, watch, rejoin.

Every form post answers with a redirect (303) so a reload never re-posts; errors re-render the
page with a message. The pages work without JavaScript except the live table itself.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, get_args, get_origin, Literal
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app import csrf
from app.identity import clean_name, new_user_id, request_user_id, set_user_cookie
from app.matches import access, chat_policy, pace
from app.matches.service import MatchService, ServiceError, Snapshot
from app.matches.snapshot import seat_name
from app.matches.views import seats_summary
from engines import registry
from engines.base import Engine

ROOT = Path(__file__).resolve().parent.parent.parent
templates = Jinja2Templates(directory=ROOT / "templates")
csrf.install(templates.env)  # csrf_field() in every form, csrf_token() for the scripts
router = APIRouter()


def _service(request: Request) -> MatchService:
    return request.app.state.service


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def option_fields(engine: Engine) -> list[dict[str, Any]]:
    """The create-match form fields of a game's options model.

    ``[{name, label, kind: "select"|"bool"|"int"|"seat", choices, default, help}]`` derived from
    the pydantic fields (``Literal`` -> select, ``bool`` -> checkbox, ``int`` -> number,
    ``int | None`` bounded by ``ge``/``le`` -> a select of seats with "none", values 0-based).
    """
    fields = []
    for name, info in engine.options.model_fields.items():
        ann = info.annotation
        args = get_args(ann)
        if set(args) == {int, type(None)}:
            bounds = {type(m).__name__: m for m in info.metadata}
            low = getattr(bounds.get("Ge"), "ge", 0)
            high = getattr(bounds.get("Le"), "le", engine.max_players - 1)
            fields.append({"name": name, "label": info.title or name.replace("_", " ").capitalize(),
                           "default": info.default, "help": info.description or "",
                           "kind": "seat", "choices": list(range(low, high + 1)),
                           **_solo_marks(info)})
            continue
        field: dict[str, Any] = {"name": name, "label": info.title or name.replace("_", " ")
                                 .capitalize(), "default": info.default,
                                 "help": info.description or "", **_solo_marks(info)}
        if get_origin(ann) is Literal:
            field.update(kind="select", choices=list(get_args(ann)))
        elif ann is bool:
            field.update(kind="bool")
        elif ann is int:
            field.update(kind="int")
        else:
            continue
        fields.append(field)
    return fields


def _solo_marks(info) -> dict[str, Any]:
    """What a game's options model says about solo play, for one field: ``solo_only`` (a
    setting of solo games only: its title ends with "(solo)", or ``json_schema_extra``
    ``{"solo": "only"}``) and ``solo_value`` (the value a solo game always plays with,
    ``json_schema_extra`` ``{"solo_value": ...}``)."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    title = (info.title or "").strip().lower()
    marks: dict[str, Any] = {"solo_only": extra.get("solo") == "only" or title.endswith("(solo)")}
    if "solo_value" in extra:
        marks["solo_value"] = extra["solo_value"]
    return marks


def describe_options(engine: Engine, options: dict[str, Any],
                     players: int | None = None) -> list[tuple[str, str]]:
    """``[(label, value)]`` of a match's options as the create form showed them: a solo match
    (``players`` 1) shows the values solo play forces and its solo settings; a multiplayer
    match leaves the solo settings out."""
    out = []
    for field in option_fields(engine):
        if field["solo_only"] and players is not None and players > 1:
            continue
        value = options.get(field["name"], field["default"])
        if players == 1 and "solo_value" in field:
            value = field["solo_value"]
        if field["kind"] == "seat":
            shown = "—" if value is None else f"Seat {value + 1}"
        elif field["kind"] == "bool":
            shown = "yes" if value else "no"
        else:
            shown = str(value)
        out.append((field["label"], shown))
    return out


#: Bot names stored before the levels (issue 17): their level first, the old kind after it.
BOT_LEVELS = {"random": "Easy", "greedy": "Normal"}


def bot_label(kind: str) -> str:
    """"Easy", "Normal", "Hard" for the levels (engines.levels); "Easy (random)",
    "Normal (greedy)" for names stored before them; a game's own bot by its kind
    ("Overlord")."""
    kind = str(kind)
    level = BOT_LEVELS.get(kind)
    return f"{level} ({kind})" if level else kind.replace("_", " ").capitalize()


templates.env.filters["bot_label"] = bot_label


def _games() -> list[dict[str, Any]]:
    return [{"id": e.id, "title": e.title, "min": e.min_players, "max": e.max_players,
             "fields": option_fields(e), "bots": list(registry.bots(e.id))}
            for e in registry.ENGINES.values()]


async def _user(request: Request):
    return await _service(request).get_user(request_user_id(request))


def _page(request: Request, name: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


def _name_page(request: Request, next_url: str, error: str | None = None,
               invited_to=None) -> HTMLResponse:
    title = registry.get(invited_to.game).title if invited_to is not None else None
    return _page(request, "name.html", next=next_url, error=error, user=None,
                 invited_title=title, invited_players=getattr(invited_to, "players", None))


def _message(request: Request, title: str, text: str, status_code: int = 400,
             back: str = "/") -> HTMLResponse:
    return _page(request, "message.html", status_code=status_code, title=title, text=text,
                 user=None, back=back)


def _not_found(request: Request) -> HTMLResponse:
    """The page of a missing match, also for a private match the visitor may not see (the two
    must not be told apart: app/matches/access.py)."""
    return _message(request, "Not found", access.NOT_FOUND, 404)


async def _visible(request: Request, match_id: str, token: str | None = None
                   ) -> Snapshot | None:
    """The match if this visitor may see it, else None (answer with :func:`_not_found`)."""
    try:
        return await access.visible(_service(request), match_id, request_user_id(request),
                                    token)
    except ServiceError:
        return None


def _no_store(response: Response) -> Response:
    """A page holding a secret link: never cached (a shared computer's history or a proxy)."""
    response.headers["Cache-Control"] = "no-store"
    return response


def _local_path(url: str) -> bool:
    """True for a path on this site. Browsers read ``/\\host`` as ``//host`` and drop tabs and
    newlines, so anything but a plain ``/path`` could send the user to another site."""
    return (url.startswith("/") and url[1:2] not in ("/", "\\")
            and all(ch.isprintable() and ch not in " \\" for ch in url))


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    """The lobby: your name, create a match, public open matches, your matches."""
    user = await _user(request)
    lists = await _service(request).lobby(user.id if user else None)
    titles = {e.id: e.title for e in registry.ENGINES.values()}
    return _page(request, "lobby.html", user=user, games=_games(), titles=titles,
                 error=request.query_params.get("error"), **lists)


@router.post("/name")
async def set_name(request: Request, name: str = Form(""), next: str = Form("/")) -> Response:
    """Create or rename this browser's guest identity, then go to ``next`` (a local path)."""
    try:  # control characters are no part of a name (and PostgreSQL refuses NUL)
        name = clean_name("".join(ch for ch in name if ch.isprintable() or ch == " "))
    except ValueError as exc:
        return _name_page(request, next, str(exc))
    user_id = request_user_id(request) or new_user_id()
    await _service(request).ensure_user(user_id, name)
    target = next if _local_path(next) else "/"
    response = _redirect(target)
    set_user_cookie(response, user_id, request.app.state.settings)
    return response


@router.post("/matches")
async def create_match(request: Request) -> Response:
    """Create a match from the lobby form: ``game``, ``players``, ``public``, ``opt_<name>``."""
    user = await _user(request)
    if user is None:
        return _name_page(request, "/")
    form = await request.form()
    game = str(form.get("game", ""))
    try:
        engine = registry.get(game)
        players = int(str(form.get(f"players_{game}") or form.get("players") or 0))
    except (KeyError, ValueError):
        return _redirect("/?error=" + quote("Choose a game and a player count."))
    options: dict[str, Any] = {}
    for field in option_fields(engine):
        key = f"opt_{game}_{field['name']}"
        if field["kind"] == "bool":
            options[field["name"]] = key in form
        elif field["kind"] == "seat":
            value = str(form.get(key) or "")
            options[field["name"]] = int(value) if value.isdigit() else None
        elif field["kind"] == "int":
            value = str(form.get(key) or "").strip()
            if value:  # empty: the option's default (e.g. solo-only settings in a 2-player game)
                try:
                    options[field["name"]] = int(value)
                except ValueError:
                    return _redirect("/?error=" + quote(f"{field['label']}: a whole number, "
                                                        "please."))
        elif key in form:
            options[field["name"]] = form[key]
    try:
        match = await _service(request).create_match(
            user.id, game, players, options, public="public" in form,
            host_seat=None if form.get("host_plays") == "no" else 0)
    except (ServiceError, ValueError) as exc:
        return _redirect("/?error=" + quote(getattr(exc, "message", str(exc))))
    return _redirect(f"/m/{match.id}")


async def _render_match(request: Request, snap: Snapshot, *, invite: str | None = None,
                        watch: str | None = None, pace_entered: dict | None = None,
                        pace_error: str | None = None, status_code: int = 200) -> Response:
    """The match page: the waiting room while open, else the table. ``pace_entered`` and
    ``pace_error``: the host's refused pace form, shown again as typed with the reason."""
    user = await _user(request)
    m = snap.match
    # An open match lists the live rules (it starts on them); a started one its own version.
    engine = registry.get(m.game, None if m.status == "open" else m.engine_version)
    uid = user.id if user else None
    you = access.seat_of(snap, uid)
    is_host = access.is_host(snap, uid)
    base = str(request.base_url).rstrip("/")
    links = {"invite": f"{base}/invite/{m.invite_token}", "watch": f"{base}/watch/{m.watch_token}"}
    # the seat's owner (not a device it was granted to) makes its links for other devices
    own_seat = next((i.seat for i in snap.seats if uid and access.owner(i) == uid), None)
    owns_seat = own_seat is not None and m.status != "cancelled"
    # The invite page listens as a spectator of the waiting room (the invite leads to watching
    # once the match starts anyway): without the spectator token a private match refuses it.
    ws_path = f"/ws/matches/{m.id}" + (f"?watch={m.watch_token}" if watch or invite else "")
    ctx = dict(user=user, match=m, title=engine.title, you=you, is_host=is_host,
               links=links if access.participant(snap, uid) else None, owns_seat=owns_seat,
               own_seat=own_seat,
               elsewhere=access.elsewhere(snap, uid), ws_path=ws_path, invite=invite,
               engine=engine)
    if m.status == "open":
        hub = request.app.state.hub
        teams = engine.teams.get(m.players)
        team_of = {s: i for i, team in enumerate(teams or []) for s in team}
        saved = pace.settings_of(m.settings)
        form = dict(pace.stored(saved), **(pace_entered or {}))
        seats = seats_summary(snap, hub.presence_of(m.id, m.players))
        taken = request.query_params.get("taken", "")
        return _page(request, "waiting.html", status_code=status_code,
                     seats=seats, empty_seats=sum(1 for x in seats if x["empty"]),
                     taken=int(taken) if taken.isdigit() and int(taken) < m.players else None,
                     team_of=team_of, bots=list(registry.bots(m.game)),
                     option_labels=describe_options(engine, m.options, m.players),
                     pace=SimpleNamespace(**form), pace_error=pace_error,
                     pace_summary=pace.describe(saved), **ctx)
    if m.status == "cancelled":
        return _message(request, "Match cancelled", "The host cancelled this match.", 200)
    renderer = ROOT / "static" / "games" / m.game / "renderer.js"
    renderer_url = (f"/static/games/{m.game}/renderer.js" if renderer.exists()
                    else "/static/js/fallback-renderer.js")
    replay_url = f"/m/{m.id}/replay" + (f"?watch={m.watch_token}" if watch else "")
    away_seat = access.away_seat(snap, uid)
    replaceable = [i for i in snap.seats if i.user_id and (not user or i.user_id != user.id)]
    # Participants write the table chat; anyone else is a spectator (app.matches.chat_policy
    # decides, this only words the chat panel).
    chat_role = "table" if chat_policy.at_table(snap, uid) else "spectator"
    rematch_id = (await _service(request).rematch_id(m.id)) if m.status == "finished" else None
    return _page(request, "table.html", renderer_url=renderer_url, replay_url=replay_url,
                 rematch_url=f"/m/{rematch_id}" if rematch_id else "",
                 lobby_url="/", away_seat=away_seat, chat_role=chat_role,
                 can_resign=you is not None and m.status == "active",
                 pace_summary=pace.describe(pace.settings_of(m.settings)),
                 resign_ends=you is not None and pace.last_side(
                     m.players, engine.teams,
                     [i.seat for i in snap.seats if i.resigned_at is not None] + [you]
                 ) is not None,
                 replaceable=replaceable if is_host and m.status == "active" else [],
                 bots=list(registry.bots(m.game, m.engine_version)),
                 stand_in=pace.settings_of(m.settings).stand_in, **ctx)


@router.get("/m/{match_id}", response_class=HTMLResponse)
async def match_page(request: Request, match_id: str) -> Response:
    """The waiting room (open match) or the live table (started or finished). A private match
    the visitor may not see answers as a missing one (404)."""
    snap = await _visible(request, match_id)
    if snap is None:
        return _not_found(request)
    user_id = request_user_id(request)
    if user_id is None and snap.match.status == "open":
        return _name_page(request, f"/m/{match_id}")
    return await _render_match(request, snap)


@router.get("/invite/{token}", response_class=HTMLResponse)
async def invite(request: Request, token: str) -> Response:
    """An invite link: pick a name if needed, then choose a seat in the waiting room."""
    service = _service(request)
    try:
        match = await service.by_token("invite", token)
    except ServiceError as exc:
        return _message(request, "Invalid invite", exc.message, 404)
    if match.status != "open":
        # Too late to take a seat: the invite still lets a friend watch the table.
        return _redirect(f"/watch/{match.watch_token}")
    if request_user_id(request) is None or await _user(request) is None:
        return _name_page(request, f"/invite/{token}", invited_to=match)
    snap = await service.snapshot(match.id)
    return await _render_match(request, snap, invite=token)


@router.get("/watch/{token}", response_class=HTMLResponse)
async def watch(request: Request, token: str) -> Response:
    """A spectator link: the live public view of the match."""
    service = _service(request)
    try:
        match = await service.by_token("watch", token)
    except ServiceError as exc:
        return _message(request, "Invalid link", exc.message, 404)
    snap = await service.snapshot(match.id)
    return await _render_match(request, snap, watch=token)


@router.get("/rejoin/{token}")
async def rejoin(request: Request, token: str) -> Response:
    """A rejoin link (a seat's link for another device): a page asking to play that seat here.
    Opening it changes nothing; only the confirmed ``POST`` acts. The seat's own identity is
    sent straight to the match."""
    service = _service(request)
    try:
        seat = await service.seat_by_rejoin(token)
        snap = await service.snapshot(seat.match_id)
    except ServiceError as exc:
        return _message(request, "Invalid link", exc.message, 404)
    current = await _user(request)
    info = snap.seats[seat.seat]
    if current is not None and access.owner(info) == current.id \
            and access.player(info) in (None, current.id):
        return _redirect(f"/m/{seat.match_id}")
    return _no_store(_page(request, "rejoin.html", user=current, token=token,
                           target=seat_name(info),
                           seat=seat.seat, title=registry.get(snap.match.game).title))


@router.post("/rejoin/{token}")
async def rejoin_confirmed(request: Request, token: str) -> Response:
    """Confirmed: this browser's identity (a new nameless-guest one, named after the seat, if
    it has none) is granted that one seat of that match and plays it from now on; the device
    that played it shows "Continued on another device". Nothing else of the player's
    (other matches, the host role) comes with it."""
    service = _service(request)
    try:
        seat = await service.seat_by_rejoin(token)
        user = await _user(request)
        new_identity = None
        if user is None:
            snap = await service.snapshot(seat.match_id)
            info = snap.seats[seat.seat]
            new_identity = new_user_id()
            await service.ensure_user(new_identity, clean_name(
                seat_name(info)))
        match_id = await service.grant_seat(token, user.id if user else new_identity)
    except ServiceError as exc:
        return _message(request, "Invalid link" if exc.code == "not_found" else "Not possible",
                        exc.message, exc.status)
    response = _redirect(f"/m/{match_id}")
    if new_identity is not None:
        set_user_cookie(response, new_identity, request.app.state.settings)
    return response


@router.post("/m/{match_id}/rejoin-link")
async def make_rejoin_link(request: Request, match_id: str) -> Response:
    """The seat's owner: a new link to play the seat on another device, shown once on the
    answer page (only its hash is kept). The previous link stops working and the devices that
    took the seat with it lose it."""
    user = await _user(request)
    snap = await _visible(request, match_id)
    if user is None or snap is None:
        return _not_found(request)
    try:
        token = await _service(request).make_rejoin_link(match_id, user.id)
    except ServiceError as exc:
        return _message(request, "Not possible", exc.message, exc.status, back=f"/m/{match_id}")
    base = str(request.base_url).rstrip("/")
    return _no_store(_page(request, "rejoin_link.html", user=user, match=snap.match,
                           title=registry.get(snap.match.game).title,
                           link=f"{base}/rejoin/{token}"))


@router.post("/m/{match_id}/play-here")
async def play_here(request: Request, match_id: str) -> Response:
    """"Play here": this device takes the player's seat back from their other device."""
    service = _service(request)
    return await _host_or_player_action(request, match_id,
                                        lambda uid: service.take_seat_here(match_id, uid))


@router.post("/m/{match_id}/links")
async def replace_link(request: Request, match_id: str, link: str = Form(...)) -> Response:
    """Host: replace the invite (``link=invite``) or spectator (``link=watch``) link; the old
    one stops working."""
    service = _service(request)
    return await _host_or_player_action(
        request, match_id, lambda uid: service.replace_link(match_id, uid, link),
        anchor="#links")


async def _host_or_player_action(request: Request, match_id: str, op,
                                 anchor: str = "", token: str | None = None) -> Response:
    """Run ``op(user id)`` for this browser's identity and go back to the match; a match the
    visitor may not see (with ``token``: an invite link's) answers as a missing one."""
    user = await _user(request)
    if user is None:
        return _name_page(request, f"/m/{match_id}")
    if await _visible(request, match_id, token) is None:  # as missing, also when private
        return _not_found(request)
    try:
        await op(user.id)
    except ServiceError as exc:
        return _message(request, "Not possible", exc.message, exc.status, back=f"/m/{match_id}")
    return _redirect(f"/m/{match_id}{anchor}")


@router.post("/m/{match_id}/seat")
async def take_seat(request: Request, match_id: str, seat: int = Form(...),
                    invite: str = Form("")) -> Response:
    """Take an empty seat (a private match needs its invite token)."""
    service = _service(request)
    snap = await _visible(request, match_id, invite or None)
    if snap is None:
        return _not_found(request)
    invited = access.same_token(invite or None, snap.match.invite_token)
    if not access.may_join(snap, request_user_id(request), invite or None):
        return _message(request, "Private match", "You need the invite link to join.", 403)
    user = await _user(request)
    if user is None:
        return _name_page(request, f"/invite/{invite}" if invited else f"/m/{match_id}")
    try:
        await service.take_seat(match_id, user.id, seat)
    except ServiceError as exc:
        now = await service.snapshot(match_id)
        target = next((i for i in now.seats if i.seat == seat), None)
        if now.match.status == "open" and target is not None and \
                (target.bot is not None or target.user_id not in (None, user.id)):
            # Someone took it a moment ago: back to the room (the invite page for an invited
            # friend), which says so and shows the seats still free.
            back = f"/invite/{invite}" if invited else f"/m/{match_id}"
            return _redirect(f"{back}?taken={seat}")
        return _message(request, "Not possible", exc.message, exc.status, back=f"/m/{match_id}")
    return _redirect(f"/m/{match_id}")


@router.post("/m/{match_id}/leave")
async def leave_seat(request: Request, match_id: str) -> Response:
    """Leave your seat before the start. A guest of a private match goes back to its invite
    page (they held the invite to sit there), not to a room they may no longer see."""
    service = _service(request)
    response = await _host_or_player_action(request, match_id,
                                            lambda uid: service.leave_seat(match_id, uid))
    if response.status_code == 303:
        snap = await service.snapshot(match_id)
        if not access.may_see(snap, request_user_id(request)):
            return _redirect(f"/invite/{snap.match.invite_token}")
    return response


@router.post("/m/{match_id}/bot")
async def set_bot(request: Request, match_id: str, seat: int = Form(...),
                  bot: str = Form("")) -> Response:
    """Host: put a bot in a seat, or (empty ``bot``) empty the seat / remove its player."""
    service = _service(request)
    return await _host_or_player_action(
        request, match_id, lambda uid: service.set_seat(match_id, uid, seat, bot or None))


@router.post("/m/{match_id}/fill")
async def fill(request: Request, match_id: str, bot: str = Form("random")) -> Response:
    """Host: give every empty seat to a bot."""
    service = _service(request)
    return await _host_or_player_action(
        request, match_id, lambda uid: service.fill_with_bots(match_id, uid, bot))


@router.post("/m/{match_id}/start")
async def start(request: Request, match_id: str) -> Response:
    """Host: start the match (every seat filled). A second click (a double-click, or the
    host's other tab, maybe on another process) finds it started and opens the table."""
    service = _service(request)

    async def start_once(uid: str) -> None:
        try:
            await service.start(match_id, uid)
        except ServiceError as exc:
            if exc.code != "already_started":
                raise
    return await _host_or_player_action(request, match_id, start_once)


@router.post("/m/{match_id}/cancel")
async def cancel(request: Request, match_id: str) -> Response:
    """Host: cancel the match."""
    service = _service(request)
    return await _host_or_player_action(request, match_id,
                                        lambda uid: service.cancel(match_id, uid))


@router.post("/m/{match_id}/replace")
async def replace_with_bot(request: Request, match_id: str, seat: int = Form(...),
                           bot: str = Form("")) -> Response:
    """Host, during the match: a bot plays the seat of a player who left (who may come back)."""
    service = _service(request)
    return await _host_or_player_action(
        request, match_id, lambda uid: service.replace_with_bot(match_id, uid, seat, bot))


@router.post("/m/{match_id}/reclaim")
async def reclaim(request: Request, match_id: str) -> Response:
    """The player a bot stood in for takes the seat back."""
    service = _service(request)
    return await _host_or_player_action(request, match_id,
                                        lambda uid: service.reclaim_seat(match_id, uid))


@router.post("/m/{match_id}/pace")
async def set_pace(request: Request, match_id: str) -> Response:
    """Host, in the waiting room: pace (live/turn), time bank, move limit, replacement limit
    and webhook URL."""
    form = await request.form()
    raw: dict[str, Any] = {"pace": str(form.get("pace") or "live"),
                           "webhook": str(form.get("webhook") or ""),
                           "stand_in": str(form.get("stand_in") or "normal")}
    for key in ("bank_minutes", "increment_seconds", "turn_hours", "replace_after_minutes"):
        value = str(form.get(key) or "").strip()
        if value:
            raw[key] = value if not value.isdigit() else int(value)
    settings = request.app.state.settings
    service = _service(request)
    user = await _user(request)
    if user is None:
        return _name_page(request, f"/m/{match_id}")
    if await _visible(request, match_id) is None:
        return _not_found(request)
    try:
        if raw["webhook"] and not settings.webhook_allow_private \
                and pace.literal_private_host(raw["webhook"]):
            raise ServiceError("bad_request", "The webhook must be a public address.")
        await service.set_pace(match_id, user.id, raw)
    except ServiceError as exc:
        snap = None
        if exc.code == "bad_request":
            try:
                snap = await service.snapshot(match_id)
            except ServiceError:
                snap = None
        if snap is not None and snap.match.host_id != user.id:
            return _message(request, "Not possible", "Only the host can do that.", 403,
                            back=f"/m/{match_id}")
        if snap is None or snap.match.status != "open":  # not the host, or too late
            return _message(request, "Not possible", exc.message, exc.status,
                            back=f"/m/{match_id}")
        # a typing mistake: the form again, as typed, with the reason beside it
        return await _render_match(request, snap, pace_entered=raw, pace_error=exc.message,
                                   status_code=400)
    return _redirect(f"/m/{match_id}#pace")


@router.post("/m/{match_id}/resign")
async def resign(request: Request, match_id: str) -> Response:
    """A player resigns (the table asks for confirmation first)."""
    service = _service(request)
    return await _host_or_player_action(request, match_id,
                                        lambda uid: service.resign(match_id, uid))


@router.post("/m/{match_id}/vote")
async def vote_replace(request: Request, match_id: str, seat: int = Form(...)) -> Response:
    """A player votes to hand an absent player's seat to a bot (after the match's limit)."""
    service = _service(request)
    hub = request.app.state.hub
    return await _host_or_player_action(
        request, match_id,
        lambda uid: service.vote_replace(match_id, uid, seat, hub.away_since(match_id, seat)))


@router.post("/m/{match_id}/rematch")
async def rematch(request: Request, match_id: str) -> Response:
    """Host, after the end: the same players again in a new match (its waiting room); once it
    exists, anyone's click (a second or double click) leads to it."""
    user = await _user(request)
    if user is None:
        return _name_page(request, f"/m/{match_id}")
    if await _visible(request, match_id) is None:
        return _not_found(request)
    try:
        new = await _service(request).rematch(match_id, user.id)
    except ServiceError as exc:
        return _message(request, "Not possible", exc.message, exc.status, back=f"/m/{match_id}")
    return _redirect(f"/m/{new.id}")


@router.post("/m/{match_id}/host")
async def hand_host(request: Request, match_id: str, seat: int = Form(...)) -> Response:
    """Host: hand the host role to the player in ``seat``."""
    service = _service(request)
    return await _host_or_player_action(request, match_id,
                                        lambda uid: service.set_host(match_id, uid, seat))


@router.post("/m/{match_id}/spectator-chat")
async def spectator_chat(request: Request, match_id: str, open: str = Form("")) -> Response:
    """Host: ``open=1`` lets the spectators talk to the table; anything else keeps their chat
    apart from the players' table chat."""
    service = _service(request)
    return await _host_or_player_action(
        request, match_id, lambda uid: service.set_spectator_chat(match_id, uid, open == "1"))


@router.get("/m/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, match_id: str, watch: str | None = None) -> Response:
    """Step through a match from its action log (everything revealed once it is over)."""
    snap = await _visible(request, match_id, watch)
    if snap is None:
        return _not_found(request)
    m = snap.match
    if m.state is None:
        return _message(request, "Not started", "The match has not started yet.", 404)
    renderer = ROOT / "static" / "games" / m.game / "renderer.js"
    renderer_url = (f"/static/games/{m.game}/renderer.js" if renderer.exists()
                    else "/static/js/fallback-renderer.js")
    finished = m.status == "finished"
    return _page(request, "replay.html", user=await _user(request), match=m,
                 title=registry.get(m.game).title, renderer_url=renderer_url,
                 steps=m.version, watch=watch or "", replay_id=m.id,
                 replay_api=f"/matches/{m.id}/replay",
                 back_url=(f"/watch/{m.watch_token}" if access.same_token(watch, m.watch_token)
                           else f"/m/{m.id}"),
                 back_label="Table",
                 record_url=f"/matches/{m.id}/record" + (f"?watch={quote(watch)}" if watch
                                                         else "") if finished else None,
                 record_name=f"lair-{m.game}-{m.id}.json", imported=False)


@router.get("/m/{match_id}/{form}", include_in_schema=False)
async def form_address(match_id: str, form: str) -> Response:
    """The address of a refused form's answer page (``/m/ID/pace`` after a typing mistake),
    opened again by a reload, a bookmark or the back button: the match page, not a 405."""
    return _redirect(f"/m/{quote(match_id, safe='')}" + ("#pace" if form == "pace" else ""))


async def refused_form(request: Request, exc: RequestValidationError) -> Response:
    """A malformed form or query (``seat=abc``, a missing field) as a page for a browser,
    which asked for HTML: the first problem in words and a way back. Other clients (the
    table's fetches, the JSON API) keep FastAPI's 422 JSON answer."""
    if "text/html" not in request.headers.get("accept", ""):
        return await request_validation_exception_handler(request, exc)
    first = (exc.errors() or [{}])[0]
    where = " ".join(str(x) for x in first.get("loc", ()) if x not in ("body", "query", "path"))
    text = f"{where}: {first.get('msg', 'not valid')}" if where else "The request was not valid."
    back = request.url.path.rsplit("/", 1)[0] if request.url.path.startswith("/m/") else "/"
    return _message(request, "Not possible", text, 400, back=back if _local_path(back) else "/")


async def refused_request(request: Request, exc: csrf.Refused) -> Response:
    """A state-changing request refused by the CSRF guard (``app.csrf``), 403: for a browser
    (it asked for HTML) a page saying what to do, else JSON ``{"detail", "code"}`` with code
    ``csrf_origin``, ``csrf_missing`` (no token at all) or ``csrf_token`` (stale or forged)."""
    if exc.reason == "origin":
        text = ("This form was sent from another site, so Lair did not act on it. If you sent "
                "it from Lair, reload the page and try again.")
    elif exc.reason == "missing":
        text = ("This form had no security token, so Lair did not act on it. Reload the page "
                "and try again.")
    else:
        text = ("This page is out of date (you may have changed your name or device in another "
                "tab since it was opened). Reload the page and try again.")
    if "text/html" not in request.headers.get("accept", ""):
        return JSONResponse({"detail": text, "code": f"csrf_{exc.reason}"}, status_code=403)
    path, back = request.url.path, "/"
    if path.startswith("/m/"):
        back = "/m/" + path.split("/")[2]
    elif path.startswith(("/rejoin/", "/admin")):  # the confirmation page / the admin pages
        back = path if path.startswith("/rejoin/") else "/admin"
    return _message(request, "Reload and try again", text, 403,
                    back=back if _local_path(back) else "/")
