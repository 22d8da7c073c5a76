"""The waiting room's host controls in a real browser (issue 2 "Lobby"): cancelling a match
asks first, like resigning does (a new user found it cancelled at once)."""
from __future__ import annotations

import pytest

from tests.browser.test_full_match import host_new_match
from tests.chromium import ARTIFACTS, screenshot

pytestmark = pytest.mark.e2e


def test_cancel_asks_first_and_keep_keeps_the_match(lair_server, browser):
    context = browser.new_context()
    try:
        host = context.new_page()
        errors: list[str] = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host_new_match(host, lair_server, "Morgana", "covil")
        host.wait_for_selector("#invite-link")
        waiting = host.url
        dialog = host.locator("#cancel-dialog")
        host.click("#cancel")
        assert dialog.is_visible()
        host.click("#cancel-keep")  # changed her mind: nothing happens
        host.wait_for_function("!document.getElementById('cancel-dialog').open")
        assert host.url == waiting and host.locator("#start").is_visible()
        host.click("#cancel")
        host.click("#cancel-confirm")
        host.wait_for_selector("#start", state="detached")  # the page now says it is over
        host.goto(waiting)
        assert host.locator("#start").count() == 0 and host.locator("#cancel").count() == 0
        assert errors == []
    finally:
        context.close()


def _seat_shapes(page) -> list[str]:
    """The shape each seat of the room shows (table review item 8: colour alone told seats apart
    by a dot): its glyph as drawn, checked against its `data-shape` and coloured like the seat."""
    rows = page.locator("#seats li[data-seat]").evaluate_all("""els => els.map((li) => {
        const m = li.querySelector(".seat-shape");
        return m && {glyph: m.textContent, shape: m.dataset.shape, color: getComputedStyle(m).color,
                     seat: li.dataset.seat, dot: !!li.querySelector(".seat-dot")};
      })""")
    assert all(rows), rows
    colors = {"0": "rgb(0, 114, 178)", "1": "rgb(213, 94, 0)", "2": "rgb(0, 158, 115)"}
    for r in rows:
        assert r["glyph"] == r["shape"] and not r["dot"], r
        assert r["color"] == colors[r["seat"]], r
    return [r["glyph"] for r in rows]


def test_each_bot_level_says_which_seat_it_is_for(lair_server, browser):
    """Review item 10: the waiting room's bot-level selects were three identical "Normal"
    selects; each now has a visible label (its accessible name too) naming its seat, or "all
    the empty seats" for the Fill form. The host picks a level by its label and adds the bot."""
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    try:
        host = context.new_page()
        errors: list[str] = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host_new_match(host, lair_server, "Morgana", "drops_of_evil", players=3)
        host.wait_for_selector("#start")
        # the room's buttons before its seats: Start whole on the phone's first screen (review 8:
        # under three seats' rows it was below it, waiting-phone.png)
        start = host.evaluate("""() => { window.scrollTo(0, 0); const r = document.getElementById("start").getBoundingClientRect();
          return {top: r.top, bottom: r.bottom, vh: innerHeight}; }""")
        assert 0 <= start["top"] and start["bottom"] <= start["vh"], ("Start is not on the first screen", start)
        screenshot(host, ARTIFACTS / "waiting-phone-start.png", full_page=False)
        for seat in (2, 3):
            level = host.get_by_label(f"Bot level for seat {seat}", exact=True)
            assert level.is_visible() and level.evaluate("e => e.tagName") == "SELECT"
        fill = host.get_by_label("Bot level for all 2 empty seats", exact=True)
        assert fill.is_visible()
        # every select of the room has a name of its own
        names = host.locator("#room select").evaluate_all(
            "els => els.map((e) => e.labels.length ? e.labels[0].textContent.trim() : e.getAttribute('aria-label'))")
        assert len(names) == len(set(names)) == 3 and all(names), names
        assert _seat_shapes(host) == ["●", "▲", "■"]
        host.get_by_label("Bot level for seat 3", exact=True).select_option("hard")
        host.click("#bot-2")
        host.wait_for_selector("#seats li[data-seat='2'] strong:has-text('Hard')")
        assert host.get_by_label("Bot level for the empty seat", exact=True).is_visible()
        # the room redrawn in place (a bot came): every seat still shows its shape
        assert _seat_shapes(host) == ["●", "▲", "■"]
        screenshot(host, ARTIFACTS / "waiting-seat-shapes-phone.png", full_page=False)
        assert errors == []
    finally:
        context.close()


