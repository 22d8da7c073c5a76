"""The browser tests' own click (tests/chromium.py ``_click_through_stall``), marked ``e2e``:
a click that timed out waiting for a still element fails when the page draws frames (the
element really kept moving) and is made without the wait when the page draws none."""
from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import tests.chromium as chromium

pytestmark = pytest.mark.e2e

# a button that never stands still: Playwright's stability wait never ends
RESTLESS = """<style>@keyframes drift { from { transform: translateX(0) } to { transform: translateX(40px) } }
#b { animation: drift .3s linear infinite alternate; margin: 40px; }</style>
<button id="b" onclick="document.body.dataset.clicked = 'yes'">Go</button>"""


def test_a_click_on_a_moving_element_of_a_drawing_page_fails(browser):
    """A page that draws frames: the timeout stands (nothing is clicked)."""
    page = browser.new_page(reduced_motion="no-preference")
    page.set_content(RESTLESS)
    assert chromium._frames_flow(page)
    with pytest.raises(PlaywrightTimeout):
        page.locator("#b").click(timeout=1500)
    assert page.evaluate("document.body.dataset.clicked") is None
    page.close()


def test_a_click_on_a_page_that_draws_no_frames_is_made_without_the_wait(browser, monkeypatch):
    """A page that draws no frames (the probe stubbed: a real stall cannot be made on
    demand): the click lands, and the page's next click skips the wait."""
    probes = []

    def stalled(page):
        probes.append(page.url)
        return False

    monkeypatch.setattr(chromium, "_frames_flow", stalled)
    page = browser.new_page(reduced_motion="no-preference")
    page.set_content(RESTLESS)
    page.locator("#b").click(timeout=1500)
    assert page.evaluate("document.body.dataset.clicked") == "yes"
    assert page._lair_stalled and len(probes) == 1
    page.evaluate("delete document.body.dataset.clicked")
    page.locator("#b").click(timeout=1500)  # straight through: no 1.5 s wait first
    assert page.evaluate("document.body.dataset.clicked") == "yes"
    assert len(probes) == 2
    page.close()
