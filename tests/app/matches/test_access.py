"""One access policy, and links that grant only what they say (issue 12, parts 1 and 3).

app/matches/access.py decides who may see a match, play a seat, host it or watch it; every page,
form, JSON route and the socket asks it. A rejoin link grants the browser's own identity one seat
of one match (a seat grant); invite and spectator links can be replaced; a private match that
a visitor may not see answers exactly like a missing one.
"""
from __future__ import annotations

import hashlib
import re

import pytest
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from app.matches import access
from app.models import Seat, SeatGrant
from engines import registry
from tests.app.conftest import create, named, new_client
from tests.app.realtime.test_live import act, recv
from tests.app.toy3 import TOY3


@pytest.fixture(autouse=True, scope="module")
def toy3():
    registry.register(TOY3)
    yield
    registry.ENGINES.pop(TOY3.id, None)


def _call(client, fn, *args, **kw):
    return client.portal.call(lambda: fn(*args, **kw))


def _snap(client, mid):
    return _call(client, client.app.state.service.snapshot, mid)


def _link(html: str, kind: str) -> str:
    """The token of the ``/invite``, ``/watch`` or ``/rejoin`` link shown on a page."""
    found = re.search(rf'id="{kind}-link" readonly value="[^"]*/{kind}/([^"]+)"', html)
    assert found, f"no {kind} link on the page"
    return found.group(1)


def rejoin_link(client, mid: str) -> str:
    """The seat owner makes a link for another device (shown once) and returns its token."""
    page = client.post(f"/m/{mid}/rejoin-link")
    assert page.status_code == 200, page.text
    assert page.headers["cache-control"] == "no-store"
    return _link(page.text, "rejoin")


def private_table(client, game="toy", names=("Ann", "Bob")):
    """A private match of ``game``: ``client`` hosts in seat 0, one browser per other name
    joins by the invite link; started. Returns ``(match id, [other browsers])``."""
    named(client, names[0])
    mid = create(client, game=game, players=len(names), public=False)
    invite = _link(client.get(f"/m/{mid}").text, "invite")
    others = []
    for n, name in enumerate(names[1:], start=1):
        other = named(new_client(client), name)
        assert other.post(f"/m/{mid}/seat", data={"seat": str(n), "invite": invite},
                          follow_redirects=False).status_code == 303
        others.append(other)
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    return mid, others


def _ws_close(client, path: str) -> tuple[int, str]:
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect(path) as ws:
            ws.receive_json()
    return refused.value.code, refused.value.reason


# ----- 1. one access policy ----------------------------------------------------------------
def test_a_private_players_seat_handed_to_a_bot_still_opens_the_table_socket(client):
    """The bug of issue 12 part 1: the page offered "Take my seat back" but the socket refused
    the player with 4403 "Ask a player for the spectator link"."""
    mid, (bob,) = private_table(client)
    client.post(f"/m/{mid}/replace", data={"seat": "1", "bot": "random"})
    _call(client, client.app.state.service.drain)
    assert "Take my seat back" in bob.get(f"/m/{mid}").text
    with bob.websocket_connect(f"/ws/matches/{mid}") as b:
        view = recv(b, "view")["view"]
        assert view["you"] is None and view["legal_actions"] == []
    bob.post(f"/m/{mid}/reclaim")
    with bob.websocket_connect(f"/ws/matches/{mid}") as b:
        assert recv(b, "view")["view"]["you"] == 1


def test_the_take_back_notice_gives_no_wrong_reason(client):
    """Seen in the browser trial: the host handed Bob's seat to a bot while Bob was playing,
    and his table said "(you were away, or your time ran out)". The notice names no reason
    (the server keeps none; the chat line from Lair says which it was) and offers the seat."""
    mid, (bob,) = private_table(client)
    client.post(f"/m/{mid}/replace", data={"seat": "1", "bot": "random"})
    _call(client, client.app.state.service.drain)
    page = bob.get(f"/m/{mid}").text
    assert "Take my seat back" in page
    assert "you were away" not in page and "time ran out" not in page
    assert "A bot is playing your seat for now; the chat says why." in page