def test_the_host_turns_hints_off_with_the_pace_form(lair_server, browser):
    """Issue 17 item 6: hints are on by default; the host unticks "Players may ask for hints"
    and saves the pace, and the room's pace summary says "hints off" (ticked again: gone)."""
    context = browser.new_context()
    try:
        host = context.new_page()
        errors: list[str] = []
        host.on("pageerror", lambda e: errors.append(str(e)))
        host_new_match(host, lair_server, "Morgana", "evil_corp")
        box = host.get_by_label("Players may ask for hints")
        assert box.is_visible() and box.is_checked()
        box.uncheck()
        host.click("#save-pace")
        host.wait_for_selector("#pace-summary:has-text('hints off')")
        host.locator("#pace").screenshot(path="/tmp/lair-hints-pace.png")
        assert not host.get_by_label("Players may ask for hints").is_checked()
        host.get_by_label("Players may ask for hints").check()
        host.click("#save-pace")
        host.wait_for_function(
            "!document.getElementById('pace-summary').textContent.includes('hints off')")
        assert host.get_by_label("Players may ask for hints").is_checked()
        assert errors == []
    finally:
        context.close()


def test_the_host_sees_the_invite_link_before_the_pace_form(lair_server, browser):
    """New-user trial: the invite link sat below the whole Pace form, off the first screen at
    1366x768. It comes right after the seats now: the host copies it without scrolling, and the
    pace form follows."""
    context = browser.new_context(viewport={"width": 1366, "height": 768},
                                  permissions=["clipboard-read", "clipboard-write"])
    try:
        host = context.new_page()
        host_new_match(host, lair_server, "Morgana", "evil_corp")
        host.wait_for_selector("#invite-link")
        screenshot(host, ARTIFACTS / "waiting-room-1366.png", full_page=False)
        invite = host.locator("#invite-link").bounding_box()
        watch = host.locator("#watch-link").bounding_box()
        pace = host.locator("#pace-form").bounding_box()
        assert invite["y"] < watch["y"] < pace["y"], (invite, watch, pace)
        copy = host.locator("button[data-copy='invite-link']")
        box = copy.bounding_box()
        assert box["y"] + box["height"] <= 768, box  # on the first screen, no scrolling
        copy_the_invite_link(host, copy)
    finally:
        context.close()


def test_at_four_players_the_invite_link_is_high_on_the_first_screen(lair_server, browser):
    """New-user trial: in a 4-player room the four seats pushed the invite link to y≈756 of a
    1366×768 window, its Copy button cut by the fold. On a wide window the links (and the pace)
    sit beside the room now: the invite link and its Copy button are in the first half of the
    window, the seats' rows and Start on the first screen too, and the host copies the link.
    Screenshot: waiting-room-4-players-1366.png."""
    context = browser.new_context(viewport={"width": 1366, "height": 768},
                                  permissions=["clipboard-read", "clipboard-write"])
    try:
        host = context.new_page()
        host_new_match(host, lair_server, "Morgana", "evil_corp", 4)
        host.wait_for_selector("#invite-link")
        screenshot(host, ARTIFACTS / "waiting-room-4-players-1366.png", full_page=False)
        copy = host.locator("button[data-copy='invite-link']")
        box = copy.bounding_box()
        assert box["y"] + box["height"] <= 768 / 2, box
        for sel in ("#seats li >> nth=3", "#start", "#fill"):
            b = host.locator(sel).bounding_box()
            assert b["y"] + b["height"] <= 768, (sel, b)
        assert host.evaluate("document.documentElement.scrollWidth") <= 1366
        copy_the_invite_link(host, copy)
    finally:
        context.close()


def copy_the_invite_link(host, copy) -> None:
    """The host clicks ``copy`` (the invite link's Copy button): it says "Copied ✓", the
    clipboard holds the invite link, and the room did not scroll."""
    from playwright.sync_api import expect
    copy.click()
    expect(copy).to_have_text("Copied ✓")
    assert host.evaluate("navigator.clipboard.readText()") == host.locator("#invite-link").input_value()
    assert host.evaluate("window.scrollY") == 0
