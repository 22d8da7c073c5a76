"""The move path's database work (issue 6, performance), on every database.

A move built on the version this process has cached reads nothing and writes in one
transaction: one statement on PostgreSQL (UPDATE + INSERT + NOTIFY), UPDATE and INSERT on
SQLite. An old cache (another process moved or ended the match) is caught by the UPDATE's
``WHERE version = v AND status = 'active'`` and answered exactly as the full path does. Pool
exhaustion is the typed, retryable ``busy``; dropped connections cost no move.
"""
from __future__ import annotations

import json
from contextlib import ExitStack

import asyncpg
import pytest
from sqlalchemy import event
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.matches.service import ServiceError
from app.settings import Settings
from tests.app.conftest import PG_ADMIN, create, named, new_client
from tests.app.processes import services, toy_match_at_take_phase
from tests.csrf import as_browser

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


class Statements:
    """Records every statement an engine's connections send: through SQLAlchemy's cursors, and
    (PostgreSQL) straight through asyncpg, BEGIN and COMMIT included. Attach it before the
    engine opens its first connection."""

    def __init__(self, engine):
        self.sql: list[str] = []
        self.on = False
        event.listen(engine.sync_engine, "before_cursor_execute", self._cursor)
        if engine.dialect.name == "postgresql":
            event.listen(engine.sync_engine, "connect", self._connect)

    def _cursor(self, _conn, _cursor, statement, *_args):
        if self.on:
            self.sql.append(" ".join(statement.split()))

    def _connect(self, dbapi_conn, _record):
        dbapi_conn.driver_connection.add_query_logger(self._driver)

    def _driver(self, record):
        if self.on:
            self.sql.append(" ".join(record.query.split()))


async def test_a_move_on_the_cached_version_reads_nothing(database_url):
    engines, (p1,) = await services(database_url, 1)
    seen = Statements(engines[0])
    try:
        mid = await toy_match_at_take_phase(p1)
        seen.on = True
        out = await p1.submit(mid, 0, "take", 2, {"type": "take", "n": 1})
        seen.on = False
        assert out.applied and out.version == 3
        if database_url.startswith("postgresql"):  # one statement, one round trip
            # A pool reset ("ROLLBACK;") of an earlier checkout was once seen landing in the
            # window on a loaded CI machine; it is not the move's (open question, issue 6).
            moves = [sql for sql in seen.sql if sql != "ROLLBACK;"]
            assert len(moves) == 1 and moves[0].startswith("WITH u AS ( UPDATE matches"), \
                seen.sql
        else:
            assert [sql.split()[0] for sql in seen.sql] == ["UPDATE", "INSERT"], seen.sql
        # What was written is what the cache holds (and what a fresh process loads).
        cached = p1.cached(mid).match
        fresh = (await p1.snapshot(mid)).match
        assert (fresh.version, fresh.state, fresh.status) == (3, cached.state, "active")
        assert fresh.result is None and fresh.finished_at is None
        rows = await p1.actions(mid)
        assert [(r.seq, r.seat, r.action_id, r.action, r.undo) for r in rows][-1] == \
            (3, 0, "take", {"type": "take", "n": 1}, False)
    finally:
        await engines[0].dispose()


async def test_a_late_move_of_a_simultaneous_frame_reads_nothing_either(database_url):
    """Both seats bid at once (version 0); the second bid arrives built on version 0 after the
    first made version 1. This process knows the frame still stands and who moved since, so
    the late bid takes the fast path too (simultaneous phases are where most moves are late)."""
    engines, (p1,) = await services(database_url, 1)
    seen = Statements(engines[0])
    try:
        await p1.ensure_user("u0", "Ann")
        await p1.ensure_user("u1", "Bob")
        match = await p1.create_match("u0", "toy", 2, {}, public=True)
        await p1.take_seat(match.id, "u1", 1)
        await p1.start(match.id, "u0")
        await p1.submit(match.id, 0, "bid0", 0, {"type": "bid", "n": 2})
        await p1.drain()  # the start's look for bot seats reads the match: not the move's
        seen.on = True
        out = await p1.submit(match.id, 1, "bid1", 0, {"type": "bid", "n": 1})
        seen.on = False
        assert out.applied and out.version == 2
        moves = [sql for sql in seen.sql if sql != "ROLLBACK;"]
        assert not any(sql.startswith("SELECT") for sql in moves), seen.sql
        assert len(moves) == (1 if database_url.startswith("postgresql") else 2), seen.sql
        # the seat that already moved is still refused as stale, as by the full path
        with pytest.raises(ServiceError) as err:
            await p1.submit(match.id, 0, "again", 0, {"type": "take", "n": 1})
        assert err.value.code == "stale"
    finally:
        await engines[0].dispose()


