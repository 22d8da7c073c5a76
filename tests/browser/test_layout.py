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
    fill_and_start,
    host_moves,
    name_yourself,
    no_codes,
)
from tests.chromium import ARTIFACTS, DESKTOP, PHONE, ROOT, screenshot

pytestmark = pytest.mark.e2e

#: Game, players: the more seats, the more the table has to fit.
GAMES = [("drops_of_evil", 3), ("evil_corp", 4), ("covil", 3)]
SIZES = {"desktop": DESKTOP, "phone": PHONE}
#: Moves the host makes before the table is looked at.
HOST_MOVES = 12

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
    if (hides && el.textContent.trim() && el.scrollWidth > el.clientWidth + 1) cut.push(name(el));
  }
  return {scroll: document.scrollingElement.scrollWidth, width: W, wide: wide.slice(0, 12), cut};
}"""

# The prompt bar and each of its buttons: on screen, whole, not covered by anything.
PROMPT_JS = """() => {
  const bar = document.getElementById("prompt-bar");
  const r = bar.getBoundingClientRect();
  const out = {bar: [r.left, r.top, r.right, r.bottom], scroll: bar.scrollWidth - bar.clientWidth, buttons: []};
  for (const b of bar.querySelectorAll("button")) {
    // (a toast's close button; a choice waiting in the closed "Choose" menu is not shown)
    if (b.closest(".toast") || b.closest("details:not([open]) > :not(summary)")) continue;
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
# least 13 px on phones): the computed font-size; for the letters that name Covil's zones, the
# size they are drawn at (the computed size times the map's scale on screen: the map is scaled
# down to the phone's width, and its zone letters were 9.5 px there).
TINY_TEXT_JS = """(floor) => {
  const out = new Set();
  const walk = document.createTreeWalker(document.getElementById("table"), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || !e || e.closest("title, style, script, .sr-only")) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === "hidden" || Number(cs.opacity) === 0) continue;
    let px = parseFloat(cs.fontSize);
    // Numbers drawn inside an icon (a coin's value, hit points) are part of the drawing, in its
    // own units: only Covil's zone letters, which name the map's places, are read as text.
    if (e instanceof SVGElement && !e.closest(".cv-zone-letter")) continue;
    if (e instanceof SVGElement && e.getScreenCTM()) {
      const m = e.getScreenCTM();
      px *= Math.hypot(m.a, m.b);
    }
    // (a font-size of 0 hides words kept for screen readers: the connection dot's "Connected")
    if (px > 0 && px < floor - 0.05) {
      const name = e.tagName.toLowerCase() + (e.classList.length ? "." + [...e.classList].join(".") : "");
      out.add(`${name} ${px.toFixed(1)}px "${n.textContent.trim().slice(0, 24)}"`);
    }
  }
  return [...out];
}"""


def check_text_sizes(page, size: str, where: str) -> None:
    """No visible text of the page smaller than 13 CSS px on a phone (14 px is the desktop's
    body floor, checked elsewhere)."""
    if size != "phone":
        return
    tiny = page.evaluate(TINY_TEXT_JS, 13)
    assert not tiny, f"{where}: text under 13 px on the phone: {tiny[:15]}"


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
    their number), the "? Key" button in it right beside "More"."""
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
    started: dict[str, dict] = {}  # match id -> the tallest prompt bars its host saw

    def start(mid: str) -> dict:
        if mid not in started:
            started[mid] = start_and_play(host, lair_server, mid)
        return started[mid]
    yield {"cookies": ctx.cookies(), "matches": matches, "server": lair_server, "start": start}
    ctx.close()


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


def start_and_play(host, server: str, mid: str) -> dict:
    """Fill the match's empty seats with random bots, start it and make some host moves; returns
    the tallest prompt bar seen at each of BAR_SIZES (measure_bar)."""
    host.goto(f"{server}/m/{mid}")
    fill_and_start(host)
    tallest: dict = {}
    host_moves(host, Rng(7), HOST_MOVES, on_turn=lambda page: measure_bar(page, tallest))
    return tallest


def test_lobby_and_waiting_room(browser, site):
    """The lobby (name set, matches listed) and a waiting room with empty seats."""
    for size in SIZES:
        page = open_as(browser, site["cookies"], size, site["server"] + "/")
        page.wait_for_selector("#create")
        save(page, f"lobby-{size}")
        check_layout(page, size)
        page.goto(f"{site['server']}/m/{site['matches'][GAMES[0][0]]}")
        page.wait_for_selector("#start")
        save(page, f"waiting-{size}")
        check_layout(page, size)
        if size == "phone":
            for b in page.locator("main button").all():
                if not b.is_visible():  # e.g. inside the closed "Cancel match?" dialog
                    continue
                assert b.bounding_box()["height"] >= 40, b.inner_text()
        assert page.js_errors == []
        page.context.close()


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_table_mid_match(browser, site, game):
    """Each game's table mid-match, from the host's seat on their turn, at both sizes."""
    mid = site["matches"][game]
    tallest = site["start"](mid)
    for name, got in tallest.items():
        print(f"\n{game}: the tallest prompt bar at {name}: {got['height']:.0f} px "
              f"({got['share']:.0%} of the window), {got['buttons']} buttons, prompt {got['text']!r}")
        assert got["share"] <= 0.25, (game, name, got)
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
        assert page.locator("#board").is_visible()
        assert check_prompt_bar(page, size) >= 0
        if size == "phone":  # stacked: the board spans the screen, seats below it
            board = page.locator("#board").bounding_box()
            assert board["width"] >= 340, board
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
            selector, words = SMALL_ICONS[game]
            card = page.locator(".card-pop")
            for attempt in range(3):  # a view that redraws the board mid-hover replaces the icon
                icon = page.locator(f"#board {selector}").first
                icon.scroll_into_view_if_needed()
                page.mouse.move(0, 0)
                icon.hover()
                try:
                    card.wait_for(timeout=5000)
                    break
                except PlaywrightTimeout:
                    if attempt == 2:
                        raise
            assert words.lower() in card.inner_text().lower(), card.inner_text()
        assert page.js_errors == []
        page.context.close()
