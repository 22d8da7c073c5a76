"""Rematch with the same players and handing the host role on (issue 7 item 4)."""
from __future__ import annotations

from tests.app.conftest import create, named, new_client
from tests.app.realtime.test_live import recv


def _finished_toy_match(client):
    named(client, "Ann")
    mid = create(client)
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    for seat in (0, 1):
        client.post(f"/m/{mid}/replace", data={"seat": str(seat), "bot": "random"})
    client.portal.call(client.app.state.service.drain)
    assert client.portal.call(client.app.state.service.snapshot, mid).match.status == "finished"
    return mid, bob


def test_rematch_seats_the_same_players_and_tells_the_old_table(client):
    mid, bob = _finished_toy_match(client)
    assert "Only the host" in bob.post(f"/m/{mid}/rematch").text
    with bob.websocket_connect(f"/ws/matches/{mid}") as ws:
        recv(ws, "view")
        r = client.post(f"/m/{mid}/rematch", follow_redirects=False)
        new = r.headers["location"].rsplit("/", 1)[1]
        msg = recv(ws, "rematch")
        assert msg["url"] == f"/m/{new}"
    page = bob.get(f"/m/{new}").text
    assert "<strong>Ann</strong>" in page and "<strong>Bob</strong>" in page
    assert client.post(f"/m/{new}/start", follow_redirects=False).status_code == 303


def test_rematch_needs_a_finished_match(client):
    named(client, "Ann")
    mid = create(client)
    assert "once the match is over" in client.post(f"/m/{mid}/rematch").text


def test_host_role_can_be_handed_to_another_player(client):
    named(client, "Ann")
    mid = create(client)
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    assert "Only the host" in bob.post(f"/m/{mid}/host", data={"seat": "1"}).text
    client.post(f"/m/{mid}/host", data={"seat": "1"})
    assert 'id="start"' in bob.get(f"/m/{mid}").text
    told = [m.text for m in client.portal.call(client.app.state.service.chat_history, mid)]
    assert told[-1] == "Bob is the host now."
    assert 'id="start"' not in client.get(f"/m/{mid}").text


def _matches(client) -> int:
    from sqlalchemy import func, select

    from app.models import Match

    async def count():
        async with client.app.state.service.sm() as s:
            return await s.scalar(select(func.count()).select_from(Match))
    return client.portal.call(count)


def test_a_second_rematch_click_leads_to_the_rematch_that_exists(client):
    """Trial finding: each "Rematch" click made another match. A second click (the host's
    double-click, a player's click, a reloaded page) leads to the one rematch."""
    mid, bob = _finished_toy_match(client)
    first = client.post(f"/m/{mid}/rematch", follow_redirects=False).headers["location"]
    again = client.post(f"/m/{mid}/rematch", follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == first
    theirs = bob.post(f"/m/{mid}/rematch", follow_redirects=False)
    assert theirs.status_code == 303 and theirs.headers["location"] == first
    assert _matches(client) == 2
    # the finished table, reloaded, offers the way to it instead of another rematch
    assert f'data-rematch-url="{first}"' in client.get(f"/m/{mid}").text
    assert f'data-rematch-url="{first}"' in bob.get(f"/m/{mid}").text


def test_concurrent_rematch_clicks_make_one_rematch(client):
    """Two clicks that both found no rematch (two processes at once): the unique
    ``matches.rematch_of`` lets one create it; the other gets that one, and nothing more is
    created."""
    mid, _ = _finished_toy_match(client)
    service = client.app.state.service
    real = service.seats._rematch
    misses = [None, None]  # both clicks look before either has created it

    async def racing(match_id):
        return misses.pop() if misses else await real(match_id)
    service.seats._rematch = racing
    try:
        user = client.portal.call(service.snapshot, mid).match.host_id
        one = client.portal.call(service.rematch, mid, user)
        two = client.portal.call(service.rematch, mid, user)
    finally:
        service.seats._rematch = real
    assert one.id == two.id and _matches(client) == 2
