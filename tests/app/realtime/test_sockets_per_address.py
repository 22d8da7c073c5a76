"""Open websockets per client address are capped in each process (issue 13, "Limits";
``WS_PER_ADDRESS``, app/realtime/connection.py ``SocketsPerAddress``).

The report: 200 sockets from one address were accepted (+10 MB per process, another player's
views from 0.2 s to 1.3 s at the 95th percentile). Over the cap a socket is closed with 4429 and
a reason the table shows; every socket that closes (refused on the way in, too) gives its place
back.
"""
from __future__ import annotations

import logging
import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.realtime.connection import SocketsPerAddress
from tests.app.conftest import release_cancelled_connections
from tests.app.ops.test_ops_ws_refused import close_code
from tests.app.realtime.test_live import recv, started
from tests.app.web.test_site_basics import hits
from tests.csrf import as_browser


def test_the_count_per_address():
    cap = SocketsPerAddress(2)
    assert cap.take("a") and cap.take("a") and cap.take("b")
    assert not cap.take("a")  # the third of "a": refused, not counted
    assert cap.refused("a") and not cap.refused("a")  # logged once while crowded
    assert cap.open == {"a": 2, "b": 1}
    cap.release("a")
    assert cap.take("a")  # a place came free
    assert cap.refused("a")  # under the cap in between: logged again
    for address in ("a", "a", "b"):
        cap.release(address)
    assert cap.open == {} and cap.crowded == set()  # nothing kept for an address gone
    off = SocketsPerAddress(0)
    assert all(off.take("a") for _ in range(500))


def _count(client) -> int:
    return client.app.state.hub.per_address.open.get("testclient", 0)


def _settle(client, expected: int) -> None:
    """The server's side of a closed socket ends a moment after the test's."""
    for _ in range(200):
        if _count(client) == expected:
            return
        time.sleep(0.01)
    assert _count(client) == expected


def test_sockets_over_the_cap_are_refused_and_closing_frees_a_place(settings, caplog):
    """Every test client comes from one address ("testclient"): with ``WS_PER_ADDRESS=3`` the
    fourth socket, whoever's, is closed with 4429; once one closes a new one is accepted, and
    when all are gone nothing is counted (refused sockets included)."""
    caplog.set_level(logging.WARNING, logger="lair.events")
    app = create_app(settings.model_copy(update={"ws_per_address": 3}))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        mid, other = started(client)
        for _ in range(4):  # refused later on (no such match): their places come back
            assert close_code(client, "/ws/matches/nosuchmatch") == 4404
        _settle(client, 0)
        before = hits("ws_per_address")
        sockets = [client.websocket_connect(f"/ws/matches/{mid}") for _ in range(3)]
        try:
            for ws in sockets:
                recv(ws.__enter__(), "view")
            assert _count(client) == 3
            for _ in range(2):  # another user, the same address: refused, with a reason
                with pytest.raises(WebSocketDisconnect) as exc:
                    with other.websocket_connect(f"/ws/matches/{mid}") as ws:
                        ws.receive_json()
                assert exc.value.code == 4429
                assert exc.value.reason == "Too many connections from your address."
            assert hits("ws_per_address") == before + 2
            logged = [r for r in caplog.records if getattr(r, "limit", None) == "ws_per_address"]
            assert len(logged) == 1  # the second refusal is counted, not logged
            assert _count(client) == 3
            sockets.pop().__exit__(None, None, None)
            _settle(client, 2)
            with other.websocket_connect(f"/ws/matches/{mid}") as ws:  # a place came free
                recv(ws, "view")
                assert _count(client) == 3
        finally:
            for ws in reversed(sockets):
                ws.__exit__(None, None, None)
        _settle(client, 0)
        assert client.app.state.hub.per_address.open == {}
        release_cancelled_connections(client)
