"""Crashes and restarts (issue 6, section 2), on every database.

A real uvicorn process runs bot-only matches of every real game (and the toy game) at once,
with a small bot delay; spectators watch over real websockets. At seeded random moments the
process is killed with SIGKILL (no shutdown code runs), the database is checked, the process is
started again and the spectators reconnect. After every kill:

- no committed action is lost: every version a spectator was shown is still there, and the
  state the spectator saw is the one the log replays to;
- none is applied twice: ``seq`` runs 1..version without a gap, action ids are unique;
- every match's stored state equals the replay of its action log from its seed;
- the bots resume by themselves after the restart (nobody sends anything), and every match is
  played on to its end.

``LAIR_KILLS`` (default 3) sets the number of kill points per database.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time

import httpx
import orjson
import pytest
from sqlalchemy import select
from websockets.sync.client import connect

from app.db import make_engine, make_sessionmaker
from app.matches.service import MatchService
from app.models import Match
from engines import registry
from engines.records import replay_states, state_hash
from tests.app.servers import SECRET, START_TIMEOUT, complete, free_port, start_server
from tests.csrf import as_browser

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database

KILLS = int(os.environ.get("LAIR_KILLS", "3"))
MATCHES = [("drops_of_evil", 2), ("evil_corp", 2), ("covil", 1), ("toy", 2)]
BOT_DELAY = 0.05  # long enough that the first kills land while the real games are still playing


def _cookie(c: httpx.Client) -> dict:
    return {"Cookie": f"lair_user={c.cookies['lair_user']}"}


def create_bot_match(http: httpx.Client, game: str, players: int) -> str:
    """An all-bot match started by a host who only watches."""
    r = http.post("/matches", data={"game": game, f"players_{game}": str(players),
                                    "public": "on", "host_plays": "no"})
    mid = str(r.url).rsplit("/", 1)[1]
    http.post(f"/m/{mid}/fill", data={"bot": "random"})
    assert http.post(f"/m/{mid}/start").status_code == 200
    return mid


async def _read(url: str, ids: list[str]) -> dict[str, tuple]:
    """``{match id: (snapshot, action rows)}`` straight from the database."""
    engine = make_engine(url)
    try:
        service = MatchService(make_sessionmaker(engine), bot_delay=0)
        return {mid: (await service.snapshot(mid), await service.actions(mid)) for mid in ids}
    finally:
        await engine.dispose()


async def _status(url: str, ids: list[str]) -> dict[str, tuple[int, str]]:
    """``{match id: (version, status)}`` (a light read, for polling)."""
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as s:
            rows = (await s.execute(select(Match.id, Match.version, Match.status)
                                    .where(Match.id.in_(ids)))).all()
        return {r.id: (r.version, r.status) for r in rows}
    finally:
        await engine.dispose()


def check_database(url: str, ids: list[str], seen: dict[str, dict]
                   ) -> dict[str, tuple[int, str]]:
    """The invariants after a crash; returns each match's ``(version, status)``."""
    versions = {}
    for mid, (snap, rows) in asyncio.run(_read(url, ids)).items():
        m = snap.match
        assert [r.seq for r in rows] == list(range(1, m.version + 1)), mid  # no gap, no twice
        assert len({(r.seat, r.action_id) for r in rows}) == len(rows), mid
        states = list(replay_states(m.game, m.players, m.options, m.seed,
                                    [(r.seat, r.action) for r in rows]))
        assert state_hash(states[-1]) == state_hash(m.state), mid  # stored == replayed
        assert (m.status == "finished") == (registry.get(m.game).result(m.state) is not None)
        view = seen.get(mid)
        if view is not None:  # what a spectator was shown was committed, and is still there
            assert view["version"] <= m.version, mid
            replayed = registry.get(m.game).view(states[view["version"]], None)["game"]
            assert orjson.loads(orjson.dumps(replayed)) == view["game"], mid
        versions[mid] = (m.version, m.status)
    return versions


