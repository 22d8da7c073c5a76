"""Cross-site request forgery (issue 12 §2), every database.

"No form checks where it was sent from. A page on another site can auto-submit
``POST /rejoin/<token>`` and replace a visitor's identity cookie (login CSRF), and every
state-changing form [...] works when posted from another origin, another port of the same host
included." Each form below is posted as a page on another origin, on another port of this
host, from ``Origin: null`` and as ``Sec-Fetch-Site: cross-site``/``same-site`` would send it —
with the victim's cookies and even with the victim's own token — and changes nothing; with a
missing, forged, another visitor's or a stale token from this very site it changes nothing
either; the same form posted from its own page (the token read from the served page) works.
"""
from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.models import Match, Record, SeatGrant, User
from app.settings import Settings
from app.web import csrf
from tests.app.conftest import create, migrate, named, new_client
from tests.app.matches.test_records_import import toy_record_with_undo
from tests.app.matches.test_rematch_and_host import _finished_toy_match
from tests.app.realtime.test_live import started

SAME = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
CROSS = [
    {"origin": "https://evil.example", "sec-fetch-site": "cross-site"},
    {"origin": "http://testserver:8081", "sec-fetch-site": "same-site"},  # another port
    {"origin": "null", "sec-fetch-site": "cross-site"},  # a sandboxed frame, a data: page
    {"origin": "https://evil.example"},  # browsers without Fetch Metadata headers
    {"origin": "http://testserver:8081"},
    {"origin": "https://testserver"},  # another scheme is another origin
    {"origin": "null"},
    {"sec-fetch-site": "same-site"},
]
HTML = {"accept": "text/html,application/xhtml+xml"}
#: The issue's three for every form: a foreign origin, another port of this host, Origin: null.
CROSS_EACH = CROSS[:3]
#: Forms that get every header variant and every bad token (the others: the three above, and
#: no token or another visitor's).
FULL = {"rename", "first name", "cancel", "rejoin", "record upload"}


