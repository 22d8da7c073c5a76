"""Hostile and broken websocket input (issue 6, section 3), on every database and real game.

Hypothesis builds client frames from each game's real action shapes: legal actions of either
seat mutated (wrong types, missing and extra fields, out-of-range and huge numbers, other seats'
actions) and broken messages (bad JSON, wrong field types, unknown fields and types, 1e400,
JSON nested past the parser's limit, oversized frames, binary frames, stale versions, replays of
an already applied message). Every frame must be answered on the sending socket only, by a
typed error — or by an ack when the frame happens to be exactly a legal action or a replay —
and whenever it is refused the match row (version and state) stays byte-for-byte the same.
"""
from __future__ import annotations

import json

import orjson
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.main import create_app
from engines import registry
from tests.app.conftest import create, named, new_client
from tests.csrf import as_browser

GAMES = ["drops_of_evil", "evil_corp", "covil"]
CODES = {"bad_message", "too_large", "illegal", "stale", "not_your_seat", "spectator",
         "finished", "rate_limited"}
MAX_EXAMPLES = 60


def row(client, mid):
    """The match row as stored: (version, canonical state JSON)."""
    snap = client.portal.call(client.app.state.service.snapshot, mid)
    return snap.match.version, orjson.dumps(snap.match.state, option=orjson.OPT_SORT_KEYS)


def strictly_legal(engine, state, seat, action) -> bool:
    key = orjson.dumps(action, option=orjson.OPT_SORT_KEYS)
    return any(orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == key
               for a in engine.legal_actions(state, seat))


def until(ws, kinds: set[str], limit: int = 200) -> tuple[dict, list[dict]]:
    """Read messages until one of ``kinds``; returns it and what came before."""
    seen = []
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] in kinds:
            return msg, seen
        seen.append(msg)
    raise AssertionError(f"no {kinds}")


def answer(ws) -> list[dict]:
    """Everything the server sends until the pong of a ping sent now (the frame's answer)."""
    ws.send_text('{"type":"ping"}')
    _, seen = until(ws, {"pong"})
    return seen


# ----- strategies ------------------------------------------------------------------------------
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2 ** 70), 2 ** 70),
    st.sampled_from([-1, 0, 1, 2, 99, 10 ** 6, 2 ** 31, 2 ** 63, 10 ** 30]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.lists(st.integers(0, 5), max_size=3), st.dictionaries(st.text(max_size=4),
                                                             st.integers(), max_size=2))


MUTATIONS = ("as is", "float twin", "bool twin", "retype", "drop", "extra", "nudge")
OFF_VERSIONS = (-1, +1, "negative", "huge", "hugefloat")


def mutate(action: dict, how: str, pick: int, junk, delta: int) -> dict:
    """One legal action with a field retyped, removed, added, pushed out of range, or as is.

    The "twins" are equal under Python's ``==`` but not the same JSON (``1.0``/``true`` for
    ``1``): the engines compare with ``==``."""
    keys = sorted(action)
    key = keys[pick % len(keys)]
    value = action[key]
    if how == "float twin":
        return {k: float(v) if type(v) is int else v for k, v in action.items()}
    if how == "bool twin":
        return {k: bool(v) if type(v) is int and v in (0, 1) else v for k, v in action.items()}
    if how == "retype":
        return {**action, key: junk}
    if how == "drop":
        return {k: v for k, v in action.items() if k != key}
    if how == "extra":
        return {**action, f"x_{pick % 7}": junk}
    if how == "nudge":
        return {**action, key: value + delta if type(value) is int else [value]}
    return dict(action)


