"""The prompt bar's "?" link opens the rules section its prompt comes from (issue 7, item 5), in
Chromium. The pages themselves: tests/app/web/test_rules_pages.py."""
from __future__ import annotations

import pytest

from tests.chromium import SHOTS, launch, screenshot, serve_in_thread


@pytest.fixture
def live_url(settings):
    """The real app (with its lifespan) served by uvicorn in a thread."""
    from app.main import create_app
    with serve_in_thread(create_app(settings), timeout=20) as url:
        yield url


@pytest.mark.e2e
def test_prompt_question_mark_opens_its_rules_section(live_url):
    # Not the shared `browser` fixture: a running Playwright loop would break the
    # database fixtures' asyncio.run (migrations) that set up `live_url`.
    with launch() as browser:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(live_url + "/")
        page.fill("#name", "Morgana")
        page.click("#name-submit")
        page.check("#game-drops_of_evil")
        page.click("#create")
        page.select_option("form[action$='/fill'] select[name=bot]", "easy")
        page.click("#fill")
        page.click("#start")
        link = page.locator("#prompt-text a.rule-link")
        link.wait_for(timeout=15_000)  # the bot may move first
        href = link.get_attribute("href")
        assert href == "/rules/drops_of_evil#placement-phase"
        screenshot(page, SHOTS / "rules-prompt-link.png", full_page=False)
        assert link.get_attribute("target") == "_blank"
        with page.context.expect_page() as opened:
            link.click()
        rules = opened.value
        rules.wait_for_load_state()
        assert rules.url.endswith("/rules/drops_of_evil#placement-phase")
        assert rules.locator("#placement-phase h2").inner_text().startswith(
            "Placement Phase")
        screenshot(rules, SHOTS / "rules-page-desktop.png", full_page=False)
        rules.set_viewport_size({"width": 375, "height": 800})
        screenshot(rules, SHOTS / "rules-page-phone.png", full_page=False)
        assert page.locator("#rules-link").get_attribute("href") == "/rules/drops_of_evil"
        page.close()
