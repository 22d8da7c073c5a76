"""Every schema change is a migration (docs/design.md "Folders" > migrations/)."""
from __future__ import annotations

import pytest
from alembic import command
from alembic.config import Config

from tests.app.conftest import ROOT

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


def test_models_match_the_migrations(database_url):
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = database_url
    cfg.attributes["configure_logger"] = False
    command.check(cfg)  # raises if autogenerate would find differences


def test_downgrade_to_base_and_back(database_url):
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = database_url
    cfg.attributes["configure_logger"] = False
    command.downgrade(cfg, "base")
    command.upgrade(cfg, "head")


def test_processes_started_together_on_a_new_postgresql_database_all_migrate(database_url):
    """Several processes started at once (``make run PORT=8001`` and ``PORT=8002``, or containers)
    each run ``alembic upgrade head`` on the same new database: the upgrades take turns (an
    advisory lock) instead of racing to create the same tables and failing."""
    import asyncio
    import os
    import subprocess
    import sys

    import asyncpg
    import pytest

    if not database_url.startswith("postgresql"):
        pytest.skip("one process only on SQLite")
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = database_url
    cfg.attributes["configure_logger"] = False
    command.downgrade(cfg, "base")

    async def drop_version_table() -> None:  # now as new as a fresh database
        conn = await asyncpg.connect(database_url.replace("+asyncpg", ""))
        try:
            await conn.execute("DROP TABLE alembic_version")
        finally:
            await conn.close()

    asyncio.run(drop_version_table())
    env = {**os.environ, "DATABASE_URL": database_url}
    procs = [subprocess.Popen([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=ROOT,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for _ in range(3)]
    outs = [p.communicate(timeout=120)[0].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    command.check(cfg)  # at head, and the schema is the models'


def _config(database_url: str, *x: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = database_url
    cfg.attributes["configure_logger"] = False
    if x:
        import argparse

        cfg.cmd_opts = argparse.Namespace(x=list(x))
    return cfg


def test_the_migrations_have_a_single_head():
    """Several sessions add migrations at once: two of them on the same parent would leave two
    heads, and ``alembic upgrade head`` would refuse to run (merge them, or rebase one)."""
    from alembic.script import ScriptDirectory

    heads = ScriptDirectory.from_config(_config("sqlite://")).get_heads()
    assert len(heads) == 1, heads


def _every_kind(database_url: str) -> None:
    """A row in every table with every column set away from its default: the JSON objects'
    keys deliberately not sorted (jsonb would sort them)."""
    import asyncio
    from datetime import datetime, timezone

    from sqlalchemy import insert
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.models import (
        ActionRow,
        ChatMessage,
        Heartbeat,
        HintUseRow,
        Match,
        RateWindow,
        Record,
        Seat,
        SeatGrant,
        User,
    )

    at = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
    rows = [
        (User, [{"id": "u1", "name": "Ann", "created_at": at},
                {"id": "u2", "name": "Bob", "created_at": at},
                {"id": "u3", "name": "Ann's phone", "created_at": at}]),
        (Match, [{"id": "m1", "game": "toy", "engine_version": 1, "options": {"z": 1, "a": 2},
                  "seed": 2**40, "players": 2, "status": "active", "version": 2,
                  "state": {"pile": 5, "bids": [1, 2], "log": [{"text": "x", "to": None}]},
                  "result": {"ranks": [[0], [1]], "a": None}, "host_id": "u1", "public": False,
                  "invite_token": "inv", "watch_token": "wat", "created_at": at,
                  "updated_at": at, "finished_at": at, "settings": {"turn": 60, "bank": 300},
                  "clocks": {"since": {"0": 1.5}, "bank": {"0": 30}}, "deadline": at,
                  "spectator_chat_open": True, "rematch_of": None},
                 {"id": "m2", "game": "toy", "engine_version": 1, "options": {}, "seed": 3,
                  "players": 2, "status": "open", "version": 0, "state": None, "result": None,
                  "host_id": "u1", "public": True, "invite_token": "inv2", "watch_token": "wat2",
                  "created_at": at, "updated_at": at, "finished_at": None, "settings": None,
                  "clocks": None, "deadline": None, "spectator_chat_open": False,
                  "rematch_of": "m1"}]),
        (Seat, [{"match_id": "m1", "seat": 0, "user_id": "u1", "bot": None,
                 "away_user_id": None, "rejoin_hash": "a" * 64, "player_id": "u3",
                 "resigned_at": at, "replace_votes": {"voters": [1], "since": 1.5},
                 "away_since": 1764590400.25},
                {"match_id": "m1", "seat": 1, "user_id": None, "bot": "random",
                 "away_user_id": "u2", "rejoin_hash": "b" * 64, "player_id": None,
                 "resigned_at": None, "replace_votes": None, "away_since": None}]),
        (SeatGrant, [{"match_id": "m1", "seat": 0, "user_id": "u3", "created_at": at},
                     {"match_id": "m1", "seat": 1, "user_id": "u1", "created_at": at}]),
        (ActionRow, [{"match_id": "m1", "seq": 1, "seat": 0, "action_id": "a1",
                      "action": {"type": "bid", "n": 3}, "irreversible": True, "undo": False,
                      "created_at": at},
                     {"match_id": "m1", "seq": 2, "seat": 1, "action_id": "a2",
                      "action": {"type": "undo"}, "irreversible": False, "undo": True,
                      "created_at": at}]),
        (ChatMessage, [{"id": 1, "match_id": "m1", "user_id": "u1", "name": "Ann",
                        "text": "hello table", "channel": "table", "created_at": at},
                       {"id": 2, "match_id": "m1", "user_id": "u2", "name": "Bob",
                        "text": "psst, spectators", "channel": "spectators",
                        "created_at": at}]),
        (Record, [{"id": "r1", "digest": "d" * 64, "game": "toy", "engine_version": 1,
                   "options": {"z": 1}, "seed": 7, "players": 2,
                   "actions": [[0, {"type": "bid", "n": 1}]], "seats": [{"name": "A"}],
                   "result": {"ranks": [[0]]}, "final_hash": "f" * 64, "uploader_id": "u1",
                   "hints": [{"seat": 1, "version": 0, "at": None}], "created_at": at}]),
        (HintUseRow, [{"id": 1, "match_id": "m1", "seat": 0, "version": 1, "log_at": 3,
                       "created_at": at},
                      {"id": 2, "match_id": "m1", "seat": 1, "version": 2, "log_at": None,
                       "created_at": at}]),
        # the limits' windows, a per-address quota among them (records per day)
        (RateWindow, [{"key": "LIMITER/records/10.0.0.1/100/1/day", "count": 99,
                       "expires_at": 1764590400.5},
                      {"key": "LIMITER/chat/u1/30/1/minute", "count": 3,
                       "expires_at": 1764504060.25}]),
        (Heartbeat, [{"id": 1, "beat_at": 1764504000.75}]),
    ]

    async def fill() -> None:
        engine = create_async_engine(database_url)
        async with engine.begin() as conn:
            for model, values in rows:
                await conn.execute(insert(model), values)
        await engine.dispose()

    asyncio.run(fill())


def _every_kind_heartbeat(database_url: str) -> None:
    """The heartbeat row of :func:`_every_kind` again (a downgrade below 0008 drops it)."""
    import asyncio

    from sqlalchemy import insert
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.models import Heartbeat

    async def fill() -> None:
        engine = create_async_engine(database_url)
        async with engine.begin() as conn:
            await conn.execute(insert(Heartbeat), [{"id": 1, "beat_at": 1764504000.75}])
        await engine.dispose()

    asyncio.run(fill())


def _dump(database_url: str) -> dict[str, list[str]]:
    """Every table's rows (at head), in key order, as text (so a reordered JSON object differs)."""
    import asyncio

    from sqlalchemy import select
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.models import Base

    async def read() -> dict[str, list[str]]:
        engine = create_async_engine(database_url)
        out = {}
        async with engine.connect() as conn:
            for table in Base.metadata.sorted_tables:
                rows = await conn.execute(select(table).order_by(*table.primary_key.columns))
                out[table.name] = [repr(tuple(r)) for r in rows]
        await engine.dispose()
        return out

    return asyncio.run(read())


def test_a_downgrade_and_upgrade_lose_nothing_or_the_downgrade_refuses(database_url,
                                                                       monkeypatch):
    """Issue 13, item 12: upgrade → downgrade → upgrade on a database holding data of every
    kind gives back every row as it was (imported records, the spectators' private chat, the
    pace, the undo flags...). A downgrade that cannot give the data back refuses with a message
    unless forced (``-x force=1`` or ``LAIR_DOWNGRADE_FORCE=1``): on PostgreSQL the one that
    turns JSON back into jsonb (key order), everywhere the one that drops every table."""
    import pytest

    from app.ops.downgrade import FORCE_ENV, LossyDowngrade

    monkeypatch.delenv(FORCE_ENV, raising=False)
    _every_kind(database_url)
    before = _dump(database_url)
    assert before["records"] and before["chat_messages"] and before["hint_uses"]
    postgres = database_url.startswith("postgresql")
    # as far down as the data can go and come back: on SQLite the first migration's schema
    lowest = "0004_json_not_jsonb" if postgres else "413263c5d6f9"
    command.downgrade(_config(database_url), lowest)
    command.upgrade(_config(database_url), "head")
    # All but the heartbeat, dropped on purpose (0008's docstring: the older code beats none;
    # a kept beat would give running clocks the time the older code served). The rate windows
    # come back: a rollback must not reset an address's upload quota.
    after = _dump(database_url)
    assert after["heartbeats"] == [] and after["rate_windows"] == before["rate_windows"]
    assert {**after, "heartbeats": before["heartbeats"]} == before
    command.check(_config(database_url))  # nothing kept aside is left over
    _every_kind_heartbeat(database_url)
    # one step further refuses, and says how to force it
    further = "0003_seat_away_user" if postgres else "base"
    with pytest.raises(LossyDowngrade, match="would lose .*force=1"):
        command.downgrade(_config(database_url), further)
    assert _dump(database_url) == before  # the refused downgrade changed nothing
    command.downgrade(_config(database_url, "force=1"), further)
    command.upgrade(_config(database_url), "head")
    if not postgres:  # forced: everything is gone
        assert _dump(database_url)["users"] == []
    monkeypatch.setenv(FORCE_ENV, "1")
    command.downgrade(_config(database_url), "base")


def test_the_seat_index_migration_frees_a_users_extra_seats(database_url):
    """Issue 13, item 6: 0009_atomic_seats cleans up the rows that break "one seat per user per
    match" before it adds the unique index: the user keeps their lowest seat; the others are
    freed with their link, device and grants (in a running match a ``random`` bot plays the
    freed seat, so the table does not stall). Other seats are left as they were."""
    import asyncio
    from datetime import datetime, timezone

    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    at = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
    command.downgrade(_config(database_url), "0007_seat_grants")

    def seat(m, n, user, **kw):
        return {"match_id": m, "seat": n, "user_id": user, "bot": None, "away_user_id": None,
                "rejoin_hash": None, "player_id": None, "resigned_at": None,
                "replace_votes": None, **kw}

    async def run(fill: bool):
        engine = create_async_engine(database_url)
        meta = sa.MetaData()
        async with engine.begin() as conn:
            await conn.run_sync(meta.reflect)
            t = meta.tables
            if fill:
                await conn.execute(sa.insert(t["users"]), [
                    {"id": u, "name": u, "created_at": at} for u in ("u1", "u2", "u3")])
                await conn.execute(sa.insert(t["matches"]), [
                    {"id": m, "game": "toy", "engine_version": 1, "options": {}, "seed": 1,
                     "players": 3, "status": status, "version": 0, "host_id": "u1",
                     "public": True, "invite_token": f"i{m}", "watch_token": f"w{m}",
                     "created_at": at, "updated_at": at, "spectator_chat_open": False}
                    for m, status in (("open", "open"), ("run", "active"))])
                await conn.execute(sa.insert(t["seats"]), [
                    seat("open", 0, "u2"), seat("open", 1, "u1"),
                    seat("open", 2, "u2", rejoin_hash="h" * 64, player_id="u3"),
                    seat("run", 0, "u1"), seat("run", 1, "u1"), seat("run", 2, "u2")])
                await conn.execute(sa.insert(t["seat_grants"]), [
                    {"match_id": "open", "seat": 2, "user_id": "u3", "created_at": at},
                    {"match_id": "run", "seat": 0, "user_id": "u3", "created_at": at}])
                out = None
            else:
                s = t["seats"]
                out = ([tuple(r) for r in await conn.execute(sa.select(
                    s.c.match_id, s.c.seat, s.c.user_id, s.c.bot, s.c.rejoin_hash,
                    s.c.player_id).order_by(s.c.match_id, s.c.seat))],
                       [tuple(r) for r in await conn.execute(sa.select(
                           t["seat_grants"].c.match_id, t["seat_grants"].c.seat))])
        await engine.dispose()
        return out

    asyncio.run(run(True))
    command.upgrade(_config(database_url), "head")
    seats, grants = asyncio.run(run(False))
    assert seats == [("open", 0, "u2", None, None, None), ("open", 1, "u1", None, None, None),
                     ("open", 2, None, None, None, None),
                     ("run", 0, "u1", None, None, None), ("run", 1, None, "random", None, None),
                     ("run", 2, "u2", None, None, None)]
    assert grants == [("run", 0)]
    command.check(_config(database_url))
