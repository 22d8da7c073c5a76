"""The FastAPI application: wiring of settings, database, match service, hub and routes.

Run with ``uvicorn app.main:app`` (``make run``). The schema comes from Alembic migrations only
(``alembic upgrade head``); the app never creates tables itself.
"""
from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.db import make_engine, make_sessionmaker
from app.fanout import PgFanout
from app.matches.service import MatchService
from app.realtime import Hub
from app.realtime import router as ws_router
from app.routes.api import router as api_router
from app.routes.pages import router as pages_router
from app.settings import DEV_SECRET, Settings, get_settings

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("lair")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application for ``settings`` (default: from the environment)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if settings.secret_key == DEV_SECRET:
            log.warning("SECRET_KEY is the development default; set it before hosting")
        db = make_engine(settings.async_database_url)
        service = MatchService(make_sessionmaker(db), bot_delay=settings.bot_delay)
        app.state.db = db
        app.state.service = service
        hub = app.state.hub = Hub(service, settings)
        fanout = None
        url = settings.async_database_url
        if url.startswith("postgresql+asyncpg://"):
            fanout = PgFanout(url.replace("postgresql+asyncpg://", "postgresql://", 1),
                              lambda match_id, what: hub.on_change(match_id, what, None))
            service.subscribe(fanout.publish)
            await fanout.start()
        await service.resume_bots()
        try:
            yield
        finally:
            if fanout is not None:
                await fanout.close()
            for conns in list(app.state.hub.conns.values()):
                for conn in list(conns):
                    conn.close()
            await db.dispose()

    app = FastAPI(title="Lair", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    app.include_router(pages_router)
    app.include_router(api_router)
    app.include_router(ws_router)
    return app


app = create_app()
