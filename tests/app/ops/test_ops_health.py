"""Health and readiness (issue 8, item 1): ``/healthz`` says the process is up; ``/readyz`` says
the database answers and is at the migrations' head (the compose health check uses it)."""
from __future__ import annotations

from pathlib import Path

import yaml
from sqlalchemy import text

from app.db import make_engine
from app.ops.health import head_revisions

ROOT = Path(__file__).resolve().parents[3]


def test_healthz_and_readyz_on_a_migrated_database(client):
    assert client.get("/healthz").json() == {"ok": True}
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"ready": True, "database": "ok",
                        "migrations": ",".join(sorted(head_revisions()))}


def test_readyz_is_503_when_migrations_are_behind(client):
    async def stamp_old():
        async with client.app.state.db.begin() as conn:
            await conn.execute(text("UPDATE alembic_version SET version_num = '0000_old'"))

    client.portal.call(stamp_old)
    r = client.get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body["ready"] is False and body["migrations"] == "behind"
    assert body["database_revision"] == ["0000_old"]
    assert client.get("/healthz").status_code == 200  # up, just not ready


def test_readyz_is_503_when_the_database_is_unreachable(client):
    real = client.app.state.db
    client.app.state.db = make_engine("postgresql+asyncpg://nobody@127.0.0.1:1/none")
    try:
        r = client.get("/readyz")
        assert r.status_code == 503
        assert r.json() == {"ready": False, "database": "unreachable"}
    finally:
        client.portal.call(client.app.state.db.dispose)
        client.app.state.db = real


def test_compose_health_check_uses_readyz():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "/readyz" in " ".join(compose["services"]["app"]["healthcheck"]["test"])
    assert "/readyz" in (ROOT / "Dockerfile").read_text()
