"""The replay's log says what happened at each step (issue 14, review "Replays never say what
happened"): every line of a replay step's log carries the step (move) that wrote it, and the
log holds only what the viewer may read -- a spectator of a running match the public lines, a
seat its own private lines too, never another seat's."""
from __future__ import annotations

from tests.app.conftest import named, new_client
from tests.app.realtime.test_live import act, started, to_take_phase, view_at

UNDO = {"type": "undo"}


def lines(client, mid: str, step: int) -> list[tuple[int, str]]:
    """``[(step, text)]`` of the replay's log at ``step``, as ``client`` gets it."""
    r = client.get(f"/matches/{mid}/replay?step={step}")
    assert r.status_code == 200, r.text
    return [(e["step"], e["text"]) for e in r.json()["view"]["log"]]


def test_each_line_names_its_move_and_each_viewer_reads_only_its_own(client):
    mid, bob = started(client)  # Ann (client) in seat 0, Bob in seat 1; the toy bids in secret
    with client.websocket_connect(f"/ws/matches/{mid}") as ann_ws, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bob_ws:
        to_take_phase(ann_ws, bob_ws)  # step 1: Ann bids 3, step 2: Bob bids 1, bids revealed
        act(ann_ws, 2, {"type": "take", "n": 2}, "t1")  # step 3
        view_at(ann_ws, 3)
    eve = named(new_client(client), "Eve")  # no seat: a spectator of this public match
    ann, bobs, eves = lines(client, mid, 3), lines(bob, mid, 3), lines(eve, mid, 3)
    assert ann == [(0, "The toy match begins."), (1, "You bid 3."), (2, "Seat 1 bid."),
                   (2, "Bids revealed: [3, 1]."), (3, "Seat 0 takes 2.")]
    assert bobs == [(0, "The toy match begins."), (1, "Seat 0 bid."), (2, "You bid 1."),
                    (2, "Bids revealed: [3, 1]."), (3, "Seat 0 takes 2.")]
    # the spectator: the public lines only, with the same steps as the players'
    assert eves == [(0, "The toy match begins."), (2, "Bids revealed: [3, 1]."),
                    (3, "Seat 0 takes 2.")]
    # an earlier step: the log up to it, nothing of later moves, still filtered
    assert lines(client, mid, 1) == [(0, "The toy match begins."), (1, "You bid 3.")]
    assert lines(bob, mid, 1) == [(0, "The toy match begins."), (1, "Seat 0 bid.")]
    assert lines(eve, mid, 1) == [(0, "The toy match begins.")]


def test_after_an_undo_the_lines_keep_their_moves_and_the_undo_has_its_own(client):
    mid, bob = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann_ws, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bob_ws:
        to_take_phase(ann_ws, bob_ws)
        act(ann_ws, 2, {"type": "take", "n": 2}, "t1")  # step 3
        view_at(ann_ws, 3)
        act(ann_ws, 3, UNDO, "u1")  # step 4: back to step 2's state, plus the undo's line
        view_at(ann_ws, 4)
    assert lines(bob, mid, 3)[-1] == (3, "Seat 0 takes 2.")
    assert lines(bob, mid, 4) == [(0, "The toy match begins."), (1, "Seat 0 bid."),
                                  (2, "You bid 1."), (2, "Bids revealed: [3, 1]."),
                                  (4, "Ann took back a move.")]


def test_a_finished_match_replay_shows_every_line_with_its_move(client):
    mid, bob = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann_ws, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bob_ws:
        to_take_phase(ann_ws, bob_ws)
        version, ws = 2, {0: ann_ws, 1: bob_ws}
        turn = 0  # Ann bid higher: she takes first
        while True:  # take 2 each time (1 at the end) until the pile is empty
            act(ws[turn], version, {"type": "take", "n": 1 if version == 5 else 2}, f"t{version}")
            view = view_at(ann_ws, version + 1)
            version, turn = version + 1, 1 - turn
            if view["result"]:
                break
    eve = named(new_client(client), "Eve")
    got = lines(eve, mid, version)  # over: everything is revealed, to everyone
    assert (1, "You bid 3.") in got and (2, "You bid 1.") in got
    assert (1, "Seat 0 bid.") in got and (2, "Seat 1 bid.") in got
    assert [s for s, _ in got] == sorted(s for s, _ in got)
    assert got[-1][0] == version
