"""The desktop table header fits its words (the third new-user trial): with the host's Links
panel open, and for a spectator, at 1366x768 and 1920x1080, no part of the header is cut
(each part's scrollWidth within its clientWidth) and nothing reaches past the window."""
from __future__ import annotations

import pytest

from tests.browser.test_full_match import fill_and_start, host_new_match
from tests.chromium import ARTIFACTS, screenshot

pytestmark = pytest.mark.e2e

#: Every part of the header shown whose words are cut: its text, scrollWidth and clientWidth
#: (an element drawn with overflow hidden cuts what passes its width), and anything past the
#: window's right edge.
CUT_JS = """() => {
  const h = document.getElementById("table-header");
  const parts = [...h.querySelectorAll("*")].filter((e) => {
    const r = e.getBoundingClientRect();
    // (a closed <details>' body is laid out but not shown)
    return r.width > 0 && !e.closest("dialog, details:not([open]) > :not(summary)") && e.tagName !== "INPUT";
  });
  const cut = parts.filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible")
    .map((e) => ({id: e.id, cls: e.className && String(e.className), text: e.textContent.trim().slice(0, 80),
                  scroll: e.scrollWidth, client: e.clientWidth}));
  const past = parts.filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
    .map((e) => ({id: e.id, cls: String(e.className), right: e.getBoundingClientRect().right}));
  return {cut, past, height: h.getBoundingClientRect().height, wide: document.documentElement.scrollWidth > innerWidth};
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_desktop_header_cuts_no_words(browser, lair_server, size):
    width, height = size
    viewport = {"viewport": {"width": width, "height": height}}
    host_ctx = browser.new_context(**viewport, reduced_motion="reduce")
    watcher_ctx = browser.new_context(**viewport, reduced_motion="reduce")
    try:
        host = host_ctx.new_page()
        errors: list[str] = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host_new_match(host, lair_server, "Morgana the Magnificent", "covil", 4)
        watch = host.input_value("#watch-link")
        fill_and_start(host)
        watcher = watcher_ctx.new_page()
        watcher.on("pageerror", lambda e: errors.append(str(e)))
        watcher.goto(watch)
        watcher.wait_for_function("document.body.dataset.version !== undefined")
        host.wait_for_function("Number(document.getElementById('spectators').dataset.count) >= 1")
        host.click(".table-links > summary")  # the host opens Links, as a player would
        assert host.locator(".table-links").evaluate("d => d.open")
        got = host.evaluate(CUT_JS)
        print(f"\nhost {width}:", got)
        screenshot(host, ARTIFACTS / "layout" / f"header-links-open-{width}.png", full_page=False)
        assert got["cut"] == [] and got["past"] == [] and not got["wide"], got
        # the copy button of the open panel is whole in the window and takes the click
        copy = host.locator(".table-links button[data-copy='watch-link']")
        copy.click()
        got = watcher.evaluate(CUT_JS)
        print(f"spectator {width}:", got)
        screenshot(watcher, ARTIFACTS / "layout" / f"header-spectator-{width}.png", full_page=False)
        assert got["cut"] == [] and got["past"] == [] and not got["wide"], got
        assert errors == []
    finally:
        host_ctx.close()
        watcher_ctx.close()
