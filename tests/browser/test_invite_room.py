"""The waiting room and the invite page in Chromium on the real site (issue 14, item 10), every
step a click: the invite page updates live (a seat taken, the match started) without reloading;
a click on a seat someone took a moment ago comes back to the invite page with a clear message;
"Start" is disabled while a seat is empty; the links have a Copy button; a refused socket stops
instead of reconnecting in a loop (today one tab made 801 refused connections in 7 minutes),
and one that keeps failing backs off and stops. Also the phone table's header (item 7).
Screenshots: tests/browser/artifacts/invite-room/.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.test_full_match import name_yourself
from tests.chromium import ARTIFACTS, screenshot

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "invite-room"
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
WS = re.compile(r".*/ws/matches/.*")


def new_page(browser, size=DESKTOP, **kwargs):
    ctx = browser.new_context(**size, **kwargs)
    page = ctx.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.sockets = []
    page.on("websocket", lambda ws: page.sockets.append(ws.url))
    page.navigations = []
    page.on("framenavigated", lambda f: page.navigations.append(f.url) if f == page.main_frame else None)
    return page


def private_room(host, server: str, game: str, players: int) -> None:
    """The host names themself in the lobby and creates a private ``game`` match."""
    host.goto(server + "/")
    name_yourself(host, "Morgana")
    host.check(f"#game-{game}")
    host.select_option(f"#players-{game}", str(players))
    host.uncheck("input[name=public]")
    host.click("#create")
    host.wait_for_selector("#invite-link")


def test_invite_page_live_taken_seat_start_and_copy(browser, lair_server):
    from playwright.sync_api import expect
    clip = {"permissions": ["clipboard-read", "clipboard-write"]}
    host = new_page(browser, **clip)
    ana = new_page(browser, PHONE)
    bo = new_page(browser)
    cy = new_page(browser)
    try:
        private_room(host, lair_server, "drops_of_evil", 3)
        expect(host.locator("#player-count")).to_have_text("3 players")
        # Start waits for the empty seats, and the room offers bots for them.
        expect(host.locator("#start")).to_be_disabled()
        expect(host.locator("#start-note")).to_be_visible()
        expect(host.locator("#fill")).to_have_text("Fill the 2 empty seats with bots")
        # Copy the invite link with its button.
        invite = host.locator("#invite-link").input_value()
        # (once the page's script wired it: a landing CI under load clicked the bare button)
        host.wait_for_selector("button[data-copy='invite-link'][data-wired]")
        host.click("button[data-copy='invite-link']")
        expect(host.locator("button[data-copy='invite-link']")).to_have_text("Copied ✓")
        assert host.evaluate("navigator.clipboard.readText()") == invite
        expect(host.locator("body")).to_have_attribute("data-ws", "open")

        # Bo's page does not hear the server (as if Ana's click came just before his page got
        # the news): he will click a seat that is already taken.
        def deaf(ws):
            server = ws.connect_to_server()
            server.on_message(lambda message: None)
        bo.route_web_socket(WS, deaf)
        for page, name in ((ana, "Ana"), (bo, "Bo"), (cy, "Cy")):
            page.goto(invite)
            name_yourself(page, name)
            page.wait_for_selector("#take-1")
        expect(ana.locator("body")).to_have_attribute("data-ws", "open")
        expect(cy.locator("body")).to_have_attribute("data-ws", "open")
        screenshot(ana, SHOTS / "invite-phone.png")

        host_loads = len(host.navigations)
        cy_loads = len(cy.navigations)
        ana.click("#take-1")
        expect(ana.locator("#seats li[data-seat='1'] .badge", has_text="you")).to_be_visible()
        # The host's room and Cy's invite page show Ana in seat 2 without reloading.
        for page in (host, cy):
            expect(page.locator("#seats li[data-seat='1']")).to_contain_text("Ana")
            expect(page.locator("#take-1")).to_have_count(0)
        assert len(host.navigations) == host_loads and len(cy.navigations) == cy_loads
        assert int(cy.evaluate("document.body.dataset.refreshed")) >= 1
        screenshot(host, SHOTS / "room-live-desktop.png")

        # Bo still sees seat 2 free: his click comes back to the invite page, which says so.
        bo.click("#take-1")
        expect(bo.locator("#seat-taken")).to_contain_text("Seat 2 was taken by someone else a moment ago")
        assert "/invite/" in bo.url
        screenshot(bo, SHOTS / "seat-taken-desktop.png")
        bo.click("#take-2")
        expect(bo.locator("#seats li[data-seat='2'] .badge", has_text="you")).to_be_visible()

        # Every seat is taken: the host's Start opens (live), Cy has no seat left to take.
        expect(host.locator("#start")).to_be_enabled()
        expect(cy.locator("#room-note")).to_contain_text("Every seat is taken")
        expect(cy.locator("#seats button")).to_have_count(0)
        host.click("#start")
        # The match started: the invite page becomes the table (to watch), live.
        expect(cy.locator("#table")).to_be_visible()
        expect(cy.locator("#prompt-text")).to_contain_text("watching")
        expect(ana.locator("#table")).to_be_visible()
        # One socket per page shown: the invite page never looped reconnecting.
        assert len([u for u in cy.sockets if "/ws/" in u]) == 2, cy.sockets

        # Ana's phone table: the header keeps to 15 % of the screen, the prompt bar to 25 %.
        ana.wait_for_function("document.body.dataset.version !== undefined")
        ana.evaluate("window.scrollTo(0, 0)")
        header = ana.evaluate("document.getElementById('table-header').getBoundingClientRect().bottom")
        assert header <= 0.15 * 812, f"the phone header ends at {header} px"
        bar = ana.evaluate("document.getElementById('prompt-bar').getBoundingClientRect().height")
        assert bar <= 0.25 * 812, bar
        screenshot(ana, SHOTS / "table-phone.png", full_page=False)
        host.wait_for_function("document.body.dataset.version !== undefined")
        bar = host.evaluate("document.getElementById('prompt-bar').getBoundingClientRect().height")
        assert bar <= 0.25 * 768, bar
        screenshot(host, SHOTS / "table-desktop.png", full_page=False)
        ana.click("#tools-toggle")  # Links, Resign, Sound behind "More"
        expect(ana.locator("#resign")).to_be_visible()
        screenshot(ana, SHOTS / "table-phone-more.png", full_page=False)
        for page in (host, ana, bo, cy):
            assert page.js_errors == [], page.js_errors
    finally:
        for page in (host, ana, bo, cy):
            page.context.close()


def test_a_refused_socket_stops_and_a_failing_one_backs_off_and_stops(browser, lair_server):
    """Counted at the socket (page.route_web_socket), with the page's clock run forward: no
    waiting in real time."""
    from playwright.sync_api import expect
    host = new_page(browser)
    try:
        private_room(host, lair_server, "drops_of_evil", 2)
        room = host.url
        # Away from the room before the route goes in: a lobby change arriving late could make
        # the old page reload and be refused too (CI once counted 2)
        host.goto("about:blank")
        refused = []

        def refuse(ws):
            refused.append(1)
            ws.close(code=4403, reason="Ask a player for the spectator link.")
        host.route_web_socket(WS, refuse)
        host.clock.install()
        host.goto(room)
        expect(host.locator("#live-status")).to_contain_text("Live updates are off")
        host.clock.run_for(10 * 60_000)
        assert len(refused) == 1

        failing = []

        def fail(ws):
            failing.append(1)
            ws.close(code=1011, reason="")
        again = host.context.new_page()  # the same player, another tab; a server that fails
        again.js_errors = []
        again.on("pageerror", lambda e: again.js_errors.append(str(e)))
        again.route_web_socket(WS, fail)
        again.clock.install()
        again.goto(room)
        status = again.locator("#live-status")
        for _ in range(20):  # a minute of the page's time per step, until it gives up
            expect(status).not_to_have_attribute("data-state", "connecting")
            if "stopped" in status.inner_text():
                break
            expect(status).to_contain_text("reconnecting")
            again.clock.run_for(60_000)
        expect(status).to_contain_text("Live updates stopped")
        tries = len(failing)
        assert 3 <= tries <= 8, tries
        again.clock.run_for(10 * 60_000)  # stopped means stopped
        assert len(failing) == tries
        screenshot(again, SHOTS / "live-stopped.png", full_page=False)
        again.click("#live-retry")  # the player asks again: one more try
        expect(status).to_contain_text("reconnecting")
        assert len(failing) == tries + 1
        assert again.js_errors == []
        assert host.js_errors == []
    finally:
        host.context.close()
