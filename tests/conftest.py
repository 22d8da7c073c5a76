"""Fixtures shared by every test folder: the browser tests' ``browser`` and ``lair_server``
(tests/chromium.py); and the tree's one rule for browser tests: every Chromium test lives in
tests/browser/ and is marked ``e2e`` there (so `make test-e2e` is that folder, and the other
parts never start a browser)."""
from pathlib import Path

import pytest

from tests.chromium import browser, lair_server  # noqa: F401 (fixtures, registered for the tree)

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(config, items):
    misplaced = []
    for item in items:
        inside = BROWSER_TESTS in Path(item.fspath).resolve().parents
        if inside:
            item.add_marker(pytest.mark.e2e)
        elif item.get_closest_marker("e2e"):
            misplaced.append(item.nodeid)
    if misplaced:
        raise pytest.UsageError(
            "browser (e2e) tests belong in tests/browser/: " + ", ".join(misplaced))
