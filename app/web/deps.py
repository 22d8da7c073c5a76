"""What the web routes are given (FastAPI dependencies) and how a refused request is answered.

Dependencies, used as parameter annotations (``user: CurrentUser``):

- ``Service``: the app's ``MatchService``; ``AppSettings``: the app's ``Settings``.
- ``CurrentUser``: the guest of this browser's identity cookie (``app.identity``), or None (no
  cookie, a bad signature, or a guest deleted since).
- ``NamedUser``: the same, required: without one the route does not run and the visitor gets
  the page asking for a name (:class:`NameNeeded`), which goes on to the match page (routes
  under ``/m/{match_id}``) or the lobby.
- ``VisibleMatch``: the ``Snapshot`` of the path's ``match_id`` when this visitor may see it
  (``app.matches.access``, the one policy); ``WatchedMatch``: the same, also granted by an
  invite or spectator link token in the query's ``watch``. Otherwise they raise the
  ``ServiceError('not_found')`` of a missing match: the two are never told apart.
- ``Actor``: the ``NamedUser`` of a ``VisibleMatch`` (the form posts of a match).
- ``Page``: the templates bound to this request (``app.web.templating.Pages``).

Dependencies run in the order of the parameters, before the route and before its form and
query are validated: put ``NamedUser`` before ``VisibleMatch`` where a visitor without a name
must be asked for one first; a malformed post to a match the visitor may not see is its 404.

Refusals: a route lets the service's ``ServiceError`` pass and :func:`service_refused` (the
app's one handler for it) answers: by default a page ("Not possible", or for ``not_found`` the
"Not found" page) with the error's status, leading back to the match page (routes under
``/m/{match_id}``) or the lobby. A route chooses another answer with :func:`refusals`: JSON
``{"detail": message}`` for the JSON API, or back to the lobby form with the message.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal, TypeVar
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection

from app.identity import request_user_id
from app.matches import access
from app.matches.service import MatchService, ServiceError, Snapshot
from app.models import User
from app.settings import Settings
from app.web.templating import Pages


# ----- the app's parts ----------------------------------------------------------------------
def get_service(request: Request) -> MatchService:
    """The app's match service (made in the lifespan, ``app.main``)."""
    return request.app.state.service


def get_settings(request: Request) -> Settings:
    """The settings the app was created with."""
    return request.app.state.settings


Service = Annotated[MatchService, Depends(get_service)]
AppSettings = Annotated[Settings, Depends(get_settings)]
Page = Annotated[Pages, Depends(Pages)]


# ----- who asks -----------------------------------------------------------------------------
class NameNeeded(Exception):
    """The route needs a named guest and the browser has none: the name page answers, going on
    to ``next_url`` once a name is chosen (:func:`name_needed`)."""

    def __init__(self, next_url: str):
        super().__init__(next_url)
        self.next_url = next_url


async def current_user(request: Request, service: Service) -> User | None:
    """The guest of the identity cookie, or None."""
    return await service.get_user(request_user_id(request))


CurrentUser = Annotated[User | None, Depends(current_user)]


async def named_user(request: Request, user: CurrentUser) -> User:
    """The guest of the identity cookie; raises :class:`NameNeeded` without one."""
    if user is None:
        match_id = request.path_params.get("match_id")
        raise NameNeeded(f"/m/{match_id}" if match_id else "/")
    return user


NamedUser = Annotated[User, Depends(named_user)]


# ----- which match --------------------------------------------------------------------------
async def visible_match(request: Request, match_id: str, service: Service) -> Snapshot:
    """The path's match if this visitor may see it; else ``ServiceError('not_found')``."""
    return await access.visible(service, match_id, request_user_id(request))


async def watched_match(request: Request, match_id: str, service: Service,
                        watch: str | None = None) -> Snapshot:
    """As :func:`visible_match`, also for the holder of the invite or spectator link token
    ``watch``."""
    return await access.visible(service, match_id, request_user_id(request), watch)


VisibleMatch = Annotated[Snapshot, Depends(visible_match)]
WatchedMatch = Annotated[Snapshot, Depends(watched_match)]


async def actor(user: NamedUser, snap: VisibleMatch) -> User:
    """The named guest acting on the path's match: asked for a name first, then refused as
    missing when they may not see the match. Whether they may do what they ask (host, seat,
    phase) is the service's to decide."""
    return user


Actor = Annotated[User, Depends(actor)]


# ----- answers ------------------------------------------------------------------------------
def redirect(url: str) -> RedirectResponse:
    """303 to ``url``: every form post answers so, and a reload never posts again."""
    return RedirectResponse(url, status_code=303)


def no_store(response: Response) -> Response:
    """A page holding a secret link: never cached (a shared computer's history or a proxy)."""
    response.headers["Cache-Control"] = "no-store"
    return response


def local_path(url: str) -> bool:
    """True for a path on this site. Browsers read ``/\\host`` as ``//host`` and drop tabs and
    newlines, so anything but a plain ``/path`` could send the user to another site."""
    return (url.startswith("/") and url[1:2] not in ("/", "\\")
            and all(ch.isprintable() and ch not in " \\" for ch in url))


def to_lobby(error: str) -> RedirectResponse:
    """Back to the lobby, which shows ``error`` above its forms."""
    return redirect("/?error=" + quote(error))


# ----- refusals -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Refusals:
    """How a route's ``ServiceError`` is answered: ``answer`` "page" (a message page), "json"
    (``{"detail": message}``) or "lobby" (back to the lobby's forms, the message shown there);
    ``not_found``: the page title of a ``not_found`` refusal (a link: "Invalid link")."""

    answer: Literal["page", "json", "lobby"] = "page"
    not_found: str = "Not found"


_Endpoint = TypeVar("_Endpoint", bound=Callable)


def refusals(answer: Literal["page", "json", "lobby"] = "page",
             not_found: str = "Not found") -> Callable[[_Endpoint], _Endpoint]:
    """Mark a route (under its ``@router`` decorator) with its :class:`Refusals`."""
    how = Refusals(answer, not_found)

    def mark(endpoint: _Endpoint) -> _Endpoint:
        endpoint.refusals = how  # type: ignore[attr-defined]
        return endpoint
    return mark


async def service_refused(conn: HTTPConnection, exc: ServiceError) -> Response:
    """The app's handler of ``ServiceError`` (see the module's docstring): the answer the
    route chose with :func:`refusals`. The message is safe to show (the service never names
    hidden information in it); the state is unchanged."""
    if conn.scope["type"] != "http":  # the socket words its own errors (app.realtime)
        raise exc
    request = conn if isinstance(conn, Request) else Request(conn.scope)
    how: Refusals = getattr(request.scope.get("endpoint"), "refusals", Refusals())
    if how.answer == "json":
        return JSONResponse({"detail": exc.message}, status_code=exc.status)
    if how.answer == "lobby":
        return to_lobby(exc.message)
    if exc.code == "not_found":  # a missing (or hidden) match or link: nothing to go back to
        return Pages(request).message(how.not_found, exc.message, exc.status)
    match_id = request.path_params.get("match_id")
    return Pages(request).message("Not possible", exc.message, exc.status,
                                  back=f"/m/{match_id}" if match_id else "/")


async def name_needed(request: Request, exc: NameNeeded) -> Response:
    """The app's handler of :class:`NameNeeded`: the page asking for a name (status 200)."""
    return Pages(request).name(exc.next_url)
