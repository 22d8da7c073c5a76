"""Where you decide is on screen when your prompt arrives (issue 14, item 6), as a new user's
trial found it: Evil Corp.'s Day turn that offers a hire but no monster to put into play ("Your
turn: hire a highlighted applicant or pass") brought the (empty) screen and the boards into
view, the applicants below them out of sight. Now the highlighted applicants come into view,
below the prompt bar, when that turn arrives at 375×812 (2 players) and 1366×768 (3 players:
three boards above the applicants).

A real Lair process (tests/chromium.py ``lair_server``: bots move after 0.05 s) and Debian's
Chromium; every move is a real click. Screenshots: tests/browser/artifacts/decision/.
"""
from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest

from tests.browser.test_evil_corp_table import (
    ABILITY_PX,
    abilities_outside,
    ability_sizes,
    click_action,
    day_turn,
    targets,
    wait_my_turn,
)
from tests.browser.test_full_match import fill_and_start
from tests.browser.test_layout import DESKTOP_768, PHONE_812, new_table
from tests.chromium import ARTIFACTS, screenshot
from tests.table_clicks import answer_yes

pytestmark = pytest.mark.e2e

OUT = ARTIFACTS / "decision"
#: The deal (tests/chromium.py ``fix_seed``): the same course at every run.
SEED = 1


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


def play_to_a_day_turn_with_a_hire(page, monster: bool, turns: int = 60) -> bool:
    """Plays the host's Evil Corp. turns by clicks until a Day turn offers a hire and, when
    ``monster``, a monster behind her screen to put into play too (else none). On the way: a
    tile behind her screen onto a highlighted cell, else pass, else the first choice offered (a
    spawn ability's, the night's keep; on the board or in the bar, else in its menu, where a
    phone's long labels wait).
    False when no such turn came within ``turns`` prompts."""
    for _ in range(turns):
        assert wait_my_turn(page), "the match ended before the turn looked for"
        kinds = {a["type"] for _, a in targets(page)}
        picks = page.locator("#board [data-pick]")
        if day_turn(page) and "hire" in kinds and bool(picks.count()) == monster:
            return True
        if day_turn(page) and picks.count():
            picks.first.click()  # a tile behind her screen, then a highlighted cell
            page.wait_for_selector("#board .ec-board [data-action]")
            assert click_action(page, lambda a: a["type"] == "play")
        elif not click_action(page, lambda a: a["type"] == "pass") and \
                not click_action(page, lambda a: a["type"] not in ("skip", "undo")):
            # only the menu holds a choice: open it and take its first (a tap outside an open
            # phone sheet only closes it, and the bar's row coming back moves the board)
            menu = page.locator("#prompt-bar details.action-menu:not([open]) > summary")
            if not menu.count():
                # nothing to click at all: the table moved on since her turn came (4 players:
                # her team-mate's move ended the team's turn; a CI run at load met it)
                page.wait_for_timeout(200)
                continue
            menu.first.click()
            choice = page.locator("#prompt-actions .action-menu-body [data-action]").first
            before = page.evaluate("document.body.dataset.version")
            choice.click()
            answer_yes(page)  # a move the bar asks about first (a Pass, a hire)
            page.wait_for_function("(v) => document.body.dataset.version !== v || !!document.querySelector('.toast')",
                                   arg=before, timeout=10_000)
    return False



@contextmanager
def at_a_day_turn_with_a_hire(browser, lair_server, size: str, players: int, monster: bool):
    """An Evil Corp. table of ``players`` (no bots; the deal of SEED) at ``size`` ("375x812"
    or "1366x768"), played by the host to a Day turn with a hire (and, when ``monster``, a
    monster to put into play: :func:`play_to_a_day_turn_with_a_hire`); yields the page."""
    page = new_table(browser, lair_server, PHONE_812 if size == "375x812" else DESKTOP_768, "evil_corp",
                     players, bots=False)
    try:
        fill_and_start(page, seed=SEED)
        assert play_to_a_day_turn_with_a_hire(page, monster=monster), \
            f"no Day turn offered a hire {'and' if monster else 'without'} a monster to put into play"
        yield page
    finally:
        page.context.close()


