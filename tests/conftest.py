"""Fixtures shared by every test folder: the browser tests' ``browser`` and ``lair_server``
(tests/browser.py)."""
from tests.browser import browser, lair_server  # noqa: F401 (fixtures, registered for the tree)
