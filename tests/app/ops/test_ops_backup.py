"""Backups (issue 8, item 5), exactly as the README's "Operations" section does them: a
``pg_dump`` restored with ``psql`` into a fresh PostgreSQL database, or a copy of the SQLite file
(``sqlite3 lair.db ".backup …"``); every match of the restore replays to the same state and the
restored site is ready."""
from __future__ import annotations

import asyncio
import shutil
import subprocess
import uuid

import pytest
from fastapi.testclient import TestClient

from app.db import make_engine, make_sessionmaker
from app.main import create_app
from app.ops.verify import verify_all
from app.settings import Settings
from tests.app.conftest import _pg
from tests.app.ops.test_ops_cli import play_two_matches
from tests.csrf import as_browser

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


def verdicts(url: str) -> dict[str, tuple]:
    async def run():
        engine = make_engine(url)
        try:
            return await verify_all(make_sessionmaker(engine))
        finally:
            await engine.dispose()

    return {v.match_id: (v.ok, v.status, v.version, v.state_hash) for v in asyncio.run(run())}


def libpq(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def test_backup_restores_and_every_match_replays_to_the_same_state(client, database_url,
                                                                   tmp_path):
    done, live = play_two_matches(client)
    client.__exit__(None, None, None)
    before = verdicts(database_url)
    assert set(before) == {done, live} and all(v[0] for v in before.values())

    if database_url.startswith("sqlite"):
        if not shutil.which("sqlite3"):
            pytest.skip("the sqlite3 command is not installed")
        source = database_url.split("///", 1)[1]
        copy = tmp_path / "restored.db"
        subprocess.run(["sqlite3", source, f".backup '{copy}'"], check=True, timeout=60)
        restored = f"sqlite+aiosqlite:///{copy}"
        cleanup = None
    else:
        for tool in ("pg_dump", "psql"):
            if not shutil.which(tool):
                pytest.skip(f"{tool} is not installed")
        dump = tmp_path / "lair-backup.sql"
        with open(dump, "wb") as f:
            subprocess.run(["pg_dump", "--no-owner", "--clean", "--if-exists",
                            "--dbname", libpq(database_url)], stdout=f, check=True, timeout=60)
        name = f"lair_restore_{uuid.uuid4().hex[:10]}"
        asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
        restored = database_url.rsplit("/", 1)[0] + f"/{name}"
        cleanup = name
        subprocess.run(["psql", "--quiet", "-v", "ON_ERROR_STOP=1", "--dbname", libpq(restored),
                        "--file", str(dump)], check=True, timeout=60, capture_output=True)
    try:
        assert verdicts(restored) == before  # same matches, statuses, versions, states
        settings = Settings(database_url=restored, secret_key="test-secret", bot_delay=0)
        with as_browser(TestClient(create_app(settings))) as c:
            assert c.get("/readyz").status_code == 200
            assert c.get(f"/matches/{done}/record").status_code == 200
    finally:
        if cleanup:
            asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{cleanup}" WITH (FORCE)'))
