"""The site at phone-portrait and desktop sizes (issue 7 "Table experience", item 7 "Layout").

A real server (tests/chromium.py ``lair_server``); the host creates one match of each game in the
lobby, gives the other seats to random bots and plays some moves through real clicks, so every
table is mid-match. Then the lobby, the waiting room, each game's table (from the host's seat,
on their turn) and each replay are opened at 375×740 (a phone held upright: touch, 2× pixels)
and at 1366×800, and checked: nothing wider than the screen outside a scrolling box (the page
never scrolls sideways), no text clipped, the prompt bar on screen with every button whole and
not covered, at least 40 px high on the phone. At every host turn the prompt bar (a status bar at
the top of the table, issue 14 item 7) is measured at 1366×768 and 375×812: above the board, at
most a quarter of the window. Screenshots: tests/browser/artifacts/layout/
<page>-<phone|desktop>.png, and with ``LAIR_SCREENSHOTS=docs/screenshots`` (``make
screenshots``) also docs/screenshots/ (the desktop table as <game>.png, which the README shows).
"""
from __future__ import annotations

import os
import re
import shutil

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engines.base import Rng
from tests.browser.test_full_match import (
    click_something,
    fill_and_start,
    host_moves,
    host_new_match,
    name_yourself,
    no_codes,
)
from tests.browser.test_table_core import SHEET_JS
from tests.chromium import ARTIFACTS, DESKTOP, PHONE, ROOT, screenshot

pytestmark = pytest.mark.e2e

#: Game, players: the more seats, the more the table has to fit.
GAMES = [("drops_of_evil", 3), ("evil_corp", 4), ("covil", 3)]
SIZES = {"desktop": DESKTOP, "phone": PHONE}
#: Moves the host makes before the table is looked at.
HOST_MOVES = 12
#: The deal of every match (tests/chromium.py ``fix_seed``): what the table shows after the
#: host's moves (the pieces, which icons are drawn, how long the bots play before her turn
#: comes back) is then the same at every run.
SEED = 1

# Everything that sticks out of the viewport sideways, outside an element that scrolls or clips
# on its own (the board's box scrolls: a wide board there is intended); and every element that
# clips its own text (overflow hidden / ellipsis narrower than its content).
LAYOUT_JS = """() => {
  const W = window.innerWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
      (el.classList.length ? "." + [...el.classList].join(".") : "");
  const clips = (el) => { const o = getComputedStyle(el).overflowX; return o !== "visible"; };
  const wide = [], cut = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    // (content of a closed <details> still has a box in Chromium, but is not shown)
    if (!r.width || !r.height || el.closest(".sr-only, details:not([open]) > :not(summary)")) continue;
    let inBox = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (clips(p)) { inBox = true; break; }
    }
    if (!inBox && (r.right > W + 1 || r.left < -1)) wide.push(`${name(el)} ${Math.round(r.left)}..${Math.round(r.right)}`);
    const cs = getComputedStyle(el);
    const hides = cs.overflowX === "hidden" || cs.overflowX === "clip" || cs.textOverflow === "ellipsis";
    // (an ellipsis with the whole text in the element's tooltip gives way on purpose: the
    // desktop header's turn line, round and pace)
    const whole = el.title && el.title.includes(el.textContent.trim());
    if (hides && !whole && el.textContent.trim() && el.scrollWidth > el.clientWidth + 1) cut.push(name(el));
  }
  return {scroll: document.scrollingElement.scrollWidth, width: W, wide: wide.slice(0, 12), cut};
}"""

# The prompt bar and each of its buttons: on screen, whole, not covered by anything.
PROMPT_JS = """() => {
  const bar = document.getElementById("prompt-bar");
  const r = bar.getBoundingClientRect();
  const menu = bar.querySelector("details.action-menu");
  const out = {bar: [r.left, r.top, r.right, r.bottom], scroll: bar.scrollWidth - bar.clientWidth, buttons: [],
               // what of its content lies below its bottom edge (nothing, its menu closed)
               below: bar.scrollHeight - bar.clientHeight, open: !!(menu && menu.open)};
  for (const b of bar.querySelectorAll("button")) {
    // (a toast's close button; a choice waiting in the closed "Choose" menu is not shown; a
    // phone's bar buttons step aside while its sheet is open, the toggle reading "Close")
    if (b.closest(".toast") || b.closest("details:not([open]) > :not(summary)")) continue;
    if (!b.getClientRects().length) continue;
    b.scrollIntoView({block: "nearest", inline: "nearest"});
    const q = b.getBoundingClientRect();
    const hit = document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2);
    out.buttons.push({text: b.textContent, w: q.width, h: q.height, left: q.left, right: q.right,
                      top: q.top, bottom: q.bottom, hit: !!hit && (hit === b || b.contains(hit)),
                      cut: b.scrollWidth > b.clientWidth + 1});
  }
  return out;
}"""


# Every visible piece of text smaller than 13 CSS px on the page (issue 14 "Done when": text at
# least 13 px on phones): the computed font-size; for text in an SVG drawing (a number in an
# icon, the letters that name Covil's zones), the size it is drawn at (the computed size times
# the drawing's scale on screen: Covil's map is scaled down to the phone's width, and its zone
# letters were 9.5 px there).
TINY_TEXT_JS = """([floor, root]) => {
  const out = new Set();
  const top = document.querySelector(root);
  if (!top) return [`nothing at ${root}`];
  const walk = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    // (the content of a closed <details> keeps a box in Chromium, but is not shown)
    if (!n.textContent.trim() || !e || e.closest("title, style, script, .sr-only, details:not([open]) > :not(summary)")) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === "hidden" || Number(cs.opacity) === 0) continue;
    let px = parseFloat(cs.fontSize);
    // (a number drawn inside an icon, a coin's value or hit points, is text too: the games
    // draw them larger on phones)
    if (e instanceof SVGElement && e.getScreenCTM()) {
      const m = e.getScreenCTM();
      px *= Math.hypot(m.a, m.b);
    }
    // (a font-size of 0 hides words kept for screen readers: the connection dot's "Connected")
    if (px > 0 && px < floor - 0.05) {
      const cls = (x) => x.tagName.toLowerCase() + (x.classList.length ? "." + [...x.classList].join(".") : "");
      // a number inside an icon: named by its icon and what holds the icon
      const icon = e instanceof SVGElement ? e.closest("svg") : null;
      const name = icon ? `${cls(icon)} in ${cls(icon.parentElement)}` : cls(e);
      out.add(`${name} ${px.toFixed(1)}px "${n.textContent.trim().slice(0, 24)}"`);
    }
  }
  return [...out];
}"""


#: Text a desktop table may still show under 14 px (issue 14 "Done when": body text at least
#: 14 px on desktop): (a pattern matched against TINY_TEXT_JS's "<element> <size>px" lines, the
#: least size it may have: the phone's 13 px).
#: - Covil's ability name on a Minion's card: "Reinforcement" at 14 px is wider than the 128 px
#:   card, and wider cards put the host's Minions in one column beside the map at 1366 px.
DESKTOP_SMALL: list[tuple[str, float]] = [(r"div\.ab ", 13)]


def desktop_small(line: str) -> bool:
    """Whether TINY_TEXT_JS's ``line`` is allowed by DESKTOP_SMALL (its size at least the least)."""
    px = float(re.search(r" (\d+(?:\.\d+)?)px ", line).group(1))
    return any(re.match(pat, line) and px >= least - 0.05 for pat, least in DESKTOP_SMALL)


def desktop_tiny(page, root: str = "#table") -> list[str]:
    """TINY_TEXT_JS's lines for the text inside ``root`` (a CSS selector) under the desktop's
    14 px at the page's viewport now, but what DESKTOP_SMALL allows."""
    return [t for t in page.evaluate(TINY_TEXT_JS, [14, root]) if not desktop_small(t)]


def check_text_sizes(page, size: str, where: str, root: str = "#table") -> None:
    """No visible text inside ``root`` (a CSS selector: the table, else e.g. "body" for the
    lobby, the waiting room and the replay) smaller than 13 CSS px on a phone; on a desktop none
    under 14 px at 1366×768 (the short screen, where Evil Corp.'s boards are compact) and
    1920×1080 but what DESKTOP_SMALL lists. The page's viewport is put back."""
    if size == "phone":
        tiny = page.evaluate(TINY_TEXT_JS, [13, root])
        assert not tiny, f"{where}: text under 13 px on the phone: {tiny}"
        return
    tiny = desktop_text_sizes(page, root)
    assert not tiny, f"{where}: text under 14 px on a desktop: {tiny}"


