"""The admin page (issue 8, item 6), with and without rights: the operator (``ADMIN_TOKEN``)
lists matches by status, sees a match's players and public log, ends an abandoned match and
removes a chat message; players, strangers and wrong tokens can do none of it."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.app.conftest import named, new_client, release_cancelled_connections
from tests.app.ops.test_ops_support import ADMIN
from tests.app.realtime.test_live import act, recv, started, view_at
from tests.csrf import as_browser


@pytest.fixture
def ops_client(database_url):
    """A browser's client of an app with the operator's token ``ADMIN`` set (no bot delay)."""
    settings = Settings(database_url=database_url, secret_key="test-secret", bot_delay=0,
                        admin_token=ADMIN)
    with as_browser(TestClient(create_app(settings), base_url="http://testserver")) as c:
        yield c
        release_cancelled_connections(c)


def admin_browser(client) -> TestClient:
    admin = new_client(client)
    r = admin.post("/admin/login", data={"token": ADMIN}, follow_redirects=False)
    assert r.status_code == 303 and "lair_admin" in r.cookies
    return admin


def chat_ids(client, mid) -> list[int]:
    return [m.id for m in client.portal.call(client.app.state.service.chat_history, mid)]


def status_of(client, mid) -> str:
    return client.portal.call(client.app.state.service.snapshot, mid).match.status


def test_admin_is_off_without_a_token(client):
    mid, _ = started(client)
    assert client.get("/admin").status_code == 404
    assert client.post("/admin/login", data={"token": ""}).status_code == 404
    assert client.post(f"/admin/m/{mid}/end").status_code == 404
    assert status_of(client, mid) == "active"


def test_without_rights_nothing_is_shown_or_changed(ops_client):
    mid, bob = started(ops_client)
    with ops_client.websocket_connect(f"/ws/matches/{mid}") as ws:
        view_at(ws, 0)
        ws.send_json({"type": "chat", "text": "hello"})
        recv(ws, "chat")
    [chat_id] = chat_ids(ops_client, mid)
    stranger = named(new_client(ops_client), "Eve")
    for who in (ops_client, bob, stranger):  # the host, a player, a stranger
        r = who.get("/admin?status=active")
        assert r.status_code == 401 and mid not in r.text and "Sign in" in r.text
        assert who.get(f"/admin/m/{mid}").status_code == 401
        assert who.post(f"/admin/m/{mid}/end").status_code == 401
        assert who.post(f"/admin/chat/{chat_id}/delete").status_code == 401
    wrong = stranger.post("/admin/login", data={"token": "guess"}, follow_redirects=False)
    assert wrong.status_code == 401 and "lair_admin" not in wrong.cookies
    stranger.cookies.set("lair_admin", "forged.value.sig", path="/admin")
    assert stranger.get("/admin").status_code == 401
    assert stranger.get("/admin", headers={"Authorization": "Bearer guess"}).status_code == 401
    assert status_of(ops_client, mid) == "active" and chat_ids(ops_client, mid) == [chat_id]


def test_admin_lists_shows_ends_and_removes_chat(ops_client):
    mid, bob = started(ops_client)
    named(ops_client, "Ann")
    with ops_client.websocket_connect(f"/ws/matches/{mid}") as ws:
        view_at(ws, 0)
        act(ws, 0, {"type": "bid", "n": 3}, "secret-bid")
        view_at(ws, 1)
        ws.send_json({"type": "chat", "text": "rude words"})
        recv(ws, "chat")
        admin = admin_browser(ops_client)

        listing = admin.get("/admin?status=active")
        assert listing.status_code == 200 and f'data-match="{mid}"' in listing.text
        assert mid not in admin.get("/admin?status=finished").text
        page = admin.get(f"/admin/m/{mid}")
        assert page.status_code == 200
        assert "Ann" in page.text and "Bob" in page.text  # the players
        assert "The toy match begins." in page.text  # the public log
        assert "You bid 3" not in page.text  # Ann's secret bid is not public
        assert "rude words" in page.text
        [chat_id] = chat_ids(ops_client, mid)
        # the id `lair remove-chat ID` needs is shown on the page, not only in the form's URL
        assert f'title="the id for lair remove-chat">#{chat_id}</span>' in page.text

        r = admin.post(f"/admin/chat/{chat_id}/delete", follow_redirects=False)
        assert r.status_code == 303 and chat_ids(ops_client, mid) == []
        assert "rude words" not in admin.get(f"/admin/m/{mid}").text

        r = admin.post(f"/admin/m/{mid}/end", follow_redirects=False)
        assert r.status_code == 303
        assert recv(ws, "reload") == {"type": "reload"}  # the players' tables reload
    assert status_of(ops_client, mid) == "cancelled"
    assert f'data-match="{mid}"' in admin.get("/admin?status=cancelled").text
    with bob.websocket_connect(f"/ws/matches/{mid}") as ws:
        view_at(ws, 0)
        act(ws, 1, {"type": "bid", "n": 1}, "late")
        assert recv(ws, "error")["code"] == "finished"


def test_admin_bearer_token_works_for_scripts(ops_client):
    mid, _ = started(ops_client)
    other = new_client(ops_client)
    headers = {"Authorization": f"Bearer {ADMIN}"}
    assert f'data-match="{mid}"' in other.get("/admin", headers=headers).text
    assert other.post(f"/admin/m/{mid}/end", headers=headers,
                      follow_redirects=False).status_code == 303
    assert status_of(ops_client, mid) == "cancelled"
    assert other.post("/admin/m/nosuch/end", headers=headers).status_code == 404
