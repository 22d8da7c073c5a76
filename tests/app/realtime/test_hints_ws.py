"""The ``hint`` frame on the table's socket (issue 17, item 6; docs/wire.md "Hints"): the answer
goes to the asking socket only, every viewer's view lists the use (never what was suggested),
and every refusal is a typed error with the request's ``ref``.

The searches use a fixed iteration budget and salt (``tests.app.conftest.hints_client``).
"""
from __future__ import annotations

from fastapi.testclient import TestClient
from limits import parse_many

from engines import registry
from tests.app.conftest import new_client
from tests.app.matches.test_hints import two_players
from tests.csrf import as_browser


def frames_until(ws, kind: str, limit: int = 30) -> list[dict]:
    """Every frame up to and including the first of type ``kind``."""
    out = []
    for _ in range(limit):
        out.append(ws.receive_json())
        if out[-1]["type"] == kind:
            return out
    raise AssertionError(f"no {kind} frame in {limit}")


def view_with_uses(ws, n: int, limit: int = 30) -> tuple[dict, list[dict]]:
    """The first view listing ``n`` hint uses, and every frame received up to it."""
    seen = []
    for _ in range(limit):
        seen.append(msg := ws.receive_json())
        if msg["type"] == "view" and len(msg["view"]["hint_uses"]) == n:
            return msg["view"], seen
    raise AssertionError(f"no view with {n} hint uses")


def ask(ws, ref: str = "h1", version: int = 0, seen: list | None = None) -> dict:
    """Send a hint request; the answer (a ``hint`` or an ``error`` frame). The frames before it
    (the views telling the table of the use come first) go to ``seen``."""
    ws.send_json({"type": "hint", "ref": ref, "version": version})
    for _ in range(30):
        msg = ws.receive_json()
        if msg["type"] in ("hint", "error"):
            return msg
        if seen is not None:
            seen.append(msg)
    raise AssertionError("no answer to the hint")


