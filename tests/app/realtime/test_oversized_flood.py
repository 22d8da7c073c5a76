"""A flood of oversized frames is rate-limited like any other flood (app/realtime/socket.py).

Each message counts against the socket's rate (``WS_RATE``/``WS_BURST``) before its size is
looked at: otherwise a client sending frames over ``MAX_MESSAGE_BYTES`` gets an unlimited
stream of ``too_large`` answers (and the server measures every one of them).
"""
from __future__ import annotations

import json

from fastapi.testclient import TestClient

from app.main import create_app
from tests.app.conftest import release_cancelled_connections
from tests.app.realtime.test_live import recv, started
from tests.app.web.test_site_basics import hits
from tests.csrf import as_browser


def test_oversized_frames_count_against_the_socket_rate(settings):
    app = create_app(settings.model_copy(update={"ws_rate": 1e-6, "ws_burst": 3,
                                                 "max_message_bytes": 200}))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        mid, other = started(client)
        before = {k: hits(k) for k in ("ws_rate", "ws_too_large")}
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            recv(ws, "view")
            for _ in range(10):
                ws.send_text(json.dumps({"type": "chat", "text": "x" * 300}))
            codes = [recv(ws, "error")["code"] for _ in range(10)]
            # the burst lets three through to the size check; the rest are refused unread
            assert codes == ["too_large"] * 3 + ["rate_limited"] * 7
        with other.websocket_connect(f"/ws/matches/{mid}") as bob:  # another socket: its own
            recv(bob, "view")
            bob.send_text(json.dumps({"type": "ping"}))
            recv(bob, "pong")
        release_cancelled_connections(client)
    assert hits("ws_too_large") == before["ws_too_large"] + 3
    assert hits("ws_rate") == before["ws_rate"] + 7


def test_binary_frames_count_against_the_socket_rate(settings):
    """Binary frames (the wire is JSON text) are refused with ``bad_message``, and a flood of
    them is rate-limited like any other."""
    app = create_app(settings.model_copy(update={"ws_rate": 1e-6, "ws_burst": 3}))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        mid, _ = started(client)
        before = hits("ws_rate")
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            recv(ws, "view")
            for _ in range(6):
                ws.send_bytes(b"\x00" * 50)
            codes = [recv(ws, "error")["code"] for _ in range(6)]
            assert codes == ["bad_message"] * 3 + ["rate_limited"] * 3
        release_cancelled_connections(client)
    assert hits("ws_rate") == before + 3
