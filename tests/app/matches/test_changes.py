"""Typed changes (app/matches/changes.py), the fan-out's messages (app/realtime/fanout.py) and
the views' presence data (app/matches/views.py)."""
import orjson
import pytest

from app.matches import changes
from app.matches.changes import (
    Bus,
    Cancelled,
    ChatPosted,
    ClocksChanged,
    Finished,
    Moved,
    Notice,
    Rematch,
    SeatsChanged,
    Started,
)
from app.matches.views import Presence
from app.realtime import fanout
from app.realtime.presence import Announce

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database

EVERY = [Moved(), SeatsChanged(), ClocksChanged(), Started(), Cancelled(), Finished(),
         ChatPosted(42), Notice("Ana resigned: a bot plays the seat."), Rematch("AbC123")]


@pytest.mark.parametrize("change", EVERY, ids=lambda c: c.kind)
def test_every_change_crosses_processes_unchanged(change):
    assert changes.from_dict(orjson.loads(orjson.dumps(changes.as_dict(change)))) == change
    assert fanout.decode(fanout.encode(change)) == change


def test_the_payload_is_origin_match_and_json():
    origin, match_id, text = fanout.payload("p1", "M1", Notice("a b: c")).split(" ", 2)
    assert (origin, match_id) == ("p1", "M1")
    assert orjson.loads(text) == {"kind": "notice", "text": "a b: c"}


def test_presence_and_hand_over_messages():
    announce = Announce({0: 2, 3: 1}, 4)
    assert fanout.decode(fanout.encode(announce)) == announce
    assert orjson.loads(fanout.encode(announce))["seats"] == {"0": 2, "3": 1}
    assert isinstance(fanout.decode(fanout.encode(fanout.HandOver())), fanout.HandOver)


@pytest.mark.parametrize("text", [
    "state", "notice:hello", "{}", "[1]", '{"kind":"rocket"}', '{"kind":"chat"}',
    '{"kind":"chat","line_id":"7"}', '{"kind":"chat","line_id":true}',
    '{"kind":"moved","extra":1}', '{"kind":"presence","seats":[1]}',
    '{"kind":"presence","seats":{"x":1},"spectators":0}'])
def test_what_a_process_cannot_read_is_ignored(text):
    assert fanout.decode(text) is None


def test_what_keeps_a_cached_snapshot():
    keeps = {c.kind for c in EVERY if changes.keeps_snapshot(c)}
    assert keeps == {"moved", "chat"}


async def test_a_failing_listener_does_not_stop_the_others():
    bus, heard = Bus(), []

    async def broken(match_id, change, snap):
        raise RuntimeError("boom")

    async def good(match_id, change, snap):
        heard.append((match_id, change, snap))

    bus.subscribe(broken)
    bus.subscribe(good)
    await bus.emit("M", SeatsChanged())
    assert heard == [("M", SeatsChanged(), None)]


def test_presence_data_says_since_when_a_seat_is_away():
    p = Presence(frozenset({0}), 2, {1: 50.0}, since=10.0)
    assert p.away_since(0) is None  # connected
    assert p.away_since(1) == 50.0  # left then
    assert p.away_since(2) == 10.0  # not seen since the counting began


def test_presence_announced_by_another_process(monkeypatch):
    from app.realtime import presence as presence_module
    from app.realtime.presence import PresenceTracker

    clock = {"wall": 1000.0, "mono": 50.0}
    monkeypatch.setattr(presence_module.time, "monotonic", lambda: clock["mono"])
    class Socket:  # what the tracker reads of a connection
        def __init__(self, seat):
            self.seat = seat

    conns = {"M": {Socket(0), Socket(None)}}
    tracker = PresenceTracker(conns, lambda: clock["wall"])
    assert tracker.local("M") == Announce({0: 1}, 1)
    # seat 1 plays in the other process: connected here too
    assert tracker.heard("M", "p2", Announce({1: 2}, 3)) == (True, True, [])
    assert tracker.connected_seats("M") == {0, 1} and tracker.spectators("M") == 4
    assert tracker.heard("M", "p2", Announce({1: 2}, 3)) == (False, False, [])
    # its sockets closed there: away from now on
    clock["wall"] = 1010.0
    assert tracker.heard("M", "p2", Announce({}, 1)) == (True, True, [1])
    assert tracker.away_since("M", 1) == 1010.0 and tracker.away_since("M", 0) is None
    assert tracker.presence_of("M", 2) == Presence(frozenset({0}), 2, {1: 1010.0}, 1000.0)
    # a process that stopped announcing is forgotten after three periods
    clock["mono"] += 3 * tracker.EVERY + 1
    assert tracker.forget_stale() == [("M", False, [])]
    assert tracker.spectators("M") == 1 and "M" not in tracker.remote
