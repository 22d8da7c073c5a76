"""The lobby's create form (issue 14, item 10): a game's solo settings show only when 1 player
is chosen, and a setting solo always plays one way (Covil's board B) shows that value, fixed,
for 1 player; back at 2 players the player's own choice returns. A solo match made so starts
on the solo board. Each game has its picture and a line about it, also without JavaScript (a
screenshot review). By real clicks in Chromium."""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from tests.browser.test_full_match import name_yourself
from tests.chromium import ARTIFACTS, screenshot

pytestmark = pytest.mark.e2e

SOLO_ONLY = ["opt_covil_dummies", "opt_covil_dummy_next_to_you"]


@contextmanager
def lobby(browser, lair_server, game: str | None, viewport: dict | None = None):
    """The lobby at ``viewport`` (1366×900 unless given; a touch screen under 500 px wide),
    named, with ``game`` chosen if given; yields the page. No script error on the way."""
    viewport = viewport or {"width": 1366, "height": 900}
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(lair_server + "/")
        name_yourself(page, "Morgana")
        if game:
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


# Each game of the create form: its picture (loaded, its size on screen, its alt text), the
# radio's accessible name and description, and whether a line of it is cut or past the window.
PICTURES_JS = """() => [...document.querySelectorAll("fieldset.game-choice")].map((fs) => {
  const img = fs.querySelector("legend img.game-pic"), radio = fs.querySelector("input[name=game]");
  const r = img ? img.getBoundingClientRect() : null;
  const said = (radio.getAttribute("aria-describedby") || "").split(" ").filter(Boolean)
    .map((id) => document.getElementById(id)).filter(Boolean);
  const blurb = fs.querySelector(".game-blurb");
  const b = blurb ? blurb.getBoundingClientRect() : null;
  return {game: radio.value, src: img ? img.getAttribute("src") : null, loaded: !!img && img.complete && img.naturalWidth > 0,
          alt: img ? img.getAttribute("alt") : null, w: r ? r.width : 0, h: r ? r.height : 0,
          name: radio.labels.length ? radio.labels[0].innerText.trim() : "",
          described: said.map((e) => e.innerText.trim()).join(" "),
          blurb: blurb ? blurb.innerText.trim() : "", blurbShown: !!b && b.width > 0 && b.right <= innerWidth + 0.5,
          wide: document.documentElement.scrollWidth > innerWidth};
})"""

TITLES = {"evil_corp": "Evil Corp.", "covil": "Covil: The Dark Overlords", "drops_of_evil": "Drops of Evil"}


@pytest.mark.parametrize("size", [{"width": 1366, "height": 900}, {"width": 375, "height": 812}])
def test_each_game_has_its_picture_and_its_line(browser, lair_server, size):
    """A screenshot review: the lobby was a form without pictures. Each game of the create form
    shows its picture (our own drawing, from static/img/games/) and a line saying what it is
    about, beside its name, on a desktop and on a phone; the picture is decorative (the name is
    the radio's name, the line its description); a tap on the picture chooses the game; the
    lists of matches show each match's game picture too. Screenshots: lobby/lobby-<width>.png."""
    with lobby(browser, lair_server, None, size) as page:
        page.wait_for_function("[...document.querySelectorAll('img.game-pic')].every((i) => i.complete)")
        got = page.evaluate(PICTURES_JS)
        screenshot(page, ARTIFACTS / "lobby" / f"lobby-{size['width']}.png", full_page=False)
        assert sorted(g["game"] for g in got) == sorted(TITLES), got
        for g in got:
            assert g["src"] == f"/static/img/games/{g['game']}.svg" and g["loaded"], g
            assert g["alt"] == "" and g["name"] == TITLES[g["game"]], g
            # (on a desktop the chosen game's picture is large; the others' lie in a compact row)
            large = size["width"] >= 500 and g["game"] == got[0]["game"]
            assert g["w"] >= (140 if large else 96) and 1.5 <= g["w"] / g["h"] <= 1.7, g
            assert len(g["blurb"]) > 30 and g["described"] == g["blurb"] and g["blurbShown"], g
            assert not g["wide"], g
        pick = page.locator("#create-form img.game-pic[src$='/covil.svg']")
        if size["width"] < 500:
            pick.tap()
        else:
            pick.click()
        assert page.is_checked("#game-covil") and not page.is_checked("#game-evil_corp")
        page.click("#create")
        page.wait_for_selector("#start")
        page.goto(lair_server + "/")
        thumb = page.locator("#my-matches li img.game-thumb").first
        assert thumb.get_attribute("src") == "/static/img/games/covil.svg" and thumb.is_visible()
        assert thumb.evaluate("i => i.complete && i.naturalWidth > 0")
        screenshot(page, ARTIFACTS / "lobby" / f"lobby-{size['width']}-full.png", full_page=True)


