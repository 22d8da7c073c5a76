"""Rules versions stay runnable (issue 15 §0, docs/versioning.md).

When a game's rules version is bumped, what was made before the bump keeps running on the rules
it was made with: a running match finishes under them, its replay and its record file replay on
them, ``lair verify`` checks it against them, and a record file downloaded before the bump still
imports. New matches (and an open match started after the bump) get the live rules.

The toy game stands in for a real one: its "version 2" takes 1-3 counters from a pile of 9
(version 1: 1-2 from 7), so a move tells which rules judged it.
"""
from __future__ import annotations

import json

import pytest

from app.matches.service import ServiceError
from app.ops.verify import verify_all
from engines import registry
from tests.app.conftest import create, named
from tests.app.matches.test_records_import import imported_id, upload
from tests.app.realtime.test_live import started
from tests.app.toygame import TOY, ToyEngine

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


class ToyV2(ToyEngine):
    """The toy game after a rules change: a pile of 9, take 1-3."""

    version = 2

    def _setup(self, players, options, seed):
        return {**super()._setup(players, options, seed), "pile": 9}

    def legal_actions(self, state, seat):
        if seat in self.prompts(state) and state["phase"] == "take":
            return [{"type": "take", "n": n} for n in (1, 2, 3) if n <= state["pile"]]
        return super().legal_actions(state, seat)


@pytest.fixture
def bump():
    """Call it to bump the toy game to version 2 (version 1 stays registered)."""
    def do() -> None:
        registry.register(ToyV2())
    yield do
    registry.ENGINES["toy"] = TOY
    registry._VERSIONS.pop(("toy", 2), None)


def play(client, mid: str, seat: int, action: dict) -> None:
    service = client.app.state.service
    m = client.portal.call(service.snapshot, mid).match
    client.portal.call(service.submit, mid, seat, f"t{m.version}", m.version, action)


def finish(client, mid: str) -> None:
    """Seats bid then take 1 in turn until the pile is empty (bots answer for bot seats)."""
    service = client.app.state.service
    while True:
        client.portal.call(service.drain)
        m = client.portal.call(service.snapshot, mid).match
        if m.status == "finished":
            return
        for seat in sorted(registry.get("toy", m.engine_version).prompts(m.state)):
            action = {"type": "bid", "n": 2} if m.state["phase"] == "bid" else \
                {"type": "take", "n": 1}
            play(client, mid, seat, action)
            break


def test_matches_replays_and_records_made_before_a_bump_keep_their_rules(client, bump):
    service = client.app.state.service
    done, _ = started(client, bots=True)
    finish(client, done)
    record = client.get(f"/matches/{done}/record").json()
    running, _ = started(client)
    play(client, running, 0, {"type": "bid", "n": 3})
    play(client, running, 1, {"type": "bid", "n": 1})
    waiting = create(named(client, "Ann"))  # opened before the bump, started after it

    bump()
    assert registry.get("toy").version == 2 and registry.get("toy", 1) is TOY

    # The running match finishes under version 1: a pile of 7, and taking 3 is refused.
    m = client.portal.call(service.snapshot, running).match
    assert (m.engine_version, m.state["pile"]) == (1, 7)
    with pytest.raises(ServiceError) as refused:
        play(client, running, 0, {"type": "take", "n": 3})
    assert refused.value.code == "illegal"
    play(client, running, 0, {"type": "take", "n": 2})
    finish(client, running)
    m = client.portal.call(service.snapshot, running).match
    assert m.status == "finished" and m.engine_version == 1

    # Its replay steps through version 1's states.
    assert client.get(f"/matches/{running}/replay?step=2").json()["view"]["game"]["pile"] == 7
    last = client.get(f"/matches/{running}/replay?step={m.version}").json()
    assert last["view"]["game"]["pile"] == 0 and last["view"]["result"] == m.result

    # lair verify checks each match against its own version (and says which that is).
    verdicts = {v.match_id: v for v in client.portal.call(verify_all, service.sm)}
    assert verdicts[running].ok and verdicts[done].ok, verdicts
    assert "rules version 1 (live: 2)" in verdicts[running].note

    # A record file downloaded before the bump still imports and replays on version 1.
    rid = imported_id(upload(client, json.dumps(record).encode()))
    step = len(record["actions"])
    view = client.get(f"/records/{rid}/replay?step={step}").json()["view"]
    assert view["result"]["ranks"] == record["result"]["ranks"]
    assert client.get(f"/records/{rid}/record").json()["version"] == 1

    # New matches, and the one opened before the bump, play the live rules.
    new, _ = started(client)
    assert client.portal.call(service.snapshot, new).match.engine_version == 2
    client.post(f"/m/{waiting}/bot", data={"seat": "1", "bot": "random"})
    assert client.post(f"/m/{waiting}/start", follow_redirects=False).status_code == 303
    m = client.portal.call(service.snapshot, waiting).match
    assert (m.engine_version, m.state["pile"]) == (2, 9)


def test_a_record_of_a_version_the_site_lacks_is_refused_clearly(client):
    done, _ = started(client, bots=True)
    finish(client, done)
    record = client.get(f"/matches/{done}/record").json()
    for version in (7, 0):
        r = upload(client, json.dumps(dict(record, version=version)).encode())
        assert r.status_code == 422
        assert f"made with version {version} of Toy Nim" in r.text
        assert "this site has versions 1" in r.text
