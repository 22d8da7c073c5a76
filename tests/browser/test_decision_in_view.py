"""Where you decide is on screen when your prompt arrives: two defects of a new user's trial
(issue 14, items 6 and 7).

A real Lair process (hard searches, and so hints, think 50 ms in one worker; bots move after
0.05 s) and Debian's Chromium; every move is a real click.

- A suggestion in a phone's prompt bar (375×812): the bar holds a quarter of the window and
  scrolls; showing "Suggest a move"'s answer scrolled it to its end, and the prompt's own words
  were cut in half at its top. Now the words and the suggestion are both whole in the bar, and
  no line of text is cut at its top edge.
- Evil Corp.'s Day turn that offers a hire but no monster to put into play ("Your turn: hire a
  highlighted applicant or pass"): the table brought the (empty) screen and the boards into
  view, the applicants below them out of sight. Now the highlighted applicants come into view,
  below the prompt bar, when that turn arrives at 375×812 (2 players) and 1366×768 (3 players:
  three boards above the applicants).

Screenshots: tests/browser/artifacts/decision/.
"""
from __future__ import annotations

import pytest

from tests.browser.test_evil_corp_table import click_action, day_turn, targets, wait_my_turn
from tests.browser.test_full_match import fill_and_start
from tests.browser.test_hints_table import ask, frames_of
from tests.browser.test_layout import DESKTOP_768, PHONE_812, new_table
from tests.chromium import ARTIFACTS, lair_process, screenshot

pytestmark = pytest.mark.e2e

OUT = ARTIFACTS / "decision"
#: The deal (tests/chromium.py ``fix_seed``): the same course at every run.
SEED = 1


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The real site; hard searches (and so hints) think 50 ms of CPU in one worker."""
    with lair_process(tmp_path_factory.mktemp("db") / "lair.db", BOT_THINK_SECONDS="0.05",
                      BOT_WORKERS="1") as url:
        yield url


# Every line of text in the prompt bar (each line box of its text nodes, closed menus and
# hidden parts left out) against the bar's visible box: where it lies, and which part holds it.
BAR_LINES_JS = """() => {
  const bar = document.getElementById("prompt-bar"), b = bar.getBoundingClientRect();
  const top = b.top + bar.clientTop, bottom = top + bar.clientHeight;
  const out = [];
  const walk = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || !e || e.closest(".bar-cue, details:not([open]) > :not(summary)")) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const q of range.getClientRects()) {
      if (!q.height || !q.width) continue;
      out.push({text: n.textContent.trim().slice(0, 40), top: q.top - top, bottom: q.bottom - top,
                reason: !!e.closest(".hint-reason"), part: e.closest("#prompt-text") ? "prompt" : e.closest("#hint-answer") ? "answer" : "other"});
    }
  }
  // (the "more below" cue covers the bar's bottom edge while there is more below)
  const cue = bar.classList.contains("scrolls-down") ? bar.querySelector(".bar-cue > span").getBoundingClientRect() : null;
  return {height: bottom - top, scrolled: bar.scrollTop, share: b.height / innerHeight, lines: out,
          cue: !!cue, clear: cue ? cue.top - top : bottom - top};
}"""


def whole(line: dict, got: dict) -> bool:
    """Whether a line of BAR_LINES_JS lies wholly in the bar's visible box."""
    return line["top"] >= -0.5 and line["bottom"] <= got["height"] + 0.5


def clear(line: dict, got: dict) -> bool:
    """Whether a line of BAR_LINES_JS lies wholly in the bar's visible box, above its cue."""
    return line["top"] >= -0.5 and line["bottom"] <= got["clear"] + 0.5


def bar_lines(page, name: str) -> dict:
    """BAR_LINES_JS after the next frame, with a screenshot decision/<name>.png; checks that
    the bar keeps to its quarter of the window and no line is cut by its top edge (a line cut
    by its bottom edge only under its "more below" cue)."""
    page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    got = page.evaluate(BAR_LINES_JS)
    screenshot(page, OUT / f"{name}.png", full_page=False)
    print(f"\n{name}:", got)
    assert got["share"] <= 0.25 + 1e-6, got
    for ln in got["lines"]:
        assert whole(ln, got) or ln["bottom"] <= 0.5 or ln["top"] >= got["height"] - 0.5 or \
            (got["cue"] and ln["top"] > 0), ("a line cut by the bar's edge", ln, got)
    return got


