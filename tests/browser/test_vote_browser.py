"""The replacement vote in Chromium (issue 7 item 2): a player who stays away past the match's
limit gets, on the other players' tables, a "Vote: a bot plays …" button; enough votes hand the
seat to a bot, and every table says so. The real app runs in a thread so that the test can make
Bob's absence two minutes old instead of waiting for it. Screenshot: tests/browser/artifacts/
vote-offered.png."""
from __future__ import annotations

import time

import pytest

from tests.browser.test_full_match import host_new_match, name_yourself
from tests.chromium import ARTIFACTS, launch, screenshot, serve_in_thread

pytestmark = pytest.mark.e2e


@pytest.fixture
def live(settings):
    """``(url, app)``: the real app (with its lifespan) served by uvicorn in a thread."""
    from app.main import create_app
    app = create_app(settings)
    with serve_in_thread(app, timeout=20) as url:
        yield url, app


def test_players_vote_an_absent_players_seat_to_a_bot(live):
    url, app = live
    # Not the shared `browser` fixture: a running Playwright loop would break the database
    # fixtures' asyncio.run (migrations) that set up `live`.
    with launch() as browser:
        ann_ctx, bob_ctx = (browser.new_context(viewport={"width": 1200, "height": 900})
                            for _ in range(2))
        ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
        host_new_match(ann, url, "Ann", "toy")
        ann.fill("#replace-after", "1")  # absent players replaceable after 1 min
        ann.click("#save-pace")
        ann.wait_for_function("document.getElementById('pace-summary').textContent"
                              ".includes('replaceable after 1 min')")
        bob.goto(ann.input_value("#invite-link"))
        name_yourself(bob, "Bob")
        bob.click("#take-1")
        ann.click("#start")
        ann.wait_for_selector("#table")
        mid = ann.url.rstrip("/").rsplit("/", 1)[1]
        bob.wait_for_selector("#table")
        hub = app.state.hub
        # Bob's table is live (its socket counted: one still connecting when his browser
        # closes is counted, and leaves, after the two minutes below were set)
        deadline = time.monotonic() + 10
        while 1 not in hub.connected_seats(mid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert 1 in hub.connected_seats(mid)
        closed = time.time()
        bob_ctx.close()  # Bob leaves while the game waits for his bid
        deadline = time.monotonic() + 10
        # gone, and this leaving noted (the socket leaves the count before the hub notes since
        # when the seat is away)
        while (1 in hub.connected_seats(mid) or hub.left_at.get((mid, 1), 0) < closed) \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        assert 1 not in hub.connected_seats(mid) and hub.left_at[(mid, 1)] >= closed
        # Bob has been away for two minutes (rather than waiting one out here)
        hub.left_at[(mid, 1)] = time.time() - 120
        ann.reload()
        vote = ann.locator("#vote-1")
        vote.wait_for()
        assert vote.inner_text() == "Vote: a bot plays Bob (0/1)"
        seats = ann.locator("#seats").inner_text()
        assert "Away for 2 min" in seats and "Their move (away)" in seats
        screenshot(ann, ARTIFACTS / "vote-offered.png", full_page=False)
        vote.click()
        ann.wait_for_selector("#table")
        ann.locator("#seats", has_text="Bob (normal bot)").wait_for()
        ann.locator("#chat-messages", has_text="Bob was away: the players voted a bot in.").wait_for()
        assert ann.locator("#vote-1").count() == 0
        ann_ctx.close()
