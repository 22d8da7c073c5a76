"""Pace in real browsers (issue 7, "Pace"): the waiting room's pace options, the ticking time
banks at the table, and resigning with its confirmation. Screenshots in tests/browser/artifacts/
(pace-*.png)."""
from __future__ import annotations

import re

import pytest

from tests.browser.test_full_match import host_new_match, name_yourself, shoot
from tests.chromium import lair_process

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on a fresh migrated SQLite file (``tests.browser.lair_process``)."""
    with lair_process(tmp_path_factory.mktemp("db") / "lair.db") as url:
        yield url


def _seconds(text: str) -> int:
    m, s = text.strip().split(":")
    return int(m) * 60 + int(s)


def test_pace_options_clocks_and_resign(browser, server):
    ctx = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
    host, friend = (c.new_page() for c in ctx)
    try:
        host_new_match(host, server, "Morgana", "drops_of_evil", 2)
        # the waiting room: pace options (the live-only fields hide for turn-based)
        host.wait_for_selector("#pace-form")
        assert host.locator("#pace-summary").inner_text() == "Live · no clock"
        host.check("#pace-turn")
        assert host.locator("#turn-hours").is_visible()
        assert not host.locator("#bank-minutes").is_visible()
        host.check("#pace-live")
        assert host.locator("#bank-minutes").is_visible()
        assert not host.locator("#turn-hours").is_visible()
        host.fill("#bank-minutes", "5")
        host.fill("#increment-seconds", "10")
        host.fill("#replace-after", "3")
        host.click("#save-pace")
        host.wait_for_function("document.getElementById('pace-summary').textContent"
                               ".includes('5 min per player')")
        summary = host.locator("#pace-summary").inner_text()
        assert summary == ("Live · 5 min per player + 10 s per move · absent players "
                           "replaceable after 3 min")
        invite = host.input_value("#invite-link")
        friend.goto(invite)
        name_yourself(friend, "Baltazar")
        friend.click("#take-1")
        friend.wait_for_selector("#pace-summary")
        assert friend.locator("#pace-form").count() == 0  # the host's to change
        assert friend.locator("#pace-summary").inner_text() == summary
        host.wait_for_selector("#seats li[data-seat='1'] strong")
        shoot(host, "pace-waiting-room")

        # the table: a clock per seat, ticking for the prompted seats only
        host.click("#start")
        for page in (host, friend):
            page.wait_for_selector("#table")
            page.wait_for_selector(".seat-clock .clock-time")
        assert summary in host.locator("#pace-summary").inner_text()
        host.wait_for_selector(".seat-clock.running")
        running = host.locator(".seat-clock.running .clock-time").first
        first = running.inner_text()
        assert re.fullmatch(r"\d+:\d\d", first) and 280 <= _seconds(first) <= 300
        host.wait_for_function(
            "t => { const e = document.querySelector('.seat-clock.running .clock-time');"
            " return e && e.textContent !== t; }", arg=first, timeout=5000)
        assert _seconds(running.inner_text()) < _seconds(first)
        idle = host.locator(".seat-clock:not(.running) .clock-time")
        for i in range(idle.count()):
            assert idle.nth(i).inner_text() == "5:00"
        shoot(host, "pace-table-clocks")

        # resigning asks first; "Keep playing" changes nothing
        friend.click("#resign")
        dialog = friend.locator("#resign-dialog")
        assert dialog.is_visible()
        assert "your opponent wins" in dialog.inner_text()
        shoot(friend, "pace-resign-dialog")
        friend.click("#resign-cancel")
        assert not dialog.is_visible()
        assert friend.evaluate("document.body.dataset.finished") == "false"
        friend.click("#resign")
        friend.click("#resign-confirm")
        for page in (host, friend):
            page.wait_for_function("document.body.dataset.finished === 'true'", timeout=10_000)
            assert page.locator("#result").is_visible()
            assert "Resigned: Baltazar." in page.locator("#result").inner_text()
            assert not page.locator("#resign").is_visible()
        first_place = host.locator("#result li.rank").first
        assert "Morgana" in first_place.inner_text()
        assert "resigned" in host.locator("#result li.rank").nth(1).inner_text().lower()
        host.wait_for_selector(".toast[data-code='notice']")
        assert "Baltazar resigned" in host.locator(".toast[data-code='notice']").inner_text()
        assert "Baltazar resigned" in host.locator("#chat-messages").inner_text()
        shoot(host, "pace-resigned-final")
    finally:
        for c in ctx:
            c.close()


def test_a_player_replaced_at_the_open_table_is_offered_the_seat_back(browser, server):
    """The host hands a player's seat to a bot while that player's table is open: the page
    redraws itself for the new role (no manual reload) and offers "Take my seat back", which
    gives the seat back at once."""
    ctx = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
    host, friend = (c.new_page() for c in ctx)
    try:
        host_new_match(host, server, "Morgana", "covil", 2)
        friend.goto(host.input_value("#invite-link"))
        name_yourself(friend, "Baltazar")
        friend.click("#take-1")
        host.wait_for_selector("#seats li[data-seat='1'] strong")
        host.click("#start")
        for page in (host, friend):
            page.wait_for_function("document.body.dataset.version !== undefined")
        assert friend.locator("#resign").count() == 1
        assert friend.locator("#reclaim").count() == 0
        host.locator("details.host-controls summary").click()
        host.click("#replace-1")
        # no reload by the test: the open table offers the seat back by itself
        friend.wait_for_selector("#reclaim", timeout=10_000)
        assert "A bot is playing your seat" in friend.locator(".away-notice").inner_text()
        assert friend.locator("#resign").count() == 0
        assert friend.locator("body").get_attribute("data-your-turn") != "true"
        shoot(friend, "pace-replaced-at-the-table")
        friend.click("#reclaim")
        friend.wait_for_function("document.body.dataset.version !== undefined")
        friend.wait_for_selector("#resign")
        assert friend.locator("#reclaim").count() == 0
        host.wait_for_function(
            "() => !document.querySelector('#seats').textContent.includes('bot)')")
    finally:
        for c in ctx:
            c.close()
