"""Regressions from the first new-user QA pass (issue 2 flows)."""
from __future__ import annotations

import pytest

from app.identity import clean_name
from tests.app.conftest import create, named, new_client


@pytest.mark.parametrize("raw,expected", [
    ("Mor\u202egana", "Morgana"),      # right-to-left override would reverse log lines
    ("a\x00b", "ab"),                   # NUL
    ("  Baltazar\u200b ", "Baltazar"),  # zero-width space
])
def test_names_lose_invisible_characters(raw, expected):
    assert clean_name(raw) == expected


def test_a_name_of_only_invisible_characters_is_refused():
    with pytest.raises(ValueError):
        clean_name("\u200b\u202e")


def test_an_empty_number_option_takes_its_default(client):
    named(client, "Host")
    r = client.post("/matches", data={"game": "covil", "players_covil": "2",
                                      "opt_covil_board": "A", "opt_covil_dummies": ""},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/m/")
    r = client.post("/matches", data={"game": "covil", "players_covil": "2",
                                      "opt_covil_dummies": "abc"}, follow_redirects=False)
    assert r.status_code == 303 and "error=" in r.headers["location"]


def test_invite_link_after_the_start_leads_to_the_spectator_view(client):
    named(client, "Host")
    mid = create(client, public=False)
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    page = client.get(f"/m/{mid}").text
    invite = page.split('id="invite-link" readonly value="')[1].split('"')[0].rsplit("/", 1)[1]
    client.post(f"/m/{mid}/start")
    late = named(new_client(client), "Late")
    r = late.get(f"/invite/{invite}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/watch/")
    assert 'id="table"' in late.get(r.headers["location"]).text


def test_finished_private_match_stays_private(client):
    named(client, "Host")
    mid = create(client, public=False)
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    client.post(f"/m/{mid}/bot", data={"seat": "0", "bot": "random"})
    client.post(f"/m/{mid}/start")
    client.portal.call(client.app.state.service.drain)
    stranger = named(new_client(client), "Eve")
    for url in (f"/m/{mid}/replay", f"/matches/{mid}/replay?step=1", f"/matches/{mid}/record"):
        assert stranger.get(url).status_code == 404, url  # as if missing (issue 12)
    assert client.get(f"/matches/{mid}/record").status_code == 200  # the host may
    token = client.portal.call(client.app.state.service.snapshot, mid).match.watch_token
    assert stranger.get(f"/matches/{mid}/record?watch={token}").status_code == 200


def test_rejoin_link_asks_before_taking_the_seat(client):
    named(client, "Host")
    mid = create(client)
    page = client.post(f"/m/{mid}/rejoin-link").text
    rejoin = page.split('id="rejoin-link" readonly value="')[1].split('"')[0].rsplit("/", 1)[1]
    other = named(new_client(client), "StrangerBob")
    r = other.get(f"/rejoin/{rejoin}", follow_redirects=False)
    assert r.status_code == 200 and "Play Host's seat here?" in r.text
    assert "Playing as <strong>StrangerBob</strong>" in other.get("/").text  # nothing changed
    assert client.portal.call(client.app.state.service.snapshot, mid).seats[0].player_id is None
    r = other.post(f"/rejoin/{rejoin}", follow_redirects=False)
    assert r.status_code == 303
    # the seat is granted to this browser's identity, which stays itself (issue 12)
    assert "Playing as <strong>StrangerBob</strong>" in other.get("/").text
    assert '<span class="badge">you</span>' in other.get(f"/m/{mid}").text


def test_invite_name_page_says_what_you_are_invited_to(client):
    named(client, "Host")
    mid = create(client, game="drops_of_evil", players=3)
    page = client.get(f"/m/{mid}").text
    invite = page.split('id="invite-link" readonly value="')[1].split('"')[0]
    newcomer = new_client(client)
    assert "You are invited to Drops of Evil" in newcomer.get(invite).text
