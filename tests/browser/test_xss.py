"""Names and chat are escaped everywhere (issue 6, section 3 "Security"), in a real browser.

Two guests named with HTML that would run script if it were ever parsed as markup meet in the
lobby, the waiting room and at the table (seat panels, log), and chat with script tags. No
dialog opens, no injected handler runs, no injected element exists, and the text shows
literally. ``window.a`` (installed before any page script) records a run of an injected
``onerror=a()`` / ``onload=a()`` handler.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.test_full_match import name_yourself

pytestmark = pytest.mark.e2e

HOST = "<svg onload=a()>"
GUEST = "<img src=x onerror=a()>"
CHATS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"]
TRAP = "window.__xss = 0; window.a = () => { window.__xss += 1; };"


def _clean(page, dialogs: list) -> None:
    assert dialogs == []
    assert page.evaluate("window.__xss") == 0
    assert page.locator("svg[onload], img[onerror], script:not([src]):has-text('alert')"
                        ).count() == 0


def test_html_in_names_and_chat_shows_literally_and_never_runs(lair_server, browser):
    pages, dialogs = [], []
    for _ in range(2):
        context = browser.new_context()
        context.add_init_script(TRAP)
        page = context.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        pages.append(page)
    host, guest = pages
    host.goto(lair_server + "/")
    name_yourself(host, HOST)
    host.check("input[name=game][value=evil_corp]")
    host.select_option("#players-evil_corp", "2")
    host.click("#create")
    host.wait_for_url(re.compile(r"/m/\w+"))
    mid = host.url.rsplit("/", 1)[1]
    guest.goto(lair_server + "/")
    name_yourself(guest, GUEST)
    guest.wait_for_selector(f"text={HOST}")  # the lobby lists the host's match by name
    _clean(guest, dialogs)
    guest.goto(f"{lair_server}/m/{mid}")
    guest.click("#take-1")
    # the waiting room reloads itself when the seats change (no reload of ours to race it)
    host.wait_for_selector(f"text={GUEST}")
    host.wait_for_load_state()
    _clean(host, dialogs)
    host.click("#start")
    for page in pages:
        page.goto(f"{lair_server}/m/{mid}")
        page.wait_for_selector("#chat-input")
    for text in CHATS:
        guest.fill("#chat-input", text)
        guest.press("#chat-input", "Enter")
    for page in pages:
        for text in CHATS + [HOST, GUEST]:  # chat, seat panels and log show the text itself
            page.get_by_text(text, exact=False).filter(visible=True).first.wait_for()
        assert all(t in page.inner_text("body") for t in CHATS + [HOST, GUEST])
        _clean(page, dialogs)
    for page in pages:
        page.context.close()
