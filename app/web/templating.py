"""The Jinja2 pages of the site: the one template environment and the page answers built on it.

Every page (the site's routes and the admin pages) renders through :data:`templates`: the
templates in ``templates/``, ``csrf_field()`` and ``csrf_token()`` (app/web/csrf.py) and the
``bot_label`` filter. :class:`Pages` is that environment bound to one request: routes receive
it as the ``Page`` dependency (app/web/deps.py); exception handlers build it themselves.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.matches import access
from app.web import csrf
from engines import levels, registry

ROOT = Path(__file__).resolve().parent.parent.parent
templates = Jinja2Templates(directory=ROOT / "templates")
csrf.install(templates.env)  # csrf_field() in every form, csrf_token() for the scripts

#: Bot names stored before the levels (issue 17): their level first, the old kind after it.
BOT_LEVELS = {"random": "Easy", "greedy": "Normal"}


def bot_label(kind: str) -> str:
    """"Easy", "Normal", "Hard" for the levels (engines.levels); "Easy (random)",
    "Normal (greedy)" for names stored before them; a game's own bot by its kind
    ("Overlord")."""
    kind = str(kind)
    level = BOT_LEVELS.get(kind)
    return f"{level} ({kind})" if level else kind.replace("_", " ").capitalize()


#: What each bot plays like, in a host's words (the waiting room and the table's "hand the seat
#: to a bot" menu). The levels are engines.levels'; a game's own bot says its rules.
BOT_HELP = {
    "easy": "Half its moves the best-looking one, half a random legal move: beatable, "
            "not aimless",
    "normal": "Always the move that looks best one step ahead",
    "hard": "Looks several moves ahead over what its seat could be holding (up to about "
            "a second a move); it never sees hidden cards",
    "overlord": "Plays by the solo rules' Dummy Player priorities, from a seat",
}


def bot_help(kind: str) -> str:
    """One line on how the bot ``kind`` plays ("" for a kind without one); stored names
    ``random``/``greedy`` as their levels."""
    kind = str(kind)
    return BOT_HELP.get(levels.ALIASES.get(kind, kind), "")


templates.env.filters["bot_label"] = bot_label
templates.env.filters["bot_help"] = bot_help


def renderer_url(game: str) -> str:
    """The URL of a game's table renderer (``static/games/<game>/renderer.js``), or the
    fallback renderer's for a game without one."""
    renderer = ROOT / "static" / "games" / game / "renderer.js"
    return (f"/static/games/{game}/renderer.js" if renderer.exists()
            else "/static/js/fallback-renderer.js")


def renderer_styles(url: str) -> list[str]:
    """The stylesheets beside the renderer at ``url`` (``static/games/<game>/*.css``), as URLs
    for the page's head: linked there, the first drawing is already styled (a renderer that
    injected its own stylesheet drew its board unstyled until it arrived)."""
    if not url.startswith("/static/games/"):
        return []
    return list(_game_styles(url.rsplit("/", 1)[0]))


@lru_cache(maxsize=None)
def _game_styles(folder_url: str) -> tuple[str, ...]:
    """The stylesheets in the game folder ``folder_url`` (``/static/games/<game>``): looked
    up once per process, not on every table and replay page (the files ship with the code,
    so they do not change while it runs; a test that adds one calls ``cache_clear``)."""
    folder = ROOT / folder_url.lstrip("/")
    return tuple(f"/{css.relative_to(ROOT).as_posix()}" for css in sorted(folder.glob("*.css")))


templates.env.filters["renderer_styles"] = renderer_styles


class Pages:
    """The templates bound to one request: whole pages, the message page, the name page."""

    def __init__(self, request: Request):
        self.request = request

    def render(self, name: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
        """The template ``name`` with ``ctx`` (and ``request``, added by Starlette)."""
        return templates.TemplateResponse(self.request, name, ctx, status_code=status_code)

    def message(self, title: str, text: str, status_code: int = 400,
                back: str = "/") -> HTMLResponse:
        """A page saying ``text`` under ``title`` with a link ``back`` (a local path)."""
        return self.render("message.html", status_code=status_code, title=title, text=text,
                           user=None, back=back)

    def not_found(self) -> HTMLResponse:
        """The page of a missing match, also for a private match the visitor may not see (the
        two must not be told apart: app/matches/access.py)."""
        return self.message("Not found", access.NOT_FOUND, 404)

    def name(self, next_url: str, error: str | None = None, invited_to=None) -> HTMLResponse:
        """The page asking for a name, then going on to ``next_url``; ``invited_to``: the match
        (``app.models.Match``) an invite link leads to, named on the page."""
        title = registry.get(invited_to.game).title if invited_to is not None else None
        return self.render("name.html", next=next_url, error=error, user=None,
                           invited_title=title,
                           invited_players=getattr(invited_to, "players", None))