@pytest.fixture
def database_url(tmp_path):
    """SQLite only: the guard runs before any route touches the database (the forms' effects
    on both databases are the other tests' business)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'lair.db'}"
    migrate(url)
    return url


def plain(client: TestClient) -> TestClient:
    """The same browser (cookies) without the tests' token hook: posts carry only what a page
    (or an attacker's page) puts in them."""
    raw = TestClient(client.app, base_url="http://testserver")
    raw.portal = client.portal
    raw.cookies = client.cookies
    return raw


def page_token(client: TestClient, page: str, action: str | None = None) -> str:
    """The token the served ``page`` gives its form posting to ``action`` (its hidden
    ``csrf_token`` field), or (``action`` None: the table's script-built forms) its
    ``<meta name="csrf-token">``."""
    html = client.get(page).text
    if action is None:
        return re.search(r'<meta name="csrf-token" content="([^"]+)">', html).group(1)
    found = re.search(r'<form method="post" action="%s"[^>]*><input type="hidden" '
                      r'name="csrf_token" value="([^"]+)">' % re.escape(action), html)
    assert found, f"no token in the form posting to {action} on {page}"
    return found.group(1)


def call(client: TestClient, fn, *args):
    return client.portal.call(fn, *args)


def snap(client: TestClient, mid: str):
    return call(client, client.app.state.service.snapshot, mid)


def seats(client, mid):
    s = snap(client, mid)
    return [(i.user_id, i.bot, i.resigned_at is not None, i.away_user_id) for i in s.seats]


def count(client, model) -> int:
    async def run():
        async with client.app.state.service.sm() as s:
            return await s.scalar(select(func.count()).select_from(model))
    return call(client, run)


def user_names(client) -> list[str]:
    async def run():
        async with client.app.state.service.sm() as s:
            return sorted((await s.scalars(select(User.name))).all())
    return call(client, run)


# Each case: (client) -> (browser, page, action, form data, files, state(the posting client),
# whether a successful post changes the state)
def _rename(c):
    named(c, "Ann")
    return c, "/", "/name", {"name": "Mallory", "next": "/"}, None, lambda raw: user_names(c), True


def _first_name(c):  # login CSRF: a visitor without an identity gets one chosen by another site
    return c, "/", "/name", {"name": "Mallory", "next": "/"}, None, \
        lambda raw: (user_names(c), "lair_user" in raw.cookies), True


def _create(c):
    named(c, "Ann")
    return c, "/", "/matches", {"game": "toy", "players_toy": "2", "public": "on"}, None, \
        lambda raw: count(c, Match), True


def _take_seat(c):
    named(c, "Ann")
    mid = create(c)
    bob = named(new_client(c), "Bob")
    return bob, f"/m/{mid}", f"/m/{mid}/seat", {"seat": "1"}, None, lambda raw: seats(c, mid), True


def _host_form(path, data, *, status="open", bob=True):
    def case(c):
        named(c, "Ann")
        mid = create(c)
        if bob:
            named(new_client(c), "Bob").post(f"/m/{mid}/seat", data={"seat": "1"})
        if status == "active":
            c.post(f"/m/{mid}/start")

        def state(raw):
            s = snap(c, mid)
            return (s.match.status, s.match.host_id, s.match.settings,
                    s.match.spectator_chat_open, seats(c, mid))
        return c, f"/m/{mid}", f"/m/{mid}/{path}", data, None, state, True
    return case


def _leave(c):
    named(c, "Ann")
    mid = create(c)
    return c, f"/m/{mid}", f"/m/{mid}/leave", {}, None, lambda raw: seats(c, mid), True


def _resign(c):
    mid, _ = started(c)
    return c, f"/m/{mid}", f"/m/{mid}/resign", {}, None, \
        lambda raw: (snap(c, mid).match.status, seats(c, mid)), True


def _reclaim(c):
    mid, bob = started(c)
    c.post(f"/m/{mid}/replace", data={"seat": "1", "bot": "random"})
    return bob, f"/m/{mid}", f"/m/{mid}/reclaim", {}, None, lambda raw: seats(c, mid), True


def _vote(c):
    # A vote counts only after the match's limit: here the handler's own refusal shows the
    # post got past the CSRF check (the table builds this form in JS, token from the meta tag).
    mid, _ = started(c)
    return c, f"/m/{mid}", f"/m/{mid}/vote", {"seat": "1"}, None, lambda raw: seats(c, mid), False


def _rematch(c):
    mid, _ = _finished_toy_match(c)  # the table builds this form in JS too
    return c, f"/m/{mid}", f"/m/{mid}/rematch", {}, None, lambda raw: count(c, Match), True


def _upload(c):
    named(c, "Ann")
    body = json.dumps(toy_record_with_undo()).encode()
    return c, "/", "/records", {}, {"record": ("r.json", body, "application/json")}, \
        lambda raw: count(c, Record), True


def _rejoin(c):  # another site makes the visitor's browser take the attacker's seat
    mid, mallory = started(c)
    token = call(c, c.app.state.service.make_rejoin_link, mid, snap(c, mid).seats[1].user_id)
    victim = new_client(c)
    named(victim, "Vic")
    return victim, f"/rejoin/{token}", f"/rejoin/{token}", {}, None, \
        lambda raw: (raw.cookies.get("lair_user"), count(c, SeatGrant)), True


CASES = {
    "rename": _rename, "first name": _first_name, "create": _create, "take a seat": _take_seat,
    "leave": _leave, "bot in a seat": _host_form("bot", {"seat": "1", "bot": "random"}),
    "fill with bots": _host_form("fill", {"bot": "random"}, bob=False),
    "start": _host_form("start", {}), "cancel": _host_form("cancel", {}),
    "hand the host role": _host_form("host", {"seat": "1"}),
    "webhook and pace": _host_form("pace", {"pace": "turn", "webhook": "https://hooks.example/x",
                                            "turn_hours": "24"}),
    "replace with a bot": _host_form("replace", {"seat": "1", "bot": "random"}, status="active"),
    "spectator chat": _host_form("spectator-chat", {"open": "1"}, status="active"),
    "resign": _resign, "reclaim": _reclaim, "vote": _vote, "rematch": _rematch,
    "record upload": _upload, "rejoin": _rejoin,
}
SCRIPT_FORMS = {"vote", "rematch"}  # built by static/js/table.js: the token is the page's meta


@pytest.mark.parametrize("case", list(CASES))
def test_a_form_posted_cross_site_changes_nothing_and_works_from_its_page(client, case):
    browser, page, action, data, files, state, changes = CASES[case](client)
    raw = plain(browser)
    token = page_token(raw, page, None if case in SCRIPT_FORMS else action)
    before = state(raw)

    def post(headers, tok):
        body = {**data, "csrf_token": tok} if tok is not None else data
        return raw.post(action, data=body, files=files, headers={**HTML, **headers},
                        follow_redirects=False)

    # From another site, another port or an opaque origin: refused even with the right token.
    for headers in CROSS if case in FULL else CROSS_EACH:
        r = post(headers, token)
        assert r.status_code == 403 and "Reload and try again" in r.text, (headers, r.text)
        assert "lair_user" not in r.headers.get("set-cookie", "")
        assert state(raw) == before, headers
    # From this site but without the page's token: none, forged, another visitor's, stale.
    stranger = TestClient(browser.app, base_url="http://testserver")
    stranger.portal = browser.portal
    others = page_token(stranger, "/", None)
    forged = csrf.token_for(dict(raw.cookies), Settings(secret_key="not-the-key"))
    for tok in (None, "", "garbage", forged, others) if case in FULL else (None, others):
        r = post(SAME, tok)
        assert r.status_code == 403 and "Reload and try again" in r.text, tok
        assert "lair_user" not in r.headers.get("set-cookie", "")
        assert state(raw) == before
    # Its own page: it works.
    r = post(SAME, token)
    assert r.status_code != 403, r.text
    if changes:
        assert r.status_code == 303, r.text
        assert state(raw) != before
    else:
        assert "no replacement limit" in r.text


def test_a_refusal_is_a_page_for_browsers_and_typed_json_for_scripts(client):
    named(client, "Ann")
    raw = plain(client)
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2"}, headers=HTML)
    assert r.status_code == 403 and "<h1>Reload and try again</h1>" in r.text
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2"},
                 headers={"accept": "application/json"})
    assert r.status_code == 403
    assert r.json()["code"] == "csrf_missing" and "Reload the page" in r.json()["detail"]
    assert "no security token" in r.json()["detail"] and "out of date" not in r.json()["detail"]
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2", "csrf_token": ""},
                 headers=HTML)
    assert r.status_code == 403 and "no security token" in r.text
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2", "csrf_token": "garbage"},
                 headers={"accept": "application/json"})
    assert r.status_code == 403
    assert r.json()["code"] == "csrf_token" and "out of date" in r.json()["detail"]
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2"},
                 headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["code"] == "csrf_origin"
    # the X-CSRF-Token header (fetch) works like the form field
    token = page_token(raw, "/", None)
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2"},
                 headers={**SAME, "x-csrf-token": token}, follow_redirects=False)
    assert r.status_code == 303