@pytest.mark.parametrize(("size", "players"), [("375x812", 2), ("1366x768", 3)])
def test_a_turn_to_hire_shows_the_applicants(browser, lair_server, size, players):
    """Evil Corp. at 375×812 (2 players) and 1366×768 (3 players: three boards above the
    applicants): the host puts the monsters behind her screen into play (a tile, then a
    highlighted cell) until a Day turn offers a hire and no monster to put into play. When that
    prompt arrives, the highlighted applicants are on screen below the prompt bar.
    Screenshots: decision/hire-<size>.png."""
    with at_a_day_turn_with_a_hire(browser, lair_server, size, players, monster=False) as page:
        got = applicants_shown(page)
        page.mouse.move(0, 0)  # (the clicks' mouse left over an applicant shows its card)
        screenshot(page, OUT / f"hire-{size}.png", full_page=False)
        print(f"\na turn to hire at {size}:", page.inner_text("#prompt-text"), got)
        assert got["shown"], ("the highlighted applicants are not on screen below the prompt bar", got)
        assert page.js_errors == []


# Where the host decides on a Day turn that offers both a monster to put into play and a hire:
# her screen, the boards she may use, and the applicants she may hire (the slim row under her
# screen), each box [top, bottom]; the window below the prompt bar and the phone's last-move line.
PLAY_AND_HIRE_JS = """() => {
  let top = 0;
  for (const id of ["prompt-bar", "last-move-box"]) {
    const r = document.getElementById(id).getBoundingClientRect();
    if (r.height && r.bottom > top) top = Math.min(r.bottom, innerHeight);
  }
  const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom)]; };
  const boxes = {
    screen: [...document.querySelectorAll("#ec-my-screen")].map(box),
    boards: [...document.querySelectorAll("#board .ec-board.usable")].map(box),
    hires: [...document.querySelectorAll("#ec-hire .ec-hcell[data-action]")].map(box),
  };
  const all = [...boxes.screen, ...boxes.boards, ...boxes.hires];
  // each applicant whole sideways: in the window, and not cut by a box that clips it (the
  // phone's head line cut the row off at its right edge: the new-user trial); a phone's row that
  // scrolls sideways lays a cue ("› 2 more") over what is not wholly in view: what shows
  // beside the cues is whole
  const cues = [...document.querySelectorAll("#ec-hire > .ec-more:not([hidden])")].map((c) => c.getBoundingClientRect());
  const cut = [...document.querySelectorAll("#ec-hire .ec-hcell[data-action]")].filter((e) => {
    const r = e.getBoundingClientRect();
    let left = 0, right = innerWidth;
    for (let p = e.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowX === "visible") continue;
      const q = p.getBoundingClientRect();
      left = Math.max(left, q.left + p.clientLeft);
      right = Math.min(right, q.left + p.clientLeft + p.clientWidth);
    }
    for (const c of cues) {
      if (c.right <= r.left + 0.5 || c.left >= r.right - 0.5) continue;
      if (c.left <= r.left + 0.5) left = Math.max(left, c.right); else right = Math.min(right, c.left);
    }
    const seen = Math.min(r.right, right) - Math.max(r.left, left);
    return seen > 0.5 && (r.left < left - 0.5 || r.right > right + 0.5);
  }).map((e) => e.getAttribute("aria-label") || e.textContent);
  // each applicant's name (the fresh review: a phone's chips showed a tile and a price alone)
  const names = [...document.querySelectorAll("#ec-hire .ec-hcell[data-action]")].map((c) => {
    const n = c.querySelector(".ec-hname"), r = c.getBoundingClientRect(), q = n && n.getBoundingClientRect();
    return {text: n ? n.textContent : null, px: n ? parseFloat(getComputedStyle(n).fontSize) : 0,
            whole: !!q && q.width > 0 && q.left >= r.left - 0.5 && q.right <= r.right + 0.5 && q.top >= r.top - 0.5
              && q.bottom <= r.bottom + 0.5 && n.scrollWidth <= n.clientWidth + 1};
  });
  return {top, bottom: innerHeight, ...boxes, cut, names,
          shown: boxes.hires.length > 0 && boxes.boards.length > 0 &&
                 all.every(([t, b]) => t >= top - 0.5 && b <= innerHeight + 0.5)};
}"""


def check_hire_chips(page, got: dict, floor: float) -> None:
    """Each applicant to hire on the head line names its monster, whole, at the text floor
    (the fresh review: a phone's chips showed a tile and a price alone), and its tile's ability
    symbols are drawn at ~14 px (they were 9 to 10)."""
    assert got["names"] and all(n["text"] and n["whole"] and n["px"] >= floor - 0.05 for n in got["names"]), got["names"]
    sizes = ability_sizes(page, "#ec-hire")
    assert not sizes or min(sizes) >= ABILITY_PX - 0.05, sizes
    assert not abilities_outside(page, "#ec-hire"), abilities_outside(page, "#ec-hire")