def test_a_private_player_who_resigned_still_watches_the_table(client):
    mid, (bob, cid) = private_table(client, "toy3", ("Ann", "Bob", "Cid"))
    assert bob.post(f"/m/{mid}/resign", follow_redirects=False).status_code == 303
    page = bob.get(f"/m/{mid}")
    assert page.status_code == 200 and 'id="table"' in page.text
    with bob.websocket_connect(f"/ws/matches/{mid}") as b:
        assert recv(b, "view")["view"]["you"] is None
    # and the replay and (once over) the record, like every participant
    assert bob.get(f"/matches/{mid}/replay?step=0").status_code == 200


def test_every_route_asks_the_one_policy(client, monkeypatch):
    """Pages, forms, the JSON routes and the socket all decide with ``access.may_see``: with it
    saying no, even the host gets the answer of a missing match everywhere."""
    mid, _ = private_table(client)
    monkeypatch.setattr(access, "may_see", lambda *a, **k: False)
    for url in (f"/m/{mid}", f"/m/{mid}/replay", f"/matches/{mid}/replay?step=0",
                f"/matches/{mid}/record"):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/m/{mid}/cancel").status_code == 404
    assert _ws_close(client, f"/ws/matches/{mid}") == access.WS_NOT_FOUND


# ----- 3. match ids and the existence oracle -------------------------------------------------
def test_new_match_ids_have_at_least_64_bits_and_old_ids_keep_working(client, monkeypatch):
    named(client, "Ann")
    ids = {create(client) for _ in range(3)}
    for mid in ids:  # 16 of 62 symbols: about 95 bits
        assert re.fullmatch(r"[A-Za-z0-9]{16}", mid), mid
    assert len(ids) == 3
    from app.matches import lobby
    monkeypatch.setattr(lobby, "new_match_id", lambda: "ab1xy9Zq")  # an 8-char id
    old = create(client)
    assert old == "ab1xy9Zq" and client.get(f"/m/{old}").status_code == 200


def test_a_private_match_answers_exactly_like_a_missing_one(client):
    mid, _ = private_table(client)
    client.post(f"/m/{mid}/resign")  # over: its record exists too
    _call(client, client.app.state.service.drain)
    missing = "Zz" + mid[2:] if not mid.startswith("Zz") else "Yy" + mid[2:]
    eve = named(new_client(client), "Eve")
    gets = ["/m/{}", "/m/{}/replay", "/matches/{}/replay?step=0", "/matches/{}/record",
            "/m/{}/replay?watch=WRONG", "/matches/{}/record?watch=WRONG"]
    posts = [("/m/{}/seat", {"seat": "1", "invite": "WRONG"}), ("/m/{}/cancel", {}),
             ("/m/{}/start", {}), ("/m/{}/resign", {}), ("/m/{}/rematch", {}),
             ("/m/{}/host", {"seat": "1"}), ("/m/{}/links", {"link": "watch"}),
             ("/m/{}/rejoin-link", {}), ("/m/{}/play-here", {}), ("/m/{}/reclaim", {}),
             ("/m/{}/pace", {"pace": "live"}), ("/m/{}/spectator-chat", {"open": "1"})]
    for url in gets:
        hidden, gone = eve.get(url.format(mid)), eve.get(url.format(missing))
        assert (hidden.status_code, hidden.text) == (gone.status_code, gone.text), url
        assert hidden.status_code == 404, url
    for url, data in posts:
        hidden, gone = eve.post(url.format(mid), data=data), eve.post(url.format(missing),
                                                                      data=data)
        assert (hidden.status_code, hidden.text) == (gone.status_code, gone.text), url
    for who in (eve, new_client(client)):  # with a name, and a browser without any
        assert (_ws_close(who, f"/ws/matches/{mid}?watch=WRONG")
                == _ws_close(who, f"/ws/matches/{missing}?watch=WRONG") == (4404,
                                                                           "No such match."))
    # the match is still there for those who may see it
    assert client.get(f"/matches/{mid}/record").status_code == 200


