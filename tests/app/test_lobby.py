"""Lobby, identity, seats, invite/watch/rejoin links (issue 2, "Identity and lobby")."""
from __future__ import annotations

import re

from tests.app.conftest import create, named, new_client


def _tokens(html: str) -> dict[str, str]:
    found = dict(re.findall(r'id="(invite|watch|rejoin)-link" readonly value="[^"]*/(?:invite|watch|rejoin)/([^"]+)"', html))
    return found


def test_guest_cookie_is_signed_httponly_lax(client):
    r = client.post("/name", data={"name": "  Morgana  ", "next": "/"}, follow_redirects=False)
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "Morgana" not in cookie  # only a signed opaque id
    assert "Playing as <strong>Morgana</strong>" in client.get("/").text


def test_tampered_cookie_is_a_new_visitor(client):
    named(client, "Morgana")
    client.cookies.set("lair_user", "forged.value")
    assert "Pick a name to start" in client.get("/").text


def test_empty_name_is_refused(client):
    r = client.post("/name", data={"name": "   ", "next": "/"})
    assert "Please choose a name" in r.text


def test_open_redirect_is_refused(client):
    r = client.post("/name", data={"name": "A", "next": "//evil.example"}, follow_redirects=False)
    assert r.headers["location"] == "/"


def test_create_join_by_invite_start_and_lists(client):
    named(client, "Host")
    mid = create(client, public=False)
    page = client.get(f"/m/{mid}").text
    tokens = _tokens(page)
    assert {"invite", "watch", "rejoin"} <= set(tokens)
    assert mid in client.get("/").text  # "your matches"
    friend = new_client(client)
    named(friend, "Friend")
    assert friend.get(f"/m/{mid}").status_code == 403  # private without a link
    r = friend.post(f"/m/{mid}/seat", data={"seat": "1", "invite": ""})
    assert r.status_code == 403
    page = friend.get(f"/invite/{tokens['invite']}").text
    assert 'id="take-1"' in page
    r = friend.post(f"/m/{mid}/seat", data={"seat": "1", "invite": tokens["invite"]},
                    follow_redirects=False)
    assert r.status_code == 303
    assert friend.post(f"/m/{mid}/start").status_code == 403  # only the host starts
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    assert 'id="table"' in client.get(f"/m/{mid}").text


def test_public_match_is_listed_until_started(client):
    named(client, "Host")
    mid = create(client)
    other = new_client(client)
    named(other, "Other")
    assert mid in other.get("/").text
    other.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    late = new_client(client)
    named(late, "Late")
    page = late.get("/").text
    running, open_ = page.split('id="running-matches"')[1].split("Open public matches")
    assert f"/m/{mid}" in running and f"/m/{mid}" not in open_  # now it is to watch


def test_seat_taken_leave_and_host_removes(client):
    named(client, "Host")
    mid = create(client)
    a, b = new_client(client), new_client(client)
    named(a, "A"), named(b, "B")
    a.post(f"/m/{mid}/seat", data={"seat": "1"})
    r = b.post(f"/m/{mid}/seat", data={"seat": "1"})
    assert "That seat is taken" in r.text
    a.post(f"/m/{mid}/leave")
    b.post(f"/m/{mid}/seat", data={"seat": "1"})
    assert "<strong>B</strong>" in client.get(f"/m/{mid}").text
    assert "Only the host" in a.post(f"/m/{mid}/bot", data={"seat": "1", "bot": ""}).text
    client.post(f"/m/{mid}/bot", data={"seat": "1", "bot": ""})
    assert "<strong>B</strong>" not in client.get(f"/m/{mid}").text


def test_start_needs_full_seats_then_bots_fill(client):
    named(client, "Host")
    mid = create(client)
    assert "Every seat must be taken" in client.post(f"/m/{mid}/start").text
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    assert "Random bot" in client.get(f"/m/{mid}").text
    client.post(f"/m/{mid}/start")
    assert 'id="table"' in client.get(f"/m/{mid}").text


def test_cancel(client):
    named(client, "Host")
    mid = create(client)
    client.post(f"/m/{mid}/cancel")
    assert "cancelled" in client.get(f"/m/{mid}").text


def test_rejoin_link_moves_identity_to_another_device(client):
    named(client, "Host")
    mid = create(client)
    rejoin = _tokens(client.get(f"/m/{mid}").text)["rejoin"]
    phone = new_client(client)
    r = phone.get(f"/rejoin/{rejoin}", follow_redirects=False)
    assert r.headers["location"] == f"/m/{mid}"
    assert "Playing as <strong>Host</strong>" in phone.get("/").text
    assert phone.get("/rejoin/not-a-token").status_code == 404


def test_bad_game_and_count(client):
    named(client, "Host")
    r = client.post("/matches", data={"game": "nope", "players_nope": "2"}, follow_redirects=False)
    assert "error=" in r.headers["location"]
    r = client.post("/matches", data={"game": "toy", "players_toy": "9"}, follow_redirects=False)
    assert "error=" in r.headers["location"]


def test_matches_waiting_for_you_come_first_in_the_lobby(client):
    named(client, "Host")
    waiting = create(client)
    client.post(f"/m/{waiting}/fill", data={"bot": "random"})
    client.post(f"/m/{waiting}/start")  # toy bid phase: Host is prompted at once
    later = create(client)  # more recent, but not waiting for Host
    page = client.get("/").text
    mine = page[page.index('id="my-matches"'):]
    assert mine.index(f"/m/{waiting}") < mine.index(f"/m/{later}")
    assert "your turn" in mine