def desktop_text_sizes(page, root: str = "#table") -> dict[str, list[str]]:
    """Per desktop size (1366x768, 1920x1080) where any, the text inside ``root`` under 14 px
    (:func:`desktop_tiny`). The page's viewport is put back."""
    before = page.viewport_size
    found = {}
    for width, height in ((1366, 768), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        tiny = desktop_tiny(page, root)
        if tiny:
            found[f"{width}x{height}"] = tiny
    page.set_viewport_size(before)
    page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    return found


# The phone header (issue 14, item 7): at most 15 % of the screen, the game's "? Key" in it
# beside "More", spectators as an eye and a number.
HEADER_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
  const key = document.getElementById("key-toggle"), more = document.getElementById("tools-toggle");
  const spect = document.getElementById("spectators");
  return {header: box(document.getElementById("table-header")), height: innerHeight,
          key: key.hidden ? null : box(key), more: box(more),
          spectators: spect.hidden ? null : {text: spect.innerText.trim(), eye: !!spect.querySelector("svg.spect-eye")}};
}"""


def check_phone_header(page, game: str) -> None:
    """The phone header: within 15 % of the screen height (with spectators shown as an eye and
    their number), the "? Key" button in it right beside "More". Waits for the board's first
    drawing (the renderer is a module loaded after the page: the log may come first)."""
    page.wait_for_function("!!document.querySelector('#board .legend-key')", timeout=15_000)
    got = page.evaluate(HEADER_JS)
    assert got["header"]["height"] <= 0.15 * got["height"], (game, got)
    assert got["key"], (game, "no Key in the phone header", got)
    assert abs(got["key"]["top"] - got["more"]["top"]) <= 4, (game, "Key and More on one row", got)
    assert 0 <= got["more"]["left"] - got["key"]["right"] <= 16, (game, "Key right beside More", got)
    if got["spectators"]:
        assert got["spectators"]["eye"] and re.fullmatch(r"\d+", got["spectators"]["text"]), (game, got)


def save(page, name: str, docs_name: str | None = None) -> None:
    """Viewport-sized screenshot under artifacts/layout (and docs/screenshots when asked)."""
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, ARTIFACTS / "layout" / f"{name}.png", full_page=False)
    screenshot(page, ARTIFACTS / "layout" / f"{name}-full.png", full_page=True)
    docs = os.environ.get("LAIR_SCREENSHOTS")
    if docs:
        shutil.copy(ARTIFACTS / "layout" / f"{name}.png", ROOT / docs / f"{name}.png")
        if docs_name:
            shutil.copy(ARTIFACTS / "layout" / f"{name}.png", ROOT / docs / f"{docs_name}.png")


# Each count of a seat panel's player board (seat-board.js stat): its accessible name, its word
# shown or not, the word's font size, and whether a title is left (a native tooltip, which a
# touch screen never shows, instead of a card).
SEAT_WORDS_JS = """() => [...document.querySelectorAll('#seats .sb-stat')].map((s) => {
  const w = s.querySelector('.sb-word');
  return {label: s.getAttribute('aria-label') || '', title: s.hasAttribute('title'),
          word: w ? w.textContent : null, shown: !!w && w.getBoundingClientRect().width > 0,
          px: w ? parseFloat(getComputedStyle(w).fontSize) : 0,
          // (a desktop's compact seat column folds the other seats' boards behind "Details")
          folded: !!s.closest('.seat-panel.folded')};
})"""


def check_seat_words(page, size: str, game: str) -> None:
    """Review item 4: every picture with a count in the seat panels has its name (an accessible
    name, and its words as a card on hover or long-press rather than a title); on a desktop the
    counts of the game's pieces also show their word, at the body's 14 px."""
    stats = page.evaluate(SEAT_WORDS_JS)
    assert stats, (game, size, "no player board in the seat panels")
    for st in stats:
        assert re.search(r"\w.*: \S", st["label"]), (game, size, st)
        assert not st["title"], (game, size, "a title, not a card", st)
        if st["word"] is not None and not st["folded"]:
            assert st["shown"] == (size == "desktop"), (game, size, st)
            assert size != "desktop" or st["px"] >= 14, (game, size, st)
    assert size != "desktop" or sum(st["shown"] for st in stats) >= 4, (game, stats)


# Evil Corp.'s conquest tracks (review item 9): the size of their steps and of the token, the
# word's font size and whether it is shown, and any overlap of a half's owner box (name,
# conquest track) with its cells.
CONQUEST_JS = """() => [...document.querySelectorAll('#board .ec-half')].map((h) => {
  const box = (e) => e.getBoundingClientRect();
  const o = box(h.querySelector('.ec-owner')), c = box(h.querySelector('.ec-cells'));
  const steps = [...h.querySelectorAll('.ec-conq .step')].map((s) => Math.min(box(s).width, box(s).height));
  const token = box(h.querySelector('.ec-conq .step.here .ic'));
  const word = h.querySelector('.ec-conq-word');
  return {steps, token: Math.min(token.width, token.height),
          word: box(word).width > 0 ? parseFloat(getComputedStyle(word).fontSize) : 0,
          overlap: o.right > c.left + 0.5 && o.bottom > c.top + 0.5 && c.right > o.left + 0.5 && c.bottom > o.top + 0.5};
})"""


def check_conquest_rows(page, size: str) -> None:
    """Evil Corp.'s conquest track of every half is drawn at a readable size (steps of at least
    20 px, the token of 16 px: it was a 12 px shield; the word "Conquest" at the body's size
    where it is shown: 14 px on a desktop, 13 px on a phone) and overlaps none of the half's
    cells."""
    halves = page.evaluate(CONQUEST_JS)
    assert halves, size
    for h in halves:
        assert h["steps"] and min(h["steps"]) >= 20 and h["token"] >= 16, (size, h)
        assert h["word"] >= (14 if size == "desktop" else 13) or (size == "phone" and h["word"] == 0), (size, h)
        assert size != "desktop" or h["word"], (size, "no word for the conquest track", h)
        assert not h["overlap"], (size, h)


#: The smallest marks a player reads on a board (table review, worst problem 10 "Tiny marks"):
#: per game, a CSS selector of the marks as drawn, the side measured, the least it may be in CSS
#: px at 1366 px and at 375 px, and what each mark must lie inside (its closest such element).
#: Covil's troops on the map (a meeple's keyed wrapper: its figure) were ~12 px at 1366x768;
#: Drops of Evil's Income flames under the Brewer's columns and beside the Distiller's Vials
#: (the drop itself) ~8 px on a desktop, ~6 px on a phone (drawn larger, the Distiller's
#: spilled over its panel's edge on a phone).
MARKS = {"covil": ("#board .cv-map [data-motion-key]", "height", 18, ".cv-map"),
         "drops_of_evil": ("#board .doe-flames .doe-flame-i > path:first-of-type", "width", 12, ".doe-panel")}

MARKS_JS = """([sel, side, within]) => {
  const marks = [...document.querySelectorAll(sel)].filter((e) => e.getBoundingClientRect().width);
  const out = marks.filter((e) => {
    const r = e.getBoundingClientRect(), box = e.closest(within).getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
  });
  return {sizes: marks.map((e) => Math.round(e.getBoundingClientRect()[side] * 10) / 10), out: out.length};
}"""


def check_marks(page, size: str, game: str) -> None:
    """The game's small marks (MARKS) are drawn at least their least size, inside their part of
    the board."""
    if game not in MARKS:
        return
    sel, side, least, within = MARKS[game]
    got = page.evaluate(MARKS_JS, [sel, side, within])
    sizes = got["sizes"]
    print(f"{game} ({size}): the {side}s of {sel}: {sorted(set(sizes))}; outside {within}: {got['out']}")
    assert sizes, (game, size, "no mark drawn", sel)
    assert min(sizes) >= least, (game, size, f"a mark under {least} px", sel, sorted(set(sizes)))
    assert not got["out"], (game, size, f"{got['out']} marks outside their {within}", sel)


# The page's main buttons (.btn-primary, the prompt bar's and the suggestion's) and its danger
# buttons (Resign, Cancel the match): each one's background, words' colour and their contrast.
BUTTONS_JS = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [.2126, .7152, .0722][i], 0);
  const sel = '.btn-primary, .action-btn:not(.btn-secondary), .hint-play, .btn-danger';
  return [...document.querySelectorAll(sel)].filter((b) => b.getClientRects().length).map((b) => {
    const cs = getComputedStyle(b), bg = rgb(cs.backgroundColor), fg = rgb(cs.color);
    const L1 = lum(bg), L2 = lum(fg);
    return {text: b.innerText.replace(/\\s+/g, " ").trim(), danger: b.classList.contains("btn-danger"), bg, fg,
            play: b.classList.contains("hint-play"), bar: !!b.closest("#prompt-bar"),
            hintBlue: rgb(getComputedStyle(b).getPropertyValue("--mark-hint").replace(/^\\s*#/, "").match(/../g)
              .map((h) => parseInt(h, 16)).join(",")),
            red: bg[0] - Math.max(bg[1], bg[2]) >= 40, contrast: (Math.max(L1, L2) + .05) / (Math.min(L1, L2) + .05)};
  });
}"""


