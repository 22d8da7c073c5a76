"""The table's game-independent parts in Chromium (issue 14, items 6, 7, 11), against the mock
server of tests/browser/mock_server.py (the real templates/table.html, static/js and lair.css).

- Item 7: the prompt bar takes at most a quarter of the window at 1366×768 and 375×812, also with
  its menu of many choices open; a choice in the menu is played by clicking it; the phone header
  takes at most 15 % of the screen height. The bar is a status bar at the top of the table (BGA's
  place): the board starts below it, it sticks to the top of the window while the page scrolls,
  and it hides when it has nothing to offer (a spectator, a finished match) but its toasts.
- Item 6: when the viewer's prompt arrives, the place where they decide is scrolled into view,
  below the prompt bar; when the match ends, the result panel.
- Item 11: the presence dots turn grey while the page's connection is lost, and the prompt does
  not promise that moves are queued.
Screenshots: tests/browser/artifacts/table-core/.
"""
from __future__ import annotations

import json
import re
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
        # Pass, Shout and Gamble stay buttons; the nine cells wait in one menu. (A phone keeps its
        # buttons to one row: what does not fit it joins the menu, "10 more".)
        from playwright.sync_api import expect
        if size == "desktop":
            expect(menu.locator("summary")).to_have_text("Choose: 9 choices")
        else:
            expect(menu.locator("summary")).to_have_text(re.compile(r"^(9|10|11) more$"))
            assert page.locator("#prompt-actions > button", has_text="Pass").is_visible()
        assert page.evaluate(BAR_SHARE_JS) <= height / 4
        screenshot(page, SHOTS / f"prompt-menu-closed-{size}.png", full_page=False)
        menu.locator("summary").click()
        expect(menu).to_have_attribute("open", "")
        assert page.evaluate(BAR_SHARE_JS) <= height / 4, "the open menu grew the bar"
        screenshot(page, SHOTS / f"prompt-menu-open-{size}.png", full_page=False)
        if size == "phone":  # a compact sheet below the bar: both within a quarter of the screen
            sheet = menu.locator(".action-menu-body").bounding_box()
            bar = page.locator("#prompt-bar").bounding_box()
            assert sheet["y"] >= bar["y"] + bar["height"] - 1, (sheet, bar)
            assert sheet["y"] + sheet["height"] - bar["y"] <= height / 4 + 0.5, (sheet, bar)
        choice = menu.locator("button", has_text="Claim cell 5")
        choice.scroll_into_view_if_needed()  # (the menu scrolls inside)
        choice.click()
        cells = page.locator("#board .fb-panel[data-key='cells'] dd[data-key='c5']")
        expect(cells).to_have_text("0")
        if size == "phone":
            header = page.evaluate("document.getElementById('table-header').getBoundingClientRect().height")
            assert header <= 0.15 * height, f"the phone header takes {header} px of {height}"
        assert page.js_errors == []
    finally:
        page.context.close()


