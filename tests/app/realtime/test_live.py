"""Live play over the websocket (issue 2, "Live play", "Spectators", "Replay").

Every refusal gets an ``error`` to that client only and the match state stays exactly as it was.
"""
from __future__ import annotations

import json

import pytest

from tests.app.conftest import create, named, new_client


def recv(ws, kind: str, limit: int = 20) -> dict:
    """The next message of type ``kind`` (skipping others)."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def view_at(ws, version: int, limit: int = 20) -> dict:
    """The next view whose version is at least ``version``."""
    for _ in range(limit):
        msg = recv(ws, "view")
        if msg["view"]["version"] >= version:
            return msg["view"]
    raise AssertionError(f"no view at version {version}")


def started(client, bots: bool = False):
    """A started toy match: the client in seat 0, a second browser in seat 1."""
    named(client, "Ann")
    mid = create(client)
    other = named(new_client(client), "Bob")
    if bots:
        client.post(f"/m/{mid}/bot", data={"seat": "1", "bot": "random"})
    else:
        other.post(f"/m/{mid}/seat", data={"seat": "1"})
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    return mid, other


def state_of(client, mid):
    """The match row's (version, state), read through the app's service."""
    service = client.app.state.service
    snap = client.portal.call(service.snapshot, mid)
    return snap.match.version, snap.match.state


def act(ws, version, action, id_="a1"):
    ws.send_text(json.dumps({"type": "action", "id": id_, "version": version, "action": action}))


def to_take_phase(ann, bob):
    """Both toy seats bid (Ann 3, Bob 1) on their open sockets; returns Ann's view at
    version 2, where Ann takes first."""
    recv(ann, "view"), recv(bob, "view")
    act(ann, 0, {"type": "bid", "n": 3}, "b0")
    view_at(ann, 1)
    act(bob, 1, {"type": "bid", "n": 1}, "b1")
    return view_at(ann, 2)


def test_connect_sends_own_view_at_once(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        view = recv(ws, "view")["view"]
        assert view["you"] == 0 and view["version"] == 0
        assert view["prompt"]["kind"] == "bid"
        assert {"type": "bid", "n": 1} in view["legal_actions"]
        assert view["labels"][0] == "Bid 1"
        assert view["seats"][1]["name"] == "Bob"
        assert view["match"]["status"] == "active"


def test_secret_bid_is_hidden_from_the_other_seat_and_spectators(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        recv(ann, "view"), recv(bob, "view")
        act(ann, 0, {"type": "bid", "n": 3})
        mine = view_at(ann, 1)
        theirs = view_at(bob, 1)
        assert mine["game"]["bids"][0] == 3
        assert theirs["game"]["bids"][0] is True  # "has bid", not the value
        assert "3" not in json.dumps(theirs["log"])
        watcher = new_client(client)
        with watcher.websocket_connect(f"/ws/matches/{mid}") as spec:
            v = recv(spec, "view")["view"]
            assert v["you"] is None and v["legal_actions"] == [] and v["prompt"] is None
            assert v["game"]["bids"][0] is True
            assert "You bid" not in json.dumps(v)


@pytest.mark.parametrize("payload,code", [
    ("{not json", "bad_message"),
    (json.dumps({"type": "teleport"}), "bad_message"),
    (json.dumps({"type": "action", "id": "x", "version": 0}), "bad_message"),
    (json.dumps({"type": "action", "id": "x", "version": 0, "action": {"type": "bid", "n": 9}}),
     "illegal"),
    (json.dumps({"type": "action", "id": "x", "version": 5, "action": {"type": "bid", "n": 1}}),
     "stale"),
    (json.dumps({"type": "chat", "text": "x" * 70_000}), "too_large"),
])
def test_bad_input_gets_an_error_and_changes_nothing(client, payload, code):
    mid, other = started(client)
    before = state_of(client, mid)
    with client.websocket_connect(f"/ws/matches/{mid}") as ws, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        recv(ws, "view"), recv(bob, "view")
        ws.send_text(payload)
        err = recv(ws, "error")
        assert err["code"] == code and err["message"]
        ws.send_text('{"type":"ping"}')
        recv(ws, "pong")
        bob.send_text('{"type":"ping"}')
        # Bob's next message is his pong: the error went to Ann only.
        msg = bob.receive_json()
        while msg["type"] in ("presence", "view"):
            msg = bob.receive_json()
        assert msg["type"] == "pong"
    assert state_of(client, mid) == before


def test_wrong_seat_spectator_and_finished(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        recv(ann, "view"), recv(bob, "view")
        act(ann, 0, {"type": "bid", "n": 3}, "b0")
        view_at(ann, 1)
        act(bob, 1, {"type": "bid", "n": 1}, "b1")
        v = view_at(bob, 2)
        assert v["game"]["turn"] == 0
        before = state_of(client, mid)
        act(bob, v["version"], {"type": "take", "n": 1}, "t1")
        assert recv(bob, "error")["code"] == "not_your_seat"
        assert state_of(client, mid) == before
        watcher = new_client(client)
        with watcher.websocket_connect(f"/ws/matches/{mid}") as spec:
            recv(spec, "view")
            act(spec, v["version"], {"type": "take", "n": 1}, "s1")
            assert recv(spec, "error")["code"] == "spectator"
        assert state_of(client, mid) == before
        # play to the end: pile 7, Ann and Bob alternately take 2, 2, 2, 1
        seat_ws = [ann, bob]
        version, turn = v["version"], 0
        for n in (2, 2, 2, 1):
            act(seat_ws[turn], version, {"type": "take", "n": n}, f"t{version}")
            version = view_at(seat_ws[turn], version + 1)["version"]
            turn = 1 - turn
        final = state_of(client, mid)
        act(ann, version, {"type": "take", "n": 1}, "late")
        assert recv(ann, "error")["code"] == "finished"
        assert state_of(client, mid) == final


def test_duplicate_action_id_is_applied_once(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        recv(ann, "view")
        act(ann, 0, {"type": "bid", "n": 2}, "same")
        assert view_at(ann, 1)["version"] == 1
        assert recv(ann, "ack") == {"type": "ack", "ref": "same", "version": 1,
                                    "duplicate": False}
        act(ann, 0, {"type": "bid", "n": 2}, "same")
        ack = recv(ann, "ack")
        assert ack["duplicate"] and ack["version"] == 1  # acknowledged, not re-applied
    rows = client.portal.call(client.app.state.service.actions, mid)
    assert len(rows) == 1


def test_simultaneous_frame_accepts_a_late_but_still_valid_action(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        recv(ann, "view"), recv(bob, "view")
        act(ann, 0, {"type": "bid", "n": 1}, "a")
        view_at(ann, 1)
        act(bob, 0, {"type": "bid", "n": 2}, "b")  # built on version 0, the match is at 1
        v = view_at(bob, 2)
        assert v["version"] == 2 and v["game"]["turn"] == 1


def test_chat_is_stored_trimmed_and_broadcast(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        recv(ann, "view"), recv(bob, "view")
        ann.send_text(json.dumps({"type": "chat", "text": "<b>hi</b>" + "y" * 600}))
        msg = recv(bob, "chat")
        assert msg["from"] == "Ann" and msg["text"].startswith("<b>hi</b>")
        assert len(msg["text"]) == 500
    with client.websocket_connect(f"/ws/matches/{mid}") as again:
        assert recv(again, "chat")["text"].startswith("<b>hi</b>")  # history on reconnect


def test_presence_and_spectator_count(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        recv(ann, "view")
        watcher = new_client(client)
        with watcher.websocket_connect(f"/ws/matches/{mid}") as spec:
            recv(spec, "view")
            p = recv(ann, "presence")
            while p["spectators"] != 1:
                p = recv(ann, "presence")
            assert {"seat": 0, "connected": True} in p["seats"]


def test_private_match_socket_needs_seat_or_watch_token(client):
    named(client, "Ann")
    mid = create(client, public=False)
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    client.post(f"/m/{mid}/start")
    stranger = named(new_client(client), "Eve")
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect):
        with stranger.websocket_connect(f"/ws/matches/{mid}") as ws:
            ws.receive_json()
    token = client.portal.call(client.app.state.service.snapshot, mid).match.watch_token
    with stranger.websocket_connect(f"/ws/matches/{mid}?watch={token}") as ws:
        assert recv(ws, "view")["view"]["you"] is None


def test_bots_play_through_the_service_to_the_end(client):
    named(client, "Ann")
    mid = create(client)
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    client.post(f"/m/{mid}/bot", data={"seat": "0", "bot": "random"})
    client.post(f"/m/{mid}/start")
    client.portal.call(client.app.state.service.drain)
    version, state = state_of(client, mid)
    assert state["winner"] is not None and version >= 5
    rows = client.portal.call(client.app.state.service.actions, mid)
    assert [r.seq for r in rows] == list(range(1, version + 1))


def test_replay_is_filtered_while_running_and_revealed_after(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        recv(ann, "view")
        act(ann, 0, {"type": "bid", "n": 3}, "a")
        view_at(ann, 1)
    r = other.get(f"/matches/{mid}/replay?step=1").json()
    assert r["view"]["game"]["bids"][0] is True  # Bob may not see Ann's bid yet
    assert other.get(f"/matches/{mid}/record").status_code == 403
    with other.websocket_connect(f"/ws/matches/{mid}") as bob:
        recv(bob, "view")
        act(bob, 1, {"type": "bid", "n": 1}, "b")
        view_at(bob, 2)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        v = recv(ann, "view")["view"]
        version, turn = v["version"], 0
        for n in (2, 2, 2, 1):
            who = ann if turn == 0 else None
            if who is None:
                with other.websocket_connect(f"/ws/matches/{mid}") as bob:
                    recv(bob, "view")
                    act(bob, version, {"type": "take", "n": n}, f"t{version}")
                    version = view_at(bob, version + 1)["version"]
            else:
                act(ann, version, {"type": "take", "n": n}, f"t{version}")
                version = view_at(ann, version + 1)["version"]
            turn = 1 - turn
    r = other.get(f"/matches/{mid}/replay?step=1").json()
    assert r["view"]["game"]["bids"][0] == 3 and r["steps"] == 6
    record = other.get(f"/matches/{mid}/record").json()
    assert len(record["actions"]) == 6 and record["final_hash"]
    from engines.records import replay_record, state_hash
    assert state_hash(replay_record(record)) == record["final_hash"]
    assert "Replay" in other.get(f"/m/{mid}/replay").text


@pytest.mark.parametrize("step", ["snapshot", "current"])
@pytest.mark.parametrize("error", ["pool", "unreachable"])
def test_a_busy_database_at_connect_closes_the_socket_to_try_again(client, monkeypatch, step,
                                                                   error):
    """A crowd connecting at once can keep every pooled connection taken past
    DB_POOL_TIMEOUT while a socket reads its table (issue 6, reliability), or the database
    is away (issue 13's outage, seen live: every reconnecting table cost a traceback and
    reached the browser as 1006): the socket is closed with 1013 "try again later", which
    the table answers by reconnecting, and the server goes on (it was an unhandled error in
    the ASGI app)."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout
    from starlette.websockets import WebSocketDisconnect

    mid, _ = started(client)
    service = client.app.state.service

    async def busy(*_args, **_kwargs):
        if error == "unreachable":  # what asyncpg raises while PostgreSQL is down
            raise ConnectionRefusedError(111, "Connection refused")
        raise PoolTimeout("QueuePool limit of size 40 overflow 0 reached")

    with monkeypatch.context() as patch:
        patch.setattr(service, step, busy)
        with client.websocket_connect(f"/ws/matches/{mid}") as ws:
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(5):
                    ws.receive_json()
            assert closed.value.code == 1013
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:  # and later it works
        assert recv(ws, "view")["view"]["you"] == 0
