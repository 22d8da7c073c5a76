"""A real uvicorn process with chosen settings (toy game registered), for the crash, slow
client and OpenAPI tests. ``tests/app/servers.py`` has the fixed-settings variant."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]

SERVER = """
import uvicorn
from engines import registry
from tests.app.toygame import TOY
registry.register(TOY)
from app.main import create_app
from app.settings import Settings
uvicorn.run(create_app(Settings(database_url={url!r}, secret_key="procs", **{settings!r})),
            host="127.0.0.1", port={port}, log_level="warning")
"""


def start_server(url: str, port: int, **settings) -> subprocess.Popen:
    """Start the app on ``url`` (a migrated database) at 127.0.0.1:``port`` with ``settings``
    (``Settings`` fields, e.g. ``bot_delay=0.01``); returns once ``/healthz`` answers.
    Raises ``RuntimeError`` if it does not start within 30 s."""
    proc = subprocess.Popen([sys.executable, "-c", SERVER.format(url=url, port=port,
                                                                 settings=settings)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("server did not start")
            time.sleep(0.05)
