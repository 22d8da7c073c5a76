"""Fixtures shared by every test folder: the browser tests' ``browser`` and ``lair_server``
(tests/chromium.py); and the tree's one rule for browser tests: every Chromium test lives in
tests/browser/ and is marked ``e2e`` there (so `make test-e2e` is that folder, and the other
parts never start a browser). Browser tests get a longer hang limit than the rest
(:data:`BROWSER_TIMEOUT`)."""
from pathlib import Path

import pytest

from tests.chromium import browser, lair_server  # noqa: F401 (fixtures, registered for the tree)

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
#: Seconds a browser test may take (pyproject's ``timeout`` of 600 s is for the rest). A whole
#: match through clicks takes 1-2 minutes on an idle 2-core machine; the four parts of `make
#: test` side by side on a machine four times slower took one past 600 s (a landing CI, with
#: no hang: the stack was Playwright waiting on the page), and the thread method's ``os._exit``
#: then ended the whole browser part. A real hang still ends the run well inside CI's 90 min.
BROWSER_TIMEOUT = 1500


def pytest_collection_modifyitems(config, items):
    misplaced = []
    for item in items:
        inside = BROWSER_TESTS in Path(item.fspath).resolve().parents
        if inside:
            item.add_marker(pytest.mark.e2e)
            if not item.get_closest_marker("timeout"):
                item.add_marker(pytest.mark.timeout(BROWSER_TIMEOUT))
        elif item.get_closest_marker("e2e"):
            misplaced.append(item.nodeid)
    if misplaced:
        raise pytest.UsageError(
            "browser (e2e) tests belong in tests/browser/: " + ", ".join(misplaced))