#: An abstract action frame, made concrete against the live match in the test body (so that
#: what Hypothesis draws does not depend on the match's changing state).
ACTION_FRAME = st.fixed_dictionaries({
    "seat": st.sampled_from([0, 1]), "pick": st.integers(0, 10 ** 6),
    "how": st.sampled_from(MUTATIONS), "key": st.integers(0, 100), "junk": JUNK,
    "delta": st.sampled_from([-100, -1, 1, 7, 10 ** 9, 2 ** 64]),
    "version": st.one_of(st.just(None), st.just(None), st.sampled_from(OFF_VERSIONS)),
    "id": st.integers(0, 10 ** 9), "swap": st.sampled_from([False, False, False, True])})


def concrete(draw: dict, version: int, actions: dict[int, list[dict]]) -> tuple[int, str]:
    """``(sender seat, frame)`` for an abstract action frame: a mutated legal action of a
    seat, mostly sent by that seat, sometimes by the other one, at the right or a wrong
    version."""
    seat = draw["seat"] if actions[draw["seat"]] else 1 - draw["seat"]
    legal = actions[seat]
    action = mutate(legal[draw["pick"] % len(legal)], draw["how"], draw["key"], draw["junk"],
                    draw["delta"])
    v = {None: version, -1: version - 1, +1: version + 1, "negative": -5, "huge": 2 ** 62,
         "hugefloat": 10 ** 30}[draw["version"]]
    return (1 - seat if draw["swap"] else seat,
            json.dumps({"type": "action", "id": f"f{draw['id']}", "version": v, "action": action}))


def broken_frames(version: int) -> st.SearchStrategy[str | bytes]:
    """Frames broken at the message level (not one of them may be applied)."""
    good = {"type": "action", "id": "b", "version": version, "action": {"type": "x"}}
    return st.one_of(
        st.text(max_size=40),  # mostly not JSON at all
        st.binary(min_size=1, max_size=40),  # binary frames
        st.sampled_from([
            "", "null", "[]", "0", '"action"', "{", '{"type":', "\x00",
            "1" + "0" * 400,
            '{"type":"action","id":"h","version":1' + "0" * 400 + ',"action":{}}',
            '{"type":"action","id":"h","version":0,"action":{"n":1e400}}',
            "[" * 5000 + "]" * 5000,
            '{"type":"action","id":"d","version":0,"action":' + '{"a":' * 1000 + "1"
            + "}" * 1000 + "}",
            '{"type":"action","id":"d","version":0,"action":{"a":' + "[" * 250 + "0"
            + "]" * 250 + "}}",
            json.dumps({"type": "chat", "text": "x" * 70_000}),
            json.dumps({"type": "action", "id": "z" * 65, "version": 0, "action": {}}),
            json.dumps({"type": "action", "id": "nul\x00", "version": 0, "action": {}}),
            json.dumps({"type": "action", "id": "", "version": 0, "action": {}}),
            json.dumps({"type": "action", "id": "m", "version": 0, "action": [],
                        "match": "elsewhere"}),
            json.dumps({"type": "ping", "extra": 1}),
            json.dumps({"type": "chat", "text": 5}),
            json.dumps({"type": "chat", "text": "nul \x00 in chat"}),
            json.dumps({"type": "undo-everything"}),
        ]),
        st.builds(lambda k, v: json.dumps({**good, k: v}),
                  st.sampled_from(["type", "id", "version", "action", "seat", "match"]), JUNK),
        st.builds(lambda k: json.dumps({x: y for x, y in good.items() if x != k}),
                  st.sampled_from(sorted(good))),
    )