def check_buttons(page, where: str) -> list[dict]:
    """The main buttons are not the danger colour (review 8, problem 5: the filled red "Pass",
    "End turn", "Play it", "Watch the replay" read as danger, next to the dark-red "Resign") and
    their words read at WCAG AA (4.5:1); the danger buttons stay red. A suggestion's "Play it" is
    in the suggestion's blue (--mark-hint, docs/renderer-contract.md "Marks"), unlike every other
    button in the bar (review 9, problem 7: "Pass" and "Play it" both bone white, two main buttons
    in one bar). Returns the buttons."""
    got = page.evaluate(BUTTONS_JS)
    for b in got:
        if b["danger"]:
            assert b["red"], (where, "a danger button is not red", b)
        else:
            assert not b["red"], (where, "a main button in the danger colour", b)
            assert b["contrast"] >= 4.5, (where, "a main button's words under 4.5:1", b)
    for play in (b for b in got if b["play"]):
        assert play["bg"][:3] == play["hintBlue"][:3], (where, '"Play it" is not the suggestion\'s blue', play)
        same = [b["text"] for b in got if b["bar"] and not b["play"] and b["bg"][:3] == play["bg"][:3]]
        assert not same, (where, 'a button in the bar looks like "Play it"', same, play)
    return got


# The log box (#log): a line its top edge cuts (review 8, problem 10: the first visible line
# cut mid-entry in nearly every desktop table and replay shot), and how far it is scrolled.
LOG_TOP_JS = """() => {
  const box = document.getElementById("log");
  if (!box || !box.getClientRects().length) return null;
  const top = box.getBoundingClientRect().top + box.clientTop;
  const cut = [...box.children].filter((li) => li.getClientRects().length).map((li) => li.getBoundingClientRect())
    .find((r) => r.top < top - 1 && r.bottom > top + 1);
  return {scrollTop: box.scrollTop, top, cut: cut ? {top: cut.top, bottom: cut.bottom} : null};
}"""


def check_log_top(page, where: str) -> None:
    """The log's first visible line is whole (log.js wholeTop)."""
    got = page.evaluate(LOG_TOP_JS)
    assert got is None or got["cut"] is None, (where, "the log's first visible line is cut", got)


# Drops of Evil's Alchilab tabs: each one whole inside the row and the window, its name uncut.
DOE_TABS_JS = """() => {
  const row = document.querySelector("#board .doe-tabs");
  if (!row) return null;
  const r = row.getBoundingClientRect();
  return {scrolls: row.scrollWidth > row.clientWidth + 1, tabs: [...row.querySelectorAll(".doe-tab")].map((t) => {
    const q = t.getBoundingClientRect(), n = t.querySelector(".doe-name");
    return {text: t.innerText.replace(/\\s+/g, " ").trim(), left: q.left, right: q.right,
            whole: q.left >= r.left - 1 && q.right <= r.right + 1 && q.left >= 0 && q.right <= innerWidth + 1,
            nameCut: !!n && n.scrollWidth > n.clientWidth + 1};
  })};
}"""


def check_layout(page, size: str) -> None:
    """Nothing sticks out sideways (the page never scrolls horizontally) and no text is cut."""
    got = page.evaluate(LAYOUT_JS)
    assert got["scroll"] <= got["width"], (size, got)
    assert not got["wide"], (size, got["wide"])
    assert not got["cut"], (size, got["cut"])


def check_prompt_bar(page, size: str) -> int:
    """The prompt bar is on screen and every button in it is whole, uncovered and big enough to
    tap on a phone; returns how many buttons there are."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    got = page.evaluate(PROMPT_JS)
    left, top, right, bottom = got["bar"]
    assert left >= 0 and right <= width + 0.5, (size, got["bar"])
    assert top < height and bottom > 0, (size, got["bar"])
    assert got["scroll"] <= 1, (size, "the prompt bar scrolls sideways")
    # the board keeps most of the screen; many choices wait in the bar's menu
    assert bottom - top <= 0.25 * height, (size, "the prompt bar takes over a quarter", got["bar"])
    # ... and shows all it holds: nothing hides in an overflow that scrolls without a cue
    # (issue 14 item 7; the least-used buttons wait in its menu instead: prompt.js)
    assert got["open"] or got["below"] <= 1, (size, "part of the prompt bar is scrolled out of sight", got)
    for b in got["buttons"]:
        assert b["hit"], (size, "covered", b)
        assert not b["cut"], (size, "text cut", b)
        assert b["left"] >= 0 and b["right"] <= width + 0.5, (size, b)
        if size == "phone":
            assert b["h"] >= 40, (size, "too small to tap", b)
    page.evaluate("window.scrollTo(0, 0)")
    return len(got["buttons"])


def settle_scroll(page) -> None:
    """Wait until the page stops scrolling (two reads 150 ms apart agree)."""
    last = page.evaluate("scrollY")
    for _ in range(20):
        page.wait_for_timeout(150)
        now = page.evaluate("scrollY")
        if now == last:
            return
        last = now


def open_as(browser, cookies, size: str, url: str):
    """A page at ``size`` in a fresh context carrying the host's cookies, opened at ``url``."""
    return open_page(browser, SIZES[size], url, cookies)


def open_page(browser, size: dict, url: str, cookies=None):
    """A page in a fresh context of ``size`` (Playwright's context options), reduced motion,
    carrying ``cookies`` if any, opened at ``url``; ``page.js_errors`` collects page errors."""
    ctx = browser.new_context(**size, reduced_motion="reduce")
    if cookies:
        ctx.add_cookies(cookies)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(url)
    return page


@pytest.fixture(scope="module")
def site(browser, lair_server):
    """The host's cookies and, per game, a started match the host has made moves in."""
    ctx = browser.new_context(**DESKTOP)
    host = ctx.new_page()
    host.goto(lair_server + "/")
    name_yourself(host, "Morgana")
    matches = {}
    for game, players in GAMES:
        host.goto(lair_server + "/")
        host.check(f"#game-{game}")
        host.select_option(f"#players-{game}", str(players))
        host.click("#create")
        host.wait_for_selector("#start")
        matches[game] = re.search(r"/m/(\w+)", host.url).group(1)
    # Matches start when a test first needs them running (test_table_mid_match, or
    # test_replay run alone): the waiting room test (first) sees empty seats.
    started: dict[str, dict] = {}  # match id -> what its host saw (start_and_play)

    def start(mid: str) -> dict:
        if mid not in started:
            started[mid] = start_and_play(host, lair_server, mid)
        return started[mid]
    yield {"cookies": ctx.cookies(), "matches": matches, "server": lair_server, "start": start}
    ctx.close()


#: Per game, the phases (the header's word after "·") whose first host turn test_table_mid_match
#: finds checked for the desktop's 14 px text floor (phase_floor), besides the one the table is
#: looked at in: Drops of Evil's Brewing. (The host's moves here meet no Night in the other two:
#: test_evil_corp_table checks it at the night keep, test_covil_table_clicks in a combat.)
PHASES = {"drops_of_evil": {"Placement", "Brewing"}, "evil_corp": {"Day"}, "covil": {"Place", "Afternoon"}}

#: Where the prompt bar is measured at every host turn (issue 14, item 7: at most a quarter of
#: the window at 1366×768 and at 375×812).
BAR_SIZES = {"1366x768": {"width": 1366, "height": 768}, "375x812": {"width": 375, "height": 812}}

BAR_JS = """() => {
  const bar = document.getElementById("prompt-bar"), board = document.getElementById("board");
  const r = bar.getBoundingClientRect(), b = board.getBoundingClientRect();
  return {share: r.height / innerHeight, height: r.height, text: document.getElementById("prompt-text").innerText,
          buttons: bar.querySelectorAll("button").length,
          // at rest (page at the top: a redraw may be scrolling it to the place to decide)
          above: scrollY === 0 ? r.bottom <= b.top + 1 : null};
}"""


def measure_bar(host, tallest: dict) -> None:
    """The prompt bar's share of the window at each of BAR_SIZES, page scrolled to the top (its
    resting place under the header, above the board); the tallest seen per size is kept in
    ``tallest``. The host's page goes back to DESKTOP after."""
    for name, size in BAR_SIZES.items():
        host.set_viewport_size(size)
        host.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        host.evaluate("window.scrollTo(0, 0)")
        got = host.evaluate(BAR_JS)
        assert got["above"] is not False, (name, "the prompt bar lies over the board", got)
        if got["share"] > tallest.get(name, {"share": 0})["share"]:
            tallest[name] = got
    host.set_viewport_size(DESKTOP["viewport"])


