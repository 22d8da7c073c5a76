"""Errors keep their reference (issue 13, item 10): an action that fails inside the server
reaches its sender as ``internal`` with the action's ``ref`` and an incident id that appears in
the server log once (not a non-retryable ``bad_message`` with ``ref: null``)."""
from __future__ import annotations

import logging

from tests.app.conftest import create, named, new_client


def started_match(client) -> tuple[str, object]:
    """Ann's two-seat match with Bob in seat 1, started: ``(match id, the app's service)``."""
    named(client, "Ann")
    mid = create(client)
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    return mid, client.app.state.service


def test_an_action_failing_inside_the_server_is_internal_with_its_ref(client, caplog):
    mid, service = started_match(client)

    async def broken(*args, **kwargs):
        raise RuntimeError("commit refused")

    service.submit = broken
    with client.websocket_connect(f"/ws/matches/{mid}") as ws, \
            caplog.at_level(logging.ERROR, logger="lair.realtime"):
        ws.send_json({"type": "action", "id": "a-17", "version": 0,
                      "action": {"type": "bid", "n": 3}})
        while (msg := ws.receive_json())["type"] != "error":
            pass
    assert msg["code"] == "internal" and msg["ref"] == "a-17"
    assert "nothing was changed" in msg["message"]
    incident = msg["message"].split("incident ", 1)[1].split(")", 1)[0]
    assert sum(incident in r.getMessage() for r in caplog.records) == 1


def test_any_message_failing_inside_the_server_is_internal_with_an_incident(client, caplog):
    named(client, "Ann")
    mid = create(client)

    async def broken(*args, **kwargs):
        raise RuntimeError("chat store down")

    client.app.state.service.post_chat = broken
    with client.websocket_connect(f"/ws/matches/{mid}") as ws, \
            caplog.at_level(logging.ERROR, logger="lair.realtime"):
        ws.send_json({"type": "chat", "text": "hello"})
        while (msg := ws.receive_json())["type"] != "error":
            pass
        ws.send_json({"type": "ping"})  # the socket lives on
        while ws.receive_json()["type"] != "pong":
            pass
    assert msg["code"] == "internal" and msg["ref"] is None
    incident = msg["message"].split("incident ", 1)[1].split(")", 1)[0]
    assert sum(incident in r.getMessage() for r in caplog.records) == 1


def test_an_action_while_the_database_is_unreachable_is_busy_with_its_ref(client):
    """Seen live with PostgreSQL stopped for 70 s: every move sent meanwhile failed to connect
    (ConnectionRefusedError) and came back as ``internal`` with a traceback in the log each
    time, which tells the table not to send it again. Nothing was applied, and a re-sent move
    is recognised, so it is ``busy`` (retry), with the action's ref."""
    mid, service = started_match(client)

    async def unreachable(*args, **kwargs):
        raise ConnectionRefusedError(111, "Connection refused")

    real = service.moves._submit
    service.moves._submit = unreachable
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        ws.send_json({"type": "action", "id": "a-18", "version": 0,
                      "action": {"type": "bid", "n": 3}})
        while (msg := ws.receive_json())["type"] != "error":
            pass
        assert msg["code"] == "busy" and msg["ref"] == "a-18"
        service.moves._submit = real  # back: the same move, sent again, lands
        ws.send_json({"type": "action", "id": "a-18", "version": 0,
                      "action": {"type": "bid", "n": 3}})
        while (msg := ws.receive_json())["type"] != "ack":
            assert msg["type"] != "error", msg
    assert msg["ref"] == "a-18" and msg["version"] == 1 and not msg["duplicate"]
