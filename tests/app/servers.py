"""Real server processes for the restart and multi-process tests (toy game registered)."""
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

SERVER = """
import uvicorn
from engines import registry
from tests.app.toygame import TOY
registry.register(TOY)
from app.main import create_app
from app.settings import Settings
uvicorn.run(create_app(Settings(database_url={url!r}, secret_key="restart", bot_delay=0)),
            host="127.0.0.1", port={port}, log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(url: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", SERVER.format(url=url, port=port)], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("server did not start")
            time.sleep(0.1)


def view_at(ws, at_least: int = 0) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "view" and msg["view"]["version"] >= at_least:
            return msg["view"]