# ----- 3. rejoin links grant one seat -------------------------------------------------------
def test_a_rejoin_link_grants_its_seat_only_and_never_the_identity(client):
    """A stolen rejoin link used to sign the thief in as the player: every match of theirs,
    private ones too, and the host role (cancel). Now it grants one seat of one match."""
    mid, (bob,) = private_table(client)
    other = create(client, public=False)  # Ann's other private match
    token = rejoin_link(client, mid)
    eve = named(new_client(client), "Eve")
    ask = eve.get(f"/rejoin/{token}")
    assert ask.status_code == 200 and 'id="rejoin-confirm"' in ask.text
    assert eve.get(f"/m/{mid}").status_code == 404  # opening the link changed nothing
    assert eve.post(f"/rejoin/{token}", follow_redirects=False).headers["location"] \
        == f"/m/{mid}"
    assert "Playing as <strong>Eve</strong>" in eve.get("/").text  # still herself
    assert eve.get(f"/m/{other}").status_code == 404  # not Ann's other match
    assert eve.post(f"/m/{other}/cancel").status_code == 404
    assert "Only the host" in eve.post(f"/m/{mid}/cancel").text  # host powers stay with Ann
    assert _snap(client, mid).match.status == "active"
    with eve.websocket_connect(f"/ws/matches/{mid}") as e:
        v = recv(e, "view")["view"]
        assert v["you"] == 0 and v["seats"][0]["name"] == "Ann"
        act(e, v["version"], {"type": "bid", "n": 2}, "e1")
        assert recv(e, "ack")["ref"] == "e1"


def test_the_last_device_to_take_the_seat_plays_it(client):
    mid, (bob,) = private_table(client)
    token = rejoin_link(client, mid)
    phone = named(new_client(client), "Ann's phone")
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        assert recv(ann, "view")["view"]["you"] == 0
        phone.post(f"/rejoin/{token}")
        ann.send_text('{"type": "ping"}')  # what reached the earlier device before its pong
        seen = []
        while (msg := ann.receive_json())["type"] != "pong":
            if msg["type"] == "view":
                seen.append(msg["view"])
        assert seen and seen[-1]["you"] is None  # its table is told (and reloads its page)
        act(ann, seen[-1]["version"], {"type": "bid", "n": 1}, "late")
        assert recv(ann, "error")["code"] == "spectator"
    page = client.get(f"/m/{mid}").text
    assert "Continued on another device" in page and 'id="play-here"' in page
    assert "Continued on another device" not in phone.get(f"/m/{mid}").text
    # "Play here" is a confirmed post, never a link
    assert client.post(f"/m/{mid}/play-here", follow_redirects=False).status_code == 303
    assert "Continued on another device" in phone.get(f"/m/{mid}").text
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        assert recv(ann, "view")["view"]["you"] == 0
    with phone.websocket_connect(f"/ws/matches/{mid}") as p:
        assert recv(p, "view")["view"]["you"] is None
    assert phone.post(f"/m/{mid}/play-here", follow_redirects=False).status_code == 303
    with phone.websocket_connect(f"/ws/matches/{mid}") as p:
        assert recv(p, "view")["view"]["you"] == 0
    # a device that was granted a seat makes no links of its own
    assert phone.post(f"/m/{mid}/rejoin-link").status_code == 403


def test_a_new_rejoin_link_stops_the_old_one_and_its_devices(client):
    mid, _ = private_table(client)
    old = rejoin_link(client, mid)
    thief = named(new_client(client), "Eve")
    thief.post(f"/rejoin/{old}")
    assert thief.get(f"/m/{mid}").status_code == 200
    new = rejoin_link(client, mid)
    assert new != old
    assert thief.get(f"/rejoin/{old}").status_code == 404
    assert thief.post(f"/rejoin/{old}").status_code == 404
    assert thief.get(f"/m/{mid}").status_code == 404  # the grant went with the old link
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        assert recv(ann, "view")["view"]["you"] == 0  # the owner plays again
    assert new_client(client).get(f"/rejoin/{new}").status_code == 200


