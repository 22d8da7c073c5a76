"""Errors keep their reference (issue 13, item 10): an action that fails inside the server
reaches its sender as ``internal`` with the action's ``ref`` and an incident id that appears in
the server log once (not a non-retryable ``bad_message`` with ``ref: null``)."""
from __future__ import annotations

import logging

from tests.app.conftest import create, named, new_client


def test_an_action_failing_inside_the_server_is_internal_with_its_ref(client, caplog):
    named(client, "Ann")
    mid = create(client)
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    service = client.app.state.service

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