def test_the_pictures_work_without_javascript(browser, lair_server):
    """Without JavaScript the lobby still chooses a game by its picture and creates the match
    (the form posts as before); the pictures are plain SVG files: no script, nothing fetched
    from elsewhere, no embedded bitmap."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(lair_server + "/")
        name_yourself(page, "Baltazar")
        page.click("#create-form img.game-pic[src$='/drops_of_evil.svg']")
        assert page.is_checked("#game-drops_of_evil")
        assert page.evaluate("[...document.querySelectorAll('img.game-pic')].every((i) => i.complete && i.naturalWidth > 0)")
        page.click("#create")
        page.wait_for_selector("#start")
        assert "Drops of Evil" in page.inner_text("main")
        for game in TITLES:
            answer = page.request.get(f"{lair_server}/static/img/games/{game}.svg")
            svg = answer.text()
            assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml"), game
            assert "<svg" in svg and not re.search(r"<script|<image|<foreignObject|href=\"http|url\(http", svg), game
            assert len(svg) < 20_000, (game, "keep the lobby light", len(svg))
    finally:
        ctx.close()


# The games a stranger sees in the lobby (before a name): each one's picture, name, line and
# rules link, whether the picture loaded, and whether any of it lies past the window's side.
STRANGER_JS = """() => [...document.querySelectorAll("#games-shown .game-item")].map((li) => {
  const img = li.querySelector("img.game-pic"), r = img ? img.getBoundingClientRect() : null;
  const blurb = li.querySelector(".game-blurb"), b = blurb ? blurb.getBoundingClientRect() : null;
  return {game: li.id.replace("about-", ""), src: img ? img.getAttribute("src") : null,
          loaded: !!img && img.complete && img.naturalWidth > 0, alt: img ? img.getAttribute("alt") : null,
          w: r ? r.width : 0, h: r ? r.height : 0, name: (li.querySelector(".game-name") || {}).innerText || "",
          blurb: blurb ? blurb.innerText.trim() : "", shown: !!b && b.width > 0 && b.right <= innerWidth + 0.5,
          rules: (li.querySelector("a[href^='/rules/']") || {href: ""}).href.replace(location.origin, ""),
          wide: document.documentElement.scrollWidth > innerWidth};
})"""


@pytest.mark.parametrize("size", [{"width": 1366, "height": 768}, {"width": 375, "height": 812}])
def test_a_stranger_sees_the_games_without_javascript(browser, lair_server, size):
    """The new-user trial: the lobby of a stranger (before they give a name) was a plain form,
    the games' pictures and lines only in the create form after it. Without JavaScript, at
    1366×768 and at 375×812 (touch), a stranger reads each game: its picture, its name, a line
    about it, its players and its rules link, which opens its rules summary; then they give
    their name (by clicks, or taps) and the create form follows. Screenshots:
    lobby/stranger-<width>.png."""
    phone = size["width"] < 500
    ctx = browser.new_context(viewport=size, java_script_enabled=False, has_touch=phone, is_mobile=phone)
    try:
        page = ctx.new_page()
        page.goto(lair_server + "/")
        assert page.locator("#name").is_visible() and not page.locator("#create-form").count()
        page.wait_for_load_state("load")  # (the pictures loaded)
        got = page.evaluate(STRANGER_JS)
        screenshot(page, ARTIFACTS / "lobby" / f"stranger-{size['width']}.png", full_page=True)
        print(got)
        assert sorted(g["game"] for g in got) == sorted(TITLES), got
        for g in got:
            assert g["src"] == f"/static/img/games/{g['game']}.svg" and g["loaded"] and g["alt"] == "", g
            assert g["name"] == TITLES[g["game"]] and len(g["blurb"]) > 30 and g["shown"], g
            assert g["w"] >= (96 if phone else 140) and 1.5 <= g["w"] / g["h"] <= 1.7, g
            assert g["rules"] == f"/rules/{g['game']}" and not g["wide"], g
        rules = page.locator("#about-covil a[href='/rules/covil']")
        rules.tap() if phone else rules.click()
        page.wait_for_url(re.compile(r"/rules/covil$"))
        page.go_back()
        field = page.locator("#name")
        field.tap() if phone else field.click()
        page.keyboard.type("Morgana")
        button = page.locator("#name-submit")
        button.tap() if phone else button.click()
        page.wait_for_selector("#create-form")
        assert not page.locator("#games-shown").count()  # (the create form shows them now)
    finally:
        ctx.close()


def test_the_lobby_opens_on_what_to_do(browser, lair_server):
    """Review 7: the lobby opened on "Change my name" and three games' settings, Create and the
    lists far below. At 1366×768 only the chosen game's settings show and Create is on the first
    screen; a click on another game's picture shows that game's settings instead; once the
    player has a match, "Your matches" comes first, and the name form is further down."""
    with lobby(browser, lair_server, None, {"width": 1366, "height": 768}) as page:
        page.wait_for_function("[...document.querySelectorAll('img.game-pic')].every((i) => i.complete)")
        first = page.locator("fieldset.game-choice input[name=game]").first.get_attribute("value")
        other = next(g for g in TITLES if g != first)
        assert page.locator(f"#players-{first}").is_visible()
        assert not page.locator(f"#players-{other}").is_visible()
        screenshot(page, ARTIFACTS / "lobby" / "lobby-first-screen-1366.png", full_page=False)
        create = page.locator("#create").bounding_box()
        assert create["y"] + create["height"] <= 768, create
        page.click(f"#create-form img.game-pic[src$='/{other}.svg']")
        assert page.locator(f"#players-{other}").is_visible()
        assert not page.locator(f"#players-{first}").is_visible()
        page.click("#create")
        page.wait_for_selector("#start")
        page.goto(lair_server + "/")
        order = page.evaluate("""() => [...document.querySelectorAll("main > .card")].map(
            (c) => (c.querySelector("h2, summary") || {}).textContent || "")""")
        assert order[0] == "Your matches", order
        assert order.index("Create a match") < order.index("Change my name"), order
