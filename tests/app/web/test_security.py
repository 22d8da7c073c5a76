"""Security checks (issue 6, section 3 "Security" and "one seat, one action"), every database.

Tokens are unguessable; a seat acts only through its owner's signed cookie; spectators never
act; the websocket refuses cross-site origins; cookies are HttpOnly, SameSite=Lax and Secure
behind TLS; the seed and the RNG/bag order never reach a client; two tabs, a double-clicked
join and a double-sent action give one seat and one action.
"""
from __future__ import annotations

import asyncio
import json
import re
import secrets

import orjson
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.identity import _serializer, read_user_id
from app.main import create_app
from app.settings import Settings
from engines import registry
from engines.records import replay_states
from tests.app.conftest import create, named, new_client
from tests.app.realtime.test_live import act, recv, started, state_of, view_at
from tests.csrf import as_browser

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]+$")


def _snap(client, mid):
    return client.portal.call(client.app.state.service.snapshot, mid)


# ----- tokens -----------------------------------------------------------------------------------
def test_tokens_come_from_secrets_with_at_least_128_bits(client, monkeypatch):
    import app.matches.lobby as service_module

    made: dict[str, int] = {}  # token -> the entropy (bytes) secrets was asked for
    real = secrets.token_urlsafe

    def spy(nbytes=None):
        token = real(nbytes)
        made[token] = nbytes
        return token

    monkeypatch.setattr(service_module.secrets, "token_urlsafe", spy)
    named(client, "Ann")
    tokens, seeds = set(), set()
    for _ in range(5):
        mid = create(client, game="toy")
        bob = named(new_client(client), "Bob")
        bob.post(f"/m/{mid}/seat", data={"seat": "1"})
        snap = _snap(client, mid)
        rejoin = [client.portal.call(client.app.state.service.make_rejoin_link, mid, s.user_id)
                  for s in snap.seats]
        for token in [snap.match.invite_token, snap.match.watch_token, *rejoin]:
            assert TOKEN_RE.match(token) and len(token) * 6 >= 128, token
            assert made.get(token, 0) >= 16, token  # from secrets, >= 128 bits
            tokens.add(token)
        seeds.add(snap.match.seed)
    assert len(tokens) == 5 * 4  # all different
    assert len(seeds) == 5 and max(seeds) > 2 ** 40  # random 62-bit seeds, not counters


def test_a_forged_or_foreign_cookie_gets_no_seat(client):
    mid, other = started(client)
    user_id = _snap(client, mid).seats[0].user_id
    forger = TestClient(client.app, base_url="http://testserver")
    forger.portal = client.portal
    before = state_of(client, mid)
    for cookie in (user_id, user_id + ".AAAA", "garbage"):  # the raw id, a wrong signature
        forger.cookies.set("lair_user", cookie)
        with forger.websocket_connect(f"/ws/matches/{mid}") as ws:
            assert recv(ws, "view")["view"]["you"] is None
            act(ws, 0, {"type": "bid", "n": 1}, "forged")
            assert recv(ws, "error")["code"] == "spectator"
    # A cookie signed with another key is no better.
    other_app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:",
                                    secret_key="another-key"))
    forger.cookies.set("lair_user", _serializer(other_app.state.settings).dumps(user_id))
    with forger.websocket_connect(f"/ws/matches/{mid}") as ws:
        assert recv(ws, "view")["view"]["you"] is None
    assert state_of(client, mid) == before


def test_a_seat_acts_only_for_itself_on_every_action(client):
    mid, bob = started(client)
    before = state_of(client, mid)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bws:
        recv(ann, "view"), recv(bws, "view")
        # No field of the message can name another seat.
        bws.send_text(json.dumps({"type": "action", "id": "s", "version": 0, "seat": 0,
                                  "action": {"type": "bid", "n": 1}}))
        assert recv(bws, "error")["code"] == "bad_message"
        assert state_of(client, mid) == before
        # Bob's legal bid is applied to Bob's seat, never to Ann's.
        act(bws, 0, {"type": "bid", "n": 2}, "b")
        assert view_at(bws, 1)["game"]["bids"][1] == 2
        act(bws, 1, {"type": "bid", "n": 3}, "b2")  # Bob again: his seat has bid already
        assert recv(bws, "error")["code"] in ("not_your_seat", "illegal")
    assert state_of(client, mid)[1]["bids"] == [None, 2]


