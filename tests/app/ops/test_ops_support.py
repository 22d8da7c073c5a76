"""Helpers for the operations tests (no tests here): real uvicorn processes whose JSON logs are
kept in a file, and the usual browser steps over HTTP."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.app.servers import (
    START_TIMEOUT,
    free_port,  # noqa: F401 - re-exported for the ops tests
)
from tests.csrf import as_browser

ROOT = Path(__file__).resolve().parents[3]
SECRET = "ops-test-secret-key-0123456789"
ADMIN = "ops-test-admin-token-9876543210"

SERVER = """
import uvicorn
from engines import registry
from tests.app.toygame import TOY
registry.register(TOY)
from app.main import create_app
from app.serve import LOG_CONFIG, uvicorn_config
from app.settings import Settings
settings = Settings(database_url={url!r}, secret_key={secret!r}, bot_delay={bot_delay!r},
                    admin_token={admin!r}, shutdown_timeout=10)
uvicorn.Server(uvicorn_config(settings, create_app(settings), "127.0.0.1", {port},
                              log_level="info", log_config=LOG_CONFIG)).run()
"""


def start_logged_server(url: str, port: int, log_path: Path, bot_delay: float = 0.0
                        ) -> subprocess.Popen:
    """A uvicorn process (toy game registered) writing its logs to ``log_path``; returns once
    ``/readyz`` answers 200. Started the way the container starts it (``--log-config``)."""
    code = SERVER.format(url=url, port=port, secret=SECRET, admin=ADMIN, bot_delay=bot_delay)
    log_file = open(log_path, "ab")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=log_file,
                            stderr=log_file, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise RuntimeError("server did not become ready: " + log_path.read_text()[-2000:])
        time.sleep(0.1)


def browser(base: str, name: str) -> httpx.Client:
    """An HTTP client with a guest identity."""
    c = as_browser(httpx.Client(base_url=base, follow_redirects=True, timeout=10), SECRET)
    c.post("/name", data={"name": name, "next": "/"})
    return c


def cookie_header(c: httpx.Client) -> dict[str, str]:
    """The identity cookie as a header for a websocket handshake."""
    return {"Cookie": f"lair_user={c.cookies['lair_user']}"}


def link(page: str, kind: str) -> str | None:
    """The token of the ``/invite``, ``/watch`` or ``/rejoin`` link on a page."""
    found = re.search(rf"/{kind}/([A-Za-z0-9_-]+)", page)
    return found.group(1) if found else None


def log_records(path: Path) -> list[dict]:
    """Every line of a log file parsed as JSON (fails on a line that is not)."""
    records = []
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            assert isinstance(record, dict), line
            records.append(record)
    return records