def phase_floor(host, floors: dict) -> None:
    """At the host's first turn in each phase (the header's "Round 2 · Night": "Night"), the
    table's text under the desktop's 14 px at 1366x768 and 1920x1080 (desktop_text_sizes),
    kept in ``floors`` by phase: the floor checked beyond the one moment test_table_mid_match
    looks at."""
    phase = host.inner_text("#round-phase").split("\u00b7")[-1].strip()
    if phase not in floors:
        floors[phase] = desktop_text_sizes(host)


def start_and_play(host, server: str, mid: str) -> dict:
    """Fill the match's empty seats with easy bots, start it on :data:`SEED`'s deal and make
    some host moves; returns ``{"bars": the tallest prompt bar seen at each of BAR_SIZES
    (measure_bar), "floors": the text under 14 px per phase (phase_floor)}``."""
    host.goto(f"{server}/m/{mid}")
    fill_and_start(host, seed=SEED)
    tallest: dict = {}
    floors: dict = {}

    def on_turn(page) -> None:
        measure_bar(page, tallest)
        phase_floor(page, floors)
    host_moves(host, Rng(7), HOST_MOVES, on_turn=on_turn)
    return {"bars": tallest, "floors": floors}


def test_lobby_and_waiting_room(browser, site):
    """The lobby (name set, matches listed) and a waiting room with empty seats."""
    for size in SIZES:
        page = open_as(browser, site["cookies"], size, site["server"] + "/")
        page.wait_for_selector("#create")
        save(page, f"lobby-{size}")
        check_layout(page, size)
        assert [b["text"] for b in check_buttons(page, f"the lobby ({size})") if not b["danger"]], "no main button"
        if size == "desktop":
            check_text_sizes(page, size, "the lobby", root="body")
        page.goto(f"{site['server']}/m/{site['matches'][GAMES[0][0]]}")
        page.wait_for_selector("#start")
        save(page, f"waiting-{size}")
        check_layout(page, size)
        check_buttons(page, f"the waiting room ({size})")
        # badges read the same at both sizes (the review of 2026-12-07: "3 PLAYERS", "HOST",
        # "YOU" on the phone, "3 Players", "Host", "You" on the desktop)
        assert page.inner_text("#player-count") == "3 Players", size
        if size == "phone":
            for b in page.locator("main button").all():
                if not b.is_visible():  # e.g. inside the closed "Cancel match?" dialog
                    continue
                assert b.bounding_box()["height"] >= 40, b.inner_text()
        assert page.js_errors == []
        page.context.close()


def test_waiting_room_with_a_bot_reads_at_14px(browser, lair_server):
    """The desktop's 14 px text floor (issue 14 "Done when") in a waiting room with a bot seated
    and an empty seat: the seat's bot, the bot level pickers and what the bot levels mean
    (opened). Screenshot: layout/waiting-bot-desktop.png."""
    page = new_table(browser, lair_server, DESKTOP_768, "covil", 3, "Baltazar", bots=False)
    try:
        page.click("#bot-1")
        page.wait_for_selector("#seats li strong:has-text('Bot')")
        page.locator("#bot-levels > summary").click()
        assert page.locator("#bot-levels dd").first.is_visible()
        screenshot(page, ARTIFACTS / "layout" / "waiting-bot-desktop.png", full_page=True)
        check_text_sizes(page, "desktop", "the waiting room with a bot", root="body")
        assert page.js_errors == []
    finally:
        page.context.close()


#: Per game, what a player needs beside the board that lay below the first screen at 1366x768
#: (issue 14): each of these (a CSS selector) wholly in the window below the prompt bar, some of
#: them ("any") or every one ("all"). Drops of Evil's Toxicity Track (the Alchilab's lay under the
#: Brewer and the pool; the host's seat panel, kept in view beside the board, now shows it too);
#: Covil's active Power Relics in the host's hall (cards under the Minions, at y≈800).
FIRST_SCREEN = {"drops_of_evil": ("any", "[aria-label^='Toxicity Track']"),
                "covil": ("all", "#board .cv-hall.mine .cv-card.relic, #board .cv-hall.mine .cv-relic-chip")}

FIRST_SCREEN_JS = """(sel) => {
  const bar = document.getElementById("prompt-bar").getBoundingClientRect();
  const top = bar.top <= 0.5 ? bar.bottom : 0;
  return [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length).map((e) => {
    const r = e.getBoundingClientRect();
    return {text: e.innerText.replace(/\\s+/g, " ").slice(0, 40), top: Math.round(r.top), bottom: Math.round(r.bottom),
            seen: r.top >= top - 0.5 && r.bottom <= innerHeight + 0.5};
  });
}"""


def activate_a_relic(page) -> bool:
    """Covil: the host buys a Power Relic when she holds none (the bar's button) and activates
    the first one in her hand (a click on its card), so that her hall has one active; False when
    her turn offers neither (the bots' course varies: nothing to look at then)."""
    def act(selector: str) -> bool:
        if not page.locator(selector).count():
            return False
        before = page.evaluate("document.body.dataset.version")
        page.locator(selector).first.click()
        page.wait_for_function("(v) => document.body.dataset.version !== v && document.body.dataset.pending !== 'true'",
                               arg=before, timeout=10_000)
        return True
    hand = "#board .cv-hand .cv-card.legal[data-action*='\"activate\"']"
    if not page.locator(hand).count() and not act("#prompt-actions [data-action*='\"buy_relic\"']"):
        return False
    page.wait_for_timeout(200)  # (the bought relic drawn in her hand)
    return act(hand)


def check_first_screen(page, game: str) -> None:
    """FIRST_SCREEN at 1366x768: the table opened again at that size, where it brings the host's
    decision into view (settle_scroll). Screenshot: layout/<game>-first-screen-1366x768.png."""
    how, sel = FIRST_SCREEN[game]
    if game == "covil" and not page.locator(sel).count() and not activate_a_relic(page):
        print("covil: no Power Relic to buy or activate on this turn; nothing to look for")
        return
    page.set_viewport_size(DESKTOP_768["viewport"])
    page.reload()
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=20_000)
    page.wait_for_timeout(300)  # fonts and the first paint settle
    settle_scroll(page)
    screenshot(page, ARTIFACTS / "layout" / f"{game}-first-screen-1366x768.png", full_page=False)
    got = page.evaluate(FIRST_SCREEN_JS, sel)
    print(f"{game} at 1366x768, scrollY {page.evaluate('scrollY')}: {got}")
    assert got, (game, "nothing to look for", sel)
    assert (any if how == "any" else all)(g["seen"] for g in got), (game, "below the first screen at 1366x768", got)


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_table_mid_match(browser, site, game):
    """Each game's table mid-match, from the host's seat on their turn, at both sizes."""
    mid = site["matches"][game]
    seen = site["start"](mid)
    for name, got in seen["bars"].items():
        print(f"\n{game}: the tallest prompt bar at {name}: {got['height']:.0f} px "
              f"({got['share']:.0%} of the window), {got['buttons']} buttons, prompt {got['text']!r}")
        assert got["share"] <= 0.25, (game, name, got)
    # the desktop's 14 px floor at the host's first turn of each phase too (phase_floor)
    print(f"{game}: the phases of the host's turns: {list(seen['floors'])}")
    assert PHASES[game] <= set(seen["floors"]), (game, list(seen["floors"]))
    for phase, tiny in seen["floors"].items():
        assert not tiny, (game, phase, "text under 14 px on a desktop", tiny)
    url = f"{site['server']}/m/{mid}"
    watcher = None  # a spectator (opened from the host's spectator link): the header counts them
    for size in SIZES:
        page = open_as(browser, site["cookies"], size, url)
        page.wait_for_function("document.body.dataset.version !== undefined")
        if watcher is None:
            watcher = browser.new_context(**DESKTOP).new_page()
            watcher.goto(page.input_value("#watch-link"))
            watcher.wait_for_function("document.body.dataset.version !== undefined")
        page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=20_000)
        page.wait_for_function("Number(document.getElementById('spectators').dataset.count) >= 1")
        page.wait_for_timeout(300)  # fonts and the renderer's first paint settle
        settle_scroll(page)  # the table brings the decision into view (smoothly)
        save(page, f"{game}-{size}", game if size == "desktop" else None)
        no_codes(page, game, f"the table ({size})")
        check_layout(page, size)
        check_text_sizes(page, size, f"{game}, the table")
        if size == "phone":
            check_phone_header(page, game)
            # the last move under the prompt bar, on the first screen (review item 5)
            last = page.evaluate("""() => {
              const r = document.getElementById("last-move-box").getBoundingClientRect();
              const log = [...document.querySelectorAll("#log > li.log-entry")];
              return {text: document.getElementById("last-move").innerText.trim(), top: r.top,
                      bottom: r.bottom, height: innerHeight,
                      newest: log.length ? log[log.length - 1].innerText.trim() : ""};
            }""")
            assert last["text"] and last["text"] == last["newest"], (game, last)
            assert 0 <= last["top"] and last["bottom"] <= last["height"], (game, last)
        check_seat_words(page, size, game)
        check_marks(page, size, game)
        check_buttons(page, f"{game}, the table ({size})")
        if size == "desktop":
            check_log_top(page, f"{game}, the table")
        if game == "drops_of_evil":  # (three seats: "Easy bot 3" was cut at the phone's edge)
            tabs = page.evaluate(DOE_TABS_JS)
            assert tabs and not tabs["scrolls"], (size, tabs)
            assert all(t["whole"] and not t["nameCut"] for t in tabs["tabs"]), (size, tabs)
        if game == "evil_corp":
            check_conquest_rows(page, size)
        assert page.locator("#board").is_visible()
        assert check_prompt_bar(page, size) >= 0
        if size == "phone":  # stacked: the board spans the screen, seats below it
            board = page.locator("#board").bounding_box()
            assert board["width"] >= 340, board
        if size == "desktop" and game in FIRST_SCREEN:
            check_first_screen(page, game)
        assert page.js_errors == []
        page.context.close()
    watcher.context.close()


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_replay(browser, site, game):
    """The replay of each (running) match at both sizes."""
    mid = site["matches"][game]
    site["start"](mid)
    for size in SIZES:
        page = open_as(browser, site["cookies"], size, f"{site['server']}/m/{mid}/replay")
        # The match runs on (bots), so the count may grow past the step first drawn: wait for
        # that step to be drawn, not for "n / n".
        page.wait_for_function("Number(document.getElementById('replay').dataset.shown || 0) > 0")
        page.wait_for_timeout(300)
        save(page, f"replay-{game}-{size}")
        no_codes(page, game, f"the replay ({size})")
        check_layout(page, size)
        if size == "desktop":
            check_text_sizes(page, size, f"{game}, the replay", root="body")
            check_log_top(page, f"{game}, the replay")
        # the move shown is named in words under the controls, on the first screen (also on
        # the phone), and its lines are marked in the log (tests/browser/test_replay_log.py)
        now = page.evaluate("""() => {
          const li = document.querySelector("#now-lines > li"), r = li.getBoundingClientRect();
          return {label: document.getElementById("now-step").innerText, text: li.innerText.trim(),
                  top: r.top, bottom: r.bottom, height: innerHeight};
        }""")
        assert now["label"].startswith("Move ") and now["text"], (game, size, now)
        assert 0 <= now["top"] and now["bottom"] <= now["height"], (game, size, now)
        for b in page.locator(".replay-controls button").all():
            assert b.is_visible()
            if size == "phone":
                assert b.bounding_box()["height"] >= 40
        assert page.js_errors == []
        page.context.close()


