"""Database engine and sessions (SQLAlchemy 2, async: asyncpg or aiosqlite)."""
from __future__ import annotations

import orjson
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine


def _dumps(obj: object) -> str:
    return orjson.dumps(obj).decode()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; JSON columns go through orjson (fast, exact)."""
    kwargs: dict = {"json_serializer": _dumps, "json_deserializer": orjson.loads}
    if url.startswith("postgresql"):
        kwargs.update(pool_size=20, max_overflow=20, pool_pre_ping=True)
    engine = create_async_engine(url, **kwargs)
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
