"""JSON endpoints: replay steps, match records and the list of games."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from app.identity import request_user_id
from app.matches import access, replays
from app.matches.records import hint_entries, record_file, seat_entries
from app.matches.views import replay_view
from app.web.deps import Service, WatchedMatch, refusals
from engines import registry
from engines.records import state_hash

router = APIRouter()


@router.get("/healthz")
async def healthz() -> dict:
    """The process is up."""
    return {"ok": True}


@router.get("/api/games")
async def games() -> list[dict]:
    """Every hosted game: id, title, player counts, options schema, teams, bots."""
    return [{"id": e.id, "title": e.title, "min_players": e.min_players,
             "max_players": e.max_players, "options": e.options.model_json_schema(),
             "teams": {str(k): v for k, v in e.teams.items()},
             "bots": list(registry.bots(e.id))} for e in registry.ENGINES.values()]


@router.get("/matches/{match_id}/replay")
@refusals(answer="json")
async def replay(request: Request, match_id: str, snap: WatchedMatch, service: Service,
                 step: int = 0) -> dict:
    """The view at ``step`` (0 = after setup) of a started match (``watch``, in the query: an
    invite or spectator link token, for a private match).

    While the match runs the view is filtered for the asking seat (a spectator's view for
    anyone else who may watch); once it is finished, everything is revealed. Response:
    ``{"step", "steps", "view"}``. 404 for unknown/unstarted matches and for a private one
    the visitor may not see (exactly as for an unknown one).
    """
    m = snap.match
    if m.status in ("open",) or m.state is None:
        raise HTTPException(404, "The match has not started.")
    seat = access.seat_of(snap, request_user_id(request))
    finished = m.status == "finished"
    rows = await service.actions(match_id, upto=m.version)
    step = max(0, min(step, len(rows)))
    state, written_at = await replays.step_at(
        ("match", match_id, m.seed), m.game, m.players, m.options, m.seed,
        [(r.seat, r.action) for r in rows], step, m.engine_version)
    engine = registry.get(m.game, m.engine_version)
    viewer = None if finished else seat
    return replay_view(engine, snap, state, written_at, step, len(rows), viewer,
                       reveal=finished, final_result=m.result if finished else None)


@router.get("/matches/{match_id}/record")
@refusals(answer="json")
async def record(match_id: str, snap: WatchedMatch, service: Service) -> dict:
    """The complete record (seed, options, actions, final state hash, result, the seats' public
    names) of a finished match; ``POST /records`` imports it again (app/matches/records.py).

    Public matches: anyone; private ones: their participants and link holders (anyone else:
    the 404 of an unknown match)."""
    m = snap.match
    if m.status != "finished":
        raise HTTPException(403, "The record is published when the match is over.")
    rows = await service.actions(match_id)
    return record_file(game=m.game, version=m.engine_version, players=m.players,
                       options=m.options, seed=m.seed,
                       actions=[[r.seat, r.action] for r in rows],
                       final_hash=state_hash(m.started_state), result=m.result,
                       seats=seat_entries(snap), hints=hint_entries(snap))


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> RedirectResponse:
    """Browsers ask for /favicon.ico; the icon is an SVG."""
    return RedirectResponse("/static/favicon.svg", status_code=308)
