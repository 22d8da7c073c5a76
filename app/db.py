"""Database engine and sessions (SQLAlchemy 2, async: asyncpg or aiosqlite)."""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import orjson
from sqlalchemy import event
from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

_LOOPBACK = {"localhost", "127.0.0.1", "::1", ""}


def json_text(obj: object) -> str:
    """The JSON text every JSON column stores (orjson: fast, exact, key order kept)."""
    return orjson.dumps(obj).decode()


def rowcount(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE run by ``AsyncSession.execute`` matched. The session is
    typed to return a plain ``Result``; for such a statement it is the ``CursorResult`` that
    counts them."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def _loopback_without_ssl_choice(url: str) -> bool:
    """True when ``url`` names this machine (or a Unix socket) and says nothing about TLS."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    if "ssl" in query or "sslmode" in query:
        return False
    host = (parts.hostname or "").lower()
    return host in _LOOPBACK or "host" in query and query["host"][0].startswith("/")


def make_engine(url: str, *, pool_size: int = 40, max_overflow: int = 0,
                pool_timeout: float = 5.0) -> AsyncEngine:
    """An async engine for ``url``; JSON columns go through orjson (fast, exact).

    PostgreSQL: a fixed pool of ``pool_size`` connections (+ ``max_overflow`` opened and closed
    per use, which costs a connect each time); an operation waits at most ``pool_timeout``
    seconds for one, then ``sqlalchemy.exc.TimeoutError`` (the service answers ``busy``).
    No ping on checkout (a round trip per use): a connection the server closed is replaced at
    checkout (asyncpg notices the hang-up without a round trip); one dropped while in use fails
    its statement, SQLAlchemy then invalidates the whole pool (every older connection is
    replaced at its next checkout) and the move path retries once. On loopback, without ``ssl``/``sslmode`` in the URL, no
    TLS handshake is attempted (asyncpg's default ``prefer`` tries it on every connect).
    """
    kwargs: dict = {"json_serializer": json_text, "json_deserializer": orjson.loads}
    if url.startswith("postgresql"):
        kwargs.update(pool_size=pool_size, max_overflow=max_overflow, pool_timeout=pool_timeout)
        if _loopback_without_ssl_choice(url):
            kwargs["connect_args"] = {"ssl": False}
    engine = create_async_engine(url, **kwargs)
    if url.startswith("postgresql"):
        @event.listens_for(engine.sync_engine, "checkout")
        def _alive(dbapi_conn, _record, _proxy):
            # Free of round trips, unlike pool_pre_ping: asyncpg marks a connection closed as
            # soon as the server hangs up (restart, pg_terminate_backend). The pool then
            # replaces it (DisconnectionError makes it retry the checkout).
            if dbapi_conn.driver_connection.is_closed():
                raise DisconnectionError("the server closed this pooled connection")
    if url.startswith("sqlite"):
        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # WAL lets readers run beside the writer
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