def test_rejoin_tokens_are_stored_hashed_and_compared_in_constant_time(client, monkeypatch):
    mid, _ = private_table(client)
    token = rejoin_link(client, mid)

    async def seats():
        async with client.app.state.service.sm() as s:
            return (await s.execute(select(Seat).where(Seat.match_id == mid))).scalars().all()

    rows = client.portal.call(seats)
    assert rows[0].rejoin_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in repr([vars(r) for r in rows])
    compared = []
    real = access.hmac.compare_digest
    monkeypatch.setattr(access.hmac, "compare_digest",
                        lambda a, b: compared.append(1) or real(a, b))
    assert new_client(client).get(f"/rejoin/{token}").status_code == 200
    assert compared
    wrong = token[:-1] + ("y" if token.endswith("x") else "x")  # (a token may end in "x")
    assert new_client(client).get(f"/rejoin/{wrong}").status_code == 404


def test_a_browser_without_identity_gets_its_own_for_the_seat(client):
    mid, _ = private_table(client)
    token = rejoin_link(client, mid)
    fresh = new_client(client)
    assert "Play Ann's seat here?" in fresh.get(f"/rejoin/{token}").text
    assert fresh.post(f"/rejoin/{token}", follow_redirects=False).status_code == 303

    async def grants():
        async with client.app.state.service.sm() as s:
            return (await s.execute(select(SeatGrant))).scalars().all()

    (grant,) = client.portal.call(grants)
    host = _snap(client, mid).match.host_id
    assert (grant.match_id, grant.seat) == (mid, 0) and grant.user_id != host
    with fresh.websocket_connect(f"/ws/matches/{mid}") as f:
        assert recv(f, "view")["view"]["you"] == 0


def test_a_granted_device_takes_a_seat_handed_to_a_bot_back(client):
    mid, (bob,) = private_table(client)
    token = rejoin_link(bob, mid)
    phone = named(new_client(client), "Bob's phone")
    phone.post(f"/rejoin/{token}")
    client.post(f"/m/{mid}/replace", data={"seat": "1", "bot": "random"})
    _call(client, client.app.state.service.drain)
    assert "Take my seat back" in phone.get(f"/m/{mid}").text
    assert phone.post(f"/m/{mid}/reclaim", follow_redirects=False).status_code == 303
    info = _snap(client, mid).seats[1]
    assert info.user_id != info.player_id and info.name == "Bob"  # still Bob's seat
    with phone.websocket_connect(f"/ws/matches/{mid}") as p:
        assert recv(p, "view")["view"]["you"] == 1


def test_a_granted_device_plays_the_seat_but_cannot_give_it_away(client):
    named(client, "Ann")
    mid = create(client, public=False)
    phone = named(new_client(client), "Phone")
    phone.post(f"/rejoin/{rejoin_link(client, mid)}")
    page = phone.get(f"/m/{mid}").text
    assert '<span class="badge">you</span>' in page and 'id="leave"' not in page
    phone.post(f"/m/{mid}/leave")
    host = _snap(client, mid).match.host_id
    assert _snap(client, mid).seats[0].user_id == host  # still Ann's seat
    assert 'id="leave"' in client.get(f"/m/{mid}").text  # Ann may leave it herself


def test_a_players_other_device_follows_them_to_the_rematch(client):
    mid, (bob,) = private_table(client)
    phone = named(new_client(client), "Phone")
    phone.post(f"/rejoin/{rejoin_link(client, mid)}")
    bob.post(f"/m/{mid}/resign")
    assert "Only the host" in phone.post(f"/m/{mid}/rematch").text  # the host is Ann
    new = client.post(f"/m/{mid}/rematch", follow_redirects=False).headers["location"]
    page = phone.get(new)
    assert page.status_code == 200 and '<span class="badge">you</span>' in page.text
    assert "Continued on another device" in client.get(new).text


