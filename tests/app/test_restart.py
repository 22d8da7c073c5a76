"""A server restart loses nothing (issue 2, "Tests": the restart test), on every database.

A real uvicorn process serves a toy match; it is killed mid match, started again on the same
database, the player reconnects and continues from the identical state.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(url: str, port: int) -> subprocess.Popen:
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


def _view(ws, at_least: int = 0) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "view" and msg["view"]["version"] >= at_least:
            return msg["view"]


def test_restart_mid_match_continues_from_identical_state(database_url):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(database_url, port)
    try:
        ann = httpx.Client(base_url=base, follow_redirects=True)
        bob = httpx.Client(base_url=base, follow_redirects=True)
        ann.post("/name", data={"name": "Ann", "next": "/"})
        bob.post("/name", data={"name": "Bob", "next": "/"})
        r = ann.post("/matches", data={"game": "toy", "players_toy": "2", "public": "on"})
        mid = str(r.url).rsplit("/", 1)[1]
        bob.post(f"/m/{mid}/seat", data={"seat": "1"})
        ann.post(f"/m/{mid}/start")
        ws_url = f"ws://127.0.0.1:{port}/ws/matches/{mid}"
        cookie = lambda c: {"Cookie": f"lair_user={c.cookies['lair_user']}"}  # noqa: E731
        with connect(ws_url, additional_headers=cookie(ann)) as a, \
                connect(ws_url, additional_headers=cookie(bob)) as b:
            _view(a), _view(b)
            a.send(json.dumps({"type": "action", "id": "1", "version": 0,
                               "action": {"type": "bid", "n": 3}}))
            _view(a, 1)
            b.send(json.dumps({"type": "action", "id": "2", "version": 1,
                               "action": {"type": "bid", "n": 1}}))
            _view(b, 2)
            a.send(json.dumps({"type": "action", "id": "3", "version": 2,
                               "action": {"type": "take", "n": 2}}))
            before = _view(a, 3)
        proc.send_signal(signal.SIGKILL)  # no graceful shutdown: only the database survives
        proc.wait(timeout=10)
        proc = _start(database_url, port)
        with connect(ws_url, additional_headers=cookie(ann)) as a, \
                connect(ws_url, additional_headers=cookie(bob)) as b:
            after = _view(a)
            for key in ("version", "game", "log", "legal_actions", "prompt", "header"):
                assert after[key] == before[key], key
            bob_view = _view(b)
            assert bob_view["prompt"]["kind"] == "take"
            b.send(json.dumps({"type": "action", "id": "4", "version": 3,
                               "action": {"type": "take", "n": 2}}))
            assert _view(b, 4)["game"]["pile"] == 3
    finally:
        proc.kill()
        proc.wait(timeout=10)
