"""The waiting room's host controls in a real browser (issue 2 "Lobby"): cancelling a match
asks first, like resigning does (a new user found it cancelled at once)."""
from __future__ import annotations

import pytest

from tests.browser.test_full_match import host_new_match

pytestmark = pytest.mark.e2e


def test_cancel_asks_first_and_keep_keeps_the_match(lair_server, browser):
    context = browser.new_context()
    try:
        host = context.new_page()
        errors: list[str] = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host_new_match(host, lair_server, "Morgana", "covil")
        host.wait_for_selector("#invite-link")
        waiting = host.url
        dialog = host.locator("#cancel-dialog")
        host.click("#cancel")
        assert dialog.is_visible()
        host.click("#cancel-keep")  # changed her mind: nothing happens
        host.wait_for_function("!document.getElementById('cancel-dialog').open")
        assert host.url == waiting and host.locator("#start").is_visible()
        host.click("#cancel")
        host.click("#cancel-confirm")
        host.wait_for_selector("#start", state="detached")  # the page now says it is over
        host.goto(waiting)
        assert host.locator("#start").count() == 0 and host.locator("#cancel").count() == 0
        assert errors == []
    finally:
        context.close()
