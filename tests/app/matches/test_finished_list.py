"""Finished matches with their results (issue 7 item 4): who sees which match listed."""
from __future__ import annotations

import re

import pytest

from app.matches.history import finished_matches
from tests.app.conftest import create, named, new_client

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


def play_out(client, mid: str, seats: list) -> None:
    """Start ``mid`` (every seat taken), let bots stand in for everyone, wait for the end."""
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    for seat in seats:
        client.post(f"/m/{mid}/replace", data={"seat": str(seat), "bot": "random"})
    client.portal.call(client.app.state.service.drain)
    assert client.portal.call(client.app.state.service.snapshot, mid).match.status == "finished"


def two_player_match(host, guest, public: bool) -> str:
    mid = create(host, public=public)
    page = host.get(f"/m/{mid}").text
    invite = re.search(r'/invite/([^"]+)"', page).group(1)
    guest.get(f"/invite/{invite}")
    guest.post(f"/m/{mid}/seat", data={"seat": "1", "invite": invite})
    play_out(host, mid, [0, 1])
    return mid


def listed(client, query: str = "") -> list[str]:
    html = client.get(f"/matches/finished{query}").text
    return re.findall(r'<tr data-match="([^"]+)"', html)


def test_private_matches_are_listed_only_to_their_participants(client):
    ann = named(client, "Ann")
    bob = named(new_client(client), "Bob")
    eve = named(new_client(client), "Eve")
    anonymous = new_client(client)
    public = two_player_match(ann, bob, public=True)
    private = two_player_match(ann, bob, public=False)
    watch = re.search(r'/watch/([^"]+)"', ann.get(f"/m/{private}").text).group(1)
    assert set(listed(ann)) == {public, private}
    assert set(listed(bob)) == {public, private}  # a bot played Bob's seat at the end: still his
    assert listed(eve) == [public]
    assert listed(anonymous) == [public]
    eve.get(f"/watch/{watch}")  # a spectator link opens the replay, but lists nothing
    assert listed(eve) == [public]
    assert listed(eve, "?mine=1") == []
    assert set(listed(ann, "?mine=1")) == {public, private}
    assert listed(anonymous, "?mine=1") == []


def test_the_list_shows_results_and_links(client):
    ann = named(client, "Ann")
    bob = named(new_client(client), "Bob")
    mid = two_player_match(ann, bob, public=True)
    result = client.portal.call(client.app.state.service.snapshot, mid).match.result
    winner = result["ranks"][0][0]
    html = new_client(client).get("/matches/finished").text
    row = html[html.index(f'data-match="{mid}"'):]
    row = row[:row.index("</tr>")]
    assert "Toy Nim" in row
    winner_name = f"{['Ann', 'Bob'][winner]} (random bot)"
    assert re.search(rf'class="winner">{re.escape(winner_name)} 1</li>', row), row
    assert f'href="/m/{mid}/replay"' in row and f'href="/matches/{mid}/record"' in row
    assert "<time" in row


def test_host_who_only_watched_sees_their_private_match(client):
    named(client, "Host")
    r = client.post("/matches", data={"game": "toy", "players_toy": "2", "host_plays": "no"},
                    follow_redirects=False)
    mid = r.headers["location"].rsplit("/", 1)[1]
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    client.post(f"/m/{mid}/start")
    client.portal.call(client.app.state.service.drain)
    assert listed(client, "?mine=1") == [mid]
    assert listed(named(new_client(client), "Eve")) == []


def test_pages(client):
    named(client, "Ann")
    ids = []
    for _ in range(5):
        r = client.post("/matches", data={"game": "toy", "players_toy": "2", "host_plays": "no",
                                          "public": "on"}, follow_redirects=False)
        mid = r.headers["location"].rsplit("/", 1)[1]
        client.post(f"/m/{mid}/fill", data={"bot": "random"})
        client.post(f"/m/{mid}/start")
        client.portal.call(client.app.state.service.drain)
        ids.append(mid)
    sm = client.app.state.service.sm
    pages, more, page = [], True, 1
    while more:
        rows, more = client.portal.call(
            lambda p=page: finished_matches(sm, None, page=p, per_page=2))
        pages.append([r.id for r in rows])
        page += 1
    assert [len(p) for p in pages] == [2, 2, 1]
    assert sorted(sum(pages, [])) == sorted(ids)  # every match once, none twice
    html = client.get("/matches/finished").text
    assert 'id="older"' not in html and "Page 1" in html  # 5 < 20 per page
    assert client.get("/matches/finished?page=2").status_code == 200
    assert client.get("/matches/finished?page=-3").status_code == 200
    assert 'id="finished-link"' in client.get("/").text
