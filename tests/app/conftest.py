"""Fixtures for the service tests: an empty migrated database per test.

``LAIR_TEST_DATABASES`` (comma list, default ``sqlite``) picks the backends; ``make test`` sets
``sqlite,postgresql``. A database test runs on the *primary* backend (PostgreSQL, production's,
when it is listed; a part of ``make test`` that runs one backend gets the whole list in
``LAIR_TEST_LISTED_DATABASES``); a test module marked ``every_database`` -- the store's own behaviour: commits,
concurrency, restarts, migrations, backups, the lobby's queries, expiry -- runs on every listed
backend. The service above the store is the same code on both, and SQLite, the embedded
default, also serves every browser test's real server (tests/chromium.py). PostgreSQL tests use
a throw-away database created on ``LAIR_TEST_PG`` (default
``postgresql://postgres@127.0.0.1:5432/test``).
"""
from __future__ import annotations

import asyncio
import atexit
import os
import shutil
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

#: Set by ``make test`` for every database part but the first: that part runs only the tests
#: that take a database (``database_url``, directly or through a fixture); the tests that
#: take none (pages' HTML, contrast, CSRF rules, subprocess servers on their own SQLite file,
#: the OpenAPI fuzz...) would run the same way again, and ran once in each part until
#: 2026-12-06 (171 of the PostgreSQL part's 495 tests).
DATABASE_TESTS_ONLY = os.environ.get("LAIR_TEST_DATABASE_TESTS_ONLY") == "1"

#: The backend every database test runs on; the other backends run only the modules marked
#: ``every_database`` (the module docstring). Until 2026-12-07 every database test ran on both:
#: the second run of the service's tests cost ~75 CPU-s of `make test`'s ~2,160 and found
#: nothing the store tests and the browser tests' SQLite servers did not.
_LISTED = [b.strip() for b in os.environ.get("LAIR_TEST_LISTED_DATABASES", "").split(",")
           if b.strip()] or BACKENDS
PRIMARY = "postgresql" if "postgresql" in _LISTED else _LISTED[0] if _LISTED else "sqlite"


def _runs_here(item) -> bool:
    """Whether ``item`` runs in this process: a database test on a backend other than
    :data:`PRIMARY` only in an ``every_database`` module; under :data:`DATABASE_TESTS_ONLY`
    only database tests."""
    if "database_url" not in getattr(item, "fixturenames", ()):
        return not DATABASE_TESTS_ONLY
    callspec = getattr(item, "callspec", None)
    backend = callspec.params.get("database_url") if callspec else None
    return backend in (None, PRIMARY) or item.get_closest_marker("every_database") is not None


def pytest_collection_modifyitems(config, items):
    keep, drop = [], []
    for item in items:
        (keep if _runs_here(item) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


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


#: The migrated, empty database each backend's tests start from, made once per test process
#: (:func:`_migrated`): every test gets a copy (SQLite: the file; PostgreSQL: ``CREATE
#: DATABASE ... TEMPLATE``) instead of running the migrations again. Migrating per test cost
#: 0.26 s of CPU on SQLite and ~2 s of wall time on PostgreSQL, for each of the ~320 database
#: tests per backend. The migrations themselves are tested in tests/app/ops/test_migrations.py.
_MIGRATED: dict[str, str] = {}


def _pg_base() -> str:
    return PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")


def _migrated(backend: str, tmp_path_factory) -> str:
    """The path (SQLite) or database name (PostgreSQL) of this process's migrated template.
    Raises ``OSError`` when PostgreSQL is not reachable."""
    if backend not in _MIGRATED:
        if backend == "sqlite":
            path = tmp_path_factory.mktemp("migrated") / "lair.db"
            migrate(f"sqlite+aiosqlite:///{path}")
            _MIGRATED[backend] = str(path)
        else:
            name = f"lair_tmpl_{uuid.uuid4().hex[:12]}"
            asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
            # dropped when the process ends, even if migrate fails; at exit rather than by a
            # session fixture: the browser tests use these fixtures without tests/app's conftest
            atexit.register(_drop_template, name)
            migrate(f"{_pg_base()}/{name}")
            _MIGRATED[backend] = name  # only once migrated: a failed migration fails every test
    return _MIGRATED[backend]


def _drop_template(name: str) -> None:
    try:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    except OSError:  # PostgreSQL went away first: nothing to drop it from
        pass


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path, tmp_path_factory):
    """A migrated, empty database URL (async driver) on each configured backend: on SQLite a
    copy of the process's migrated template (:func:`_migrated`); on PostgreSQL the process's
    test database emptied (:func:`_pg_emptied`)."""
    if request.param == "sqlite":
        template = Path(_migrated("sqlite", tmp_path_factory))
        for suffix in ("", "-wal", "-shm"):  # the WAL is checkpointed on close; to be sure
            if Path(f"{template}{suffix}").exists():
                shutil.copyfile(f"{template}{suffix}", tmp_path / f"lair.db{suffix}")
        yield f"sqlite+aiosqlite:///{tmp_path / 'lair.db'}"
        return
    try:
        name = _pg_emptied(_migrated("postgresql", tmp_path_factory))
    except OSError as exc:  # no PostgreSQL here: an error in CI, a skip on a laptop
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_ADMIN} is not reachable: {exc}")
        pytest.skip(f"PostgreSQL at {PG_ADMIN} is not reachable")
    yield f"{_pg_base()}/{name}"