def hover_card(page, selector: str):
    """Hover the first element matching ``selector`` and return the card it shows (again when a
    view redraws it mid-hover: bots move on)."""
    card = page.locator(".card-pop")
    for attempt in range(3):
        icon = page.locator(selector).first
        icon.scroll_into_view_if_needed()
        page.mouse.move(0, 0)
        icon.hover()
        try:
            card.wait_for(timeout=5000)
            return card
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    return card


#: Per game, a small icon of the table and words its hover card must hold (issue 14, item 4).
SMALL_ICONS = {
    "drops_of_evil": (".doe-lab .doe-flames", "Income icon"),
    "evil_corp": (".ec-bhead [aria-label^='Port cargo']", "Port cargo"),
    "covil": (".cv-dom", "Dominance"),
}


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_each_game_has_a_key_and_cards_for_its_small_icons(browser, site, game):
    """Issue 14, items 1 and 4 (review "improve" item 8): each game's board shows a "? Key" that
    a click opens, listing its small pictures with their names in rulebook words (no code among
    them), and a small icon shows its card when hovered. Screenshots: <game>-key-<size>.png."""
    site["start"](site["matches"][game])  # running alone too: the match must be under way
    url = f"{site['server']}/m/{site['matches'][game]}"
    for size in SIZES:
        page = open_as(browser, site["cookies"], size, url)
        page.wait_for_function("document.body.dataset.version !== undefined")
        # on a phone the key opens from the header, beside "More" (item 7: the phone header)
        toggle = page.locator("#board .legend-key > summary" if size == "desktop" else "#key-toggle")
        toggle.wait_for()
        assert toggle.inner_text().strip().endswith("Key")
        if size == "phone":
            assert not page.locator("#board .legend-key > summary").is_visible()
            check_phone_header(page, game)
        toggle.click()
        rows = page.locator("#board .legend-key[open] .legend-row")
        rows.first.wait_for()
        assert rows.count() >= 10, rows.count()
        names = [rows.nth(i).locator("b").first.inner_text() for i in range(rows.count())]
        assert all(n.strip() for n in names), names
        rows.first.scroll_into_view_if_needed()
        screenshot(page, ARTIFACTS / "layout" / f"{game}-key-{size}.png", full_page=False)
        no_codes(page, game, f"the key ({size})")
        check_layout(page, size)
        if size == "phone":  # the sheet closes with its own button, and with the header's Key
            page.locator("#board .legend-key[open] .legend-close").click()
            assert page.locator("#board .legend-key[open]").count() == 0
            toggle.click()
            assert page.locator("#board .legend-key[open]").count() == 1
            toggle.click()
            assert page.locator("#board .legend-key[open]").count() == 0
        if size == "desktop":
            # the key stays open while views arrive (bots move), until a second click closes it
            page.wait_for_timeout(600)
            assert page.locator("#board .legend-key[open]").count() == 1
            toggle = page.locator("#board .legend-key > summary")
            toggle.click()
            assert page.locator("#board .legend-key[open]").count() == 0
            # The hovers on a still table: the host's turn with nobody else to move. After her
            # last move the bots play on for as long as the match's course makes them, and each
            # of their views redraws the board and takes a card away mid-hover.
            page.wait_for_function(
                "document.body.dataset.yourTurn === 'true' && document.body.dataset.pending"
                " !== 'true' && document.querySelectorAll('#seats .seat-panel.is-waiting')"
                ".length === 1", timeout=30_000)
            selector, words = SMALL_ICONS[game]
            card = hover_card(page, f"#board {selector}")
            assert words.lower() in card.inner_text().lower(), card.inner_text()
            # an open card at the desktop's 14 px text floor too
            assert not desktop_tiny(page, ".card-pop"), (game, desktop_tiny(page, ".card-pop"))
            # a seat panel's count too (review item 4): its words as a card
            stat = page.locator("#seats .sb-stat").first
            name = stat.get_attribute("aria-label").rsplit(":", 1)[0]
            card = hover_card(page, "#seats .sb-stat")
            assert name in card.inner_text(), (name, card.inner_text())
            assert not desktop_tiny(page, ".card-pop"), (game, desktop_tiny(page, ".card-pop"))
        assert page.js_errors == []
        page.context.close()


# ----- a new user's trial (Covil's afternoon on a phone, a Forest of 4, a long desktop header) --

PHONE_812 = {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True,
             "has_touch": True}
DESKTOP_768 = {"viewport": {"width": 1366, "height": 768}}


def new_table(browser, server: str, size: dict, game: str, players: int, name: str = "Morgana",
              bots: bool = True):
    """A page of ``size`` whose user ``name`` created a ``players``-seat ``game`` match in the
    lobby; with ``bots`` the empty seats go to Easy bots and the match starts (the page is then
    its table), else the page stays in the waiting room."""
    ctx = browser.new_context(**size, reduced_motion="reduce")
    page = ctx.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    host_new_match(page, server, name, game, players)
    if bots:
        fill_and_start(page)
    return page


# The prompt bar and what it offers: its height, what of its content is scrolled out of sight,
# and for each action button and "Suggest a move": in the bar's closed menu, or whole inside
# the bar and not covered.
BAR_FIT_JS = """() => {
  const bar = document.getElementById("prompt-bar"), r = bar.getBoundingClientRect();
  const menu = bar.querySelector("details.action-menu");
  const items = [...bar.querySelectorAll("#prompt-actions [data-action], #hint-ask")]
    .filter((b) => !b.hidden && !(b.closest(".hint-box") || {}).hidden);
  return {height: r.height, below: bar.scrollHeight - bar.clientHeight, open: !!(menu && menu.open),
          toggle: menu ? menu.querySelector("summary").textContent : null,
          items: items.map((b) => {
            const q = b.getBoundingClientRect();
            const hit = q.height ? document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2) : null;
            return {text: b.textContent, menu: !!b.closest("details.action-menu:not([open]) > .action-menu-body"),
                    shown: q.height > 0 && q.top >= r.top - 1 && q.bottom <= r.bottom + 1 && !!hit && b.contains(hit)};
          })};
}"""


