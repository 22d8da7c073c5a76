"""Every schema change is a migration (DESIGN.md "Folders" > migrations/)."""
from __future__ import annotations

from alembic import command
from alembic.config import Config

from tests.app.conftest import ROOT


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