#: This process's PostgreSQL test database (:func:`_pg_emptied`), once made.
_PG_WORK: dict[str, str] = {}

#: The schema as a fingerprint: every public table's columns and types, every index, and the
#: migration stamp. A test that changed it (a downgrade, a stamp) leaves a database that is
#: not the template's: the next test gets a new copy instead of an emptied one.
_SCHEMA_SQL = """
SELECT md5(coalesce((SELECT string_agg(table_name || '.' || column_name || ':' || data_type
                                       || ':' || is_nullable || ':' || coalesce(column_default, ''),
                                       ',' ORDER BY table_name, column_name)
                     FROM information_schema.columns WHERE table_schema = 'public'), '')
           || '|' || coalesce((SELECT string_agg(indexdef, ',' ORDER BY indexdef)
                               FROM pg_indexes WHERE schemaname = 'public'), '')
           || '|' || coalesce((SELECT string_agg(version_num, ',') FROM alembic_version), ''))
"""


def _pg_emptied(template: str) -> str:
    """The name of this process's PostgreSQL test database, as the migrated ``template`` is:
    the schema unchanged (:data:`_SCHEMA_SQL`), every table but ``alembic_version`` emptied
    and its sequences restarted (``TRUNCATE … RESTART IDENTITY``), no connection left from an
    earlier test (terminated), under a new name (``ALTER DATABASE … RENAME``). A database whose
    schema a test changed is dropped and copied again from the template (``CREATE DATABASE …
    TEMPLATE``). Emptying costs a few
    milliseconds where a copy per test cost ~0.4 s of the server's CPU and ~1.4 s of wall
    time (324 tests in the PostgreSQL part). Raises ``OSError`` when PostgreSQL is not
    reachable."""
    return asyncio.run(_pg_emptied_async(template))


async def _pg_emptied_async(template: str) -> str:
    name = _PG_WORK.get("name")
    if name is None:
        name = _PG_WORK["name"] = f"lair_t_{uuid.uuid4().hex[:12]}"
        await _pg(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        atexit.register(_drop_work)
        return name
    if not await _emptied(template, name):
        await _pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await _pg(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    # A new name for each test, as each had its own database before: an earlier test's app
    # that outlived it (its fan-out listener, its pool, its sweepers reconnect in the
    # background) finds no database under the old name, instead of working in this test's.
    new = f"lair_t_{uuid.uuid4().hex[:12]}"
    for attempt in range(20):
        try:
            await _pg(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                      f" WHERE datname = '{name}'")
            await _pg(f'ALTER DATABASE "{name}" RENAME TO "{new}"')
            break
        except asyncpg.ObjectInUseError:  # something reconnected in between: again
            if attempt == 19:
                raise
            await asyncio.sleep(0.05)
    _PG_WORK["name"] = new
    return new


def _drop_work() -> None:
    if "name" in _PG_WORK:
        _drop_template(_PG_WORK["name"])


async def _emptied(template: str, name: str) -> bool:
    """Empty ``name`` as :func:`_pg_emptied` says: True, or False if its schema is not the
    template's any more (a test changed it)."""
    base = PG_ADMIN.rsplit("/", 1)[0]
    if "fingerprint" not in _PG_WORK:
        conn = await asyncpg.connect(f"{base}/{template}")
        try:
            _PG_WORK["fingerprint"] = await conn.fetchval(_SCHEMA_SQL)
        finally:
            await conn.close()
    conn = await asyncpg.connect(f"{base}/{name}")
    try:
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                           " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        if await conn.fetchval(_SCHEMA_SQL) != _PG_WORK["fingerprint"]:
            return False
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = "
                                  "'public' AND tablename <> 'alembic_version'")
        if tables:
            names = ", ".join(f'"{t["tablename"]}"' for t in tables)
            await conn.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
        return True
    finally:
        await conn.close()


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