def test_a_suggestion_leaves_the_prompt_words_whole_in_the_phone_bar(browser, server):
    """375×812, Evil Corp. for 2: "Suggest a move" answers in the prompt bar. Every line of the
    prompt's words and of the suggestion (what, Play it, Dismiss, why) is whole in the bar;
    no line of the bar is cut at its top edge (one cut at its bottom edge only under the bar's
    "more below" cue); the bar keeps to its quarter of the window. Screenshot:
    decision/hint-phone.png."""
    page = new_table(browser, server, PHONE_812, "evil_corp", 2, bots=False)
    try:
        frames = frames_of(page)
        fill_and_start(page, seed=SEED)
        ask(page, frames)
        got = bar_lines(page, "hint-phone")
        assert any(ln["part"] == "prompt" for ln in got["lines"]), got
        assert any(ln["part"] == "answer" for ln in got["lines"]), got
        for ln in got["lines"]:
            if ln["part"] in ("prompt", "answer"):
                assert clear(ln, got), ("a line of the prompt or the suggestion is not whole in the bar", ln, got)
        # its reason on a tap of "Why?": in the bar, whole, no line cut at the bar's top
        why = page.locator("#hint-answer .hint-why")
        if why.count():
            box = why.bounding_box()  # (a finger's tap: Playwright's tap() may scroll the page first)
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            got = bar_lines(page, "hint-phone-why")
            assert [ln for ln in got["lines"] if ln["text"] == why.inner_text()], got
            assert any(ln["part"] == "answer" and ln["reason"] and clear(ln, got) for ln in got["lines"]), got
        assert page.js_errors == []
    finally:
        page.context.close()


# The highlighted applicants (Evil Corp.'s applicant queue, each hire a [data-action] cell) and
# the part of the window below the prompt bar and the phone's last-move line under it.
APPLICANTS_JS = """() => {
  let top = 0;
  for (const id of ["prompt-bar", "last-move-box"]) {
    const r = document.getElementById(id).getBoundingClientRect();
    if (r.height && r.bottom > top) top = Math.min(r.bottom, innerHeight);
  }
  const cells = [...document.querySelectorAll("#ec-personnel .ec-qcell[data-action]")].map((c) => {
    const r = c.getBoundingClientRect();
    return [r.top, r.bottom];
  });
  return {top, bottom: innerHeight, cells, scrollY,
          shown: cells.length > 0 && cells.every(([t, b]) => t >= top - 0.5 && b <= innerHeight + 0.5)};
}"""


def applicants_shown(page) -> dict:
    """APPLICANTS_JS once the applicants are in view (the table and the renderer bring the
    place into view after the view is drawn), else as it is after 5 s."""
    try:
        page.wait_for_function(f"({APPLICANTS_JS})().shown", timeout=5000)
    except Exception:  # (a Playwright timeout: the assertion says what is where)
        pass
    return page.evaluate(APPLICANTS_JS)


@pytest.mark.parametrize(("size", "players"), [("375x812", 2), ("1366x768", 3)])
def test_a_turn_to_hire_shows_the_applicants(browser, server, size, players):
    """Evil Corp. at 375×812 (2 players) and 1366×768 (3 players: three boards above the
    applicants): the host puts the monsters behind her screen into play (a tile, then a
    highlighted cell) until a Day turn offers a hire and no monster to put into play. When that
    prompt arrives, the highlighted applicants are on screen below the prompt bar.
    Screenshots: decision/hire-<size>.png."""
    page = new_table(browser, server, PHONE_812 if size == "375x812" else DESKTOP_768, "evil_corp",
                     players, bots=False)
    try:
        fill_and_start(page, seed=SEED)
        found = False
        for _ in range(60):
            assert wait_my_turn(page), "the match ended before a turn to hire"
            kinds = {a["type"] for _, a in targets(page)}
            picks = page.locator("#board [data-pick]")
            if day_turn(page) and "hire" in kinds and not picks.count():
                found = True
                break
            if day_turn(page) and picks.count():
                picks.first.click()  # a tile behind her screen, then a highlighted cell
                page.wait_for_selector("#board .ec-board [data-action]")
                assert click_action(page, lambda a: a["type"] == "play")
            elif not click_action(page, lambda a: a["type"] == "pass"):
                # a choice (a spawn ability's, the night's keep): the first one offered
                assert click_action(page, lambda a: a["type"] not in ("skip", "undo")) or \
                    click_action(page, lambda a: True)
        assert found, "no Day turn offered a hire without a monster to put into play"
        got = applicants_shown(page)
        page.mouse.move(0, 0)  # (the clicks' mouse left over an applicant shows its card)
        screenshot(page, OUT / f"hire-{size}.png", full_page=False)
        print(f"\na turn to hire at {size}:", page.inner_text("#prompt-text"), got)
        assert got["shown"], ("the highlighted applicants are not on screen below the prompt bar", got)
        assert page.js_errors == []
    finally:
        page.context.close()