async def test_the_last_move_finishes_the_match_through_the_fast_path(database_url):
    engines, (p1,) = await services(database_url, 1)
    try:
        mid = await toy_match_at_take_phase(p1)
        version, seat = 2, 0
        while p1.cached(mid).match.status == "active":
            pile = p1.cached(mid).match.state["pile"]
            out = await p1.submit(mid, seat, f"t{version}", version,
                                  {"type": "take", "n": min(2, pile)})
            version, seat = out.version, 1 - seat
        fresh = (await p1.snapshot(mid)).match
        assert fresh.status == "finished" and fresh.result == p1.cached(mid).match.result
        assert fresh.finished_at is not None and fresh.version == version
    finally:
        await engines[0].dispose()


async def test_an_old_cache_is_answered_like_before(database_url):
    engines, (p1, p2) = await services(database_url)
    try:
        mid = await toy_match_at_take_phase(p1)
        await p2.submit(mid, 0, "elsewhere", 2, {"type": "take", "n": 1})  # p1's cache: v2
        with pytest.raises(ServiceError) as err:  # built on the version p1 still caches
            await p1.submit(mid, 1, "late", 2, {"type": "take", "n": 1})
        assert err.value.code == "stale"
        out = await p1.submit(mid, 1, "fresh", 3, {"type": "take", "n": 2})  # saw p2's view
        assert out.applied and out.version == 4
        assert [r.seq for r in await p1.actions(mid)] == [1, 2, 3, 4]
        again = await p1.submit(mid, 1, "fresh", 3, {"type": "take", "n": 2})
        assert again.duplicate and not again.applied and again.version == 4
    finally:
        for e in engines:
            await e.dispose()


async def test_a_match_ended_by_another_process_refuses_the_move(database_url):
    engines, (p1, p2) = await services(database_url)
    try:
        mid = await toy_match_at_take_phase(p1)  # p1 caches it as active at v2
        await p2.cancel(mid, "u0")
        with pytest.raises(ServiceError) as err:
            await p1.submit(mid, 0, "after-end", 2, {"type": "take", "n": 1})
        assert err.value.code == "finished"
        snap = await p2.snapshot(mid)
        assert snap.match.version == 2 and snap.match.status == "cancelled"
    finally:
        for e in engines:
            await e.dispose()


async def test_refusals_from_the_cached_path_are_the_usual_ones(database_url):
    engines, (p1,) = await services(database_url, 1)
    try:
        mid = await toy_match_at_take_phase(p1)
        for seat, action, actor, code in [
                (0, {"type": "take", "n": 5}, None, "illegal"),
                (1, {"type": "take", "n": 1}, None, "not_your_seat"),
                (0, {"type": "take", "n": 1}, "u1", "not_your_seat"),
                (0, {"type": "take", "n": 1.0}, None, "illegal")]:
            with pytest.raises(ServiceError) as err:
                await p1.submit(mid, seat, "x", 2, action, actor=actor)
            assert err.value.code == code, (action, err.value.code)
        assert (await p1.snapshot(mid)).match.version == 2
    finally:
        await engines[0].dispose()