# ----- the test ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_hostile_frames_get_typed_errors_and_change_nothing(fast_client, game, caplog):
    client = fast_client
    engine = registry.get(game)
    named(client, "Ann")
    mid = create(client, game=game, players=2)
    bob = named(new_client(client), "Bob")
    assert bob.post(f"/m/{mid}/seat", data={"seat": "1"}, follow_redirects=False
                    ).status_code == 303
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    service = client.app.state.service
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bws:
        until(ann, {"view"}), until(bws, {"view"})
        # One real move first, so that "replay an old message" has something to replay.
        snap = client.portal.call(service.snapshot, mid)
        mover, ws_of = None, {0: ann, 1: bws}
        for seat in (0, 1):
            if engine.legal_actions(snap.match.state, seat):
                mover = seat
                break
        assert mover is not None
        first = {"type": "action", "id": "first", "version": 0,
                 "action": engine.legal_actions(snap.match.state, mover)[0]}
        ws_of[mover].send_text(json.dumps(first))
        assert until(ws_of[mover], {"ack", "error"})[0]["type"] == "ack"
        answer(ws_of[mover])
        anyone = st.sampled_from([0, 1])
        frames = st.one_of(st.tuples(st.just("action"), ACTION_FRAME),
                           st.tuples(st.just("action"), ACTION_FRAME),
                           st.tuples(st.just("broken"), st.tuples(anyone, broken_frames(1))),
                           st.tuples(st.just("replay"), anyone))

        @settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(drawn=frames)
        def check(drawn):
            before = row(client, mid)
            cur = client.portal.call(service.snapshot, mid).match
            actions = {s: engine.legal_actions(cur.state, s) for s in (0, 1)}
            kind, what = drawn
            if kind == "action" and any(actions.values()):
                who, frame = concrete(what, cur.version, actions)
            elif kind == "broken":
                who, frame = what
            else:  # replay of the first, already applied, message (or an action after the end)
                who, frame = (what, json.dumps(first))
            ws = ws_of[who]
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            replies = [m for m in answer(ws) if m["type"] in ("error", "ack")]
            assert len(replies) <= 1, replies
            after = row(client, mid)
            if not replies:  # only a ping or a chat line is answered by nothing but its pong
                assert after == before
                assert isinstance(frame, str) and ('"ping"' in frame or '"chat"' in frame)
                return
            reply = replies[0]
            if reply["type"] == "error":
                assert reply["code"] in CODES and reply["message"], reply
                assert after == before, frame[:200]
                return
            sent = json.loads(frame)
            if reply["duplicate"]:
                assert after == before
            else:  # applied: it was exactly a legal action of that seat
                assert after[0] == before[0] + 1
                assert strictly_legal(engine, cur.state, who, sent["action"]), sent

        check()
        # The refusals went to their sender only: the other socket saw no error of theirs.
        for ws in (ann, bws):
            assert not [m for m in answer(ws) if m["type"] == "error"]
    assert client.get("/healthz").json() == {"ok": True}
    # Refused, never crashed: no frame reached the handler's last-resort error path.
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text[-2000:]
    rows = client.portal.call(service.actions, mid)
    version = client.portal.call(service.snapshot, mid).match.version
    assert [r.seq for r in rows] == list(range(1, version + 1))
    assert len({(r.seat, r.action_id) for r in rows}) == len(rows)


def test_flood_is_rate_limited_on_that_socket_only(settings):
    """A burst of ``WS_BURST`` messages, then ``WS_RATE`` a second per socket. The rate is
    set near zero here so the count does not depend on how fast the machine is."""

    app = create_app(settings.model_copy(update={"ws_rate": 1e-6, "ws_burst": 5}))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        _flood(client)


def _flood(client):
    named(client, "Ann")
    mid = create(client, game="toy")
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    before = row(client, mid)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            bob.websocket_connect(f"/ws/matches/{mid}") as bws:
        until(ann, {"view"}), until(bws, {"view"})
        for i in range(60):
            ann.send_text(json.dumps({"type": "action", "id": f"x{i}", "version": 0,
                                      "action": {"type": "bid", "n": 9}}))
        codes = []
        while len(codes) < 60:
            msg = ann.receive_json()
            if msg["type"] == "error":
                codes.append(msg["code"])
        assert set(codes) == {"illegal", "rate_limited"}
        assert codes.count("illegal") == 5
        assert not [m for m in answer(bws) if m["type"] == "error"]
    assert row(client, mid) == before
