"""Structured JSON logs (python-json-logger): one event per line, with request and match ids.

Every line is a JSON object ``{"time", "level", "logger", "message", "event"?, "request_id"?,
"match_id"?, ...}``. ``request_id``/``match_id`` come from context variables set per request or
socket (:mod:`app.telemetry.requests`), unless the call passes them explicitly.

Secrecy: callers never pass secrets, tokens, seeds, actions or states (see :mod:`app.telemetry.events`).
As a second line of defence :class:`Scrub` removes query strings and the token part of
``/invite/…``, ``/watch/…``, ``/rejoin/…`` URLs from every message, including uvicorn's own
(its websocket log line quotes the full URL, whose ``?watch=`` is a secret).
"""
from __future__ import annotations

import contextvars
import logging
import re
import sys
from typing import IO

from pythonjsonlogger.json import JsonFormatter

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
match_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("match_id", default=None)

_TOKEN_PATH = re.compile(r"(/(?:invite|watch|rejoin)/)[^\s/?\"']+")
_QUERY = re.compile(r"\?[^\s\"']*")


def scrub(text: str) -> str:
    """``text`` without URL query strings and without invite/watch/rejoin tokens."""
    return _QUERY.sub("", _TOKEN_PATH.sub(r"\1…", text))


class Scrub(logging.Filter):
    """Freezes the message (``msg % args``) with tokens and query strings removed, and adds
    the context's ``request_id``/``match_id`` when the record has none."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string must not lose the line
            message = str(record.msg)
        record.msg, record.args = scrub(message), None
        record.__dict__.pop("color_message", None)  # uvicorn's ANSI-coloured duplicate
        for name, var in (("request_id", request_id), ("match_id", match_id)):
            if getattr(record, name, None) is None and var.get() is not None:
                setattr(record, name, var.get())
        return True


class _Stderr(logging.StreamHandler):
    """A stream handler that writes to whatever ``sys.stderr`` is now (test runners swap it)."""

    def __init__(self, stream: IO[str] | None = None):
        super().__init__(stream)
        self._fixed = stream

    @property
    def stream(self) -> IO[str]:  # type: ignore[override]
        return self._fixed or sys.stderr

    @stream.setter
    def stream(self, value: IO[str]) -> None:
        self._fixed = value if value is not sys.stderr else None


def json_formatter() -> logging.Formatter:
    """The JSON line formatter (also named by ``app/telemetry/log-config.json``)."""
    return JsonFormatter("{asctime}{levelname}{name}{message}", style="{",
                         rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
                         datefmt="%Y-%m-%dT%H:%M:%S%z")


def configure(level: str = "INFO", fmt: str = "json", stream: IO[str] | None = None) -> None:
    """Send every log record (ours, uvicorn's, SQLAlchemy's warnings) to ``stream`` (stderr) as
    one JSON line (``fmt="json"``) or as plain text (``fmt="text"``), at ``level``.

    Called at application start-up, after uvicorn has installed its own logging config: its
    error logger is routed through ours and its access log is turned off
    (:mod:`app.telemetry.requests` logs requests without query strings or tokens). When uvicorn
    was started with ``--log-config app/telemetry/log-config.json`` (the container does), that
    handler is reused, so even uvicorn's first lines, written before the app starts, are JSON.
    """
    formatter = (json_formatter() if fmt == "json" else
                 logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    ours: list[logging.Handler] = [h for h in root.handlers
                                   if any(isinstance(f, Scrub) for f in h.filters)]
    if stream is not None or not ours:
        for old in ours:
            root.removeHandler(old)
        handler = _Stderr(stream)
        handler.addFilter(Scrub())
        root.addHandler(handler)
        ours = [handler]
    for each in ours:
        each.setFormatter(formatter)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    logging.getLogger("alembic").setLevel(logging.WARNING)  # /readyz reads the scripts
    # httpx logs every request's URL at INFO: a match webhook's URL holds its owner's secret.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    access = logging.getLogger("uvicorn.access")
    access.handlers.clear()
    access.propagate = False
    access.disabled = True
