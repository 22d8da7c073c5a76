"""Deployment files (issue 2, "Dockerfile and docker-compose.yml"), checked without a Docker engine.

No Docker engine runs on the development machines (docs/design.md, "Environment facts"): the
entrypoint script is run directly, and the compose file is validated by ``docker compose config``
where the plugin exists and structurally otherwise.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database

ROOT = Path(__file__).resolve().parents[3]


def test_entrypoint_migrates_then_execs_the_command(tmp_path):
    db = tmp_path / "lair.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{db}",
           "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    out = subprocess.run([str(ROOT / "app" / "docker-entrypoint.sh"), "echo", "server-started"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("server-started")
    tables = {r[0] for r in sqlite3.connect(db).execute(
        "select name from sqlite_master where type='table'")}
    assert {"users", "matches", "seats", "actions", "chat_messages", "alembic_version"} <= tables


def test_entrypoint_gives_up_when_the_database_never_comes(tmp_path):
    env = {**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none",
           "MIGRATE_TRIES": "1", "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    out = subprocess.run([str(ROOT / "app" / "docker-entrypoint.sh"), "echo", "never"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "never" not in out.stdout


def test_compose_file_has_app_and_postgres_with_volume_and_health_checks():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    db, app = compose["services"]["db"], compose["services"]["app"]
    assert db["image"].startswith("postgres")
    assert "healthcheck" in db and "healthcheck" in app
    assert any(v.endswith(":/var/lib/postgresql/data") for v in db["volumes"])
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["environment"]["DATABASE_URL"].startswith("postgresql://")
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"],
                                                 capture_output=True).returncode == 0:
        out = subprocess.run(["docker", "compose", "config", "-q"], cwd=ROOT,
                             env={**os.environ, "SECRET_KEY": "x"}, capture_output=True)
        assert out.returncode == 0, out.stderr


def test_dockerfile_runs_as_non_root_and_migrates_on_start():
    text = (ROOT / "Dockerfile").read_text()
    assert "USER lair" in text and "docker-entrypoint.sh" in text
    for path in ("app", "engines", "migrations", "static", "templates"):
        assert f"COPY {path} " in text


@pytest.mark.parametrize("url,expected", [
    ("postgresql://u@h/db", "postgresql+asyncpg://u@h/db"),
    ("postgres://u@h/db", "postgresql+asyncpg://u@h/db"),
    ("sqlite:///./x.db", "sqlite+aiosqlite:///./x.db"),
])
def test_database_url_gets_an_async_driver(url, expected):
    from app.settings import Settings

    assert Settings(database_url=url).async_database_url == expected


def test_compose_passes_the_operators_settings_and_the_shutdown_budget_fits():
    """Only what compose lists under ``environment:`` reaches the app (its ``.env`` only fills
    those in), so the production checklist's variables must be there; and a stopping container
    must get to finish its actions: SHUTDOWN_TIMEOUT < uvicorn's graceful timeout
    (GRACEFUL_TIMEOUT) < the grace period before Docker's SIGKILL."""
    import re

    from app.settings import Settings

    app = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["app"]
    env = app["environment"]
    fields = {name.upper() for name in Settings.model_fields}
    # no misspelt, ignored variable
    assert set(env) <= fields
    for name in ("DATABASE_URL", "SECRET_KEY", "COOKIE_SECURE", "ADMIN_TOKEN", "ALLOWED_ORIGINS",
                 "WEB_CONCURRENCY", "SHUTDOWN_TIMEOUT", "FORWARDED_ALLOW_IPS", "LOG_LEVEL"):
        assert name in env, name
    shutdown = float(re.fullmatch(r"\$\{SHUTDOWN_TIMEOUT:-([\d.]+)\}", env["SHUTDOWN_TIMEOUT"])[1])
    graceful = Settings().graceful_timeout  # lair serve's (the container's command)
    grace = int(app["stop_grace_period"].rstrip("s"))
    assert shutdown == Settings().shutdown_timeout and shutdown < graceful < grace