def test_a_player_cannot_take_a_second_seat_with_a_link(client):
    mid, (bob,) = private_table(client)
    r = bob.post(f"/rejoin/{rejoin_link(client, mid)}")
    assert r.status_code == 400 and "another seat in this match" in r.text
    with bob.websocket_connect(f"/ws/matches/{mid}") as b:
        assert recv(b, "view")["view"]["you"] == 1  # still his own seat only
    assert _snap(client, mid).seats[0].grants == frozenset()


def test_a_device_granted_a_seat_is_no_unused_guest(client):
    """The expiry of unused guests (app/matches/expiry.py) keeps an identity that only plays
    a seat granted by a link (deleting it would break the grant, or fail on its row)."""
    from tests.app.matches.test_pace import FakeClock

    expiry = client.app.state.expiry
    _call(client, expiry.stop)
    expiry.match_ttl, expiry.guest_ttl = 0.0, 60.0
    mid, _ = private_table(client)
    phone = new_client(client)  # no identity yet: the link gives it one
    phone.post(f"/rejoin/{rejoin_link(client, mid)}")
    clock = client.app.state.service.now = FakeClock()
    clock.advance(days=2)
    assert _call(client, expiry.sweep) == (0, 0)
    with phone.websocket_connect(f"/ws/matches/{mid}") as p:
        assert recv(p, "view")["view"]["you"] == 0


def test_identities_made_by_rejoin_links_count_against_the_address_limit(settings):
    """A confirmed link gives a browser without an identity a new one: that is a new guest
    like ``POST /name`` (``RATE_IDENTITIES``); a browser that has one is not counted."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.app.conftest import release_cancelled_connections
    from tests.csrf import as_browser

    app = create_app(settings.model_copy(update={"rate_identities": "2/hour"}))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        mid, _ = private_table(client)  # Ann and Bob: the address's two new identities
        token = rejoin_link(client, mid)
        assert new_client(client).post(f"/rejoin/{token}").status_code == 429
        assert _snap(client, mid).seats[0].grants == frozenset()
        assert client.post(f"/rejoin/{token}").status_code == 200  # Ann has one: not counted
        release_cancelled_connections(client)


# ----- 3. invite and spectator links can be replaced ----------------------------------------
def test_the_host_replaces_the_invite_and_spectator_links(client):
    named(client, "Ann")
    mid = create(client, public=False)
    page = client.get(f"/m/{mid}").text
    invite, watch = _link(page, "invite"), _link(page, "watch")
    friend = named(new_client(client), "Bob")
    friend.post(f"/m/{mid}/seat", data={"seat": "1", "invite": invite})
    assert "Only the host" in friend.post(f"/m/{mid}/links", data={"link": "watch"}).text
    for kind in ("invite", "watch"):
        r = client.post(f"/m/{mid}/links", data={"link": kind}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/m/{mid}#links"
    page = client.get(f"/m/{mid}").text
    new_invite, new_watch = _link(page, "invite"), _link(page, "watch")
    assert {new_invite, new_watch}.isdisjoint({invite, watch})
    eve = named(new_client(client), "Eve")
    assert eve.get(f"/invite/{invite}").status_code == 404
    assert eve.get(f"/watch/{watch}").status_code == 404
    assert eve.post(f"/m/{mid}/seat", data={"seat": "1", "invite": invite}).status_code == 404
    assert _ws_close(eve, f"/ws/matches/{mid}?watch={watch}") == access.WS_NOT_FOUND
    assert 'id="take-1"' not in eve.get(f"/invite/{new_invite}").text  # Bob sits there
    assert eve.get(f"/watch/{new_watch}").status_code == 200
    assert 'id="replace-watch"' not in friend.get(f"/m/{mid}").text  # the host's buttons only


def test_a_granted_match_is_listed_for_its_device(client):
    """The lobby's "your matches" and the finished list know the seat grants too."""
    mid, (bob,) = private_table(client)
    eve = named(new_client(client), "Eve")
    eve.post(f"/rejoin/{rejoin_link(client, mid)}")
    other = create(client, public=False)  # Ann's, not Eve's
    lobby = eve.get("/").text
    assert mid in lobby and other not in lobby
    assert "Only a running match" not in bob.post(f"/m/{mid}/resign").text  # it ends
    assert mid in eve.get("/matches/finished?mine=1").text
    assert mid not in named(new_client(client), "Zed").get("/matches/finished").text