def test_a_hint_goes_to_the_asker_only_and_everyone_sees_the_use(hints_client):
    """Ann asks: she gets one of her legal actions with a reason; Bob and a spectator get no
    ``hint`` frame, only views listing "Ann asked for a hint at move 1" (seat and version, not
    the action); every view says hints are on."""
    client = hints_client
    mid, bob = two_players(client)
    watcher = new_client(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann_ws, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bob_ws, \
            watcher.websocket_connect(f"/ws/matches/{mid}") as spec_ws:
        first = frames_until(ann_ws, "view")[-1]["view"]
        assert first["hints"] is True and first["hint_uses"] == []
        for ws in (bob_ws, spec_ws):
            assert frames_until(ws, "view")[-1]["view"]["hints"] is True
        before_answer: list[dict] = []
        answer = ask(ann_ws, "h-ann", seen=before_answer)
        assert answer["type"] == "hint", answer
        assert answer["ref"] == "h-ann" and answer["version"] == 0
        assert answer["action"] in first["legal_actions"]
        assert isinstance(answer["reason"], str) and "\n" not in answer["reason"]
        state = client.portal.call(client.app.state.service.snapshot, mid).match.state
        assert answer["action"] in registry.get("evil_corp").legal_actions(state, 0)
        for ws in (bob_ws, spec_ws, ann_ws):
            views = [m["view"] for m in before_answer if m["type"] == "view"
                     and m["view"]["hint_uses"]] if ws is ann_ws else []
            view, seen = (views[-1], []) if views else view_with_uses(ws, 1)
            ws.send_json({"type": "ping"})
            seen += frames_until(ws, "pong")
            if ws is not ann_ws:
                assert not [m for m in seen if m["type"] == "hint"]
            use = view["hint_uses"][0]
            assert set(use) == {"seat", "version", "at", "text", "line"}
            # asked at the version the view is of: after every log line the socket holds
            assert use["line"] == len(view["log"]), (use, view.get("log_from"))
            assert (use["seat"], use["version"]) == (0, 0)
            assert use["text"] == "Ann asked for a hint at move 1"
            assert view["version"] == 0  # a hint is no move


def test_hint_refusals_are_typed_errors_with_the_ref(hints_client):
    """A seat not prompted (``not_your_seat``), a view of an old or future version
    (``stale``), a spectator (``spectator``), over the per-user limit (``rate_limited``, the
    rate limits' own code): each refused to that socket with its ``ref``, nothing recorded."""
    client = hints_client
    mid, bob = two_players(client)
    watcher = new_client(client)
    service = client.app.state.service
    client.app.state.limiter.items["hints"] = parse_many("1/minute")
    with client.websocket_connect(f"/ws/matches/{mid}") as ann_ws, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bob_ws, \
            watcher.websocket_connect(f"/ws/matches/{mid}") as spec_ws:
        for ws in (ann_ws, bob_ws, spec_ws):
            frames_until(ws, "view")
        for ws, ref, version, code in ((bob_ws, "b1", 0, "not_your_seat"),
                                       (ann_ws, "a1", 3, "stale"),
                                       (spec_ws, "s1", 0, "spectator")):
            answer = ask(ws, ref, version)
            assert (answer["type"], answer["code"], answer["ref"]) == ("error", code, ref)
        assert client.portal.call(service.snapshot, mid).hint_uses == []
        assert ask(ann_ws, "a2")["type"] == "hint"  # refusals did not count against the limit
        again = ask(ann_ws, "a3")
        assert (again["type"], again["code"], again["ref"]) == ("error", "rate_limited", "a3")
        assert "hints" in again["message"]
        ann_ws.send_json({"type": "hint", "ref": 7, "version": 0})
        bad = frames_until(ann_ws, "error")[-1]
        assert bad["code"] == "bad_message"
    assert len(client.portal.call(service.snapshot, mid).hint_uses) == 1


def test_hints_are_limited_per_address_across_users(hints_client):
    """``RATE_HINTS_ADDRESS``: every user (and spectator) behind one client address shares one
    budget of hints, whatever each user's own limit leaves; another address has its own."""
    client = hints_client
    client.app.state.limiter.items["hints_address"] = parse_many("2/minute")
    mid, _bob = two_players(client)  # Ann plays seat 0 of one match ...
    carol = new_client(client)
    other_mid, _dan = two_players(carol)  # ... and another guest seat 0 of another
    with client.websocket_connect(f"/ws/matches/{mid}") as ann_ws, \
            carol.websocket_connect(f"/ws/matches/{other_mid}") as carol_ws:
        for ws in (ann_ws, carol_ws):
            frames_until(ws, "view")
        assert ask(ann_ws, "a1")["type"] == "hint"
        assert ask(ann_ws, "a2")["type"] == "hint"
        refused = ask(carol_ws, "c1")  # her first hint, but her address has used its two
        assert (refused["type"], refused.get("code"), refused["ref"]) == (
            "error", "rate_limited", "c1")
        assert "hints" in refused["message"]
    # the same player from another address: that address's budget is untouched
    far = as_browser(TestClient(client.app, base_url="http://testserver",
                                client=("203.0.113.9", 40000)))
    far.portal = client.portal
    far.cookies = carol.cookies
    with far.websocket_connect(f"/ws/matches/{other_mid}") as far_ws:
        frames_until(far_ws, "view")
        assert ask(far_ws, "c2")["type"] == "hint"
    service = client.app.state.service
    assert len(client.portal.call(service.snapshot, mid).hint_uses) == 2
    assert len(client.portal.call(service.snapshot, other_mid).hint_uses) == 1


def test_hints_off_the_view_says_so_and_asking_is_refused(hints_client):
    """The host turned hints off before the start: every view carries ``hints: false``, and a
    request is refused with ``hints_off``."""
    client = hints_client
    mid, bob = two_players(client, hints="off")
    with client.websocket_connect(f"/ws/matches/{mid}") as ann_ws, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bob_ws:
        assert frames_until(ann_ws, "view")[-1]["view"]["hints"] is False
        assert frames_until(bob_ws, "view")[-1]["view"]["hints"] is False
        answer = ask(ann_ws, "off-1")
        assert (answer["type"], answer["code"], answer["ref"]) == ("error", "hints_off", "off-1")


def test_a_hint_refused_as_busy_costs_no_hint(hints_client, monkeypatch):
    """A hint no search worker took (``busy``: the bots' searches kept the workers busy) ran no
    search, so it is not counted against the asker's limits (per user and per address): with
    a limit of 2 a minute, three busy answers and then two hints still go through, and the
    third is refused."""
    from app.matches.botpool import PoolBusy

    client = hints_client
    limiter = client.app.state.limiter
    limiter.items["hints"] = parse_many("2/minute")
    limiter.items["hints_address"] = parse_many("2/minute")
    mid, _bob = two_players(client)
    pool = client.app.state.service.hints.pool
    real = pool.hint

    async def busy(*args, **kwargs):
        raise PoolBusy("no search worker came free in 10 s")
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        frames_until(ws, "view")
        monkeypatch.setattr(pool, "hint", busy)
        for ref in ("b1", "b2", "b3"):
            answer = ask(ws, ref)
            assert (answer["type"], answer.get("code")) == ("error", "busy"), answer
        monkeypatch.setattr(pool, "hint", real)
        assert ask(ws, "h1")["type"] == "hint"
        assert ask(ws, "h2")["type"] == "hint"
        refused = ask(ws, "h3")
        assert (refused["type"], refused.get("code")) == ("error", "rate_limited"), refused