def watch(port: int, ids: list[str], seconds: float, seen: dict[str, dict]) -> None:
    """Spectators (re)connect to every match and keep the latest view each was shown."""
    with contextlib.ExitStack() as stack:
        sockets = {mid: stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/matches/{mid}",
                                                    max_size=None)) for mid in ids}
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for mid, ws in sockets.items():
                try:
                    msg = json.loads(ws.recv(timeout=0.005))
                except TimeoutError:
                    continue
                except Exception:  # closed (a finished match): keep what it showed
                    continue
                if msg["type"] == "view":  # a reconnected socket's first view is whole
                    seen[mid] = complete(seen.get(mid), msg["view"])


@pytest.mark.parametrize("seed", [6])
def test_sigkill_at_random_moments_loses_nothing_and_play_goes_on(database_url, seed):
    rnd = random.Random(seed)
    port = free_port()
    proc = start_server(database_url, port, bot_delay=BOT_DELAY)
    try:
        host = as_browser(httpx.Client(base_url=f"http://127.0.0.1:{port}", follow_redirects=True),
                          SECRET)
        host.post("/name", data={"name": "Host", "next": "/"})
        ids = [create_bot_match(host, game, players) for game, players in MATCHES]
        seen: dict[str, dict] = {}
        killed_mid_play = 0  # matches caught unfinished by a kill
        for _ in range(KILLS):
            watch(port, ids, rnd.uniform(0.1, 1.2), seen)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            before = check_database(database_url, ids, seen)
            killed_mid_play += sum(1 for _, status in before.values() if status == "active")
            proc = start_server(database_url, port, bot_delay=BOT_DELAY)
            # Nobody sends anything: the bots of unfinished matches resume on their own.
            waiting = [mid for mid, (_, status) in before.items() if status == "active"]
            deadline = time.monotonic() + START_TIMEOUT
            while waiting:
                now = asyncio.run(_status(database_url, waiting))
                waiting = [mid for mid in waiting if now[mid][0] == before[mid][0]]
                assert time.monotonic() < deadline, f"bots did not resume in {waiting}"
                time.sleep(0.1)
        assert killed_mid_play > 0  # the kills did land in the middle of play
        # and every match is played to its end: a liveness check (no match may stand still
        # for 30 s), not a speed test, since a long match on a loaded machine takes minutes
        last, stalled_since = None, time.monotonic()
        while True:
            status = asyncio.run(_status(database_url, ids))
            if all(s == "finished" for _, s in status.values()):
                break
            if status != last:
                last, stalled_since = status, time.monotonic()
            assert time.monotonic() - stalled_since < 30, f"play stalled: {status}"
            time.sleep(0.2)
        check_database(database_url, ids, {})
        for mid in ids:  # and the record of each verifies
            record = host.get(f"/matches/{mid}/record").json()
            assert len(record["actions"]) > 0 and record["final_hash"]
    finally:
        proc.kill()
        proc.wait(timeout=10)


async def _roundtrip(url: str, state: dict) -> dict:
    from sqlalchemy import select, update

    from app.db import make_engine, make_sessionmaker
    from app.models import Match

    db = make_engine(url)
    try:
        async with make_sessionmaker(db)() as s:
            mid = (await s.execute(select(Match.id).limit(1))).scalar_one()
            await s.execute(update(Match).where(Match.id == mid).values(state=state))
            await s.commit()
        async with make_sessionmaker(db)() as s:
            return (await s.execute(select(Match.state).where(Match.id == mid))).scalar_one()
    finally:
        await db.dispose()


def test_the_database_keeps_a_states_key_order(client, database_url):
    """Engines may iterate their dicts in insertion order, so a stored state must come back
    with its keys in the same order (PostgreSQL ``jsonb`` would sort them: migration 0004)."""
    from tests.app.conftest import create, named

    named(client, "Ann")
    create(client)
    state = {"zeta": 1, "a": {"long_key": 1, "k": 2}, "mid": [{"b": 1, "a": 2}]}
    back = client.portal.call(_roundtrip, database_url, state)
    assert list(back) == list(state) and list(back["a"]) == ["long_key", "k"]
    assert list(back["mid"][0]) == ["b", "a"]
