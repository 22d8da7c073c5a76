"""Lobby, identity, seats, invite/watch/rejoin links (issue 2, "Identity and lobby")."""
from __future__ import annotations

import re

import pytest

from tests.app.conftest import create, named, new_client

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


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
    assert {"invite", "watch"} <= set(tokens)
    assert 'id="make-rejoin-link"' in page  # a link for another device, made when asked
    # the seated host is offered to move, not to "take" a second seat (review 7)
    assert "Move to this seat" in page and "Take this seat" not in page
    assert mid in client.get("/").text  # "your matches"
    friend = new_client(client)
    named(friend, "Friend")
    # private without a link: answered like a missing match (issue 12, no existence oracle)
    assert friend.get(f"/m/{mid}").status_code == 404
    r = friend.post(f"/m/{mid}/seat", data={"seat": "1", "invite": ""})
    assert r.status_code == 404
    page = friend.get(f"/invite/{tokens['invite']}").text
    assert 'id="take-1"' in page and "Take this seat" in page and "Move to this seat" not in page
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
    # back in the room (not a dead end), which says so (issue 14, item 10)
    assert r.url.path == f"/m/{mid}" and r.url.params["taken"] == "1"
    assert "Seat 2 was taken by someone else a moment ago" in r.text
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
    assert "Bot: Easy (random)" in client.get(f"/m/{mid}").text
    client.post(f"/m/{mid}/start")
    assert 'id="table"' in client.get(f"/m/{mid}").text


def test_cancel(client):
    named(client, "Host")
    mid = create(client)
    client.post(f"/m/{mid}/cancel")
    assert "cancelled" in client.get(f"/m/{mid}").text


def test_rejoin_link_opens_the_seat_on_another_device(client):
    """A rejoin link grants its seat to the other device's own identity (issue 12: it no
    longer makes that browser the player for everything; tests/app/matches/test_access.py)."""
    named(client, "Host")
    mid = create(client)
    rejoin = _tokens(client.post(f"/m/{mid}/rejoin-link").text)["rejoin"]
    phone = new_client(client)
    assert phone.get(f"/rejoin/{rejoin}").status_code == 200  # asks first
    r = phone.post(f"/rejoin/{rejoin}", follow_redirects=False)
    assert r.headers["location"] == f"/m/{mid}"
    page = phone.get(f"/m/{mid}").text
    assert '<span class="badge">you</span>' in page  # the phone plays the host's seat
    assert 'id="start"' not in page  # but the host role stays with the host's identity
    assert "Playing as <strong>Host</strong>" in phone.get("/").text  # named after the seat
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


def test_solo_room_shows_what_solo_plays_and_multiplayer_rooms_no_solo_settings(client):
    """Issue 14, item 10: Covil's solo room shows the board it will play (B: "Evil Prevails"
    always uses the Desert town map) and its solo settings; a multiplayer room has none of them;
    "1 player", not "1 players"."""
    named(client, "Host")
    solo = client.get(f"/m/{create(client, 'covil', 1, board='A')}").text
    options = solo.split('id="options"')[1].split("</p>")[0]
    assert "Board: <strong>Desert Town</strong>" in options
    assert "Dummy players (solo)" in options and "Dummy fortress next to yours (solo)" in options
    assert ">1 player<" in solo and "1 players" not in solo
    duo = client.get(f"/m/{create(client, 'covil', 2, board='A')}").text
    options = duo.split('id="options"')[1].split("</p>")[0]
    assert "Board: <strong>Water Town</strong>" in options and "(solo)" not in options
    assert ">2 players<" in duo
    # the lobby names the boards as the room does (one home: the boards' names), not by letter
    lobby = client.get("/").text
    assert ">Water Town</option>" in lobby and ">Desert Town</option>" in lobby


