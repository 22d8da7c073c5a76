"""Several server processes, one truth (docs/design.md "Fan-out"; issue 6 section 1), PostgreSQL.

Two real uvicorn processes on one database with no sticky sessions: a move made on process A
reaches a player and a spectator connected to process B live (LISTEN/NOTIFY), and two actions
for the same decision at the same version sent to A and to B end with exactly one applied and
the other answered ``stale``.
"""
from __future__ import annotations

import json
import threading

import httpx
import pytest
from websockets.sync.client import connect

from tests.app.servers import SECRET, free_port, start_server, view_at
from tests.csrf import as_browser

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


def _msg(ws, kind: str) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == kind:
            return msg


def test_two_processes_share_moves_live_and_apply_each_decision_once(database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL (LISTEN/NOTIFY)")
    port_a, port_b = free_port(), free_port()
    proc_a, proc_b = start_server(database_url, port_a), start_server(database_url, port_b)
    try:
        a_url, b_url = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
        ann = as_browser(httpx.Client(base_url=a_url, follow_redirects=True), SECRET)
        bob = as_browser(httpx.Client(base_url=b_url, follow_redirects=True), SECRET)
        ann.post("/name", data={"name": "Ann", "next": "/"})
        bob.post("/name", data={"name": "Bob", "next": "/"})
        mid = str(ann.post("/matches", data={"game": "toy", "players_toy": "2",
                                             "public": "on"}).url).rsplit("/", 1)[1]
        bob.post(f"/m/{mid}/seat", data={"seat": "1"})  # on process B
        ann.post(f"/m/{mid}/start")
        cookie = lambda c: {"Cookie": f"lair_user={c.cookies['lair_user']}"}  # noqa: E731
        path = f"/ws/matches/{mid}"
        with connect(f"ws://127.0.0.1:{port_a}{path}", additional_headers=cookie(ann)) as a, \
                connect(f"ws://127.0.0.1:{port_b}{path}", additional_headers=cookie(ann)) as a2, \
                connect(f"ws://127.0.0.1:{port_b}{path}", additional_headers=cookie(bob)) as b, \
                connect(f"ws://127.0.0.1:{port_b}{path}") as spectator:
            for ws in (a, a2, b, spectator):
                view_at(ws)
            a.send(json.dumps({"type": "action", "id": "1", "version": 0,
                               "action": {"type": "bid", "n": 3}}))
            # Ann's move, committed by A, reaches Bob and the spectator on B
            assert view_at(b, 1)["game"]["bids"][0] is True
            assert view_at(spectator, 1)["version"] == 1
            b.send(json.dumps({"type": "action", "id": "2", "version": 1,
                               "action": {"type": "bid", "n": 1}}))
            assert view_at(a, 2)["game"]["turn"] == 0  # and Bob's, committed by B, reaches A
            view_at(a2, 2)
            # Ann's laptop (on A) and phone (on B) send different moves at the same version
            barrier = threading.Barrier(2)
            outcomes: dict[str, dict] = {}

            def send(ws, name, n):
                barrier.wait()
                ws.send(json.dumps({"type": "action", "id": name, "version": 2,
                                    "action": {"type": "take", "n": n}}))
                while True:
                    msg = json.loads(ws.recv(timeout=10))
                    if msg["type"] in ("ack", "error"):
                        outcomes[name] = msg
                        return

            threads = [threading.Thread(target=send, args=(a, "laptop", 1)),
                       threading.Thread(target=send, args=(a2, "phone", 2))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=20)
            kinds = sorted(m["type"] for m in outcomes.values())
            assert kinds == ["ack", "error"], outcomes
            assert [m["code"] for m in outcomes.values() if m["type"] == "error"] == ["stale"]
            assert view_at(spectator, 3)["version"] == 3
            # Chat crosses processes too, by channel: the spectator on B talks to the
            # spectators (the one on A hears it, Ann on A does not); Bob's line reaches Ann.
            with connect(f"ws://127.0.0.1:{port_a}{path}") as spectator_a:
                view_at(spectator_a)
                spectator.send(json.dumps({"type": "chat", "text": "psst"}))
                assert _msg(spectator_a, "chat")["text"] == "psst"
                b.send(json.dumps({"type": "chat", "text": "hello from B"}))
                line = _msg(a, "chat")
                assert (line["text"], line["from"], line["channel"]) == \
                    ("hello from B", "Bob", "table")
                assert _msg(spectator_a, "chat")["text"] == "hello from B"
        record_rows = httpx.get(f"{a_url}/matches/{mid}/replay?step=99",
                                cookies=ann.cookies).json()
        assert record_rows["steps"] == 3
    finally:
        for proc in (proc_a, proc_b):
            proc.kill()
            proc.wait(timeout=10)


def _until(ws, check, timeout: float = 10.0) -> dict:
    """The first frame (view or presence) for which ``check(frame)`` holds."""
    import time
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if msg["type"] in ("view", "presence") and check(msg):
            return msg
    raise AssertionError("the frame never came")


def _seat0_connected(msg: dict) -> bool:
    if msg["type"] == "view":
        return msg["view"]["seats"][0]["connected"]
    return any(s["seat"] == 0 for s in msg["seats"])


def test_presence_crosses_processes(database_url):
    """A player connected to process A is present, not away, for the table on process B (the
    seat's dot, the away timer that replacement votes go by), and away once they leave."""
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL (LISTEN/NOTIFY)")
    port_a, port_b = free_port(), free_port()
    proc_a, proc_b = start_server(database_url, port_a), start_server(database_url, port_b)
    try:
        ann = as_browser(httpx.Client(base_url=f"http://127.0.0.1:{port_a}", follow_redirects=True),
                         SECRET)
        bob = as_browser(httpx.Client(base_url=f"http://127.0.0.1:{port_b}", follow_redirects=True),
                         SECRET)
        ann.post("/name", data={"name": "Ann", "next": "/"})
        bob.post("/name", data={"name": "Bob", "next": "/"})
        mid = str(ann.post("/matches", data={"game": "toy", "players_toy": "2",
                                             "public": "on"}).url).rsplit("/", 1)[1]
        bob.post(f"/m/{mid}/seat", data={"seat": "1"})
        ann.post(f"/m/{mid}/start")
        cookie = lambda c: {"Cookie": f"lair_user={c.cookies['lair_user']}"}  # noqa: E731
        path = f"/ws/matches/{mid}"
        with connect(f"ws://127.0.0.1:{port_b}{path}", additional_headers=cookie(bob)) as b:
            first = view_at(b)
            assert not first["seats"][0]["connected"]  # Ann has not come yet
            with connect(f"ws://127.0.0.1:{port_a}{path}", additional_headers=cookie(ann)) as a:
                view_at(a)
                _until(b, _seat0_connected)
                with connect(f"ws://127.0.0.1:{port_a}{path}"):  # a spectator on A
                    got = _until(b, lambda m: m["type"] == "presence" and m["spectators"] == 1)
                    assert any(s["seat"] == 0 for s in got["seats"])
            # Ann left A: on B her seat is no longer connected and her away time runs
            gone = _until(b, lambda m: m["type"] == "view" and not _seat0_connected(m))
            assert gone["view"]["pace"]["seats"][0]["away"] is not None
    finally:
        for proc in (proc_a, proc_b):
            proc.kill()
            proc.wait(timeout=10)


def _race(*calls):
    """Run ``calls`` at once (threads released together); their results, in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


def _seats(database_url: str, match_id: str) -> tuple[str, list[tuple]]:
    """``(status, [(seat, user_id, bot), ...])`` as committed."""
    import asyncio

    from sqlalchemy import select
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.models import Match, Seat

    async def read():
        engine = create_async_engine(database_url)
        async with engine.connect() as conn:
            status = (await conn.execute(select(Match.status).where(Match.id == match_id))
                      ).scalar_one()
            rows = (await conn.execute(select(Seat.seat, Seat.user_id, Seat.bot).where(
                Seat.match_id == match_id).order_by(Seat.seat))).all()
        await engine.dispose()
        return status, [tuple(r) for r in rows]

    return asyncio.run(read())


def test_seats_and_the_start_are_atomic_across_processes(database_url):
    """Issue 13, item 6: two processes on one database, concurrent clicks sent to both. One
    user clicking two seats at once ends up in one seat; two users racing for one seat: one
    sits, the other is told "Seat N was taken by someone else a moment ago" (never both told
    "seated"); two starts at once start the match once, the other is told it already
    started. Many rounds, so the races really overlap."""
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL (SQLite serves one process)")
    port_a, port_b = free_port(), free_port()
    proc_a, proc_b = start_server(database_url, port_a), start_server(database_url, port_b)
    urls = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    clients: list[httpx.Client] = []

    def person(name: str) -> tuple[httpx.Client, httpx.Client]:
        """One browser identity, with a client on each process (no sticky sessions)."""
        on_a, on_b = (as_browser(httpx.Client(base_url=u), SECRET) for u in urls)
        on_a.post("/name", data={"name": name, "next": "/"})
        on_b.cookies.update(on_a.cookies)
        clients.extend((on_a, on_b))
        return on_a, on_b

    try:
        ann, bob, cat, dan = (person(n) for n in ("Ann", "Bob", "Cat", "Dan"))
        from app.identity import read_user_id
        from app.settings import Settings
        ids = {read_user_id(c[0].cookies, Settings(secret_key=SECRET)): n for c, n in
               ((ann, "Ann"), (bob, "Bob"), (cat, "Cat"), (dan, "Dan"))}
        for _ in range(8):
            mid = ann[0].post("/matches", data={"game": "toy", "players_toy": "2",
                                                "public": "on", "host_plays": "no"}
                              ).headers["location"].rsplit("/", 1)[1]
            seat = lambda c, n: (lambda: c.post(f"/m/{mid}/seat", data={"seat": str(n)}))  # noqa
            # Dan clicks both seats at once, one click on each process
            _race(seat(dan[0], 0), seat(dan[1], 1))
            status, seats = _seats(database_url, mid)
            dans = [n for n, user, _bot in seats if ids.get(user) == "Dan"]
            assert len(dans) == 1, seats
            free = 1 - dans[0]
            # Bob (on A) and Cat (on B) race for the last seat
            got = _race(seat(bob[0], free), seat(cat[1], free))
            told_seated = [r.headers["location"] == f"/m/{mid}" for r in got]
            assert sorted(told_seated) == [False, True], [r.headers["location"] for r in got]
            loser = got[told_seated.index(False)]
            assert loser.headers["location"] == f"/m/{mid}?taken={free}"
            assert f"Seat {free + 1} was taken by someone else a moment ago" in \
                (cat if told_seated[0] else bob)[0].get(loser.headers["location"]).text
            winner = "Bob" if told_seated[0] else "Cat"
            status, seats = _seats(database_url, mid)
            assert [ids.get(u) for _n, u, _b in seats][free] == winner, seats
            # the host starts twice at once, once on each process
            started = _race(lambda: ann[0].post(f"/m/{mid}/start"),
                            lambda: ann[1].post(f"/m/{mid}/start"))
            # the start is applied once (the loser gets already_started: test_concurrency);
            # the host's second click just opens the table
            assert [r.status_code for r in started] == [303, 303], \
                [(r.status_code, r.text[:300]) for r in started]
            assert {r.headers["location"] for r in started} == {f"/m/{mid}"}
            status, seats = _seats(database_url, mid)
            assert status == "active" and sorted(ids.get(u) for _n, u, _b in seats) == \
                sorted(["Dan", winner])
    finally:
        for c in clients:
            c.close()
        for proc in (proc_a, proc_b):
            proc.kill()
            proc.wait(timeout=10)
