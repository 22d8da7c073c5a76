"""The lobby's create form (issue 14, item 10): a game's solo settings show only when 1 player
is chosen, and a setting solo always plays one way (Covil's board B) shows that value, fixed,
for 1 player; back at 2 players the player's own choice returns. A solo match made so starts
on the solo board. By real clicks in Chromium."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.browser.test_full_match import name_yourself

pytestmark = pytest.mark.e2e

SOLO_ONLY = ["opt_covil_dummies", "opt_covil_dummy_next_to_you"]


@contextmanager
def lobby(browser, lair_server, game: str):
    """The lobby, named, with ``game`` chosen; yields the page. No script error on the way."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(lair_server + "/")
        name_yourself(page, "Morgana")
        page.check(f"#game-{game}")
        yield page
        assert errors == []
    finally:
        ctx.close()


def test_covil_solo_settings_only_for_one_player(browser, lair_server):
    with lobby(browser, lair_server, "covil") as page:
        board = page.locator("select[name=opt_covil_board]")
        board.select_option("A")
        for players in ("2", "3", "4"):
            page.select_option("#players-covil", players)
            for name in SOLO_ONLY:
                assert not page.locator(f"[name={name}]").is_visible(), (players, name)
            assert board.is_enabled()
        page.select_option("#players-covil", "1")
        for name in SOLO_ONLY:
            assert page.locator(f"[name={name}]").is_visible(), name
        assert board.is_disabled() and board.input_value() == "B"  # solo plays the Desert Town
        page.select_option("#players-covil", "2")
        assert board.is_enabled() and board.input_value() == "A"  # the player's own choice again
        page.select_option("#players-covil", "1")
        page.click("#create")
        page.wait_for_selector("#start")
        shown = page.locator("#options").inner_text()
        assert "Board: Desert Town" in shown and "Dummy players (solo): 1" in shown, shown


def test_drops_forest_side_shows_for_two_players_only(browser, lair_server):
    """Drops of Evil's small Forest side is a 2-player setting (Setup: "2 players: small Forest
    board, either side"): the lobby shows it for 2 players and hides it for 3 and 4."""
    with lobby(browser, lair_server, "drops_of_evil") as page:
        side = page.locator("select[name=opt_drops_of_evil_side]")
        assert side.is_visible()  # 2 players is the form's default
        for players in ("3", "4"):
            page.select_option("#players-drops_of_evil", players)
            assert not side.is_visible(), players
        page.select_option("#players-drops_of_evil", "2")
        assert side.is_visible()