def test_drops_forest_side_is_a_two_player_setting_with_words(client):
    """Drops of Evil, Setup: "2 players: small Forest board, either side ... side A (regular) or
    side B (variant)"; 3 and 4 players use the large Forest. The lobby's field says so (label and
    help); the waiting room lists the side for 2 players only (a new user read "Side: A" in a
    4-player room)."""
    named(client, "Host")
    lobby = client.get("/").text
    field = lobby.split('name="opt_drops_of_evil_side"')[0].rsplit("<label", 1)[1]
    assert 'data-players="2"' in field and "Small Forest side (2 players)" in field
    assert "side A (regular) or side B (variant)" in field
    duo = client.get(f"/m/{create(client, 'drops_of_evil', 2, side='B')}").text
    assert "Small Forest side (2 players): <strong>B</strong>" in duo
    for players in (3, 4):
        room = client.get(f"/m/{create(client, 'drops_of_evil', players)}").text
        assert "Forest side" not in room and "Side:" not in room, players


def test_evil_corp_seat_options_left_unchosen_say_so_in_words(client):
    """Evil Corp.'s Balance of Power ("give the weaker participant 4 gold coins at the start of
    the game") and first player are seats or nothing; a new user read "Balance of Power: — ·
    First player: —". The room says "nobody" and "drawn at the start"; the lobby's menus too."""
    named(client, "Host")
    lobby = client.get("/").text
    for name, words in (("balance_of_power_seat", "nobody"), ("first_player", "drawn at the start")):
        menu = lobby.split(f'name="opt_evil_corp_{name}"')[1].split("</select>")[0]
        assert f'<option value="" selected>{words}</option>' in menu
    room = client.get(f"/m/{create(client, 'evil_corp', 2)}").text
    assert "Balance of Power: <strong>nobody</strong>" in room
    assert "First player: <strong>drawn at the start</strong>" in room
    chosen = client.get(f"/m/{create(client, 'evil_corp', 2, first_player=1)}").text
    assert "First player: <strong>Seat 2</strong>" in chosen


def test_start_waits_for_every_seat_and_bots_are_named_by_level(client):
    """Issue 14, item 10: "Start" is disabled while a seat is empty and the room offers to fill
    the empty seats with bots, named by level (issue 17: Easy, Normal (the default), Hard; a
    name stored before the levels keeps its kind: "Normal (greedy)")."""
    named(client, "Host")
    mid = create(client, "drops_of_evil", 3)
    page = client.get(f"/m/{mid}").text
    assert re.search(r'id="start" disabled', page) and 'id="start-note"' in page
    assert "Fill the 2 empty seats with bots" in page
    assert '<option value="easy" >Easy</option>' in page
    assert '<option value="normal" selected>Normal</option>' in page
    assert '<option value="hard" >Hard</option>' in page
    client.post(f"/m/{mid}/fill", data={"bot": "greedy"})
    page = client.get(f"/m/{mid}").text
    assert 'id="start" disabled' not in page and 'id="fill"' not in page
    assert page.count("Bot: Normal (greedy)") == 2


def test_your_matches_name_the_opponents(client):
    """Issue 14, item 11: "Your matches" says whom you play with."""
    named(client, "Host")
    mid = create(client, "drops_of_evil", 3)
    friend = new_client(client)
    named(friend, "Friend")
    friend.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/bot", data={"seat": "2", "bot": "random"})
    mine = client.get("/").text.split('id="my-matches"')[1].split("</ul>")[0]
    assert "with <strong>Friend</strong> and <strong>random bot</strong>" in mine
    theirs = friend.get("/").text.split('id="my-matches"')[1].split("</ul>")[0]
    assert "with <strong>Host</strong> and <strong>random bot</strong>" in theirs


def test_leaving_a_private_match_goes_back_to_its_invite_page(client):
    """Issue 14, item 10: no dead end ("ask for the invite link") for a guest who leaves."""
    named(client, "Host")
    mid = create(client, public=False)
    invite = _tokens(client.get(f"/m/{mid}").text)["invite"]
    friend = new_client(client)
    named(friend, "Friend")
    friend.post(f"/m/{mid}/seat", data={"seat": "1", "invite": invite})
    r = friend.post(f"/m/{mid}/leave")
    assert r.status_code == 200 and r.url.path == f"/invite/{invite}"
    assert 'id="take-1"' in r.text
    r = client.post(f"/m/{mid}/leave")  # the host still sees the room
    assert r.url.path == f"/m/{mid}" and 'id="start"' in r.text