def test_covil_afternoon_prompt_fits_the_phone_bar(browser, lair_server):
    """The new-user trial's Covil afternoon at 375×812: three action buttons and "Suggest a
    move" overflowed the prompt bar's quarter of the screen, "Suggest a move" clipped inside it
    with no cue that it scrolls (issue 14, item 7). Now the bar keeps to its quarter with nothing
    below its edge: every button is whole in the bar, or waits in its menu ("More"), where a
    tap opens it. "Suggest a move" stays in the bar's row, one tap away, as in the other games
    (the trial found it behind "3 more"), also once the move is made ("Undo" then in the row):
    a tap asks, and the bar with the suggestion shown keeps well under a quarter of the screen
    (the trial: about 26 % with the last move under it). Screenshots: layout/covil-afternoon-phone*.png."""
    page = new_table(browser, lair_server, PHONE_812, "covil", 2)
    try:
        for _ in range(12):  # Place: the fortress (a tap on a green zone), then the afternoon
            page.wait_for_function("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'",
                                   timeout=20_000)
            if "Afternoon" in page.inner_text("#round-phase"):
                break
            before = page.evaluate("document.body.dataset.version")
            page.locator("#board [data-action]").first.tap()
            page.wait_for_function(f"document.body.dataset.version !== {before!r}")
        assert "Afternoon" in page.inner_text("#round-phase")
        page.wait_for_function("document.body.dataset.hint === 'ready'")
        page.wait_for_timeout(300)  # fonts settle; the decision is brought into view
        page.evaluate("window.scrollTo(0, 0)")
        got = page.evaluate(BAR_FIT_JS)
        screenshot(page, ARTIFACTS / "layout" / "covil-afternoon-phone.png", full_page=False)
        print("\ncovil afternoon at 375x812:", got)
        # (a troop's Rest / Gain gold / Repair are on the board under the map once the troop is
        # tapped, not in a phone's bar: what stays is the Day's own, e.g. "Buy a Power Relic")
        assert len([i for i in got["items"] if i["text"] != "Suggest a move"]) >= 1, got
        assert "Suggest a move" in [i["text"] for i in got["items"]], got
        assert got["height"] <= 0.25 * 812, got
        assert got["below"] <= 1, ("part of the prompt bar is scrolled out of sight", got)
        for item in got["items"]:
            assert item["shown"] or item["menu"], ("neither in the bar nor in its menu", item, got)
        ask = next(i for i in got["items"] if i["text"] == "Suggest a move")
        assert ask["shown"] and not ask["menu"], ("Suggest a move is not one tap away", got)
        if any(i["menu"] for i in got["items"]):
            page.locator("#prompt-actions details.action-menu > summary").tap()
            page.wait_for_function("document.querySelector('#prompt-actions details.action-menu').open")
            screenshot(page, ARTIFACTS / "layout" / "covil-afternoon-phone-menu.png", full_page=False)
            check_prompt_bar(page, "phone")  # each button, the menu's too: whole and not covered
            page.locator("#prompt-actions details.action-menu[open] > summary", has_text="Close").tap()
            page.wait_for_function("!document.querySelector('#prompt-actions details.action-menu[open]')")
        # one tap, in the bar's row; again if the server had no search worker free in time (a
        # loaded run: the bots' matches of this module's site share its one worker; a toast says
        # "busy" and the button stays)
        for _ in range(3):
            page.locator("#hint-ask").tap()
            page.wait_for_function("document.body.dataset.hint !== 'asked'", timeout=60_000)
            if page.evaluate("document.body.dataset.hint") == "shown":
                break
            page.wait_for_function("document.body.dataset.hint === 'ready'", timeout=30_000)
        assert page.evaluate("document.body.dataset.hint") == "shown", "no suggestion in three asks"
        page.evaluate("window.scrollTo(0, 0)")
        page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        shown = page.evaluate("""() => ({bar: document.getElementById("prompt-bar").getBoundingClientRect().height / innerHeight,
            last: document.getElementById("last-move-box").getBoundingClientRect().height / innerHeight})""")
        screenshot(page, ARTIFACTS / "layout" / "covil-afternoon-phone-hint.png", full_page=False)
        print("with the suggestion shown:", shown)
        assert shown["bar"] <= 0.23, ("the bar with the suggestion takes near a quarter of the screen", shown)
        page.locator("#hint-answer .hint-dismiss").tap()
        # the move made by taps (the troop, then a zone): the next prompt has "Undo" in the row,
        # and "Suggest a move" still one tap away
        before = page.evaluate("document.body.dataset.version")
        page.locator("#board [data-pick]").first.tap()
        page.locator("#board .zone-legal").first.tap()
        page.wait_for_function(f"document.body.dataset.version !== {before!r} && document.body.dataset.yourTurn === 'true'"
                               " && document.body.dataset.pending !== 'true'", timeout=20_000)
        page.wait_for_timeout(300)
        got = page.evaluate(BAR_FIT_JS)
        print("after the move:", got)
        assert any(i["text"].startswith("Undo") for i in got["items"]), got
        ask = next(i for i in got["items"] if i["text"] == "Suggest a move")
        assert ask["shown"] and not ask["menu"], ("Suggest a move is not one tap away after the move", got)
        assert page.js_errors == []
    finally:
        page.context.close()


FOREST_JS = """() => {
  const box = document.querySelector("#board .doe-forest-box"), wrap = box && box.querySelector(".doe-forest-wrap");
  if (!box || !wrap) return null;
  const shown = (e) => !!e && e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== "hidden";
  const frame = box.querySelector(".doe-forest-frame");
  return {wide: wrap.scrollWidth, frame: wrap.clientWidth, at: wrap.scrollLeft,
          cue: shown(box.querySelector(".doe-forest-cue")), text: (box.querySelector(".doe-forest-cue-text") || {}).textContent,
          right: shown(box.querySelector(".doe-forest-right")), left: shown(box.querySelector(".doe-forest-left")),
          fadeRight: frame ? getComputedStyle(frame, "::after").opacity : null,
          fadeLeft: frame ? getComputedStyle(frame, "::before").opacity : null,
          focused: document.activeElement ? document.activeElement.getAttribute("aria-label") : null};
}"""


def test_drops_forest_of_four_says_it_scrolls_sideways(browser, lair_server):
    """The new-user trial's 4-player Drops of Evil at 375×812: the Forest (eight columns, ~400 px
    in ~338) scrolled sideways in its box with no cue. Now its right edge fades and a row under
    it says there is more, with an arrow button: a tap scrolls it; by keyboard (Enter) it goes
    on to the end, where the right arrow and fade go and the left ones lead back.
    Screenshots: layout/drops-forest-4-phone*.png."""
    page = new_table(browser, lair_server, PHONE_812, "drops_of_evil", 4)
    try:
        page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=20_000)
        page.locator("#board .doe-forest-wrap").scroll_into_view_if_needed()
        # (drops.css is linked in the page's head: the Forest is never drawn unstyled — CI once
        # measured it before an injected stylesheet arrived: 338 in 338, every cue shown)
        links = page.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.getAttribute('href'))")
        assert links.count("/static/games/drops_of_evil/drops.css") == 1, links
        page.wait_for_function(f"(() => {{ const g = ({FOREST_JS})(); return g && g.right && g; }})()",
                               timeout=5000)
        got = page.evaluate(FOREST_JS)
        screenshot(page, ARTIFACTS / "layout" / "drops-forest-4-phone.png", full_page=False)
        print("\nthe Forest of 4 at 375x812:", got)
        assert got["wide"] > got["frame"] + 20, ("the Forest fits: nothing to cue", got)
        assert got["cue"] and got["right"] and not got["left"], got
        assert "right" in got["text"], got
        assert got["fadeRight"] == "1" and got["fadeLeft"] == "0", got
        page.locator("#board .doe-forest-right").tap()
        page.wait_for_function("document.querySelector('#board .doe-forest-wrap').scrollLeft > 0")
        page.locator("#board .doe-forest-right").focus()  # a button in the tab order
        for _ in range(6):
            if not page.evaluate(FOREST_JS)["right"]:
                break
            page.keyboard.press("Enter")
            page.wait_for_timeout(100)
        got = page.evaluate(FOREST_JS)
        screenshot(page, ARTIFACTS / "layout" / "drops-forest-4-phone-end.png", full_page=False)
        assert got["at"] + got["frame"] >= got["wide"] - 2, ("Enter did not reach the end", got)
        assert not got["right"] and got["left"] and got["fadeRight"] == "0" and got["fadeLeft"] == "1", got
        assert got["focused"] == "Scroll the Forest left", ("the focus was lost at the end", got)
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('#board .doe-forest-wrap').scrollLeft < {got['at']}")
        assert page.js_errors == []
    finally:
        page.context.close()


