"""Undo (docs/design.md "Undo is an action too"; issue 7 item 1), through the websocket.

A player may take back their own latest moves while none of their events was irreversible and no
other seat has acted since; the undo is appended to the log, the state is the replay of the log,
nothing is deleted, and the other seats see that an undo happened.
"""
from __future__ import annotations

import json

from engines.records import replay_log, state_hash
from tests.app.realtime.test_live import act, recv, started, state_of, to_take_phase, view_at

UNDO = {"type": "undo"}


def test_undo_takes_back_my_latest_move_and_everyone_sees_it(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        v = to_take_phase(ann, bob)
        assert UNDO not in v["legal_actions"]  # the reveal of the bids was irreversible
        act(ann, 2, {"type": "take", "n": 2}, "t1")
        mine = view_at(ann, 3)
        assert mine["legal_actions"][-1] == UNDO and mine["labels"][-1] == "Undo my last move"
        assert UNDO not in view_at(bob, 3)["legal_actions"]
        act(ann, 3, UNDO, "u1")
        after = view_at(ann, 4)
        assert after["game"]["pile"] == 7 and after["game"]["turn"] == 0
        assert UNDO not in after["legal_actions"]
        bob_view = view_at(bob, 4)
        assert "Ann took back a move." in [e["text"] for e in bob_view["log"]]
    rows = client.portal.call(client.app.state.service.actions, mid)
    assert [r.action for r in rows][-2:] == [{"type": "take", "n": 2}, UNDO]  # nothing deleted
    m = state_of(client, mid)
    snap = client.portal.call(client.app.state.service.snapshot, mid).match
    replayed, _ = replay_log("toy", 2, snap.options, snap.seed, [(r.seat, r.action) for r in rows])
    assert state_hash(replayed) == state_hash(m[1])


def test_no_undo_after_another_seat_moved(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        to_take_phase(ann, bob)
        act(ann, 2, {"type": "take", "n": 1}, "t1")
        view_at(ann, 3)
        act(bob, 3, {"type": "take", "n": 1}, "t2")
        v = view_at(ann, 4)
        assert UNDO not in v["legal_actions"]
        before = state_of(client, mid)
        act(ann, 4, UNDO, "u1")
        err = recv(ann, "error")
        assert err["code"] == "illegal" and "take back" in err["message"]
        assert state_of(client, mid) == before


def test_undo_is_refused_for_a_seat_that_has_nothing_to_undo(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        to_take_phase(ann, bob)
        act(bob, 2, UNDO, "u")
        assert recv(bob, "error")["code"] == "illegal"


def test_replay_steps_through_an_undo(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        to_take_phase(ann, bob)
        act(ann, 2, {"type": "take", "n": 2}, "t1")
        view_at(ann, 3)
        act(ann, 3, UNDO, "u1")
        view_at(ann, 4)
    r = client.get(f"/matches/{mid}/replay?step=3").json()
    assert r["view"]["game"]["pile"] == 5
    r = client.get(f"/matches/{mid}/replay?step=4").json()
    assert r["view"]["game"]["pile"] == 7
    assert json.dumps(r).count("took back") == 1
