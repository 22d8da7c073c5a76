"""A server restart loses nothing (issue 2, "Tests": the restart test), on every database.

A real uvicorn process serves a toy match; it is killed mid match, started again on the same
database, the player reconnects and continues from the identical state.
"""
from __future__ import annotations

import json
import signal

import httpx
import pytest
from websockets.sync.client import connect

from tests.app.servers import SECRET, free_port, start_server, view_at
from tests.csrf import as_browser

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


def test_restart_mid_match_continues_from_identical_state(database_url):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(database_url, port)
    try:
        ann = as_browser(httpx.Client(base_url=base, follow_redirects=True), SECRET)
        bob = as_browser(httpx.Client(base_url=base, follow_redirects=True), SECRET)
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
            view_at(a), view_at(b)
            a.send(json.dumps({"type": "action", "id": "1", "version": 0,
                               "action": {"type": "bid", "n": 3}}))
            view_at(a, 1)
            b.send(json.dumps({"type": "action", "id": "2", "version": 1,
                               "action": {"type": "bid", "n": 1}}))
            view_at(b, 2)
            a.send(json.dumps({"type": "action", "id": "3", "version": 2,
                               "action": {"type": "take", "n": 2}}))
            before = view_at(a, 3)
        proc.send_signal(signal.SIGKILL)  # no graceful shutdown: only the database survives
        proc.wait(timeout=10)
        proc = start_server(database_url, port)
        with connect(ws_url, additional_headers=cookie(ann)) as a, \
                connect(ws_url, additional_headers=cookie(bob)) as b:
            after = view_at(a)
            for key in ("version", "game", "log", "legal_actions", "prompt", "header"):
                assert after[key] == before[key], key
            bobview_at = view_at(b)
            assert bobview_at["prompt"]["kind"] == "take"
            b.send(json.dumps({"type": "action", "id": "4", "version": 3,
                               "action": {"type": "take", "n": 2}}))
            assert view_at(b, 4)["game"]["pile"] == 3
    finally:
        proc.kill()
        proc.wait(timeout=10)