# The desktop header's rows: its height and the top of each of its parts shown.
HEADER_ROW_JS = """() => {
  const h = document.getElementById("table-header");
  const parts = [...h.querySelectorAll(":scope > *, .table-tools > *")]
    .filter((e) => e.getBoundingClientRect().width > 0 && !e.classList.contains("table-tools") && e.tagName !== "DIALOG");
  const turn = document.querySelector("#turn .turn-text");
  return {height: h.getBoundingClientRect().height, tops: parts.map((e) => Math.round(e.getBoundingClientRect().top)),
          turn: document.getElementById("turn").textContent, title: turn ? turn.title : null};
}"""


def check_one_row(page, who: str) -> dict:
    """The desktop header keeps to one row of parts (52 px; it wrapped to 82), no word of it
    cut (the third new-user trial: a long turn line wraps to a second line of the row, within
    72 px, rather than end in "…"), the whole turn line in the tooltip of its words."""
    from tests.browser.test_header_fit import CUT_JS
    got = page.evaluate(HEADER_ROW_JS)
    assert got["height"] <= 72, (who, "the header wraps", got)
    assert max(got["tops"]) - min(got["tops"]) <= 20, (who, got)
    cut = page.evaluate(CUT_JS)
    assert cut["cut"] == [] and cut["past"] == [], (who, cut)
    if got["title"] is not None:
        assert got["title"] == got["turn"].strip(), (who, got)
    return got


def test_desktop_header_keeps_one_row_with_long_names(browser, lair_server):
    """The new-user trial's desktop header (1366×768) wrapped to two rows with a long turn line
    ("YOUR TURN · also waiting for ■ Hard bot 3") and for Covil's host (Links, Resign, a
    spectator). A 4-player Evil Corp. match of four people with long names (the seats of a team
    play at once: "also waiting for" the partner), and Covil's host with a spectator: one row
    each, no word cut (the pace steps aside, the turn line wraps). Screenshots:
    layout/header-long-*.png."""
    names = ["Morgana the Magnificent", "Baltazar of the Deep Pit", "Cleopatra Nightshade", "Dracula von Transylvan"]
    host = new_table(browser, lair_server, DESKTOP_768, "evil_corp", 4, names[0], bots=False)
    pages = [host]
    try:
        invite = host.input_value("#invite-link")
        for seat in (1, 2, 3):
            p = browser.new_context(**DESKTOP_768, reduced_motion="reduce").new_page()
            pages.append(p)
            p.goto(invite)
            name_yourself(p, names[seat])
            p.click(f"#take-{seat}")
            host.wait_for_selector(f"#seats li[data-seat='{seat}'] strong")
        host.click("#start")
        for p in pages:
            p.wait_for_selector("#table")
            p.wait_for_function("document.body.dataset.version !== undefined")
        # the team with the first player's token plays: its two seats are "also waiting for"
        # each other, the other two wait for both
        also = "document.getElementById('turn').textContent.includes('also waiting for')"
        host.wait_for_function(f"{also} || document.getElementById('turn').textContent.includes(' and ')")
        playing = [p for p in pages if p.evaluate(also)]
        assert len(playing) == 2, [p.evaluate(HEADER_ROW_JS) for p in pages]
        for p, name in zip(pages, names):
            got = check_one_row(p, name)
            print(f"\nEvil Corp. header of {name}:", got)
            if p in playing:
                partner = names[(names.index(name) + 2) % 4]
                assert partner in got["title"], got
        check_layout(host, "desktop")
        screenshot(host, ARTIFACTS / "layout" / "header-long-evil_corp.png", full_page=False)
        screenshot(playing[0], ARTIFACTS / "layout" / "header-long-evil_corp-playing.png", full_page=False)
        # Covil: the longest title; the host's Links and Resign; a spectator
        host.goto(lair_server + "/")
        host.check("#game-covil")
        host.select_option("#players-covil", "4")
        host.click("#create")
        watch = host.input_value("#watch-link")
        fill_and_start(host)
        pages[1].goto(watch)
        host.wait_for_function("Number(document.getElementById('spectators').dataset.count) >= 1")
        host.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=20_000)
        got = check_one_row(host, "Covil's host")
        print("Covil host header:", got)
        # the pace shows whole or steps aside: never "L…" (the second new-user trial)
        pace = host.evaluate("(() => { const p = document.getElementById('pace-summary');"
                             " return {shown: p.getBoundingClientRect().width > 0,"
                             " width: p.clientWidth, whole: p.scrollWidth}; })()")
        assert not pace["shown"] or pace["width"] >= pace["whole"], pace
        check_layout(host, "desktop")
        screenshot(host, ARTIFACTS / "layout" / "header-long-covil.png", full_page=False)
        assert host.js_errors == []
    finally:
        for p in pages:
            p.context.close()


# ----- the top of a phone's table (the fourth new-user trial and a screenshot review) -----------

@pytest.fixture(scope="module")
def hint_server(tmp_path_factory):
    """The real site whose hard searches (and so hints) think 50 ms in one worker."""
    from tests.chromium import lair_process
    with lair_process(tmp_path_factory.mktemp("db") / "lair.db", BOT_THINK_SECONDS="0.05",
                      BOT_WORKERS="1") as url:
        yield url


#: The top of a phone's table at rest (the page at its top): the header, the prompt bar, the
#: last-move line under it; whether the prompt's words lie whole in the bar's visible box
#: (not cut by its edges, not scrolled out of it), the bar's content hidden below its edge,
#: its row of buttons wider than the bar, the open menu's box and the parts of it not shown
#: whole in the window, and what covers each of its buttons.
TOP_JS = """() => {
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                       return r.height ? {top: r.top, bottom: r.bottom, height: r.height} : null; };
  const bar = document.getElementById("prompt-bar"), b = bar.getBoundingClientRect();
  const top = b.top + bar.clientTop, bottom = top + bar.clientHeight;
  const words = [];
  const walk = document.createTreeWalker(document.getElementById("prompt-text"), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const q of range.getClientRects()) if (q.width && q.height) words.push({top: q.top - top, bottom: q.bottom - top});
  }
  const row = document.getElementById("prompt-actions");
  const menu = bar.querySelector("details.action-menu");
  const body = menu && menu.open ? menu.querySelector(".action-menu-body") : null;
  const out = {vh: innerHeight, header: box(document.getElementById("table-header")), bar: box(bar),
               last: box(document.getElementById("last-move-box")), words, clear: bottom - top,
               below: bar.scrollHeight - bar.clientHeight, wide: row.scrollWidth - row.clientWidth,
               text: document.getElementById("prompt-text").innerText,
               toggle: menu ? menu.querySelector("summary").textContent : null,
               row: [...row.children].filter((e) => e.tagName === "BUTTON" || e.tagName === "DETAILS")
                 .map((e) => (e.tagName === "DETAILS" ? e.querySelector("summary") : e).textContent),
               sheet: body ? box(body) : null, choices: [],
               // the suggestion's words and buttons, against the bar's visible box
               hint: [...bar.querySelectorAll("#hint-answer .hint-label, #hint-answer .hint-buttons > .btn")]
                 .map((e) => e.getBoundingClientRect()).filter((q) => q.height)
                 .map((q) => ({top: q.top - top, bottom: q.bottom - top}))};
  if (body) {
    const s = body.getBoundingClientRect();
    out.sheet.scrolls = body.scrollHeight > body.clientHeight + 1;
    for (const c of body.querySelectorAll("button")) {
      c.scrollIntoView({block: "nearest"});  // (inside the sheet, which scrolls)
      const q = c.getBoundingClientRect();
      const hit = document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2);
      out.choices.push({text: c.textContent, top: q.top, bottom: q.bottom, h: q.height,
                        hit: !!hit && c.contains(hit), inside: q.top >= s.top - 0.5 && q.bottom <= s.bottom + 0.5});
    }
    body.scrollTop = 0;
    body.dispatchEvent(new Event("scroll"));
  }
  return out;
}"""


