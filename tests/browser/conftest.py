"""Browser tests (Chromium through Playwright, tests/chromium.py). Every test here is marked
``e2e`` by tests/conftest.py. The database fixtures of the app tests are registered here too,
for the tests that serve the real app in a thread on each test database."""
from tests.app.conftest import database_url, settings  # noqa: F401 (fixtures)
