"""The one way Lair's HTTP server is started: uvicorn with the options taken from the settings.

Every start path goes through here: ``lair serve`` (``make run``, the container), and the tests'
and the bench's servers (:func:`uvicorn_config` for an app object served in a thread or a child
process). So the frame limit, the per-socket queue, the keepalive pings, compression, the proxy
headers and the shutdown budget are set in one place (docs/operations.md, "Settings"):

- ``ws_max_size`` = 2 × ``MAX_MESSAGE_BYTES``: a larger websocket message is refused by the
  websockets library as soon as its frame header (or, compressed, its decompressed size) says so,
  before it is read into memory; the socket closes with 1009 (the table says "message too
  large"). Between the two limits the app answers with the typed error ``too_large`` and the
  socket stays open.
- ``ws_max_queue`` = ``WS_MAX_QUEUE`` messages read ahead per socket.
- ``ws_ping_interval`` / ``ws_ping_timeout``: a peer that stops answering pings (a network that
  silently dropped: no FIN, no close frame) is closed within their sum, so its seat turns away.
- ``ws_per_message_deflate`` = ``WS_DEFLATE``.
- ``proxy_headers`` with ``forwarded_allow_ips`` = ``FORWARDED_ALLOW_IPS``.
- ``timeout_graceful_shutdown`` = ``GRACEFUL_TIMEOUT`` (above ``SHUTDOWN_TIMEOUT``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import uvicorn

from app.settings import Settings

#: JSON logs from uvicorn's first line (app/telemetry/logs.py installs the same handler at start-up).
LOG_CONFIG = str(Path(__file__).resolve().parent / "telemetry" / "log-config.json")


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that come from ``settings`` (keyword arguments of ``uvicorn.Config``)."""
    return {
        "ws_max_size": 2 * settings.max_message_bytes,
        "ws_max_queue": settings.ws_max_queue,
        "ws_ping_interval": settings.ws_ping_interval,
        "ws_ping_timeout": settings.ws_ping_timeout,
        "ws_per_message_deflate": settings.ws_deflate,
        "proxy_headers": True,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
        "timeout_graceful_shutdown": settings.graceful_timeout,
    }


def uvicorn_config(settings: Settings, app: Any, host: str | None = None,
                   port: int | None = None, **overrides: Any) -> uvicorn.Config:
    """A ``uvicorn.Config`` serving ``app`` (an ASGI app or an import string such as
    ``"app.main:app"``) at ``host``:``port`` (default: the settings' ``HOST``/``PORT``) with the
    options of :func:`uvicorn_options`; ``overrides`` are further ``uvicorn.Config`` keyword
    arguments (``log_level``, ``workers``, ``log_config``...), applied last."""
    return uvicorn.Config(app, host=host or settings.host,
                          port=settings.port if port is None else port,
                          **{**uvicorn_options(settings), **overrides})


def serve(settings: Settings, app: Any = "app.main:app", **overrides: Any) -> None:
    """Run the site in this process until SIGTERM/SIGINT (``lair serve``) at the settings'
    ``HOST``:``PORT``: ``WEB_CONCURRENCY`` worker processes (each imports ``app``, an import
    string), JSON logs (``app/telemetry/log-config.json``) unless ``overrides`` say otherwise. Exits
    with status 3 when the server cannot start (uvicorn's start-up failure: a port in use)."""
    uvicorn.run(app, host=settings.host, port=settings.port,
                **{**uvicorn_options(settings), "log_config": LOG_CONFIG,
                   "workers": settings.web_concurrency, **overrides})