def test_spectators_never_act(client):
    named(client, "Ann")
    mid = create(client)
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    client.post(f"/m/{mid}/bot", data={"seat": "0", "bot": "random"})
    watcher = new_client(client)
    with watcher.websocket_connect(f"/ws/matches/{mid}") as ws:
        recv(ws, "lobby")
        act(ws, 0, {"type": "bid", "n": 1}, "early")
        assert recv(ws, "error")["code"] in ("spectator", "illegal")
    client.portal.call(client.app.state.service.drain)


# ----- origin -----------------------------------------------------------------------------------
@pytest.mark.parametrize("origin,ok", [
    (None, True),  # bots, curl: no browser, no ambient cookies
    ("http://testserver", True),  # this very site
    ("https://play.example", True),  # configured
    ("http://evil.example", False),
    ("https://testserver.evil.example", False),
    ("null", False),  # sandboxed iframes, file:// pages
])
def test_websocket_checks_the_origin(database_url, origin, ok):
    app = create_app(Settings(database_url=database_url, secret_key="s", bot_delay=0,
                              allowed_origins=["https://play.example"]))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        mid, _ = started(client)
        headers = {"origin": origin} if origin else {}
        if ok:
            with client.websocket_connect(f"/ws/matches/{mid}", headers=headers) as ws:
                assert recv(ws, "view")["view"]["you"] == 0
        else:
            with pytest.raises(WebSocketDisconnect) as refused:
                with client.websocket_connect(f"/ws/matches/{mid}", headers=headers) as ws:
                    ws.receive_json()
            assert refused.value.code == 4403 and "Origin" in refused.value.reason


# ----- cookies ----------------------------------------------------------------------------------
@pytest.mark.parametrize("secure", [False, True])
def test_identity_cookie_flags(database_url, secure):
    app = create_app(Settings(database_url=database_url, secret_key="s", cookie_secure=secure))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        r = client.post("/name", data={"name": "Ann", "next": "/"}, follow_redirects=False)
        header = r.headers["set-cookie"]
        attrs = {a.strip().split("=")[0].lower() for a in header.split(";")}
        assert "httponly" in attrs
        assert re.search(r"samesite=lax", header, re.I)
        assert ("secure" in attrs) is secure
        user_id = r.cookies.get("lair_user")
        assert user_id and "Ann" not in user_id  # an opaque signed id, no name in it


def test_name_form_redirects_only_to_local_paths_and_takes_no_control_characters(client):
    for target in ("//evil.example/", "/\\evil.example/", "https://evil.example/",
                   "/\t/evil.example"):
        r = client.post("/name", data={"name": "Ann", "next": target}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/", target
    r = client.post("/name", data={"name": "A\x00nn\x07", "next": "/"}, follow_redirects=False)
    assert r.status_code == 303
    assert "Ann" in client.get("/").text


# ----- the seed and the bag order never reach a client -------------------------------------------
def _hidden_order_lists(state: dict) -> list[bytes]:
    """The JSON of every shuffled (unsorted) bag/deck/pile list in a state: their order is
    exactly what must stay secret."""
    found = []

    def walk(x, key=""):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, str(k))
        elif isinstance(x, list):
            if (len(x) >= 4 and any(w in key.lower() for w in ("bag", "deck", "pile", "draw"))
                    and all(isinstance(i, (str, int)) for i in x)
                    and x != sorted(x, key=lambda i: (str(type(i)), i))):
                found.append(orjson.dumps(x))
            for v in x:
                walk(v, key)
    walk(state)
    return found


