"""Helpers of the click-counting table tests (tests/browser/, issue 14 "Done when"): real clicks
on the real table page, counted per named task, and a reader of every visible text of the page
(HTML text, SVG text, tooltips, labels) that finds the codes a player must never read.

Clicks go through Playwright's ``locator.click`` (a real pointer event), never the page's
JavaScript; a click that sends an action waits for the next view (``body[data-version]``).
"""
from __future__ import annotations

import json
import re
from collections import Counter

from playwright.sync_api import TimeoutError as PlaywrightTimeout

#: Where a table page shows actions: the board (renderer) and the prompt bar.
ACTIONS = "#board [data-action], #prompt-actions [data-action]"


class Clicks:
    """Clicks counted per named task ("first placement", "a Brewing", ...); ``task`` is the
    task being done now (None: not counted)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.task: str | None = None

    def add(self) -> None:
        if self.task:
            self.counts[self.task] += 1

    def report(self, game: str) -> str:
        line = f"{game} clicks per task: " + ", ".join(f"{k}: {v}" for k, v in self.counts.items())
        print(line)
        return line


def version(page) -> str:
    return page.evaluate("document.body.dataset.version || ''")


def my_turn(page) -> bool:
    return page.evaluate("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'")


def wait_new_view(page, before: str, timeout: float = 10.0) -> None:
    """Until the page shows a view newer than ``before`` (or an error toast)."""
    try:
        page.wait_for_function(
            "(v) => document.body.dataset.version !== v || !!document.querySelector('.toast')",
            arg=before, timeout=timeout * 1000)
    except PlaywrightTimeout:
        pass


def actions(page) -> list[dict]:
    """The actions the page offers now (visible, or in the prompt bar's closed "Choose" menu;
    enabled), board first."""
    raw = page.locator(ACTIONS).evaluate_all(
        "els => els.map(e => ((e.getClientRects().length || e.closest('details.action-menu')) && !e.disabled)"
        " ? e.getAttribute('data-action') : null)")
    return [json.loads(a) for a in raw if a]


def _selector(action: dict) -> str:
    key = json.dumps(action, separators=(",", ":"))
    return f"#board [data-action='{key}'], #prompt-actions [data-action='{key}']"


def click_action(page, action: dict, clicks: Clicks, wait: bool = True) -> None:
    """One real click on the element offering ``action``; waits for the next view."""
    before = version(page)
    target = page.locator(_selector(action)).first
    if target.evaluate("e => !!e.closest('details.action-menu:not([open])')"):
        # the prompt bar keeps long lists in one compact menu: open it first (a real click)
        page.locator("#prompt-actions details.action-menu > summary").first.click()
        clicks.add()
    target.click()
    clicks.add()
    if answer_yes(page):
        clicks.add()
    if wait:
        wait_new_view(page, before)
        # and its answer: a loaded machine can take longer than the view's wait, and while the
        # action is pending every button of the bar is disabled (a Cancel read then was missing:
        # test_covil_day_by_clicks, one run in three under five parallel test runs)
        page.wait_for_function("document.body.dataset.pending !== 'true'", timeout=30_000)


def answer_yes(page) -> bool:
    """A move the table asks about first (the prompt bar's question, actions.js ``askFirst``:
    Evil Corp.'s Pass with monsters still to play, a hire): one real click on its "yes"; False
    when nothing was asked."""
    yes = page.locator("#prompt-actions [data-confirm=yes]")
    if not yes.count():
        return False
    yes.first.click()
    return True


def click(page, selector: str, clicks: Clicks) -> None:
    """One real click on a local step (a pick, a question): no view is awaited."""
    page.locator(selector).first.click()
    clicks.add()


# ----- visible text ------------------------------------------------------------------------------
_TEXT_JS = """() => {
  const out = [document.body.innerText];
  for (const t of document.querySelectorAll('svg text, svg title')) out.push(t.textContent);
  for (const e of document.querySelectorAll('[title], [aria-label]')) {
    if (e.closest('[hidden]')) continue;
    out.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '');
  }
  return out.join('\\n');
}"""

#: Cell and space ids of the views (Drops: g-3-2, b-9-4, bc-2-e, ds-1-e, d-5, k-1, t-1-1, s-4,
#: a-1; Evil Corp.: raid-1).
CELL_ID = re.compile(r"\b(?:[a-z]{1,3}-\d+(?:-\d+)?(?:-[es])?|raid-\d+)\b")
#: The two-letter abbreviations the renderers used before pictures (Drops resources and pawns,
#: Covil terrains; the seat panel's "Hp").
ABBREVIATIONS = ("Ow", "Ba", "Sa", "Sc", "Sp", "Wo", "Mu", "Ra", "Ch", "Cr", "Ca", "Sn",
                 "Wa", "De", "Mo", "Fo", "Hp")
_ABBR = re.compile(r"(?<![\w'])(?:" + "|".join(ABBREVIATIONS) + r")(?![\w'])")
#: Places named by a number that depends on the board (Drops of Evil's Cat spaces: the table
#: words them "double-arrow space between columns 3-4, row 2").
BOARD_NUMBER = re.compile(r"\bdouble-arrow space \d+")


def visible_text(page) -> str:
    return page.evaluate(_TEXT_JS)


def codes_in(text: str, catalogue: dict[str, str]) -> list[str]:
    """Every catalogue id (``catalogue``: the engine's display_names()), cell id or old
    two-letter abbreviation that a player can read in ``text``."""
    found = []
    if catalogue:
        ids = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in sorted(catalogue, key=len, reverse=True))
                         + r")(?![\w])")
        found += ids.findall(text)
    found += CELL_ID.findall(text)
    found += _ABBR.findall(text)
    found += BOARD_NUMBER.findall(text)
    return sorted(set(found))
