"""Anonymous storage expires (issue 13, item 5; app/matches/expiry.py): never-started matches
and guests that never did anything are deleted after their ttl (by the service's clock); what is
in use stays. Record uploads per address have a daily quota besides their rate."""
from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.main import create_app
from app.models import ChatMessage, Match, Seat, User
from tests.app.conftest import create, named, new_client, release_cancelled_connections
from tests.app.matches.test_pace import FakeClock, call
from tests.csrf import as_browser

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


def _ids(client, model, column) -> set:
    async def read():
        async with client.app.state.service.sm() as s:
            return set((await s.execute(select(column))).scalars().all())
    return client.portal.call(read)


def test_never_started_matches_and_unused_guests_expire(client, settings):
    service = client.app.state.service
    expiry = client.app.state.expiry
    call(client, expiry.stop)  # the test sweeps by hand
    expiry.match_ttl, expiry.guest_ttl = 3600.0, 86400.0
    ann = named(client, "Ann")
    waiting = create(ann, game="toy")  # never started
    started = create(ann, game="toy")
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{started}/seat", data={"seat": "1"})
    ann.post(f"/m/{started}/start")
    cancelled = create(ann, game="toy")
    ann.post(f"/m/{cancelled}/cancel")
    named(new_client(client), "Idle guest")  # named, then never did anything
    idle_id = (_ids(client, User, User.id) - {u for u in _ids(client, Seat, Seat.user_id) if u})
    assert len(idle_id) == 1
    clock = service.now = FakeClock()

    assert call(client, expiry.sweep) == (0, 0)  # nothing is old enough yet
    clock.advance(hours=2)
    assert call(client, expiry.sweep) == (2, 0)  # the waiting and the cancelled match
    assert _ids(client, Match, Match.id) == {started}
    assert waiting not in _ids(client, Seat, Seat.match_id)
    assert client.get(f"/m/{waiting}").status_code == 404
    clock.advance(days=1)
    # Ann hosts, Bob sits: both in use; the idle guest is deleted
    assert call(client, expiry.sweep) == (0, 1)
    assert not idle_id & _ids(client, User, User.id)
    assert len(_ids(client, User, User.id)) == 2
    assert client.get(f"/m/{started}").status_code == 200


def test_a_waiting_room_still_chatting_is_kept(client):
    service = client.app.state.service
    expiry = client.app.state.expiry
    call(client, expiry.stop)
    expiry.match_ttl, expiry.guest_ttl = 3600.0, 0.0
    named(client, "Ann")
    mid = create(client, game="toy")
    clock = service.now = FakeClock()
    clock.advance(hours=2)

    async def chat_now():  # a line written "now" by the fake clock
        async with service.sm() as s:
            s.add(ChatMessage(match_id=mid, user_id=None, name="Lair", text="still here",
                              created_at=clock.t - timedelta(minutes=1)))
            await s.commit()

    call(client, chat_now)
    assert call(client, expiry.sweep) == (0, 0)
    assert mid in _ids(client, Match, Match.id)


def test_record_uploads_have_a_daily_quota_per_address(settings):
    """``RATE_RECORDS`` holds several limits: a rate and a longer quota; both count."""
    app = create_app(settings.model_copy(update={"rate_records": "10/hour;3/day"}))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        files = {"file": ("r.json", b"{}", "application/json")}
        codes = [client.post("/records", files=files).status_code for _ in range(4)]
        assert codes[:3] != [429] * 3 and codes[3] == 429
        release_cancelled_connections(client)
