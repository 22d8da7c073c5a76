"""Real server processes (toy game registered) for the restart, multi-process, crash,
slow-client and OpenAPI tests."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
#: The servers' SECRET_KEY (tests.csrf.as_browser signs the clients' CSRF tokens with it).
SECRET = "test-server"
#: Seconds a subprocess server may take to answer after its start (or work it resumes, to
#: show): a loaded CI machine (the suite, other jobs) can take a minute to import and migrate.
START_TIMEOUT = 90.0

SERVER = """
import uvicorn
from engines import registry
from tests.app.toygame import TOY
registry.register(TOY)
from app.main import create_app
from app.serve import uvicorn_config
from app.settings import Settings
settings = Settings(database_url={url!r}, secret_key={secret!r}, **{settings!r})
uvicorn.Server(uvicorn_config(settings, create_app(settings), "127.0.0.1", {port},
                              log_level="warning")).run()
"""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(url: str, port: int, **settings) -> subprocess.Popen:
    """Start the app on ``url`` (a migrated database) at 127.0.0.1:``port`` with ``settings``
    (``Settings`` fields; bots act at once unless ``bot_delay`` is given); returns once
    ``/healthz`` answers. Raises ``RuntimeError`` if it does not start within ``START_TIMEOUT`` s."""
    settings = {"bot_delay": 0, **settings}
    proc = subprocess.Popen([sys.executable, "-c", SERVER.format(url=url, port=port, secret=SECRET,
                                                                 settings=settings)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("server did not start")
            time.sleep(0.05)


def complete(held: dict | None, view: dict) -> dict:
    """A whole view from a wire view and the one the socket held before, as the table client
    does (static/js/table.js ``completeView``; docs/wire.md): the held log plus the new
    events, and the ``kept`` game parts."""
    view = json.loads(json.dumps(view))
    start = view.pop("log_from", 0)
    if start:
        assert held is not None and len(held["log"]) == start, "delta does not fit the held log"
        view["log"] = held["log"] + view["log"]
    for key in view.pop("kept", []):
        view["game"][key] = held["game"][key]
    return view


#: The last whole view of each socket (by id: a socket's first view is always whole, so an id
#: reused by a later socket starts afresh).
_held: dict[int, dict] = {}


def view_at(ws, at_least: int = 0) -> dict:
    """The next whole view of ``ws`` with a version of at least ``at_least``. Every view of
    the socket must be read through here (each completes the next)."""
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "view":
            view = _held[id(ws)] = complete(_held.get(id(ws)), msg["view"])
            if view["version"] >= at_least:
                return view
