"""Match records re-imported into the replay viewer (issue 7 item 4, "Replays and records").

A record downloaded from a finished match re-imports into a replay with the very same views at
every step; a file that is not such a record (tampered, another game or rules version, not JSON,
too large, hostile shapes) gets a clear 4xx page and stores nothing.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from app.models import Record
from engines.records import UNDO, replay_log, replay_states, state_hash
from tests.app.conftest import named, new_client


@pytest.fixture
def settings(settings):
    """Uploads here test the validation, not the per-address limit (test_rate_limits.py)."""
    return settings.model_copy(update={"rate_records": "0"})

ROOT = Path(__file__).resolve().parents[3]
#: The live versions' golden records, and one record per frozen rules version (issue 15 §0:
#: a record file made before a version bump still imports and replays, on its own rules).
GOLDEN = sorted((ROOT / "tests" / "records").glob("*/*.json")) + sorted(
    next(iter(sorted(folder.glob("*.json"))))
    for folder in (ROOT / "tests" / "records").glob("*/v*") if any(folder.glob("*.json")))


def finished_match(client, game: str = "toy", players: int = 2, public: bool = True) -> str:
    """A match of ``game`` played to the end by bots; the client is its host (not seated)."""
    named(client, "Ann")
    data = {"game": game, f"players_{game}": str(players), "host_plays": "no"}
    if public:
        data["public"] = "on"
    r = client.post("/matches", data=data, follow_redirects=False)
    mid = r.headers["location"].rsplit("/", 1)[1]
    assert client.post(f"/m/{mid}/fill", data={"bot": "random"}).status_code == 200
    client.post(f"/m/{mid}/start")
    client.portal.call(client.app.state.service.drain)
    assert client.portal.call(client.app.state.service.snapshot, mid).match.status == "finished"
    return mid


def upload(client, body: bytes, name: str = "record.json"):
    return client.post("/records", files={"record": (name, body, "application/json")},
                       follow_redirects=False)


def imported_id(response) -> str:
    assert response.status_code == 303, response.text
    assert response.headers["location"].startswith("/records/")
    return response.headers["location"].rsplit("/", 1)[1]


def without_match_id(view: dict) -> dict:
    return dict(view, match={k: v for k, v in view["match"].items() if k != "id"})


@pytest.mark.parametrize("game", ["toy", "evil_corp"])
def test_record_reimports_into_an_identical_replay(client, game):
    mid = finished_match(client, game)
    record = client.get(f"/matches/{mid}/record").json()
    assert record["seats"][0]["bot"] == "random" and "name" in record["seats"][0]
    stranger = new_client(client)  # anyone may open a record file: no name needed
    rid = imported_id(upload(stranger, json.dumps(record).encode()))
    page = stranger.get(f"/records/{rid}")
    assert page.status_code == 200 and 'id="slider"' in page.text
    assert f'data-replay-api="/records/{rid}/replay"' in page.text
    steps = len(record["actions"])
    for step in range(steps + 1):
        original = client.get(f"/matches/{mid}/replay?step={step}").json()
        copy = stranger.get(f"/records/{rid}/replay?step={step}").json()
        assert copy["steps"] == original["steps"] == steps
        assert without_match_id(copy["view"]) == without_match_id(original["view"]), step
    # The imported record downloads as the same record, and re-imports to the same URL.
    again = stranger.get(f"/records/{rid}/record").json()
    assert {k: again[k] for k in record} == record
    assert imported_id(upload(client, json.dumps(again).encode())) == rid


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: "/".join(
    p.relative_to(ROOT / "tests" / "records").with_suffix("").parts))
def test_golden_records_import(client, path):
    record = json.loads(path.read_text())
    rid = imported_id(upload(client, path.read_bytes()))
    last = client.get(f"/records/{rid}/replay?step={len(record['actions'])}").json()
    assert last["view"]["result"]["ranks"] == record["result"]["ranks"]
    assert last["view"]["match"]["status"] == "finished"
    names = [s["name"] for s in last["view"]["seats"]]
    # A record that names no one: the engines' "Player n", no names invented.
    assert names == [f"Player {n + 1}" for n in range(record["players"])]


def toy_record_with_undo() -> dict:
    """A complete toy match whose log takes a move back (seat 0 takes 2, undoes, takes 1)."""
    actions = [[0, {"type": "bid", "n": 3}], [1, {"type": "bid", "n": 1}],
               [0, {"type": "take", "n": 2}], [0, dict(UNDO)], [0, {"type": "take", "n": 1}],
               [1, {"type": "take", "n": 2}], [0, {"type": "take", "n": 2}],
               [1, {"type": "take", "n": 1}], [0, {"type": "take", "n": 1}]]
    state, _ = replay_log("toy", 2, {}, 7, actions)
    assert state["winner"] == 0
    return {"game": "toy", "version": 1, "players": 2, "options": {}, "seed": 7,
            "actions": actions, "final_hash": state_hash(state)}


def test_record_with_an_undo_replays_step_by_step(client):
    record = toy_record_with_undo()
    rid = imported_id(upload(client, json.dumps(record).encode()))
    expected = list(replay_states("toy", 2, {}, 7, record["actions"]))
    for step, state in enumerate(expected):
        view = client.get(f"/records/{rid}/replay?step={step}").json()["view"]
        assert view["game"]["pile"] == state["pile"]
        assert [e["text"] for e in view["log"]][-1] == state["log"][-1]["text"]
    assert "took back a move" in state_log_text(client, rid, 4)


def state_log_text(client, rid: str, step: int) -> str:
    return " ".join(e["text"] for e in
                    client.get(f"/records/{rid}/replay?step={step}").json()["view"]["log"])


def _stored(client) -> int:
    async def count():
        from sqlalchemy import func, select
        async with client.app.state.service.sm() as s:
            return await s.scalar(select(func.count()).select_from(Record))
    return client.portal.call(count)


def _tampered() -> list[tuple[str, object, int, str]]:
    good = toy_record_with_undo()

    def changed(**kw):
        return json.dumps({**good, **kw}).encode()

    illegal = [list(a) for a in good["actions"]]
    illegal[5] = [1, {"type": "take", "n": 3}]
    other_seat = [list(a) for a in good["actions"]]
    other_seat[2] = [1, {"type": "take", "n": 2}]  # seat 1 moving on seat 0's turn
    floats = [list(a) for a in good["actions"]]
    floats[5] = [1, {"type": "take", "n": 2.0}]
    return [
        ("wrong game", changed(game="chess"), 422, "does not host"),
        ("other rules version", changed(version=2), 422, "version 2"),
        ("illegal action", changed(actions=illegal), 422, "Action 6 of 9"),
        ("out of turn", changed(actions=other_seat), 422, "Action 3 of 9"),
        ("float in action", changed(actions=floats), 422, "Action 6 of 9"),
        ("seat beyond the table", changed(actions=[[5, {"type": "bid", "n": 1}]]), 422,
         "seat 6"),
        ("float seat", changed(actions=[[0.0, {"type": "bid", "n": 1}]]), 422, "not a valid"),
        ("not over", changed(actions=good["actions"][:4], final_hash=None), 422, "not over"),
        ("altered hash", changed(final_hash="0" * 64), 422, "hash"),
        ("bad options", changed(players=3), 422, "2–2 players"),
        ("seat names vs players", changed(seats=[{"name": "A"}]), 422, "names 1 seats"),
        ("control characters in a name",
         changed(seats=[{"name": "A\u202e"}, {"name": "B"}]), 422, "not a valid"),
        ("not JSON", b"{\"game\": \"toy\", ", 400, "not JSON"),
        ("empty", b"", 400, "empty"),
        ("a list", b"[1, 2, 3]", 422, "not a match record"),
        ("missing fields", b'{"game": "toy"}', 422, "not a valid"),
        ("deep nesting", b"[" * 5000 + b"]" * 5000, 400, "not JSON"),
        ("huge file", b'{"pad": "' + b"x" * 300_000 + b'"}', 413, "at most"),
    ]


@pytest.mark.parametrize("body,status,says", [t[1:] for t in _tampered()],
                         ids=[t[0] for t in _tampered()])
def test_bad_records_get_a_clear_error_and_store_nothing(client, body, status, says):
    r = upload(client, body)
    assert r.status_code == status, r.text
    assert "This record cannot be opened" in r.text and says in r.text
    assert _stored(client) == 0


def test_upload_without_a_file_and_oversized_bodies(client):
    r = client.post("/records", files={"other": ("x.txt", b"x", "text/plain")},
                    follow_redirects=False)
    assert r.status_code == 400 and "Choose a match record" in r.text
    r = client.post("/records", data={"other": "x"}, follow_redirects=False)
    assert r.status_code == 400 and "not JSON" in r.text
    r = client.post("/records", content=b"x" * 400_000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    # A raw JSON body works too (curl --data-binary @record.json).
    r = client.post("/records", content=json.dumps(toy_record_with_undo()),
                    headers={"content-type": "application/json"}, follow_redirects=False)
    assert imported_id(r)


def test_unknown_record_is_404(client):
    assert client.get("/records/nope").status_code == 404
    assert client.get("/records/nope/replay?step=1").status_code == 404
    assert client.get("/records/nope/record").status_code == 404


_json = st.recursive(st.none() | st.booleans() | st.integers(-2, 2**64) | st.floats()
                     | st.text(max_size=8),
                     lambda kids: st.lists(kids, max_size=4)
                     | st.dictionaries(st.text(max_size=6), kids, max_size=4), max_leaves=12)


@hsettings(max_examples=40, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["game", "version", "players", "options", "seed", "actions",
                              "final_hash", "seats", "action", "seat"]), value=_json)
def test_fuzzed_records_never_fail_the_server(client, field, value):
    record = toy_record_with_undo()
    if field == "action":
        record["actions"][3] = [0, value]
    elif field == "seat":
        record["actions"][0] = [value, {"type": "bid", "n": 3}]
    else:
        record[field] = value
    r = upload(client, json.dumps(record).encode())  # big ints and NaN included
    assert r.status_code in (303, 400, 413, 422), r.text


def test_a_match_ended_by_resignation_reimports_with_its_result(client):
    """A match over because a player resigned (issue 7 "Pace") has a record like any finished
    one; its file names the resignations and re-imports with the same ranks."""
    from tests.app.realtime.test_live import started

    mid, bob = started(client)
    assert bob.post(f"/m/{mid}/resign", follow_redirects=False).status_code == 303
    match = client.portal.call(client.app.state.service.snapshot, mid).match
    assert match.status == "finished" and match.result["ranks"] == [[0], [1]]
    record = client.get(f"/matches/{mid}/record").json()
    assert record["resigned"] == [1]
    assert "Bob (resigned)" in client.get("/matches/finished").text
    rid = imported_id(upload(new_client(client), json.dumps(record).encode()))
    view = client.get(f"/records/{rid}/replay?step={len(record['actions'])}").json()["view"]
    assert view["result"]["ranks"] == [[0], [1]] and view["result"]["resigned"] == [1]
    # an older file (before the field) carries the resignations in its result only
    older = {k: v for k, v in record.items() if k != "resigned"}
    assert imported_id(upload(client, json.dumps(older).encode())) == rid
    # resignations cannot end a match they do not end, nor name a seat twice
    for bad in ([], [1, 1], [5]):
        r = upload(client, json.dumps(dict(record, resigned=bad, result=None)).encode())
        assert r.status_code == 422, bad
