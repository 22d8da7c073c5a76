"""Since when a player is away is stored with their seat (issue 13, item 4), so a process can
forget its own copy once the match is idle, and a restart keeps it.

The table shows an absent player's "away" time and the other players may vote a bot into
their seat after the match's ``replace_after_minutes`` (issue 7, "Pace"). Both count from when
the player's last socket closed, whether this process still remembers it (``Hub.left_at``),
forgot it with the rest of an idle match (app.matches.idle), or never saw it (a restart,
another process). The service's clock is a fake one and the sweeps are called directly: no
sleeping.
"""
from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.realtime.presence import Announce
from engines import registry
from tests.app.conftest import named, new_client, release_cancelled_connections
from tests.app.matches.test_pace import FakeClock, call, snap, submit, table
from tests.app.realtime.test_live import recv
from tests.app.toy3 import TOY3
from tests.csrf import as_browser

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


@pytest.fixture(autouse=True, scope="module")
def toy3():
    registry.register(TOY3)
    yield
    registry.ENGINES.pop(TOY3.id, None)


@pytest.fixture
def clock(client):
    """The service's clock, moved only when a test says."""
    fake = FakeClock()
    client.app.state.service.now = fake
    return fake


def _closed(client, mid: str) -> None:
    """Wait until the server has closed the match's sockets and written what they left."""
    hub = client.app.state.hub
    while hub.conns.get(mid):
        client.portal.call(asyncio.sleep, 0.01)
    call(client, client.app.state.service.drain)


def _cid_prompted_then_gone(client, clock):
    """A toy3 table (Ann hosts, Bob, Cid; votes after 5 min) where Cid must move; Cid's socket
    opens and closes 3 minutes after the start. Returns ``(match id, Bob's client, Cid's
    client, when Cid left)``."""
    mid, (bob, cid) = table(client, "toy3", ("Ann", "Bob", "Cid"), replace_after_minutes=5)
    submit(client, mid, 0, {"type": "take", "n": 1})
    submit(client, mid, 1, {"type": "take", "n": 1})  # now Cid must move
    clock.advance(minutes=3)
    with cid.websocket_connect(f"/ws/matches/{mid}") as ws:
        recv(ws, "view")
    _closed(client, mid)
    left = clock.t.timestamp()
    assert client.app.state.hub.left_at[(mid, 2)] == left
    assert snap(client, mid).seats[2].away_since == left  # stored when the socket closed
    return mid, bob, cid, left


def _away_shown(client, mid: str, seat: int) -> float:
    """The seat's "away" seconds in the view a new spectator socket gets."""
    watcher = named(new_client(client), "Dan")
    with watcher.websocket_connect(f"/ws/matches/{mid}") as ws:
        away = recv(ws, "view")["view"]["pace"]["seats"][seat]["away"]
    _closed(client, mid)
    return away


def test_an_idle_match_forgets_the_away_time_and_the_table_still_counts_from_it(client, clock):
    mid, bob, cid, left = _cid_prompted_then_gone(client, clock)
    service, hub, sweeper = client.app.state.service, client.app.state.hub, client.app.state.sweeper
    clock.advance(minutes=1)
    assert sweeper.sweep() == [] and sweeper.sweep() == [mid]  # idle for a whole period
    assert hub.left_at == {} and service.remembered() == set()
    # a spectator arrives: Cid is shown away since they left (1 min), not since this process
    # started (more than 4 min: the start of the match was before the 3 minutes)
    assert _away_shown(client, mid, 2) == 60.0
    assert hub.left_at == {}
    sweeper.sweep(), sweeper.sweep()
    clock.advance(minutes=3, seconds=59)  # 4:59 away: too early
    assert "not been away for 5 min" in client.post(f"/m/{mid}/vote", data={"seat": "2"}).text
    assert snap(client, mid).seats[2].votes is None
    clock.advance(seconds=2)  # 5:01: on time
    assert client.post(f"/m/{mid}/vote", data={"seat": "2"},
                       follow_redirects=False).status_code == 303
    bob.post(f"/m/{mid}/vote", data={"seat": "2"})
    call(client, service.drain)
    s = snap(client, mid)
    assert s.seats[2].bot and s.seats[2].away_user_id is not None  # the bot took over
    # Cid takes the seat back and connects: no longer away, and the stored time is cleared
    cid.post(f"/m/{mid}/reclaim")
    with cid.websocket_connect(f"/ws/matches/{mid}") as ws:
        assert recv(ws, "view")["view"]["pace"]["seats"][2]["away"] is None
        call(client, service.drain)
        assert snap(client, mid).seats[2].away_since is None
    _closed(client, mid)
    assert snap(client, mid).seats[2].away_since == clock.t.timestamp()  # away again


def test_a_restarted_process_keeps_the_away_time(client, clock, settings):
    mid, _bob, _cid, left = _cid_prompted_then_gone(client, clock)
    with as_browser(TestClient(create_app(settings), base_url="http://testserver")) as again:
        later = FakeClock()
        later.t = clock.t
        later.advance(minutes=2)
        again.app.state.service.now = later
        assert again.app.state.hub.left_at == {}  # a new process: nothing in memory
        assert _away_shown(again, mid, 2) == 120.0
        again.cookies.update(client.cookies)  # Ann, in the new process
        later.advance(minutes=2, seconds=59)
        assert "not been away for 5 min" in again.post(f"/m/{mid}/vote",
                                                       data={"seat": "2"}).text
        later.advance(seconds=2)
        assert again.post(f"/m/{mid}/vote", data={"seat": "2"},
                          follow_redirects=False).status_code == 303
        assert snap(again, mid).seats[2].votes["voters"] == [0]
        release_cancelled_connections(again)


def test_a_seat_that_left_another_process_is_stored_away_here_too(client, clock):
    """Several processes: this one hears another's sockets (``Announce``); a seat whose last
    socket was there turns away here when that process says so (or stops announcing, killed),
    and this process stores the time too (the other may be gone before it could)."""
    mid, _ = table(client, "toy3", ("Ann", "Bob", "Cid"), replace_after_minutes=5)
    hub = client.app.state.hub

    def heard(announce: Announce) -> None:
        async def relay() -> None:
            hub.remote_presence(mid, "other", announce)
        client.portal.call(relay)
        call(client, client.app.state.service.drain)

    heard(Announce({1: 1}, 0))
    assert hub.connected_seats(mid) == {1} and snap(client, mid).seats[1].away_since is None
    clock.advance(minutes=1)
    heard(Announce({}, 0))
    assert snap(client, mid).seats[1].away_since == clock.t.timestamp()
    assert hub.away_since(snap(client, mid), 1) == clock.t.timestamp()
