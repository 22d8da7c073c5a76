"""Readiness: ``GET /readyz`` (``/healthz``, in ``app.web.api``, only says the process is up).

Ready means: the database answers, its Alembic revision is the code's head, and the process is not
shutting down. ``200 {"ready": true, "database": "ok", "migrations": "<rev>"}``, else ``503`` with
``ready: false`` and what is wrong (``database``: "unreachable"; ``migrations``: "behind" with the
database's and the code's revisions; ``shutting_down``: true). A load balancer sends traffic only
to ready processes; the compose file's health check uses it.
"""
from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("lair.health")
router = APIRouter()


@lru_cache
def head_revisions() -> frozenset[str]:
    """The migration heads of the code (from ``migrations/``)."""
    cfg = Config(str(ROOT / "alembic.ini"))
    return frozenset(ScriptDirectory.from_config(cfg).get_heads())


async def database_revisions(db) -> frozenset[str]:
    """The revisions stamped in the database (empty when never migrated)."""
    async with db.connect() as conn:
        try:
            rows = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
        except Exception:  # noqa: BLE001 - no alembic_version table: never migrated
            return frozenset()
    return frozenset(r[0] for r in rows)


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    """200 when the database is reachable and at the migrations' head, else 503 (see module)."""
    if getattr(request.app.state, "stopping", False):
        return JSONResponse({"ready": False, "shutting_down": True}, status_code=503)
    db = request.app.state.db
    try:
        async with db.connect() as conn:
            await conn.execute(text("SELECT 1"))
        have = await database_revisions(db)
    except Exception as exc:  # noqa: BLE001 - any failure to talk to the database
        log.warning("readiness: database unreachable (%s)", type(exc).__name__)
        return JSONResponse({"ready": False, "database": "unreachable"}, status_code=503)
    want = head_revisions()
    if have != want:
        return JSONResponse({"ready": False, "database": "ok", "migrations": "behind",
                             "database_revision": sorted(have), "code_revision": sorted(want)},
                            status_code=503)
    return JSONResponse({"ready": True, "database": "ok", "migrations": ",".join(sorted(want))})
