"""Replays beyond the live table: finished matches with their results, and imported records.

``GET /matches/finished`` lists finished matches (``?mine=1``: your own; ``?page=n``).
``POST /records`` imports a match record file (multipart field ``record``, or the JSON itself
as the body) and redirects to ``/records/{id}``: the same replay viewer as a match's, with
``/records/{id}/replay?step=n`` (same JSON as ``/matches/{id}/replay``) and
``/records/{id}/record`` (the record file again). A refused file gets a page saying why (4xx).

The upload is the one state-changing route that checks CSRF itself (it reads its own capped
body): with an identity cookie it needs this site's origin and the form's ``csrf_token`` (or the
``X-CSRF-Token`` header) like every form; without one (``curl --data-binary``, README) it acts
for nobody and needs no token, but a browser's upload from another site is refused all the same
(it would spend the visitor's per-address budget).
"""
from __future__ import annotations

import asyncio
from typing import AsyncGenerator

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from python_multipart.multipart import parse_options_header
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from app.identity import request_user_id
from app.matches import records, replays
from app.matches.history import finished_matches
from app.matches.views import replay_view
from app.telemetry import events as ops_events
from app.web import csrf
from app.web.deps import AppSettings, CurrentUser, Page, Service
from app.web.templating import renderer_url
from engines import registry

router = APIRouter()
#: Record checks replay a whole match (CPU): one at a time per process keeps the site responsive.
_verifying = asyncio.Semaphore(1)
#: Room for the multipart envelope around the file (boundaries, headers, small fields).
ENVELOPE = 16_384


@router.get("/matches/finished", response_class=HTMLResponse)
async def finished(user: CurrentUser, service: Service, pages: Page, page: int = 1,
                   mine: bool = False) -> Response:
    """Finished matches, newest first, 20 a page: game, players, result, end, replay and
    record links. Private matches are listed only to their participants."""
    page = max(1, min(page, 10_000))
    rows, more = await finished_matches(service.sm, user.id if user else None, mine=mine,
                                        page=page)
    titles = {e.id: e.title for e in registry.ENGINES.values()}
    return pages.render("finished.html", user=user, rows=rows, page=page, more=more,
                        mine=mine, titles=titles)


async def _uploaded_file(request: Request, max_bytes: int) -> tuple[bytes, str | None]:
    """The record file's bytes from a form upload (field ``record``) or a JSON body (at most
    ``max_bytes`` + ``ENVELOPE``: app.web.limits refuses a larger body with a 413 page, so a
    huge upload is never buffered or spooled to disk), and the form's ``csrf_token`` field (None
    for a JSON body)."""
    body = await request.body()
    content_type, _ = parse_options_header(request.headers.get("content-type", ""))
    if content_type != b"multipart/form-data":
        return body, None

    async def stream() -> AsyncGenerator[bytes, None]:
        yield body

    try:
        form = await MultiPartParser(request.headers, stream(), max_files=1, max_fields=4,
                                     max_part_size=max_bytes + 1).parse()
    except MultiPartException as exc:
        raise records.RecordError(f"The upload could not be read ({exc.message}).", 400) \
            from None
    try:
        token = form.get(csrf.FIELD)
        upload = form.get("record")
        if not isinstance(upload, UploadFile):
            raise records.RecordError("Choose a match record file (.json) to open.", 400)
        return await upload.read(max_bytes + 1), token if isinstance(token, str) else None
    finally:
        await form.close()


@router.post("/records")
@csrf.checks_itself
async def import_record(request: Request, service: Service, settings: AppSettings,
                        page: Page) -> Response:
    """Import a match record: validate it (size, JSON, shape, game, rules version, every action
    legal in a replay, final hash) and store it; 303 to its replay. Refusals: a page with the
    reason, 400/413/422; an upload from another site, or a forged one with an identity cookie:
    403 (``app.web.csrf``)."""
    signed_in = csrf.has_identity_cookie(request)
    # From another site, with or without cookies (a browser sends none cross-site: SameSite),
    # it is refused before the body is read: another site's page must not store records in a
    # visitor's name, nor spend the uploads budget of the visitor's address.
    if not csrf.same_origin(request, settings):
        csrf.check(request, None)  # refuses (and logs)
    try:
        raw, token = await _uploaded_file(request, settings.record_max_bytes)
        if signed_in:
            csrf.check(request, token)
        parsed = records.parse(raw, settings.record_max_bytes)
        async with _verifying:
            verified = await asyncio.to_thread(records.verify, parsed)
    except records.RecordError as exc:
        if exc.status == 413:
            ops_events.limit_hit("record_too_large")
        return page.message("This record cannot be opened", exc.message, exc.status,
                            back="/matches/finished")
    row = await records.store(service.sm, verified, request_user_id(request))
    return RedirectResponse(f"/records/{row.id}", status_code=303)


async def _record(service: Service, record_id: str):
    """The imported record ``record_id`` of a hosted game; 404 otherwise."""
    row = await records.load(service.sm, record_id)
    if row is None or row.game not in registry.ENGINES:
        raise HTTPException(404, "No such record.")
    return row


@router.get("/records/{record_id}", response_class=HTMLResponse)
async def record_page(record_id: str, service: Service, user: CurrentUser,
                      page: Page) -> Response:
    """The replay viewer of an imported record (anyone with the link)."""
    row = await records.load(service.sm, record_id)
    if row is None or row.game not in registry.ENGINES:
        return page.message("Not found", "No such match record (the link may be mistyped).",
                            404, back="/matches/finished")
    return page.render("replay.html", user=user, title=registry.get(row.game).title,
                       renderer_url=renderer_url(row.game), steps=len(row.actions), watch="",
                       replay_id=row.id, replay_api=f"/records/{row.id}/replay",
                       back_url="/matches/finished", back_label="Finished matches",
                       record_url=f"/records/{row.id}/record",
                       record_name=f"lair-{row.game}-{row.id}.json", imported=True)


@router.get("/records/{record_id}/replay")
async def record_replay(record_id: str, service: Service, step: int = 0) -> dict:
    """The view at ``step`` of an imported record, everything revealed: ``{"step", "steps",
    "view"}`` as ``/matches/{id}/replay`` gives for the original finished match."""
    row = await _record(service, record_id)
    step = max(0, min(step, len(row.actions)))
    state, written_at = await replays.step_at(
        ("record", row.id, row.seed), row.game, row.players, row.options, row.seed,
        [(s, a) for s, a in row.actions], step, row.engine_version)
    snap = records.snapshot(row)
    return replay_view(registry.get(row.game, row.engine_version), snap, state, written_at,
                       step, len(row.actions), None, reveal=True, final_result=row.result)


@router.get("/records/{record_id}/record")
async def record_file(record_id: str, service: Service) -> JSONResponse:
    """The imported record as a record file (re-imports to the same record)."""
    row = await _record(service, record_id)
    return JSONResponse(records.as_file(row), headers={
        "Content-Disposition": f'attachment; filename="lair-{row.game}-{row.id}.json"'})
