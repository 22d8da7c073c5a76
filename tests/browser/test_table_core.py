"""The table's game-independent parts in Chromium (issue 14, items 6, 7, 11), against the mock
server of tests/browser/mock_server.py (the real templates/table.html, static/js and lair.css).

- Item 7: the prompt bar takes at most a quarter of the window at 1366×768 and 375×812, also with
  its menu of many choices open; a choice in the menu is played by clicking it; the phone header
  takes at most 15 % of the screen height.
- Item 6: when the viewer's prompt arrives, the place where they decide is scrolled into view.
- Item 11: the presence dots turn grey while the page's connection is lost, and the prompt does
  not promise that moves are queued.
Screenshots: tests/browser/artifacts/table-core/.
"""
from __future__ import annotations

import json
import urllib.request

import pytest

from tests.chromium import ARTIFACTS, screenshot

pytestmark = pytest.mark.e2e

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 768}},
         "phone": {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2,
                   "is_mobile": True, "has_touch": True}}
SHOTS = ARTIFACTS / "table-core"


def post(url: str) -> dict:
    req = urllib.request.Request(url, data=b"", method="POST")
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read())


def open_page(browser, url: str, size: str, init_script: str | None = None):
    ctx = browser.new_context(**SIZES[size])
    if init_script:
        ctx.add_init_script(init_script)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(url)
    from playwright.sync_api import expect
    expect(page.locator("body")).to_have_attribute("data-ws", "open")
    page.wait_for_function("document.body.dataset.version !== undefined")
    return page


BAR_SHARE_JS = """() => {
  const r = document.getElementById("prompt-bar").getBoundingClientRect();
  return Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_prompt_bar_keeps_to_a_quarter_and_many_choices_go_into_one_menu(browser, mock_url, size):
    post(mock_url + "/mock/reset")
    page = open_page(browser, mock_url + "/m/f1?seat=0", size)  # fallback: 12 unclaimed actions
    try:
        height = page.viewport_size["height"]
        menu = page.locator("#prompt-actions details.action-menu")
        # Pass, Shout and Gamble stay buttons; the nine cells wait in one menu.
        from playwright.sync_api import expect
        expect(menu.locator("summary")).to_have_text("Choose: 9 choices")
        assert page.evaluate(BAR_SHARE_JS) <= height / 4
        screenshot(page, SHOTS / f"prompt-menu-closed-{size}.png", full_page=False)
        menu.locator("summary").click()
        expect(menu).to_have_attribute("open", "")
        assert page.evaluate(BAR_SHARE_JS) <= height / 4, "the open menu grew the bar"
        screenshot(page, SHOTS / f"prompt-menu-open-{size}.png", full_page=False)
        choice = menu.locator("button", has_text="Claim cell 5")
        choice.scroll_into_view_if_needed()
        choice.click()
        cells = page.locator("#board .fb-panel[data-key='cells'] dd[data-key='c5']")
        expect(cells).to_have_text("0")
        if size == "phone":
            header = page.evaluate("document.getElementById('table-header').getBoundingClientRect().height")
            assert header <= 0.15 * height, f"the phone header takes {header} px of {height}"
        assert page.js_errors == []
    finally:
        page.context.close()


# The mock board sits far below the fold (a tall block above it), as a long board or a phone's
# seat panels would put it.
PUSH_BOARD_DOWN = """document.addEventListener("DOMContentLoaded", () => {
  const s = document.createElement("style");
  s.textContent = "#board { padding-top: 1600px; }";
  document.head.append(s);
});"""

IN_VIEW_JS = """(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const bar = document.getElementById("prompt-bar").getBoundingClientRect();
  return r.top >= 0 && r.bottom <= Math.min(innerHeight, bar.top) + 1;
}"""


def test_the_place_to_decide_comes_into_view_when_the_prompt_arrives(browser, mock_url):
    post(mock_url + "/mock/reset")
    page = open_page(browser, mock_url + "/m/m1?seat=1", "phone", PUSH_BOARD_DOWN)
    alice = open_page(browser, mock_url + "/m/m1?seat=0", "desktop")
    try:
        from playwright.sync_api import expect
        page.evaluate("window.scrollTo(0, 0)")
        assert not page.evaluate(IN_VIEW_JS, ".mock-grid")
        # Alice plays a cell with a click; Bob's turn comes and his board is brought into view.
        alice.locator("#board [data-cell='c0']").click()
        expect(page.locator("body")).to_have_attribute("data-your-turn", "true")
        page.wait_for_function(f"({IN_VIEW_JS})('#board [data-action]')")
        screenshot(page, SHOTS / "decision-in-view-phone.png", full_page=False)
        assert page.js_errors == [] and alice.js_errors == []
    finally:
        page.context.close()
        alice.context.close()


def test_presence_is_unknown_and_no_move_is_promised_while_offline(browser, mock_url):
    post(mock_url + "/mock/reset")
    page = open_page(browser, mock_url + "/m/m1?seat=0", "desktop")
    try:
        from playwright.sync_api import expect
        expect(page.locator(".seat-panel[data-seat='0'] .dot.online")).to_have_count(1)
        expect(page.locator(".seat-panel[data-seat='1'] .dot.offline")).to_have_count(1)
        post(mock_url + "/mock/refuse?count=1000")  # the server stays unreachable
        post(mock_url + "/mock/drop")
        expect(page.locator("#seats .dot.unknown")).to_have_count(2)
        expect(page.locator("#seats .dot.online")).to_have_count(0)
        assert page.locator(".seat-panel[data-seat='0'] .dot").get_attribute("title").startswith("Unknown")
        text = page.locator("#prompt-text").inner_text()
        assert "no move can be sent" in text and "resume" not in text and "queued" not in text
        screenshot(page, SHOTS / "offline-presence.png", full_page=False)
        post(mock_url + "/mock/reset")  # the server is back: a click on the badge reconnects
        expect(page.locator("#conn")).to_have_attribute("data-state", "closed")
        page.locator("#conn").click()
        expect(page.locator("body")).to_have_attribute("data-ws", "open", timeout=15_000)
        expect(page.locator(".seat-panel[data-seat='0'] .dot.online")).to_have_count(1)
        expect(page.locator("#seats .dot.unknown")).to_have_count(0)
    finally:
        page.context.close()