GEOMETRY_JS = """() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
                        return {top: r.top, bottom: r.bottom, height: r.height}; };
  const bar = document.getElementById("prompt-bar");
  // (a phone's sticky block: the scores, the bar and the last move; no box on desktops)
  return {bar: box("prompt-bar"), block: box("table-top"), board: box("board"), header: box("table-header"),
          shown: getComputedStyle(bar).display !== "none",
          text: document.getElementById("prompt-text").innerText,
          toasts: [...bar.querySelectorAll(".toast")].map((t) => t.innerText)};
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_status_bar_sits_above_the_board_and_hides_with_nothing_to_offer(browser, mock_url, size):
    post(mock_url + "/mock/reset")
    alice = open_page(browser, mock_url + "/m/m1?seat=0", size)
    watcher = open_page(browser, mock_url + "/m/m1", size)
    try:
        from playwright.sync_api import expect
        height = alice.viewport_size["height"]
        g = alice.evaluate(GEOMETRY_JS)
        # At the top of the table, under the header, above the board: no part of the board under it.
        assert g["shown"] and g["bar"]["top"] >= g["header"]["bottom"] - 1, g
        assert g["bar"]["bottom"] <= g["board"]["top"] + 1, g
        assert g["bar"]["height"] <= height / 4, g
        screenshot(alice, SHOTS / f"status-bar-top-{size}.png", full_page=False)
        if size == "phone":  # the header and the bar together leave the board most of the screen
            # (the mock page also shows its "another device" and "bot plays your seat" notices)
            assert g["header"]["height"] <= 0.15 * height, g
            assert g["header"]["height"] + g["bar"]["height"] <= 0.4 * height, g
            # ... also with a spectator, shown as an eye and their number (item 7)
            expect(alice.locator("#spectators")).to_have_attribute("data-count", "1")
            expect(alice.locator("#spectators .spect-eye")).to_be_visible()
            assert alice.locator("#spectators").inner_text().strip() == "1"
            assert alice.locator("#spectators").get_attribute("aria-label") == "1 spectator watching"
            g = alice.evaluate(GEOMETRY_JS)
            assert g["header"]["height"] <= 0.15 * height, g
        else:
            expect(alice.locator("#spectators")).to_have_text("1 watching")
        # Scrolled down, it sticks to the top of the window (the board scrolls up beneath it);
        # on a phone with the scores and the last move, as one block (test_phone_bars.py).
        at = g["bar"]["top"]
        alice.evaluate(f"window.scrollTo(0, {at + 150})")
        if alice.evaluate("scrollY") > at:  # (the page is tall enough to scroll past it)
            g = alice.evaluate(GEOMETRY_JS)
            stuck = g["block"] if size == "phone" else g["bar"]
            assert abs(stuck["top"]) <= 1 and g["bar"]["top"] >= stuck["top"] - 0.5, g
        alice.evaluate("window.scrollTo(0, 0)")
        # A spectator has nothing to do: no bar over the board, the header says whose turn it is.
        w = watcher.evaluate(GEOMETRY_JS)
        assert not w["shown"] and w["bar"]["height"] == 0, w
        # ... but a message for the table is still shown (the bar shows its toasts only).
        post(mock_url + "/mock/notice?text=" + urllib.request.quote("Bob resigned."))
        expect(watcher.locator("#toasts .toast")).to_have_text(re.compile("Bob resigned"))
        w = watcher.evaluate(GEOMETRY_JS)
        assert w["shown"] and not watcher.locator("#prompt-text").is_visible(), w
        # Alice plays a cell by a click: her bar says whom the table waits for (it stays, so the
        # board does not jump when her turn comes back).
        alice.locator("#board [data-cell='c0']").click()
        expect(alice.locator("body")).to_have_attribute("data-your-turn", "false")
        expect(alice.locator("#prompt-text")).to_contain_text("Waiting")
        # Bob is a person: his panel says it is his move, not that he is "Thinking…" (bots think)
        expect(alice.locator(".seat-panel[data-seat='1'] .seat-waiting")).to_have_text("Their move")
        # A finished match: the result panel says so, the bar goes but for its toasts, which a
        # click dismisses.
        post(mock_url + "/mock/finish")
        expect(alice.locator("body")).to_have_attribute("data-finished", "true")
        expect(alice.locator("#prompt-text")).to_be_hidden()
        for close in alice.locator("#toasts .toast-close").all():
            close.click()
        expect(alice.locator("#prompt-bar")).to_be_hidden()
        assert alice.js_errors == [] and watcher.js_errors == []
    finally:
        alice.context.close()
        watcher.context.close()


def test_thinking_is_said_of_bots_only(browser, mock_url):
    """Review item 10: "Thinking…" stands beside a bot whose move it is, never a person."""
    post(mock_url + "/mock/reset")
    alice = open_page(browser, mock_url + "/m/t3?seat=0", "desktop")  # seat 2: a bot
    try:
        from playwright.sync_api import expect
        alice.locator("#board [data-cell='c4']").click()  # Alice plays; the bot's move now
        expect(alice.locator(".seat-panel[data-seat='1'] .badge-bot")).to_have_count(1)
        expect(alice.locator(".seat-panel[data-seat='1'] .seat-waiting")).to_have_text("Thinking…")
        assert alice.locator(".seat-panel .seat-waiting", has_text="Thinking").count() == 1
        assert alice.js_errors == []
    finally:
        alice.context.close()


def test_a_tie_the_tiebreak_decided_names_who_won_it(browser, mock_url):
    """Review item 10: equal scores on different places say who won the tie and by which rule
    (the game's own tiebreak words), not only the rule."""
    post(mock_url + "/mock/reset")
    alice = open_page(browser, mock_url + "/m/m1?seat=0", "desktop")
    try:
        from playwright.sync_api import expect
        post(mock_url + "/mock/finish")  # nobody claimed a cell: 0 to 0, Alice first by the tiebreak
        expect(alice.locator("#result .tiebreak")).to_contain_text("Alice <b> and Bob tie on 0: Alice <b> ranks ahead by the tiebreak. (most gold)")
        assert alice.js_errors == []
    finally:
        alice.context.close()


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
  return r.top >= Math.max(0, bar.bottom) - 1 && r.bottom <= innerHeight + 1;
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
        # The match ends while Bob looks at his board far down the page: the result panel (at
        # the top of the table) comes into view.
        assert not page.evaluate(IN_VIEW_JS, "#result")
        post(mock_url + "/mock/finish")
        expect(page.locator("body")).to_have_attribute("data-finished", "true")
        page.wait_for_function(f"({IN_VIEW_JS})('#result')")
        screenshot(page, SHOTS / "result-in-view-phone.png", full_page=False)
        assert page.js_errors == [] and alice.js_errors == []
    finally:
        page.context.close()
        alice.context.close()


def test_bringing_the_place_into_view_never_leaves_the_header_half_shown(browser, mock_url):
    """The fifth new-user trial (375×812): the table scrolled a place to decide into view by a
    few pixels less than the header's height, and the phone header stayed half out of the
    window (top -19 / -38 px). With the board's grid 10 px below the window when Bob's prompt
    arrives (its cells small: a short scroll brings them in), the table scrolls until the bar
    sticks: the headers above it wholly out of the window, the grid in view below the bar."""
    post(mock_url + "/mock/reset")
    page = open_page(browser, mock_url + "/m/m1?seat=1", "phone")
    alice = open_page(browser, mock_url + "/m/m1?seat=0", "desktop")
    try:
        from playwright.sync_api import expect
        page.evaluate("window.scrollTo(0, 0)")
        # (set-up, not a move: the grid's cells made small and the board pushed down so that
        # the first cell to click ends 10 px below the window: a short scroll brings it in)
        page.evaluate("""() => {
          const s = document.createElement("style");
          s.textContent = ".mock-cell { height: 24px !important; min-height: 0 !important; }";
          document.head.append(s);
          const cell = document.querySelector("#board [data-cell='c1']").getBoundingClientRect();
          document.getElementById("board").style.paddingTop = `${Math.max(0, innerHeight + 10 - cell.bottom)}px`;
        }""")
        header = page.locator("#table-header").bounding_box()
        assert header["y"] >= 0 and header["height"] > 30, header
        assert not page.evaluate(IN_VIEW_JS, "#board [data-cell='c1']")
        alice.locator("#board [data-cell='c0']").click()
        expect(page.locator("body")).to_have_attribute("data-your-turn", "true")
        page.wait_for_function(f"({IN_VIEW_JS})('#board [data-action]')")
        page.wait_for_timeout(600)  # (a smooth scroll ends)
        got = page.evaluate("""() => { const r = document.getElementById("table-header").getBoundingClientRect();
          // (on a phone the bar sticks with the scores above it, as one block: #table-top)
          const block = document.getElementById("table-top").getBoundingClientRect();
          return {top: r.top, bottom: r.bottom,
                  bar: (block.height ? block : document.getElementById("prompt-bar").getBoundingClientRect()).top,
                  scrollY}; }""")
        screenshot(page, SHOTS / "decision-in-view-header-phone.png", full_page=False)
        # (what lies above the bar, the header and the site's, whole at the top or wholly gone)
        assert got["scrollY"] == 0 or got["bar"] <= 0.5, ("the page stopped with the header half out", got)
        assert got["bottom"] <= 0.5, got
        assert got["scrollY"] > 0 and page.evaluate(IN_VIEW_JS, ".mock-grid"), got
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


LOG_PIN_JS = """async () => {
  const {drawLog} = await import("/static/js/table/log.js");
  const box = document.createElement("ol");
  box.style.cssText = "position:fixed;top:0;left:0;width:300px;height:300px;overflow-y:auto;margin:0";
  document.body.append(box);
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const gap = () => Math.round(box.scrollHeight - box.scrollTop - box.clientHeight);
  const lines = Array.from({length: 40}, (_, i) => `Line ${i + 1} of the log, long enough to wrap once or twice here`);
  drawLog(box, lines, {});
  await frame();
  const out = {drawn: gap()};
  box.style.height = "150px";     // the prompt bar above grew: the log is drawn smaller
  await frame();
  out.shrunk = gap();
  box.style.width = "200px";      // its lines wrap anew
  await frame();
  out.rewrapped = gap();
  box.scrollTop = 0;              // the reader scrolls up to read: the log stays there
  await frame();
  box.style.height = "120px";
  drawLog(box, [...lines, "A new line"], {});
  await frame();
  out.reading = box.scrollTop;
  box.remove();
  return out;
}"""


def test_the_log_keeps_its_newest_line_in_view_when_drawn_smaller(browser, mock_url):
    """Fresh-eyes review: the log stuck above its newest line, the last line cut at the box's
    edge (the prompt bar grew to two rows after the log was drawn). At its bottom, the log
    stays there when it is drawn smaller or its lines wrap anew; scrolled up by the reader, it
    stays where the reader is, new lines or not."""
    post(mock_url + "/mock/reset")
    page = open_page(browser, mock_url + "/m/m1?seat=0", "desktop")
    try:
        out = page.evaluate(LOG_PIN_JS)
        assert out == {"drawn": 0, "shrunk": 0, "rewrapped": 0, "reading": 0}, out
        assert page.js_errors == []
    finally:
        page.context.close()


# The prompt bar with its menu open: the bar's and the menu's boxes, where the prompt's first
# line lies against the bar's visible box (cut by its top edge when the bar scrolled inside),
# and how far the menu scrolled.
OPEN_MENU_JS = """() => {
  const bar = document.getElementById("prompt-bar"), b = bar.getBoundingClientRect();
  const body = bar.querySelector("details.action-menu[open] > .action-menu-body");
  const m = body ? body.getBoundingClientRect() : null;
  const range = document.createRange();
  range.selectNodeContents(document.getElementById("prompt-text"));
  const first = [...range.getClientRects()].find((q) => q.width && q.height);
  const top = b.top + bar.clientTop;
  return {bar: {top: b.top, bottom: b.bottom}, menu: m ? {top: m.top, bottom: m.bottom} : null,
          union: m ? Math.max(b.bottom, m.bottom) - b.top : b.height, barScrolled: bar.scrollTop,
          first: first ? {top: first.top - top, bottom: first.bottom - top} : null, clear: bar.clientHeight,
          menuScrolled: body ? body.scrollTop : 0, menuMore: body ? body.scrollHeight - body.clientHeight : 0};
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_a_long_menu_scrolls_inside_and_keeps_the_prompt_words_whole(browser, mock_url, size):
    """The new-user trial, Evil Corp.: with a long list of choices open in the bar, scrolling
    cut the prompt's first line (the bar scrolled inside, the words went out of its top edge);
    the phone's open menu covered most of the screen. With 40 more choices (the mock's wishes):
    open the menu (a click, a tap), scroll it to its end (the wheel, a swipe's worth of scroll):
    at every step bar and menu keep to a quarter of the window, the prompt's first line whole at
    the bar's top, and the last choice, brought into view by scrolling, is played by a click.
    Screenshots: table-core/long-menu-<size>-<step>.png."""
    post(mock_url + "/mock/reset")
    page = open_page(browser, mock_url + "/m/f1?seat=0", size)
    try:
        from playwright.sync_api import expect
        post(mock_url + "/mock/wishes?count=40")
        expect(page.locator("#prompt-actions details.action-menu > summary")).to_have_text(re.compile(r"\b[45]\d (choices|more)$"))
        height = page.viewport_size["height"]
        toggle = page.locator("#prompt-actions details.action-menu > summary")
        toggle.tap() if size == "phone" else toggle.click()
        expect(page.locator("#prompt-actions details.action-menu")).to_have_attribute("open", "")
        body = page.locator("#prompt-actions .action-menu-body")
        box = body.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        steps = []
        for step in range(40):
            got = page.evaluate(OPEN_MENU_JS)
            steps.append(got)
            if step in (0, 3):
                screenshot(page, SHOTS / f"long-menu-{size}-{step}.png", full_page=False)
            assert got["union"] <= height / 4 + 0.5, (step, "bar and menu take over a quarter", got)
            assert got["first"] and got["first"]["top"] >= -0.5 and got["first"]["bottom"] <= got["clear"] + 0.5, \
                (step, "the prompt's first line is cut", got)
            if got["menuScrolled"] >= got["menuMore"] - 1 and got["barScrolled"] >= 0 and step > 0:
                break
            if size == "phone":  # (a finger's swipe scrolls the menu it starts on)
                page.evaluate("document.querySelector('#prompt-actions .action-menu-body').scrollBy(0, 60)")
            else:
                page.mouse.wheel(0, 60)
            page.wait_for_timeout(50)
        print(f"\n{size}: {len(steps)} steps, first {steps[0]}, last {steps[-1]}")
        assert steps[-1]["menuScrolled"] > 0, ("the menu did not scroll inside", steps[-1])
        last = body.locator("button", has_text="Make wish 40")
        last.scroll_into_view_if_needed()
        assert page.evaluate(OPEN_MENU_JS)["first"]["top"] >= -0.5
        last.tap() if size == "phone" else last.click()
        expect(page.locator("#log")).to_contain_text("makes wish 40")
        assert page.js_errors == []
    finally:
        page.context.close()


#: A phone's open sheet of choices, measured: the bar's and the sheet's boxes, the prompt's words
#: (cut by a clamp?), the "more below" cue's strip, and each choice in it, at the sheet's scroll
#: top: shown (any part of it inside the sheet's visible box above the opaque cue), whole (all of it there, clear of the
#: cue, its middle not covered by anything else).
SHEET_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; };
  const bar = document.getElementById("prompt-bar");
  const words = document.getElementById("prompt-text");
  const body = document.querySelector("#prompt-actions details.action-menu[open] > .action-menu-body");
  if (!body) return null;
  body.scrollTop = 0;
  const s = body.getBoundingClientRect(), css = getComputedStyle(body);
  const visTop = s.top + parseFloat(css.borderTopWidth), visBottom = s.bottom - parseFloat(css.borderBottomWidth);
  const cueSpan = body.querySelector(".menu-cue > span");
  const cue = cueSpan && cueSpan.getBoundingClientRect().height ? box(cueSpan) : null;
  const clear = cue ? Math.min(visBottom, cue.top) : visBottom;
  const choices = [...body.querySelectorAll("button")].map((c) => {
    const q = c.getBoundingClientRect();
    const hit = document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2);
    return {text: c.textContent, top: q.top, bottom: q.bottom,
            shown: q.bottom > visTop + 0.5 && q.top < clear - 0.5,
            whole: q.top >= visTop - 0.5 && q.bottom <= clear + 0.5 && !!hit && c.contains(hit)};
  });
  return {vh: innerHeight, bar: box(bar), sheet: box(body), cue, choices,
          words: words.innerText, clamped: words.scrollHeight > words.clientHeight + 1,
          row: [...document.querySelectorAll("#prompt-actions > button, #prompt-actions > details > summary")]
            .filter((e) => e.getBoundingClientRect().width > 0).map((e) => e.textContent)};
}"""


@pytest.mark.parametrize("wishes", [0, 3])
def test_a_phones_sheet_shows_whole_choices_and_closes_four_ways(browser, mock_url, wishes):
    """The fourth new-user trial, Covil at 375×812 (touch): the "N more" sheet was always about
    127 px, however many choices: with 8 it showed one row, its words cut mid-word under the
    "▾ more below" cue; with 2 the second was hidden too; the prompt's words were cut to one
    line. The bar and its open sheet still keep to a quarter of the screen, but the sheet takes
    the room of the bar's row of buttons (they step aside while it is open, the toggle beside
    the prompt's words reads "Close"), its visible height ends on a whole choice (none cut, the
    cue on a strip of its own), at least two choices show whole, and the prompt's words are not
    cut. The sheet closes by "Close", by Escape (the keyboard back on the toggle), by a tap
    outside, and by a choice, which is played. The fallback board (nine to eleven choices in
    the sheet, with group labels) and the mock board (three wishes in the sheet).
    Screenshots: table-core/phone-sheet-<n>-<how>.png."""
    post(mock_url + "/mock/reset")
    match = "f1" if not wishes else "m1"
    page = open_page(browser, mock_url + f"/m/{match}?seat=0", "phone")
    try:
        from playwright.sync_api import expect
        if wishes:
            post(mock_url + f"/mock/wishes?count={wishes}&match_id={match}")
        toggle = page.locator("#prompt-actions details.action-menu > summary")
        expect(toggle).to_have_text(re.compile(r"^\d+ more$"))
        height = page.viewport_size["height"]
        closer = page.locator("#prompt-bar").locator("summary, button").filter(has_text=re.compile(r"^\s*Close\s*$"))
        opened = lambda: page.evaluate("!!document.querySelector('#prompt-actions details.action-menu[open]')")  # noqa: E731
        for how in ("close", "escape", "outside", "choice"):
            if how == "escape":  # the keyboard: Enter on the toggle, Tab into the sheet
                toggle.focus()
                page.keyboard.press("Enter")
            else:
                toggle.tap()
            page.wait_for_function("document.querySelector('#prompt-actions details.action-menu').open")
            page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
            got = page.evaluate(SHEET_JS)
            screenshot(page, SHOTS / f"phone-sheet-{wishes or 'fallback'}-{how}.png", full_page=False)
            shown = [c for c in got["choices"] if c["shown"]]
            print(f"\n{match} {how}: bar {got['bar']} sheet {got['sheet']} cue {got['cue']} row {got['row']}"
                  f" words {got['words']!r} clamped {got['clamped']};"
                  f" {sum(c['whole'] for c in got['choices'])} whole of {len(got['choices'])}")
            share = (got["sheet"]["bottom"] - got["bar"]["top"]) / height
            assert share <= 0.25 + 0.5 / height, (how, f"bar and sheet take {share:.1%} of the screen", got)
            assert got["sheet"]["top"] >= got["bar"]["bottom"] - 1, ("the sheet covers the bar", got)
            for c in shown:
                assert c["whole"], (how, "a choice shows cut or under the cue", c, got)
            assert len(shown) >= min(2, len(got["choices"])), (how, "fewer than two choices show", got)
            assert not got["clamped"], (how, "the prompt's words are cut", got)
            if how == "close":
                assert closer.count() == 1 and closer.is_visible(), got
                closer.tap()
            elif how == "escape":
                page.keyboard.press("Tab")
                assert page.evaluate("!!document.activeElement.closest('#prompt-actions .action-menu-body')")
                page.keyboard.press("Escape")
            elif how == "outside":
                page.locator("#round-phase, #table-header .table-meta").first.tap()
            else:
                before = page.evaluate("document.body.dataset.version")
                last = [c for c in shown if c["whole"]][-1]["text"]
                page.locator("#prompt-actions .action-menu-body button", has_text=last).first.tap()
                page.wait_for_function("(v) => document.body.dataset.version !== v", arg=before)
                expect(page.locator("#log")).to_contain_text(re.compile(r"wish|claims cell|pass|shout|gamble", re.I))
            page.wait_for_function("!document.querySelector('#prompt-actions details.action-menu[open]')")
            assert not opened()
            if how in ("close", "escape"):
                assert page.evaluate("document.activeElement.matches('#prompt-actions details.action-menu > summary')"), how
                expect(toggle).to_have_text(re.compile(r"^\d+ more$"))
        assert page.js_errors == []
    finally:
        page.context.close()
