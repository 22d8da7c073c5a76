"""Views on the wire carry only what the socket lacks (docs/design.md "The wire"; issue 6 §4, the
per-socket bytes): the log from ``log_from`` on, and the game's static parts (``kept``) once.

The client (static/js/table.js ``completeView``) rebuilds the whole view from the one it holds;
``complete`` below does the same, and every rebuilt view must equal what a fresh socket gets.
"""
from __future__ import annotations

from tests.app.conftest import create, named, new_client
from tests.app.realtime.test_live import act, recv, started, to_take_phase, view_at
from tests.app.servers import complete


def fresh_view(client, mid) -> dict:
    """What a new socket of the same browser gets first (always whole)."""
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        view = recv(ws, "view")["view"]
    assert view["log_from"] == 0 and "kept" not in view
    return view


def comparable(view: dict) -> dict:
    # presence and the spectator count change with the extra socket; the rest must be equal
    out = {k: v for k, v in view.items() if k not in ("log_from", "match", "seats", "pace")}
    return out


def test_views_after_the_first_carry_only_the_new_events(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        held = complete(None, recv(ann, "view")["view"])
        recv(bob, "view")
        act(ann, 0, {"type": "bid", "n": 3}, "b0")
        raw = view_at(ann, 1)
        assert raw["log_from"] == len(held["log"]) > 0
        assert len(raw["log"]) < len(held["log"]) + len(raw["log"])
        held = complete(held, raw)
        act(bob, 1, {"type": "bid", "n": 1}, "b1")
        held = complete(held, view_at(ann, 2))
        act(ann, 2, {"type": "take", "n": 2}, "t1")
        held = complete(held, view_at(ann, 3))
        assert comparable(held) == comparable(fresh_view(client, mid))


def test_an_undo_sends_the_whole_log_again(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            other.websocket_connect(f"/ws/matches/{mid}") as bob:
        to_take_phase(ann, bob)
        act(ann, 2, {"type": "take", "n": 2}, "t1")
        bob_held = complete(None, fresh_view(other, mid))
        view_at(ann, 3)
        act(ann, 3, {"type": "undo"}, "u1")
        after = view_at(bob, 4)
        # the undone move's events are gone: the log shrank, so it comes whole
        assert after["log_from"] == 0
        assert after["log"][-1]["text"] == "Ann took back a move."
        assert len(after["log"]) <= len(bob_held["log"]) + 1
        assert comparable(complete(None, after)) == comparable(fresh_view(other, mid))


def test_a_refused_action_refreshes_with_an_empty_delta(client):
    mid, other = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        held = complete(None, recv(ann, "view")["view"])
        act(ann, 7, {"type": "bid", "n": 3}, "stale")  # wrong version: refused, view resent
        assert recv(ann, "error")["code"] == "stale"
        again = recv(ann, "view")["view"]
        assert again["log_from"] == len(held["log"]) and again["log"] == []
        assert complete(held, again)["log"] == held["log"]


def test_static_game_parts_are_sent_once_per_socket(client):
    """Drops of Evil's board geometry and Bonus-token layout (``static_view_keys``)."""
    named(client, "Ann")
    mid = create(client, game="drops_of_evil", players=2)
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        first = recv(ws, "view")["view"]
        assert {"geometry", "bonus_layout"} <= set(first["game"]) and "kept" not in first
        act(ws, first["version"] + 5, {"type": "pass"}, "x")  # refused: the view comes again
        recv(ws, "error")
        again = recv(ws, "view")["view"]
        assert again["kept"] == ["geometry", "bonus_layout"]
        assert "geometry" not in again["game"] and "bonus_layout" not in again["game"]
        rebuilt = complete(complete(None, first), again)
        assert rebuilt["game"] == fresh_view(client, mid)["game"]
