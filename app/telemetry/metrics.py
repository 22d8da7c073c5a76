"""Prometheus metrics (prometheus-client), served on ``GET /metrics`` to operators only.

Counters and the histogram are process-wide (one process serves one app); the gauges are read at
scrape time from the app's hub, database and pool, so they are never out of step.

Names (all prefixed ``lair_``):
``open_sockets`` (gauge), ``matches_in_progress`` (gauge, status active in the database),
``actions_applied_total{game}``, ``actions_rejected_total{code}``,
``action_seconds{stage}`` (histogram: ``commit`` = receive → durable commit, ``sent`` = receive →
views queued to every socket of this process and the ack queued), ``bot_moves_total{game}``,
``matches_started_total{game}``, ``matches_ended_total{how}``,
``websocket_closes_total{code}``, ``csrf_refused_total{reason}`` (``origin``: sent from another
site; ``missing``: no CSRF token; ``token``: forged or stale CSRF token), ``limit_hits_total{limit}`` (``ws_rate``,
``ws_too_large``, ``ws_slow``, ``ws_per_address``, ``record_too_large``, ``body_too_large``; the rate limits of
app/ratelimit.py count in ``rate_limited_total{rule}``), ``db_pool_connections{state}``
(gauge: ``size``, ``checked_out``, ``idle``, ``overflow``).

Access: ``Authorization: Bearer <ADMIN_TOKEN>`` (else 401); without ``ADMIN_TOKEN`` set, 404.

Several workers on one port (``WEB_CONCURRENCY`` > 1) answer a scrape from whichever worker
accepts it: with ``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory, per prometheus-client's
multiprocess mode; the container sets and empties it) every worker writes its values there and
each scrape sums them: counters, the histogram, open sockets and pool use over the live workers.
"""
from __future__ import annotations

import asyncio
import hmac
import os

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from sqlalchemy import func, select

from app.models import Match

ACTIONS_APPLIED = Counter("lair_actions_applied_total", "Actions committed", ["game"])
ACTIONS_REJECTED = Counter("lair_actions_rejected_total", "Actions refused, by error code",
                           ["code"])
ACTION_SECONDS = Histogram("lair_action_seconds", "Action latency from receipt", ["stage"],
                           buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5))
BOT_MOVES = Counter("lair_bot_moves_total", "Bot moves committed", ["game"])
MATCHES_STARTED = Counter("lair_matches_started_total", "Matches started", ["game"])
MATCHES_ENDED = Counter("lair_matches_ended_total", "Matches ended", ["how"])
WS_CLOSES = Counter("lair_websocket_closes_total", "Websockets closed, by close code", ["code"])
RATE_LIMITED = Counter("lair_rate_limited_total", "Requests refused by a rate limit", ["rule"])
OUTAGE_SECONDS = Counter("lair_outage_seconds_total",
                         "Seconds of outage given back to the running clocks")
BACKGROUND_FAILURES = Counter("lair_background_failures_total",
                              "Background task failures (each retried)", ["task"])
CSRF_REFUSED = Counter("lair_csrf_refused_total",
                       "State-changing requests refused as cross-site, by reason", ["reason"])
LIMIT_HITS = Counter("lair_limit_hits_total", "Requests or messages refused by a limit",
                     ["limit"])
#: prometheus-client's multiprocess mode (read at import, as prometheus-client itself does).
MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
OPEN_SOCKETS = Gauge("lair_open_sockets", "Open match websockets", multiprocess_mode="livesum")
IN_PROGRESS = Gauge("lair_matches_in_progress", "Matches with status active (database)",
                    multiprocess_mode="mostrecent")
POOL = Gauge("lair_db_pool_connections", "Database connection pool use", ["state"],
             multiprocess_mode="livesum")

router = APIRouter()


def authorized(request: Request, token: str) -> bool:
    """True when ``token`` is set and the request carries ``Authorization: Bearer <token>``."""
    given = request.headers.get("authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def refresh_process(app) -> None:
    """Set this process's gauges (open sockets, pool use) from its hub and pool."""
    hub = getattr(app.state, "hub", None)
    OPEN_SOCKETS.set(sum(len(c) for c in hub.conns.values()) if hub else 0)
    db = getattr(app.state, "db", None)
    if db is None:
        return
    pool = db.pool
    for state, read in (("size", "size"), ("checked_out", "checkedout"), ("idle", "checkedin"),
                        ("overflow", "overflow")):
        if hasattr(pool, read):
            POOL.labels(state).set(max(0, getattr(pool, read)()))


async def keep_fresh(app, every: float = 5.0) -> None:
    """Multiprocess mode: a scrape reaches one worker, so every worker writes its own gauges
    every ``every`` seconds (the counters are written as they count)."""
    while True:
        refresh_process(app)
        await asyncio.sleep(every)


def process_exit() -> None:
    """Multiprocess mode: this worker's live gauges stop counting (at shutdown)."""
    if MULTIPROCESS:
        multiprocess.mark_process_dead(os.getpid())


async def refresh(app) -> None:
    """Set the gauges from the app's hub, database and pool (called at each scrape)."""
    refresh_process(app)
    db = getattr(app.state, "db", None)
    if db is None:
        return
    async with db.connect() as conn:
        IN_PROGRESS.set(await conn.scalar(
            select(func.count()).select_from(Match).where(Match.status == "active")) or 0)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Prometheus text format; 404 unless ``ADMIN_TOKEN`` is set and given as a bearer token."""
    token = request.app.state.settings.admin_token
    if not token:
        raise HTTPException(404)
    if not authorized(request, token):
        raise HTTPException(401, headers={"WWW-Authenticate": "Bearer"})
    await refresh(request.app)
    if MULTIPROCESS:  # the sum over every worker's files, not just this worker's values
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
