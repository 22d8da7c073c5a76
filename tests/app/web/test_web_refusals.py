"""How the site answers a refused request (app/web/deps.py): the service's ``ServiceError``
as the page, JSON or lobby redirect the route chose, and a visitor without a name asked for
one first. The answers pinned here are the ones each route gave when it converted errors by
hand."""
from __future__ import annotations

import re
from html import unescape

import pytest

from app.matches import access
from tests.app.conftest import create, named, new_client


def page(r) -> tuple[str, str, str]:
    """``(title, text, back link)`` of a message page."""
    html = r.text
    title = unescape(re.search(r"<h1>(.*?)</h1>", html, re.S).group(1).strip())
    text = unescape(re.search(r'<p id="message">(.*?)</p>', html, re.S).group(1).strip())
    back = unescape(re.search(r'<a class="btn" href="([^"]*)">Back</a>', html).group(1))
    return title, text, back


@pytest.fixture
def host(client):
    return named(client, "Host")


@pytest.fixture
def guest(client):
    return named(new_client(client), "Guest")


def test_a_refused_form_is_a_page_leading_back_to_the_match(host, guest):
    mid = create(host)
    r = guest.post(f"/m/{mid}/start", follow_redirects=False)
    assert r.status_code == 403
    assert page(r) == ("Not possible", "Only the host can do that.", f"/m/{mid}")
    r = host.post(f"/m/{mid}/start", follow_redirects=False)  # seats still empty
    assert r.status_code == 400
    assert page(r)[0] == "Not possible" and page(r)[2] == f"/m/{mid}"


def test_a_second_start_opens_the_table(host):
    mid = create(host)
    host.post(f"/m/{mid}/fill", data={"bot": "random"})
    for _ in range(2):  # a double click: the second finds it started
        r = host.post(f"/m/{mid}/start", follow_redirects=False)
        assert (r.status_code, r.headers["location"]) == (303, f"/m/{mid}")


def test_a_missing_or_hidden_match_is_the_same_not_found_page(host, guest):
    private = create(host, public=False)
    answers = []
    for mid in (private, "no-such-match"):
        for method, path in (("get", f"/m/{mid}"), ("get", f"/m/{mid}/replay"),
                             ("post", f"/m/{mid}/cancel"), ("post", f"/m/{mid}/rejoin-link")):
            r = getattr(guest, method)(path, follow_redirects=False)
            answers.append((r.status_code, page(r)))
    assert set(answers) == {(404, ("Not found", access.NOT_FOUND, "/"))}


def test_the_json_api_answers_json(guest):
    r = guest.get("/matches/no-such-match/replay")
    assert (r.status_code, r.json()) == (404, {"detail": access.NOT_FOUND})
    r = guest.get("/matches/no-such-match/record")
    assert (r.status_code, r.json()) == (404, {"detail": access.NOT_FOUND})


def test_bad_links_say_so(guest):
    r = guest.get("/invite/nope")
    assert r.status_code == 404 and page(r)[0] == "Invalid invite" and page(r)[2] == "/"
    for method in ("get", "post"):
        for path in ("/watch/nope", "/rejoin/nope"):
            if method == "post" and path.startswith("/watch"):
                continue
            r = getattr(guest, method)(path, follow_redirects=False)
            assert r.status_code == 404 and page(r)[0] == "Invalid link" and page(r)[2] == "/"


def test_a_refused_match_goes_back_to_the_lobby_with_the_reason(host):
    r = host.post("/matches", data={"game": "toy", "players_toy": "5"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/?error=")
    assert "Toy Nim is for 2" in unescape(host.get(r.headers["location"]).text)


def test_a_visitor_without_a_name_is_asked_for_one_first(client, host):
    mid = create(host, public=False)
    stranger = new_client(client)  # no identity: the name page, even for a hidden match
    for path, next_url in ((f"/m/{mid}/cancel", f"/m/{mid}"), ("/matches", "/")):
        r = stranger.post(path, follow_redirects=False)
        assert r.status_code == 200
        assert f'name="next" value="{next_url}"' in r.text


def test_only_the_host_sets_the_pace_and_a_typing_mistake_shows_the_form_again(host, guest):
    mid = create(host)
    guest.post(f"/m/{mid}/seat", data={"seat": "1"})
    r = guest.post(f"/m/{mid}/pace", data={"pace": "live", "bank_minutes": "abc"},
                   follow_redirects=False)
    assert r.status_code == 403
    assert page(r) == ("Not possible", "Only the host can do that.", f"/m/{mid}")
    r = host.post(f"/m/{mid}/pace", data={"pace": "live", "bank_minutes": "abc"},
                  follow_redirects=False)
    assert r.status_code == 400 and 'value="abc"' in r.text  # the waiting room, as typed