# ----- the migration ------------------------------------------------------------------------
def test_the_migration_hashes_old_links_and_a_rollback_keeps_grants_for_the_same_owner_only(
        database_url):
    """0007 hashes the rejoin tokens stored before (old links keep working); a downgrade and
    the next upgrade give the links, players and grants back, but never a grant of a seat whose
    owner changed meanwhile (the older code moved the seat to someone else)."""
    import asyncio

    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from tests.app.conftest import ROOT

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = database_url
    cfg.attributes["configure_logger"] = False
    before_0007 = ScriptDirectory.from_config(cfg).get_revision("0007_seat_grants").down_revision

    async def sql(*statements):
        engine = create_async_engine(database_url)
        try:
            async with engine.begin() as conn:
                return [(await conn.execute(text(q))).all() if q.startswith("SELECT")
                        else await conn.execute(text(q)) for q in statements][-1]
        finally:
            await engine.dispose()

    command.downgrade(cfg, before_0007)
    asyncio.run(sql(*(
        f"INSERT INTO users (id, name, created_at) VALUES ('{u}', '{u}', CURRENT_TIMESTAMP)"
        for u in ("ann", "bob", "phone", "dan")), *(
        f"INSERT INTO matches (id, game, engine_version, options, seed, players, status,"
        f" version, host_id, public, invite_token, watch_token, created_at, updated_at,"
        f" spectator_chat_open) VALUES ('{m}', 'toy', 1, '{{}}', 1, 2, 'open', 0, 'ann',"
        f" false, 'inv{m}', 'wat{m}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, false)"
        for m in ("old8char", "m2")),
        "INSERT INTO seats (match_id, seat, user_id, rejoin_token) VALUES"
        " ('old8char', 0, 'ann', 'the-old-token'), ('old8char', 1, 'bob', NULL),"
        " ('m2', 0, 'ann', NULL), ('m2', 1, NULL, NULL)"))
    command.upgrade(cfg, "head")
    rows = asyncio.run(sql("SELECT rejoin_hash FROM seats WHERE match_id = 'old8char' "
                           "ORDER BY seat"))
    assert rows == [(hashlib.sha256(b"the-old-token").hexdigest(),), (None,)]
    asyncio.run(sql(
        "UPDATE seats SET player_id = 'phone' WHERE match_id = 'old8char' AND seat = 0",
        "INSERT INTO seat_grants (match_id, seat, user_id, created_at) VALUES"
        " ('old8char', 0, 'phone', CURRENT_TIMESTAMP), ('m2', 0, 'phone', CURRENT_TIMESTAMP)",
        "UPDATE seats SET rejoin_hash = 'c' WHERE match_id = 'm2' AND seat = 0"))
    before = asyncio.run(sql("SELECT match_id, seat, user_id, rejoin_hash, player_id FROM seats "
                             "ORDER BY match_id, seat"))
    command.downgrade(cfg, before_0007)
    asyncio.run(sql(  # the older code meanwhile: Ann leaves m2, Dan takes her seat
        "UPDATE seats SET user_id = 'dan' WHERE match_id = 'm2' AND seat = 0"))
    command.upgrade(cfg, "head")
    after = asyncio.run(sql("SELECT match_id, seat, user_id, rejoin_hash, player_id FROM seats "
                            "ORDER BY match_id, seat"))
    assert after[2:] == before[2:]  # old8char: the link and the phone playing seat 0
    assert after[0] == ("m2", 0, "dan", None, None)  # Dan's seat: not Ann's link or phone
    grants = asyncio.run(sql("SELECT match_id, seat, user_id FROM seat_grants"))
    assert grants == [("old8char", 0, "phone")]
    command.check(cfg)  # nothing kept aside is left over