def test_an_old_tab_after_the_identity_changed_is_told_to_reload(client):
    raw = plain(client)
    token = page_token(raw, "/", "/name")  # a tab opened before choosing a name
    named(client, "Ann")  # another tab chose one: this browser is now Ann
    raw.cookies = client.cookies
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2", "csrf_token": token},
                 headers={**SAME, **HTML})
    assert r.status_code == 403 and "Reload the page and try again" in r.text
    assert count(client, Match) == 0
    # reloading gives the tab Ann's token, and the form works
    token = page_token(raw, "/", "/matches")
    r = raw.post("/matches", data={"game": "toy", "players_toy": "2", "csrf_token": token},
                 headers={**SAME, **HTML}, follow_redirects=False)
    assert r.status_code == 303 and count(client, Match) == 1


def test_the_pre_session_cookie_binds_the_first_name_form(client):
    raw = plain(client)
    r = raw.get("/")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("lair_pre=") and "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower()
    # an attacker's own pre-session pair does not fit the victim's cookie
    attacker = TestClient(client.app, base_url="http://testserver")
    attacker.portal = client.portal
    theirs = page_token(attacker, "/", "/name")
    r = raw.post("/name", data={"name": "Mallory", "next": "/", "csrf_token": theirs},
                 headers=SAME)
    assert r.status_code == 403 and "lair_user" not in raw.cookies
    mine = page_token(raw, "/", "/name")
    assert "lair_pre" not in raw.get("/").headers.get("set-cookie", "")  # kept, not renewed
    r = raw.post("/name", data={"name": "Ann", "next": "/", "csrf_token": mine}, headers=SAME,
                 follow_redirects=False)
    assert r.status_code == 303 and "lair_user" in raw.cookies


