"""Browser tests (Chromium through Playwright, tests/chromium.py). Every test here is marked
``e2e`` by tests/conftest.py. The database fixtures of the app tests are registered here too,
for the tests that serve the real app in a thread on each test database."""
import pytest

from tests.app.conftest import database_url, settings  # noqa: F401 (fixtures)
from tests.chromium import lair_process, serve_in_thread


@pytest.fixture(scope="module")
def mock_url():
    """The mock server (tests/browser/mock_server.py: the real table page, static/js and
    lair.css against a scripted socket) in a uvicorn thread, one per test module."""
    from tests.browser.mock_server import create_app
    with serve_in_thread(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def lair_hints(tmp_path_factory):
    """The real site in its own process, one per test module; hard searches (and so hints)
    think 50 ms of CPU in one worker."""
    with lair_process(tmp_path_factory.mktemp("db") / "lair.db", BOT_THINK_SECONDS="0.05",
                      BOT_WORKERS="1") as url:
        yield url
