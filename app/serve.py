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
- ``ws`` = :class:`WebSocketProtocol`: uvicorn's own, but a refused frame's memory is freed at
  once, and a burst of closed sockets gives its memory back (:class:`Reclaim`).
- ``proxy_headers`` with ``forwarded_allow_ips`` = ``FORWARDED_ALLOW_IPS``.
- ``timeout_graceful_shutdown`` = ``GRACEFUL_TIMEOUT`` (above ``SHUTDOWN_TIMEOUT``).
"""
from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from app.settings import Settings

#: JSON logs from uvicorn's first line (app/telemetry/logs.py installs the same handler at start-up).
LOG_CONFIG = str(Path(__file__).resolve().parent / "telemetry" / "log-config.json")


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (None where the C library has none, e.g. musl)."""
    try:
        return getattr(ctypes.CDLL(ctypes.util.find_library("c") or None), "malloc_trim", None)
    except OSError:
        return None


def _resident_bytes() -> int | None:
    """This process's resident set size in bytes (``/proc/self/statm``), None where unreadable."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class Reclaim:
    """Gives a burst of closed websockets' memory back to the system, once the closing is over.

    Closed sockets free their objects, but the pages they leave are scattered among live ones, and
    the cycles some of them form (SQLAlchemy's per-query aliases, exceptions' tracebacks) wait for
    a full collection that a process with ~160,000 long-lived objects rarely runs. So RSS stayed
    where the burst took it (360 spectator sockets: +9 %; sending oversized compressed frames:
    +19 % after :class:`WebSocketProtocol`'s fix, docs/operations.md). After at least ``closes``
    sockets have closed and none has for ``quiet`` seconds, and at most once every ``interval``
    seconds, one full collection and glibc's ``malloc_trim(0)`` bring it back to within a few
    percent of where it was. The collection holds the event loop: 0.2-0.35 s measured on a
    2-core machine at load 11 (~140,000 objects; the trim 0.2 ms), so it waits for a pause in
    the closing (a steady stream of closes never triggers it) and runs rarely.

    And only when it pays: when the process's resident memory has grown by at least ``grow`` (a
    fraction) since the last run, or since the process started before the first run. Players
    leaving a busy server close sockets all day without leaving memory behind; collecting after
    each 32 of them held every table's loop for 150-220 ms every half minute (the hard-bots
    bench's latency tail, bench/README.md). Where the resident size cannot be read (no
    ``/proc``), every burst is collected, as before. ``skipped`` counts bursts let go.
    """

    closes = 32
    quiet = 1.0
    interval = 30.0
    grow = 0.05

    def __init__(self, rss: Callable[[], int | None] | None = None) -> None:
        self.closed = 0
        self.last_close = 0.0
        self.last_run = -self.interval
        self.timer: asyncio.TimerHandle | None = None
        self.trim = _malloc_trim()
        self.runs = 0
        self.skipped = 0
        self.rss = rss or _resident_bytes
        self.baseline = self.rss()

    def socket_closed(self) -> None:
        loop = asyncio.get_running_loop()
        self.closed += 1
        self.last_close = loop.time()
        if self.timer is None and self.closed >= self.closes:
            self.timer = loop.call_later(self.quiet, self._check)

    def _check(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        wait = max(self.last_close + self.quiet, self.last_run + self.interval) - now
        if wait > 0:
            self.timer = loop.call_later(wait, self._check)
            return
        self.timer = None
        self.closed = 0
        now_rss = self.rss()
        if (now_rss is not None and self.baseline is not None
                and now_rss < self.baseline * (1 + self.grow)):
            self.skipped += 1  # nothing worth a pause of every table: wait for the next burst
            return
        self.last_run = now
        self.runs += 1
        gc.collect()
        if self.trim is not None:
            self.trim(0)
        self.baseline = self.rss()


_frozen = False


def freeze_start_up(enabled: bool = True) -> bool:
    """Move every object alive now out of the collector's reach (``gc.freeze``), once per
    process: called when the app's start-up is done, what start-up made (modules, routes, the
    games' data, ~140,000 objects) lives as long as the process. A full collection walks every
    tracked object and holds the event loop meanwhile; frozen ones it skips, so it walks only
    what the matches and sockets hold (``GC_FREEZE``, docs/operations.md). Returns False when
    this process had frozen already (a second app in one process, as in the tests: objects of
    an earlier app would stay frozen, never collected) or ``enabled`` is False."""
    global _frozen
    if _frozen or not enabled:
        return False
    gc.collect()  # what is garbage already is not frozen with the rest
    gc.freeze()
    _frozen = True
    return True


def tune_collector(young: int) -> None:
    """Collect the youngest generation every ``young`` net allocations of tracked objects
    instead of CPython's 700 (``GC_YOUNG``; 0 keeps CPython's). A move's work makes thousands of
    short-lived objects: collected every 700, many of them are still in use and get promoted to
    the old generations, where they die later and add to what makes a full collection due
    (which holds the event loop for the whole heap: docs/operations.md)."""
    if young > 0:
        _young, middle, old = gc.get_threshold()
        gc.set_threshold(young, middle, old)


#: This process's reclaimer (one event loop serves every socket of a uvicorn worker).
RECLAIM = Reclaim()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (the one its ``ws="auto"`` picks), less the memory that a burst
    of closed sockets kept (issue 13, item 1; figures in docs/operations.md, ``WS_DEFLATE``).

    When the websockets library refuses a frame (too large, bad compressed data, a protocol error)
    it keeps the exception on the connection (``conn.parser_exc``); the exception's traceback holds
    the parser's frames, whose locals hold the connection again and the data being read. For a
    compressed message above the frame limit that is the ``ws_max_size`` bytes decompressed so
    far: a cycle of about 145 kB per refused socket that only a full collection frees. Dropping
    the traceback once the socket is closed frees it at once; :class:`Reclaim` returns the pages.
    """

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        error: BaseException | None = self.conn.parser_exc
        for _ in range(8):  # the exception and what it was raised from
            if error is None:
                break
            error.__traceback__ = None
            error = error.__cause__ or error.__context__
        RECLAIM.socket_closed()


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that come from ``settings`` (keyword arguments of ``uvicorn.Config``)."""
    return {
        "ws": WebSocketProtocol,
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