@pytest.mark.parametrize(("size", "players"), [("375x812", 2), ("1366x768", 4)])
def test_a_turn_to_play_or_hire_shows_screen_boards_and_applicants(browser, lair_server, size, players):
    """The new-user trial at 1366×768 and 375×812: a Day turn that offers both a monster to
    put into play and a hire brought the host's screen and boards into view, the applicants
    (the personnel department, below the boards) out of sight. The applicants she may hire now
    sit in a slim row under her screen: when that prompt arrives, her screen, the boards she
    may use and those applicants are all on screen below the prompt bar (4 players at 1366×768:
    two usable boards), each applicant whole (a phone's head line cut the row off at its right
    edge: the new-user trial). A click on the last one there hires it. Screenshots:
    decision/play-or-hire-<size>.png."""
    from playwright.sync_api import expect
    with at_a_day_turn_with_a_hire(browser, lair_server, size, players, monster=True) as page:
        try:
            page.wait_for_function(f"({PLAY_AND_HIRE_JS})().shown", timeout=5000)
        except Exception:  # (a Playwright timeout: the assertion says what is where)
            pass
        got = page.evaluate(PLAY_AND_HIRE_JS)
        page.mouse.move(0, 0)
        screenshot(page, OUT / f"play-or-hire-{size}.png", full_page=False)
        print(f"\na turn to play or hire at {size}:", page.inner_text("#prompt-text"), got)
        assert got["shown"], ("screen, usable boards and applicants are not all on screen", got)
        assert not got["cut"], ("an applicant is cut off at the side of the head line", got)
        check_hire_chips(page, got, 13 if size == "375x812" else 14)
        # the row's last applicant hires, as the personnel department's does
        cell = page.locator("#ec-hire .ec-hcell[data-action]").last
        assert json.loads(cell.get_attribute("data-action"))["type"] == "hire"
        name = cell.locator(".ec-hname").text_content()
        if size == "375x812":
            cell.tap()
        else:
            cell.click()
        # (a hire cannot be undone, a new applicant is drawn: the prompt bar asks first)
        expect(page.locator("#prompt-text")).to_contain_text(f"Hire {name}")
        screenshot(page, OUT / f"hire-asks-{size}.png", full_page=False)
        assert answer_yes(page)
        expect(page.locator("#log")).to_contain_text(re.compile(f"Morgana hires \\w+ {re.escape(name)} "))
        assert page.js_errors == []


def test_every_applicant_on_the_phone_head_line_is_whole(browser, lair_server):
    """The new-user trial, Evil Corp. at 375×812: the "Hire:" row on the head line of the
    host's screen was cut off at its right edge (it scrolled sideways with no cue, the second
    applicant cut in half, the third out of sight). The host plays by taps (deal 4, 4 players)
    until a Day turn offers two applicants or more there: none shows cut, and a tap on the last
    one hires it. Named (the fresh review: a tile and a price named nobody), they no longer fit
    one line: the row scrolls sideways, and a cue ("› 2 more") lies over whatever is not wholly
    in view. Screenshot: decision/hire-row-375x812.png."""
    from playwright.sync_api import expect

    from engines.base import Rng
    from tests.browser.test_full_match import click_something
    page = new_table(browser, lair_server, PHONE_812, "evil_corp", 4, bots=False)
    try:
        fill_and_start(page, seed=4)
        rng, got = Rng(3), None
        # (the bots' and the host's random moves interleave by timing: the first such turn came
        # after 1 to 7 of the host's turns in local runs, and after more than 12 in one CI run)
        for _ in range(40):
            assert wait_my_turn(page), "the match ended before a turn with applicants to hire"
            page.wait_for_timeout(300)
            if page.locator("#ec-hire .ec-hcell[data-action]").count() >= 2:
                got = page.evaluate(PLAY_AND_HIRE_JS)
                break
            before = page.evaluate("document.body.dataset.version")
            assert click_something(page, rng)
            page.wait_for_function("(v) => document.body.dataset.version !== v || !!document.querySelector('.toast')",
                                   arg=before, timeout=10_000)
        assert got, "no Day turn offered two applicants on the head line"
        page.locator("#ec-hire").scroll_into_view_if_needed()
        screenshot(page, OUT / "hire-row-375x812.png", full_page=False)
        print("\nthe head line's applicants at 375x812:", got)
        assert not got["cut"], ("an applicant is cut off at the side of the head line", got)
        check_hire_chips(page, got, 13)
        cell = page.locator("#ec-hire .ec-hcell[data-action]").last
        name = cell.locator(".ec-hname").text_content()
        cell.tap()
        page.locator("#prompt-actions [data-confirm=yes]").tap()  # (a hire asks first)
        expect(page.locator("#log")).to_contain_text(re.compile(f"Morgana hires \\w+ {re.escape(name)} "))
        assert page.js_errors == []
    finally:
        page.context.close()