def phone_top(page, where: str, shot: str | None = None) -> dict:
    """TOP_JS at rest (the page scrolled to its top, two frames later), checked: the header within
    15 % of the screen height, the prompt bar within a quarter, its words whole in it, nothing of
    it below its edge nor past its sides, the last move on two lines at most; header, bar and last move
    together within a third of the screen. An open menu is a compact sheet right below the bar:
    bar and sheet together within a quarter of the screen (the issue: "the prompt bar never
    hides the board"; the new-user trial's sheet covered 59-79 % of it), each of its choices
    reachable in it, whole, uncovered and at least 40 px high (the sheet scrolls inside to
    show it). With ``shot``, a screenshot layout/phone-top-<shot>.png first."""
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    if shot:
        screenshot(page, ARTIFACTS / "layout" / f"phone-top-{shot}.png", full_page=False)
    got = page.evaluate(TOP_JS)
    vh = got["vh"]
    header, bar, last = got["header"]["height"], got["bar"]["height"], (got["last"] or {}).get("height", 0)
    got["shares"] = {"header": round(header / vh, 3), "bar": round(bar / vh, 3), "last": round(last / vh, 3),
                     "top": round((header + bar + last) / vh, 3)}
    print(f"\n{where}: {got['shares']} row {got['row']} words {got['text']!r}"
          + (f" sheet {got['sheet']} {len(got['choices'])} choices" if got["sheet"] else ""))
    assert header <= 0.15 * vh, (where, "the phone header takes over 15 %", got)
    assert bar <= 0.25 * vh + 0.5, (where, "the prompt bar takes over a quarter", got)
    assert got["words"] and all(w["top"] >= -0.5 and w["bottom"] <= got["clear"] + 0.5 for w in got["words"]), \
        (where, "the prompt's words are cut", got)
    assert got["below"] <= 1 and got["wide"] <= 1, (where, "part of the bar is out of sight", got)
    # (two lines of 18 px at most: review 9, problem 1, the move read whole, not cut to a line)
    assert last <= 44, (where, "the last move takes more than two lines", got)
    assert header + bar + last <= vh / 3, (where, "the header and the bar take over a third", got)
    if got["sheet"]:
        sheet = got["sheet"]
        got["shares"]["bar+menu"] = round((sheet["bottom"] - got["bar"]["top"]) / vh, 3)
        print(f"  open: bar and menu {got['shares']['bar+menu']} of the screen, {len(got['choices'])} buttons,"
              f" scrolls inside: {sheet['scrolls']}")
        assert sheet["top"] >= got["bar"]["bottom"] - 1, (where, "the menu covers the bar", got)
        assert sheet["bottom"] - got["bar"]["top"] <= 0.25 * vh + 0.5, (where, "bar and menu take over a quarter", got)
        assert got["choices"], got
        for c in got["choices"]:
            assert c["hit"] and c["inside"] and c["h"] >= 40, (where, "a choice is not whole, covered or small", c, got)
    return got


def tap(page, selector: str) -> None:
    """A finger's tap on the middle of ``selector``'s first visible element."""
    page.locator(selector).first.tap()


def ask_hint(page) -> bool:
    """Tap "Suggest a move" (in the bar's row, or in its "More" sheet opened by a tap); True
    once the suggestion is shown."""
    ask = page.locator("#hint-ask")
    if not ask.is_visible():
        toggle = page.locator("#prompt-actions details.action-menu:not([open]) > summary")
        if not toggle.count():
            return False
        toggle.tap()
    if not ask.is_visible():
        return False
    ask.tap()
    page.wait_for_function("document.body.dataset.hint !== 'asked'", timeout=30_000)
    return page.evaluate("document.body.dataset.hint") == "shown"


def check_sheet(page, where: str, how: str) -> bool:
    """Open the bar's menu by a tap on its toggle: a compact sheet below the bar, bar and sheet
    within a quarter of the screen, each choice reachable, whole and uncovered in it (phone_top);
    then close it ``how``: "close" (its toggle, which reads "Close" while open), "escape" (opened by the keyboard, Tab goes
    into it, Escape closes it and gives the keyboard back to the toggle), "outside" (a tap on the
    header's round, above the bar) or "choice" (a tap on its last choice, which plays it). True
    if a move was made."""
    toggle = page.locator("#prompt-actions details.action-menu > summary")
    if how == "escape":
        toggle.focus()
        page.keyboard.press("Enter")
    else:
        toggle.tap()
    page.wait_for_function("document.querySelector('#prompt-actions details.action-menu').open")
    if how == "escape":
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('#prompt-actions .action-menu-body')")
    got = phone_top(page, f"{where}, its menu open", shot=f"{where}-menu".replace(" ", "-"))
    assert got["sheet"], (where, got)
    # at the sheet's top (the fourth new-user trial: one row of eight shown, cut mid-word under
    # the cue): every choice shown is whole, two at least, and the prompt's words are not cut
    sheet = page.evaluate(SHEET_JS)
    shown = [c for c in sheet["choices"] if c["shown"]]
    print(f"  sheet {sheet['sheet']['height']:.0f} px, {len(shown)} of {len(sheet['choices'])} choices shown,"
          f" bar {sheet['bar']['height']:.0f} px, words clamped: {sheet['clamped']}")
    assert all(c["whole"] for c in shown), (where, "a choice shows cut or under the cue", sheet)
    assert len(shown) >= min(2, len(sheet["choices"])), (where, "fewer than two choices show", sheet)
    assert not sheet["clamped"], (where, "the prompt's words are cut", sheet)
    moved = False
    if how == "close":  # the toggle, beside the prompt's words, reads "Close" while open
        tap(page, "#prompt-actions details.action-menu[open] > summary")
        assert page.evaluate("document.activeElement.matches('#prompt-actions details.action-menu > summary')")
    elif how == "escape":
        page.keyboard.press("Escape")
        assert page.evaluate("document.activeElement.matches('#prompt-actions details.action-menu > summary')")
    elif how == "choice":
        before = page.evaluate("document.body.dataset.version")
        page.locator("#prompt-actions .action-menu-body button[data-action]:not([disabled])").last.tap()
        page.wait_for_function("(v) => document.body.dataset.version !== v || !!document.querySelector('.toast')",
                               arg=before, timeout=10_000)
        moved = True
    else:
        tap(page, "#round-phase")
    page.wait_for_function("!document.querySelector('#prompt-actions details.action-menu[open]')")
    return moved


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_phone_top_of_the_table_keeps_the_board_in_view(browser, hint_server, game):
    """The fourth new-user trial at 375×812 (touch): the header and the prompt bar took 33-43 %
    of the first screen; the open "More" menu was clipped inside the bar; "Suggest a move" during
    Drops of Evil's "Activate your Assistant or end your turn" cut the prompt's first line. For
    each game, at every turn of the host's first moves (by taps): the header within 15 % of the
    screen, the bar within a quarter, its words whole, the last move on two lines at most, the three
    within a third; the bar's menu (when it has one) opens as a compact sheet, bar and sheet
    within a quarter, every choice shown at its top whole (two at least), the prompt's words not
    cut, and closes by its toggle (which reads "Close" while open), Escape, a tap elsewhere or a
    choice; with a suggestion shown (asked by a tap, at the first turn and at the first prompt
    after a placement) the same holds. Screenshots: layout/phone-top-<game>*.png."""
    page = new_table(browser, hint_server, PHONE_812, game, 2, bots=False)
    try:
        fill_and_start(page, seed=SEED)
        rng, closes = Rng(5), ["close", "escape", "outside", "choice"]
        menus = hints = 0
        asked_after = False
        for move in range(8):
            page.wait_for_function("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'"
                                   " || document.body.dataset.finished === 'true'", timeout=30_000)
            if page.evaluate("document.body.dataset.finished") == "true":
                break
            page.wait_for_timeout(200)  # the decision is brought into view
            got = phone_top(page, f"{game} move {move}", shot=f"{game}-{move}")
            if got["toggle"] and menus < len(closes):
                menus += 1
                if check_sheet(page, f"{game} move {move}", closes[menus - 1]):
                    continue  # (its choice was the move)
            # (Drops of Evil after a placement: "Activate your Assistant or end your turn", in
            # the renderer's words "Move a Familiar to a highlighted space, or end your turn.")
            after = game == "drops_of_evil" and "end your turn" in got["text"]
            if (move == 0 or (after and not asked_after)) and ask_hint(page):
                asked_after = asked_after or after
                hints += 1
                shown = phone_top(page, f"{game} move {move}, a suggestion shown", shot=f"{game}-{move}-hint")
                assert shown["words"], shown
                assert len(shown["hint"]) >= 3, shown  # its words, Play it, Dismiss
                for part in shown["hint"]:
                    assert part["top"] >= -0.5 and part["bottom"] <= shown["clear"] + 0.5, ("the suggestion is not whole", part, shown)
                if shown["toggle"] and menus < len(closes) - 1:
                    menus += 1
                    check_sheet(page, f"{game} move {move} hint", closes[menus - 1])
                tap(page, "#hint-answer .hint-dismiss")
            before = page.evaluate("document.body.dataset.version")
            assert click_something(page, rng)
            page.wait_for_function("(v) => document.body.dataset.version !== v || !!document.querySelector('.toast')",
                                   arg=before, timeout=10_000)
        print(f"{game}: {menus} menus opened, {hints} suggestions shown")
        page.set_viewport_size({"width": 1366, "height": 768})  # the same table on a desktop
        page.wait_for_timeout(300)
        screenshot(page, ARTIFACTS / "layout" / f"phone-top-{game}-then-1366x768.png", full_page=False)
        assert hints >= 1, game
        assert game != "drops_of_evil" or asked_after, "no suggestion after a placement"
        assert page.js_errors == []
    finally:
        page.context.close()
