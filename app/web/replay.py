"""A match's replay page: ``GET /m/{id}/replay`` steps through the match from its action log
(the steps' views come from ``GET /matches/{id}/replay``, app/web/api.py): filtered for the
visitor while the match runs, everything revealed once it is over."""
from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.matches import access
from app.web.deps import CurrentUser, Page, WatchedMatch
from app.web.templating import renderer_url
from engines import registry

router = APIRouter()


@router.get("/m/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(match_id: str, snap: WatchedMatch, user: CurrentUser, page: Page,
                      watch: str | None = None) -> Response:
    """Step through a match from its action log (everything revealed once it is over)."""
    m = snap.match
    if m.state is None:
        return page.message("Not started", "The match has not started yet.", 404)
    finished = m.status == "finished"
    record_url = f"/matches/{m.id}/record" + (f"?watch={quote(watch)}" if watch else "")
    return page.render("replay.html", user=user, match=m, title=registry.get(m.game).title,
                       renderer_url=renderer_url(m.game), steps=m.version, watch=watch or "",
                       replay_id=m.id, replay_api=f"/matches/{m.id}/replay",
                       back_url=(f"/watch/{m.watch_token}"
                                 if access.same_token(watch, m.watch_token) else f"/m/{m.id}"),
                       back_label="Table", record_url=record_url if finished else None,
                       record_name=f"lair-{m.game}-{m.id}.json", imported=False)
