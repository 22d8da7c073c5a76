"""The FastAPI application: wiring of settings, database, match service, hub and routes.

Run with ``lair serve`` (``make run``; app/serve.py: uvicorn with the settings' options). The
schema comes from Alembic migrations only (``alembic upgrade head``); the app never creates
tables itself.

Telemetry (``app/telemetry/``): JSON logs configured at start-up, request/match ids per
request, ``/metrics``. Operations (``app/ops/``): ``/readyz``, ``/admin`` (operator token) and the
graceful shutdown: uvicorn closes the sockets with 1012 on SIGTERM, then the lifespan drains
in-flight actions and bot moves and hands pending bot moves to the other processes before the
database is closed.
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles

from app.background import retry_forever, spawn, supervise
from app.db import make_engine, make_sessionmaker
from app.matches.botpool import BotPool
from app.matches.expiry import Expiry
from app.matches.idle import IdleSweeper
from app.matches.pace.timer import ClockTimer
from app.matches.service import MatchService, ServiceError
from app.matches.watch import OutsideChanges
from app.matches.webhooks import Webhooks
from app.ops.admin import router as admin_router
from app.ops.health import router as health_router
from app.ops.shutdown import drain
from app.ratelimit import Limiter
from app.realtime.fanout import HandOver, PgFanout, relay
from app.realtime.hub import Hub
from app.realtime.socket import router as ws_router
from app.serve import freeze_start_up, tune_collector
from app.settings import Settings, get_settings
from app.telemetry import events as logs_events
from app.telemetry import logs, metrics
from app.telemetry.metrics import router as metrics_router
from app.telemetry.requests import RequestContext
from app.web import api, csrf, lobby, match, match_forms, records, replay, rules, security
from app.web.deps import NameNeeded, name_needed, service_refused
from app.web.limits import BodyLimit, Limit, too_large
from app.web.ratelimits import AddressLimits
from app.web.refusals import refused_form, refused_request

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("lair")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application for ``settings`` (default: from the environment)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # Here, not at import: uvicorn installs its own logging config after importing the app.
        logs.configure(settings.log_level, settings.log_format)
        try:  # the published development key only on loopback (app/web/security.py)
            security.refuse_dev_secret(settings)
        except security.DevSecretRefused as exc:
            log.critical(str(exc))
            raise
        if settings.web_concurrency > 1 and settings.async_database_url.startswith("sqlite"):
            log.error("WEB_CONCURRENCY > 1 needs PostgreSQL: SQLite processes do not see each "
                      "other's moves live")
        db = make_engine(settings.async_database_url, pool_size=settings.db_pool_size,
                         max_overflow=settings.db_pool_overflow,
                         pool_timeout=settings.db_pool_timeout)
        service = MatchService(make_sessionmaker(db), bot_delay=settings.bot_delay,
                               bot_pool=BotPool(settings.bot_workers or None,
                                                settings.bot_think_seconds,
                                                hint_wait=settings.hint_wait_seconds or None))
        app.state.db = db
        app.state.service = service
        hub = app.state.hub = Hub(service, settings)
        hub.limiter = app.state.limiter = Limiter(settings, db)  # app/ratelimit.py
        fanout = None
        url = settings.async_database_url
        if url.startswith("postgresql+asyncpg://"):
            fanout = PgFanout(url.replace("postgresql+asyncpg://", "postgresql://", 1),
                              lambda match_id, message, origin: relay(
                                  service, hub, match_id, message, origin))
            service.notifier = fanout
            await fanout.start()
        # Background work restarts after a failure, with back-off (app/background.py).
        announcing = supervise("presence", hub.keep_announcing) if fanout is not None else None
        gauges = (supervise("metrics gauges", lambda: metrics.keep_fresh(app))
                  if metrics.MULTIPROCESS else None)
        timer = app.state.timer = ClockTimer(service, settings.clock_poll,
                                             settings.clock_outage_after)
        # A move after an outage gives its time back first (app.matches.outage), bots' too.
        service.moves.before = timer.heartbeats.catch_up
        try:
            await service.resume_bots()
            resuming = None
        except Exception:  # the database away or its pool starved: keep trying in the background
            log.warning("cannot resume the bots yet; retrying in the background", exc_info=True)
            resuming = spawn(retry_forever("resume bots", service.resume_bots), "resume bots")
        app.state.webhooks = Webhooks(service, settings.site_url, timeout=settings.webhook_timeout,
                                      allow_private=settings.webhook_allow_private)
        timer.start()  # re-arms every stored deadline, as resume_bots does for bots
        sweeper = app.state.sweeper = IdleSweeper(service, hub, settings.match_idle_ttl)
        sweeper.start()  # frees the memory kept for matches idle with no socket here
        expiry = app.state.expiry = Expiry(service, settings.open_match_ttl, settings.guest_ttl,
                                           settings.expiry_every)
        expiry.start()  # deletes never-started matches and unused guests (app/matches/expiry.py)
        outside = app.state.outside = None
        if fanout is None:  # SQLite: no NOTIFY, so look for what `lair end` changed
            outside = app.state.outside = OutsideChanges(service, lambda: list(hub.conns),
                                     lambda match_id, change: hub.on_change(match_id, change),
                                     settings.clock_poll)
            outside.start()
        freeze_start_up(settings.gc_freeze)  # (app/serve.py: once per process)
        tune_collector(settings.gc_young)
        try:
            yield
        finally:
            # uvicorn has stopped accepting connections and closed the sockets (1012) by now.
            app.state.stopping = True
            await timer.stop()
            await sweeper.stop()
            await expiry.stop()
            for task in (announcing, gauges, resuming):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            if outside is not None:
                await outside.stop()
            handoff = await drain(service, settings.shutdown_timeout)
            service.bot_pool.close()
            if fanout is not None:
                for match_id in handoff:  # another process makes these bots' moves
                    await fanout.publish(match_id, HandOver())
                await fanout.close()
            for conns in list(app.state.hub.conns.values()):
                for conn in list(conns):
                    conn.close()
                    await _close_quietly(conn.ws, 1012, "service restart")
            await db.dispose()
            metrics.process_exit()
            logs_events.shutdown("done", handed_off=len(handoff))

    # Every state-changing route is checked for cross-site forgery (app/web/csrf.py).
    app = FastAPI(title="Lair", lifespan=lifespan, docs_url=None, redoc_url=None,
                  dependencies=[Depends(csrf.protect)])
    app.state.settings = settings
    app.state.stopping = False
    app.add_middleware(csrf.PreSessionCookie, settings=settings)
    app.add_middleware(security.SecurityHeaders, settings=settings)
    app.add_middleware(RequestContext)
    # Handlers registered through FastAPI's decorator (the same add_exception_handler call):
    # Starlette types add_exception_handler's handler as taking any Exception, not the class
    # it is registered for.
    app.exception_handler(RequestValidationError)(refused_form)
    app.exception_handler(413)(too_large)
    app.exception_handler(csrf.Refused)(refused_request)
    # The service's refusals as a page, JSON or the lobby, as the route chose (app/web/deps.py).
    app.exception_handler(ServiceError)(service_refused)
    app.exception_handler(NameNeeded)(name_needed)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    # match_forms after replay: its catch-all GET /m/{id}/{form} must not hide /m/{id}/replay.
    for web in (lobby, match, replay, match_forms, records, api):
        app.include_router(web.router)
    app.include_router(ws_router)
    app.include_router(health_router)
    app.include_router(metrics_router)
    app.include_router(admin_router)
    app.include_router(rules.router)
    # Per-address limits of the routes that create something (app/web/ratelimits.py).
    app.add_middleware(AddressLimits)
    # Every request body is capped (app/web/limits.py): forms small, record uploads larger.
    # Added last, so it wraps every other middleware: keep it the last add_middleware.
    app.add_middleware(BodyLimit, default=settings.form_max_bytes,
                       paths={"/records": Limit(
                           settings.record_max_bytes + records.ENVELOPE,
                           "This record cannot be opened",
                           f"A record file is at most {settings.record_max_bytes // 1000} kB.")})
    return app


async def _close_quietly(ws, code: int, reason: str) -> None:
    """Close a socket at shutdown, giving up after 1 s. Only ordinary errors are swallowed: a
    swallowed cancellation would leave the lifespan (and the process) waiting forever."""
    try:
        async with asyncio.timeout(1):
            await ws.close(code=code, reason=reason)
    except (Exception, TimeoutError):  # already closed, or the peer is gone
        pass


app = create_app()