def test_cookieless_record_upload_needs_no_token(client):
    """README: ``curl --data-binary @record.json http://host/records``: no cookie, no ambient
    authority, nothing to forge; the record is stored for nobody."""
    raw = plain(client)
    assert not raw.cookies
    r = raw.post("/records", content=json.dumps(toy_record_with_undo()),
                 headers={"content-type": "application/json"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/records/")
    assert "set-cookie" not in r.headers

    async def uploader():
        async with client.app.state.service.sm() as s:
            return (await s.scalars(select(Record))).one().uploader_id
    assert call(client, uploader) is None
    # with an identity cookie the same upload is a form like any other
    named(client, "Ann")
    r = plain(client).post("/records", content=b"{}", headers={
        "content-type": "application/json", "origin": "https://evil.example"})
    assert r.status_code == 403 and count(client, Record) == 1


def test_refusals_are_logged_and_counted(client, caplog):
    from app.telemetry.metrics import CSRF_REFUSED

    named(client, "Ann")
    reasons = ("origin", "missing", "token")
    before = [CSRF_REFUSED.labels(r)._value.get() for r in reasons]
    raw = plain(client)
    raw.post("/matches", data={}, headers={"origin": "https://evil.example"})
    raw.post("/matches", data={}, headers=SAME)
    raw.post("/matches", data={"csrf_token": "stale"}, headers=SAME)
    after = [CSRF_REFUSED.labels(r)._value.get() for r in reasons]
    assert after == [b + 1 for b in before]
    events = [r for r in caplog.records if getattr(r, "event", None) == "csrf_refused"]
    assert [(e.reason, e.route) for e in events] == [(r, "/matches") for r in reasons]
    assert events[0].origin == "https://evil.example"


@pytest.fixture
def admin_client(database_url):
    settings = Settings(database_url=database_url, secret_key="test-secret", bot_delay=0,
                        admin_token="admin-token-0123456789")
    from app.main import create_app
    from tests.csrf import as_browser
    with as_browser(TestClient(create_app(settings), base_url="http://testserver")) as c:
        yield c


def test_admin_forms_refuse_cross_site_posts(admin_client):
    c = admin_client
    named(c, "Ann")
    mid = create(c)
    raw = plain(c)
    token = page_token(raw, "/admin", "/admin/login")
    for headers in CROSS:  # login CSRF on the operator
        r = raw.post("/admin/login", data={"token": "admin-token-0123456789",
                                           "csrf_token": token}, headers=headers)
        assert r.status_code == 403 and "lair_admin" not in raw.cookies
    r = raw.post("/admin/login", data={"token": "admin-token-0123456789", "csrf_token": token},
                 headers=SAME, follow_redirects=False)
    assert r.status_code == 303 and "lair_admin" in raw.cookies
    token = page_token(raw, f"/admin/m/{mid}", f"/admin/m/{mid}/end")
    for headers in CROSS:
        r = raw.post(f"/admin/m/{mid}/end", data={"csrf_token": token}, headers=headers)
        assert r.status_code == 403 and snap(c, mid).match.status == "open"
    r = raw.post(f"/admin/m/{mid}/end", data={"csrf_token": token}, headers=SAME,
                 follow_redirects=False)
    assert r.status_code == 303 and snap(c, mid).match.status == "cancelled"
    # an operator's script with the bearer token carries no ambient authority: no token needed
    mid = create(c)
    script = TestClient(c.app, base_url="http://testserver")
    script.portal = c.portal
    r = script.post(f"/admin/m/{mid}/end",
                    headers={"authorization": "Bearer admin-token-0123456789"},
                    follow_redirects=False)
    assert r.status_code == 303 and snap(c, mid).match.status == "cancelled"