@pytest.fixture
def pg_url(database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("a connection pool with a limit and dropped connections: PostgreSQL")
    return database_url


async def test_an_exhausted_pool_answers_busy(pg_url):
    # The match is set up through a service with an ordinary pool: with one connection and a
    # 0.2 s wait, a loaded CI machine once answered the set-up itself busy (the start's look
    # for bot seats held the connection).
    ordinary, (setup,) = await services(pg_url, 1)
    try:
        mid = await toy_match_at_take_phase(setup)
    finally:
        await ordinary[0].dispose()
    engines, (p1,) = await services(pg_url, 1, pool_size=1, max_overflow=0,
                                      pool_timeout=0.2)
    try:
        async with engines[0].connect():  # the only connection is taken
            with pytest.raises(ServiceError) as err:
                await p1.submit(mid, 0, "take", 2, {"type": "take", "n": 1})
        assert err.value.code == "busy"
        out = await p1.submit(mid, 0, "take", 2, {"type": "take", "n": 1})  # the same again
        assert out.applied and out.version == 3
    finally:
        await engines[0].dispose()


async def _terminate_backends(url: str) -> int:
    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        return len(await conn.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = $1 AND pid <> pg_backend_pid()", name))
    finally:
        await conn.close()


async def test_moves_go_on_after_postgresql_drops_every_connection(pg_url):
    engines, (p1,) = await services(pg_url, 1)
    try:
        mid = await toy_match_at_take_phase(p1)
        assert await _terminate_backends(pg_url) >= 1
        out = await p1.submit(mid, 0, "take", 2, {"type": "take", "n": 1})  # cached path
        assert out.applied and out.version == 3
        assert await _terminate_backends(pg_url) >= 1
        p1.forget(mid)  # the full path this time (it reads first)
        out = await p1.submit(mid, 1, "take2", 3, {"type": "take", "n": 1})
        assert out.applied and out.version == 4
        assert [r.seq for r in await p1.actions(mid)] == [1, 2, 3, 4]
    finally:
        await engines[0].dispose()


def _viewing(sockets: ExitStack, client, url: str, tries: int = 20):
    """A socket that has received its first view, entered on *sockets*; a 1013 refusal (the
    pool was busy while the socket connected) is answered as the table does, by connecting
    again."""
    for _ in range(tries):
        with ExitStack() as attempt:
            ws = attempt.enter_context(client.websocket_connect(url))
            try:
                while ws.receive_json()["type"] != "view":
                    pass
            except WebSocketDisconnect as closed:
                if closed.code != 1013:
                    raise
                continue
            sockets.push(attempt.pop_all())
            return ws
    raise AssertionError(f"{url} refused {tries} times")


def test_busy_reaches_that_socket_only_and_the_move_can_be_resent(pg_url):
    settings = Settings(database_url=pg_url, secret_key="test-secret", bot_delay=0,
                        db_pool_size=2, db_pool_timeout=0.2)
    with as_browser(TestClient(create_app(settings), base_url="http://testserver")) as ann:
        named(ann, "Ann")
        bob = named(new_client(ann), "Bob")
        mid = create(ann)
        bob.post(f"/m/{mid}/seat", data={"seat": "1"})
        ann.post(f"/m/{mid}/start")
        db = ann.app.state.db
        with ExitStack() as sockets:
            # A two-connection pool with a 0.2 s wait can refuse a connect on a busy machine
            # (1013, "reconnecting"): like the table, connect again.
            a, b = (_viewing(sockets, who, f"/ws/matches/{mid}") for who in (ann, bob))
            held = [ann.portal.call(db.connect) for _ in range(2)]  # the whole pool
            assert all(not c.closed for c in held)
            a.send_text(json.dumps({"type": "action", "id": "a1", "version": 0,
                                    "action": {"type": "bid", "n": 2}}))
            msg = a.receive_json()
            while msg["type"] != "error":
                msg = a.receive_json()
            assert msg["code"] == "busy" and msg["ref"] == "a1"
            for conn in held:
                ann.portal.call(conn.close)
            a.send_text(json.dumps({"type": "action", "id": "a1", "version": 0,
                                    "action": {"type": "bid", "n": 2}}))
            got = [a.receive_json() for _ in range(2)]
            assert {m["type"] for m in got} == {"view", "ack"}, got
            assert [m for m in got if m["type"] == "ack"][0]["duplicate"] is False
            seen = b.receive_json()
            while seen["type"] != "view" or seen["view"]["version"] != 1:
                assert seen["type"] != "error", seen  # Bob never sees Ann's refusal
                seen = b.receive_json()
