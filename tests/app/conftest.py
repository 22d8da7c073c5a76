"""Fixtures for the service tests: a fresh migrated database per test, on every backend.

``LAIR_TEST_DATABASES`` (comma list, default ``sqlite``) picks the backends; ``make test`` sets
``sqlite,postgresql`` so every database test runs on both. PostgreSQL tests use a throw-away
database created on ``LAIR_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/test``).
"""
from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path

import asyncpg
import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from engines import registry
from tests.app.toygame import TOY
from tests.csrf import as_browser

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("LAIR_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = [b.strip() for b in os.environ.get("LAIR_TEST_DATABASES", "sqlite").split(",")
            if b.strip()]

registry.register(TOY)


def release_cancelled_connections(client: TestClient) -> None:
    """Let the TestClient stop. Starlette's TestClient cancels a websocket handler when the
    test closes its socket; an aiosqlite query cancelled midway makes SQLAlchemy terminate
    that connection with a "graceful close" task that can wait forever, and the TestClient
    waits for every task of its loop. Cancel those tasks (test harness only: uvicorn does
    not cancel handlers that way)."""
    async def cancel() -> None:
        for task in asyncio.all_tasks():
            if "_terminate_graceful_close" in repr(task.get_coro()):
                task.cancel()

    if client.portal is not None:  # a test may have stopped the app itself
        client.portal.call(cancel)


def migrate(url: str) -> None:
    """Run ``alembic upgrade head`` on ``url`` (the app never creates tables itself)."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = url
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")


async def _pg(sql: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path):
    """A migrated, empty database URL (async driver) on each configured backend."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'lair.db'}"
        migrate(url)
        yield url
        return
    name = f"lair_t_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    except OSError as exc:  # no PostgreSQL here: an error in CI, a skip on a laptop
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_ADMIN} is not reachable: {exc}")
        pytest.skip(f"PostgreSQL at {PG_ADMIN} is not reachable")
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    url = f"{base}/{name}"
    try:
        migrate(url)
        yield url
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def settings(database_url) -> Settings:
    """Settings for a test app: the test database, bots that act at once. Tests move the
    service's clock by minutes at once: without a heartbeat between, the clock timer would take
    such a jump for an outage and give the time back (app/matches/outage.py), so that is off
    unless a test sets it (tests/app/matches/test_outage_clocks.py)."""
    return Settings(database_url=database_url, secret_key="test-secret", bot_delay=0,
                    clock_outage_after=1e12)


@pytest.fixture
def app(settings):
    """The application on the test database."""
    return create_app(settings)


@pytest.fixture
def client(app):
    """A TestClient (httpx-based) with the app's lifespan running."""
    with as_browser(TestClient(app, base_url="http://testserver")) as c:
        yield c
        release_cancelled_connections(c)


def new_client(client: TestClient) -> TestClient:
    """Another browser (own cookies) on the same running app and event loop as ``client``."""
    other = as_browser(TestClient(client.app, base_url="http://testserver"))
    other.portal = client.portal  # share the loop: the app's DB pool lives there
    return other


def named(client: TestClient, name: str) -> TestClient:
    """Give a client's browser a guest identity (``client`` sends CSRF tokens as a page would:
    tests.csrf.as_browser)."""
    r = client.post("/name", data={"name": name, "next": "/"}, follow_redirects=False)
    assert r.status_code == 303
    return client


def create(client: TestClient, game: str = "toy", players: int = 2, public: bool = True,
           **options) -> str:
    """Create a match from the lobby form; returns its id."""
    data = {"game": game, f"players_{game}": str(players)}
    if public:
        data["public"] = "on"
    for k, v in options.items():
        data[f"opt_{game}_{k}"] = str(v)
    r = client.post("/matches", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


@pytest.fixture
def fast_client(database_url):
    """A client on an app whose rate limits (per socket, per user) do not get in a fuzzer's
    way."""
    app = create_app(Settings(database_url=database_url, secret_key="fuzz", bot_delay=0,
                              ws_rate=1e6, ws_burst=1e6, rate_actions="0", rate_chat="0"))
    with as_browser(TestClient(app, base_url="http://testserver")) as c:
        yield c
        release_cancelled_connections(c)


#: The hints' search budget in tests: a fixed number of iterations and a fixed salt (the same
#: hint for the same view), small enough for the test box (issue 17: no timed assertions).
HINT_ITERATIONS = 12


@pytest.fixture
def hints_client(database_url):
    """A client on an app whose hints (and hard bots) search in one spawned worker process for
    :data:`HINT_ITERATIONS` iterations with a fixed salt."""
    from engines.search import Budget
    app = create_app(Settings(database_url=database_url, secret_key="test-secret", bot_delay=0,
                              clock_outage_after=1e12, bot_think_seconds=0.05, bot_workers=1))
    with as_browser(TestClient(app, base_url="http://testserver")) as c:
        # the service is built by the app's lifespan
        c.app.state.service.hints.budget = Budget(seconds=None, iterations=HINT_ITERATIONS,
                                                  salt=7)
        yield c
        release_cancelled_connections(c)
