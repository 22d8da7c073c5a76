"""Memory a process keeps per match is freed once the match is idle (issue 13, item 4).

The service's snapshot, lock and prompt maps lose a match that had no socket in this process
and did not change for a whole sweep period (``MATCH_IDLE_TTL``); never one with a socket open
or one that moved meanwhile; the match then reloads from the database as if nothing happened.
The hub's "away since" times go with the rest, running match or not: they are stored with the
seats (tests/app/matches/test_away_stored.py shows them read back). The sweeps are called
directly: no sleeping.
"""
from __future__ import annotations

import asyncio

from tests.app.conftest import create, named, new_client


def _settle(client, hub, mid: str) -> None:
    """Wait until the server has finished closing the match's sockets (the handler's finally
    runs after the test client's socket is gone)."""
    while hub.conns.get(mid):
        client.portal.call(asyncio.sleep, 0.01)


def test_an_idle_match_without_sockets_is_forgotten_and_still_plays(client):
    named(client, "Ann")
    mid = create(client)
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    app = client.app
    service, hub, sweeper = app.state.service, app.state.hub, app.state.sweeper

    def bid(ws, ref: str, version: int, n: int) -> None:
        ws.send_json({"type": "action", "id": ref, "version": version,
                      "action": {"type": "bid", "n": n}})
        while (msg := ws.receive_json())["type"] != "ack":
            assert msg["type"] != "error", msg

    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        bid(ws, "a1", 0, 3)
        assert mid in service.remembered()
        assert sweeper.sweep() == [] and sweeper.sweep() == []  # a socket is open
    _settle(client, hub, mid)
    assert sweeper.sweep() == []  # idle from now on
    with bob.websocket_connect(f"/ws/matches/{mid}") as ws:
        bid(ws, "b1", 1, 1)  # it moved meanwhile: not idle for a whole period
    _settle(client, hub, mid)
    bob_left = hub.left_at[(mid, 1)]
    assert sweeper.sweep() == []
    assert sweeper.sweep() == [mid]
    assert service.remembered() == set() and hub.left_at == {}  # a running match's too
    # the match reloads from the database and plays on
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        while (msg := ws.receive_json())["type"] != "view":
            pass
        assert msg["view"]["version"] == 2
        ws.send_json({"type": "action", "id": "a2", "version": 2,
                      "action": {"type": "take", "n": 2}})
        while (msg := ws.receive_json())["type"] != "ack":
            assert msg["type"] != "error", msg
    _settle(client, hub, mid)
    client.portal.call(service.drain)  # the away times are written in the background
    # Ann and Bob are away: since when is stored with their seats (Bob's from before the
    # first sweep), and this process forgets its copy with the rest
    ann_left = hub.left_at[(mid, 0)]
    assert sweeper.sweep() == [] and sweeper.sweep() == [mid]
    assert service.remembered() == set() and hub.left_at == {}
    stored = client.portal.call(service.snapshot, mid)
    assert [i.away_since for i in stored.seats] == [ann_left, bob_left]
