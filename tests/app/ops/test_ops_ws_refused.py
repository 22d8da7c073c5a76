"""Refused websockets are logged (issue 8): a socket closed with 4403 (cross-site Origin) or
4404 (no such match, or a private match opened without its link: issue 12) leaves one
``ws_refused`` JSON line with the code and the reason, and is counted in
``lair_websocket_closes_total{code}``. A wrong spectator token is never logged."""
from __future__ import annotations

import json
import logging

import pytest
from starlette.websockets import WebSocketDisconnect

from app.telemetry import metrics
from app.telemetry.logs import json_formatter
from tests.app.conftest import create, named, new_client


def refused(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if getattr(r, "event", None) == "ws_refused"]


def close_code(client, path: str, **kw) -> int:
    with pytest.raises(WebSocketDisconnect) as exc:
        with client.websocket_connect(path, **kw) as ws:
            ws.receive_json()
    return exc.value.code


def closes(code: int) -> float:
    return metrics.WS_CLOSES.labels(str(code))._value.get()


def test_refusals_are_logged_with_code_and_reason_and_no_token(client, caplog):
    caplog.set_level(logging.INFO, logger="lair.events")
    named(client, "Ann")
    private = create(client, public=False)
    stranger = named(new_client(client), "Eve")
    before = closes(4403), closes(4404)

    assert close_code(client, "/ws/matches/nosuchmatch") == 4404
    assert close_code(client, f"/ws/matches/{private}",
                      headers={"origin": "https://evil.example"}) == 4403
    # a private match without its link closes as a missing one (issue 12); the log tells
    assert close_code(stranger, f"/ws/matches/{private}?watch=WRONG-spectator-T0KEN") == 4404

    got = [(r.match_id, r.code, r.reason) for r in refused(caplog)]
    assert got == [("nosuchmatch", 4404, "no such match"),
                   (private, 4403, "cross-site origin"),
                   (private, 4404, "private match, no link")]
    origin = refused(caplog)[1]
    assert origin.origin == "https://evil.example" and origin.host  # what to fix, if it is ours
    assert (closes(4403), closes(4404)) == (before[0] + 1, before[1] + 2)
    lines = [json_formatter().format(r) for r in refused(caplog)]
    for line in lines:
        assert json.loads(line)["event"] == "ws_refused"
        assert "T0KEN" not in line and "watch=" not in line


def test_refused_match_id_is_cut(client, caplog):
    """The match id comes from the client's URL: a huge one is not copied whole into the log."""
    caplog.set_level(logging.INFO, logger="lair.events")
    assert close_code(client, "/ws/matches/" + "x" * 5000) == 4404
    [record] = refused(caplog)
    assert record.match_id == "x" * 100