@pytest.mark.parametrize("game", ["drops_of_evil", "evil_corp", "covil"])
def test_seed_and_rng_never_reach_a_client(fast_client, game):
    client = fast_client
    engine = registry.get(game)
    named(client, "Ann")
    mid = create(client, game=game, players=2)
    client.post(f"/m/{mid}/bot", data={"seat": "1", "bot": "random"})
    client.post(f"/m/{mid}/start")
    service = client.app.state.service
    payloads: list[str] = []
    watcher = new_client(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            watcher.websocket_connect(f"/ws/matches/{mid}") as spec:
        for step in range(30):  # Ann plays her first legal action whenever asked
            client.portal.call(service.drain)
            snap = _snap(client, mid)
            if snap.match.status != "active":
                break
            legal = engine.legal_actions(snap.match.state, 0)
            if not legal:
                continue
            act(ann, snap.match.version, legal[0], f"a{step}")
            while True:
                msg = ann.receive_json()
                payloads.append(json.dumps(msg))
                if msg["type"] in ("ack", "error"):
                    break
        ann.send_text('{"type":"ping"}'), spec.send_text('{"type":"ping"}')
        for ws in (ann, spec):
            while (msg := ws.receive_json())["type"] != "pong":
                payloads.append(json.dumps(msg))
    client.portal.call(service.drain)
    snap = _snap(client, mid)
    m = snap.match
    for path in (f"/m/{mid}", f"/m/{mid}/replay", f"/matches/{mid}/replay?step=1",
                 f"/matches/{mid}/replay?step={m.version}"):
        payloads.append(client.get(path).text)
        payloads.append(watcher.get(path).text)
    if m.status != "finished":
        assert client.get(f"/matches/{mid}/record").status_code == 403
    rows = client.portal.call(service.actions, mid)
    secrets_seen = {str(m.seed)}
    orders: set[bytes] = set()
    for state in replay_states(m.game, m.players, m.options, m.seed,
                               [(r.seat, r.action) for r in rows]):
        secrets_seen.add(str(state["rng"]))
        orders.update(_hidden_order_lists(state))
    assert len(payloads) > 10 and m.version > 5
    blob = "\n".join(payloads)
    for value in secrets_seen:
        assert value not in blob
    compact = blob.replace(" ", "")
    for order in orders:
        assert order.decode() not in compact


# ----- one seat, one action ----------------------------------------------------------------------
def test_double_clicked_join_and_two_tabs_give_one_seat(client):
    named(client, "Host")
    r = client.post("/matches", data={"game": "toy", "players_toy": "2", "public": "on",
                                      "host_plays": "no"}, follow_redirects=False)
    mid = r.headers["location"].rsplit("/", 1)[1]
    ann = named(new_client(client), "Ann")
    service = client.app.state.service
    uid = read_user_id({"lair_user": ann.cookies["lair_user"]}, client.app.state.settings)

    async def double_click():
        return await asyncio.gather(service.take_seat(mid, uid, 0), service.take_seat(mid, uid, 0),
                                    service.take_seat(mid, uid, 1), return_exceptions=True)

    client.portal.call(double_click)
    for _ in range(2):  # and the form posted twice
        ann.post(f"/m/{mid}/seat", data={"seat": "1"})
    seats = [s for s in _snap(client, mid).seats if s.user_id == uid]
    assert len(seats) == 1
    # Two tabs of the same browser are the same seat; a double-sent action lands once.
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    client.post(f"/m/{mid}/start")
    client.portal.call(service.drain)
    snap = _snap(client, mid)
    mine = seats[0].seat
    with ann.websocket_connect(f"/ws/matches/{mid}") as tab1, \
            ann.websocket_connect(f"/ws/matches/{mid}") as tab2:
        v1, v2 = recv(tab1, "view")["view"], recv(tab2, "view")["view"]
        assert v1["you"] == v2["you"] == mine
        version = snap.match.version
        legal = registry.get("toy").legal_actions(snap.match.state, mine)
        assert legal
        for ws in (tab1, tab2, tab1):
            act(ws, version, legal[0], "double")
        replies = []
        for ws, n in ((tab1, 2), (tab2, 1)):
            while len([r for r in replies if r[0] is ws]) < n:
                msg = ws.receive_json()
                if msg["type"] in ("ack", "error"):
                    replies.append((ws, msg))
        applied = [m for _, m in replies if m["type"] == "ack" and not m["duplicate"]]
        assert len(applied) == 1, replies
        assert all(m["type"] == "ack" or m["code"] == "stale" for _, m in replies)
    client.portal.call(service.drain)
    rows = client.portal.call(service.actions, mid)
    assert len([r for r in rows if r.action_id == "double"]) == 1


def test_a_malformed_form_is_a_page_for_a_browser_and_json_for_the_api(client):
    """A hand-made form post with ``seat=abc`` (issue 6 §3, hostile input): a browser, which
    asks for HTML, gets a page saying what was wrong and a way back; other clients keep the
    422 JSON answer. Nothing changes."""
    from tests.app.conftest import create, named

    named(client, "Ann")
    mid = create(client)
    page = client.post(f"/m/{mid}/bot", data={"seat": "abc", "bot": "random"},
                       headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 400 and "text/html" in page.headers["content-type"]
    assert "seat: Input should be a valid integer" in page.text
    assert f'href="/m/{mid}"' in page.text
    api = client.post(f"/m/{mid}/bot", data={"seat": "abc"})
    assert api.status_code == 422 and api.json()["detail"][0]["loc"] == ["body", "seat"]
    assert client.get(f"/matches/{mid}/replay?step=abc",
                      headers={"Accept": "application/json"}).status_code == 422
