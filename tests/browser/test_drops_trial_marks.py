"""Drops of Evil after a new user's trial (second pass), in the renderer harness
(tests/renderer_harness.py: static/games/drops_of_evil/renderer.js with a stub table playing the
real engine) at 1366x768 and 375x812 (touch):

- the Shapeshifter's moves of a placed Familiar are on the Forest (each target space highlighted
  and clickable, the Familiars it may move a pick), not items of the prompt bar's menu;
- the prompt's words come from the legal actions: Brewing with nothing left to place says to
  click Done brewing, not "Place your Resources, then Done"; after placing, the Shapeshifter's
  prompt says what it does and where;
- the small marks say what they are where they are drawn: the "take back" mark on a Resource
  placed this round, the Mushroom pairs of the top Vial, the Scrolls, the Action pawns (their
  card, the "? Key", the seat panel's word).

Screenshots: tests/browser/artifacts/drops_trial_<what>_<size>.png.
"""
from __future__ import annotations

import random

import pytest

from tests.browser.test_full_match import fill_and_start, host_new_match
from tests.chromium import ARTIFACTS, open_card, screenshot
from tests.renderer_harness import board_dom, canon, harness_server

pytestmark = pytest.mark.e2e

SIZES = {
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "375x812": {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True},
}


@pytest.fixture(scope="module")
def server():
    from engines.drops_of_evil import ENGINE
    with harness_server(ENGINE, "Drops of Evil", "drops_of_evil", columns=True) as served:
        yield served


def _open(browser, url: str, size: str, step: int):
    ctx = browser.new_context(**SIZES[size], reduced_motion="reduce")
    page = ctx.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(f"{url}/harness.html")
    page.locator(f"body[data-step='{step}']").wait_for(state="attached", timeout=10_000)
    return ctx, page


def _tap(page, locator, phone: bool) -> None:
    if phone:
        locator.tap()
    else:
        locator.click()


def _key_text(page, phone: bool) -> str:
    """The words of the board's "? Key": opened and closed by a click on a desktop; a phone
    opens it from the table's header (not in the harness): its words as drawn."""
    if phone:
        return page.locator("#board .legend-key .legend-body").text_content()
    page.locator("#board .legend-key > summary").click()
    text = page.locator("#board .legend-key[open]").inner_text()
    page.locator("#board .legend-key > summary").click()
    return text


def _place(game, pawn: str, space: str | None = None) -> None:
    """The seat the game waits for places ``pawn`` (on ``space``, else the first space it may)."""
    seat = game.seat()
    legal = game.engine.legal_actions(game.state, seat)
    act = next(a for a in legal if a["type"] == "place" and a["pawn"] == pawn
               and (space is None or a["space"] == space))
    game.act(seat, act)


def _shapeshifter(game) -> None:
    """Seed 18, two players, Morgana first: she hires the Shapeshifter (the third Assistant),
    then places her Crow and her Cat; the bot's seat places its Crow and Cat between. She is
    left after placing, her Shapeshifter unused: it may move her Crow or her Cat."""
    game.new(2, 18)
    assert game.seat() == 0
    _place(game, "coin", "a-3")
    _place(game, "crow")
    _place(game, "crow")
    game.act(0, {"type": "end_turn"})
    _place(game, "cat")
    _place(game, "cat")
    assert game.engine.prompts(game.state)[0]["kind"] == "after_placement"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_shapeshifter_moves_a_familiar_on_the_forest(browser, server, size):
    """New-user trial: the Shapeshifter's moves (six here, ten later in a round) were only items
    of the prompt bar's "More" menu. Each is a highlighted Forest space to click; the prompt bar
    keeps only "End your turn"; the Familiars it may move carry a dashed ring and are picks
    (a tap on the Cat dims the Crow's spaces); a click on a space moves the Cat there."""
    game, url = server
    _shapeshifter(game)
    legal = game.engine.legal_actions(game.state, 0)
    moves = [a for a in legal if a["type"] == "assistant"]
    assert len(moves) == 6 and {a["pawn"] for a in moves} == {"crow", "cat"}, moves
    phone = size == "375x812"
    ctx, page = _open(browser, url, size, game.step)
    try:
        board, picks, prompt, claimed = board_dom(page)
        for a in moves:
            assert canon(a) in board and canon(a) not in prompt, a
        assert prompt == {canon({"type": "end_turn"})}, prompt
        assert page.locator("#board .doe-forest .legal.move").count() == len(moves)
        for pawn in ("crow", "cat"):
            pick = page.locator(f"#board .doe-forest [data-pick='pawn-{pawn}']")
            assert pick.count() == 1 and pick.locator(".pick-ring").count() == 1, pawn
        page.locator("#board .doe-forest-box").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"drops_trial_shapeshifter_{size}.png"), full_page=False)
        # the "? Key" says what a ring means
        key = _key_text(page, phone)
        assert "your Shapeshifter may move it" in key and "Coin Pouch" in key, key
        # a pick of the Cat: the Crow's spaces dim
        _tap(page, page.locator("#board .doe-forest [data-pick='pawn-cat']"), phone)
        page.locator("#board .doe-forest [data-pick='pawn-cat'].picked").wait_for()
        crow = [a for a in moves if a["pawn"] == "crow"]
        cat = [a for a in moves if a["pawn"] == "cat"]
        assert page.locator("#board .doe-forest .legal.move.dim").count() == len(crow)
        assert page.locator("#board .doe-forest .legal.move:not(.dim)").count() == len(cat)
        page.screenshot(path=str(ARTIFACTS / f"drops_trial_shapeshifter_cat_{size}.png"), full_page=False)
        target = cat[-1]["space"]
        step = game.step
        _tap(page, page.locator(f"#board .doe-forest [data-space='{target}'].legal"), phone)
        page.locator(f"body[data-step='{step + 1}']").wait_for(state="attached", timeout=10_000)
        assert page.locator("body[data-illegal]").count() == 0
        assert game.state["pawns"][target] == [0, "cat"]
        assert page.locator(f"#board .doe-forest [data-space='{target}'].occupied").count() == 1
        assert page.locator("#board .doe-forest .legal.move").count() == 0  # the Assistant is used
        assert not page.js_errors, page.js_errors
    finally:
        ctx.close()


# The renderer's prompt words (docs/renderer-contract.md promptText) for views made here: the
# legal actions and what of the game they read.
PROMPT_JS = """async (views) => {
  const r = await import("/static/games/drops_of_evil/renderer.js");
  return views.map((v) => r.promptText(v));
}"""


def _lab(pool: dict | None = None, assistant: dict | None = None) -> dict:
    return {"seat": 0, "pool": pool or {}, "assistant": assistant}


def _view(kind: str, legal: list[dict], lab: dict) -> dict:
    return {"you": 0, "prompt": {"kind": kind, "text": "(the engine's words)"}, "legal_actions": legal,
            "game": {"alchilabs": [lab], "geometry": {"names": {"cat": "Cat", "worm": "Worm", "cheese": "Cheese"}},
                     "assistants": [{"id": "AS05", "name": "Shapeshifter"}, {"id": "AS08", "name": "Cheesemonger"},
                                    {"id": "AS03", "name": "Spider Charmer",
                                     "text": "Take 1 Spider from any Gathering space into your pool."}]}}


def test_prompt_words_come_from_the_legal_actions(browser, server):
    """New-user trial: the Brewing prompt said "Place your Resources, then Done" with nothing
    left to place; "Activate your Assistant or end your turn" said neither what the
    Shapeshifter does nor where. The words now come from the view's legal actions (a desktop
    says "click"; a touch screen "tap")."""
    game, url = server
    game.new(2, 18)
    done = {"type": "done"}
    move = {"type": "assistant", "assistant": "AS05", "pawn": "cat", "space": "k-3"}
    cheesemonger = {"assistant": {"space": "a-4", "id": "AS08", "used": False}}
    spider_charmer = {"assistant": {"space": "a-1", "id": "AS03", "used": False}}
    charm = {"type": "assistant", "assistant": "AS03", "target": "g-3-2"}
    views = [
        _view("brewing", [done], _lab()),
        _view("brewing", [done, {"type": "take_back", "cell": "b-1-1"}], _lab({"rat": 2})),
        _view("brewing", [done, {"type": "assistant", "assistant": "AS08"}, {"type": "alternative", "gain": "worm"},
                          {"type": "spend_worms", "token": "worm2"}], _lab(**cheesemonger)),
        _view("brewing", [done, {"type": "alternative", "gain": "worm"}, {"type": "alternative", "gain": "cheese"},
                          {"type": "cheese"}], _lab(**spider_charmer)),
        _view("brewing", [done], _lab({"spider": 1})),
        _view("brewing", [{"type": "brew", "res": "owl", "cell": "b-1-1"}], _lab({"owl": 1})),
        _view("after_placement", [move, {"type": "end_turn"}],
              _lab(assistant={"space": "a-3", "id": "AS05", "used": False})),
        _view("after_placement", [{"type": "assistant", "assistant": "AS01"}, {"type": "end_turn"}], _lab()),
        _view("placement", [{"type": "place", "pawn": "toad", "space": "t-1-1"}, move],
              _lab(assistant={"space": "a-3", "id": "AS05", "used": False})),
        _view("placement", [{"type": "place", "pawn": "toad", "space": "t-1-1"}], _lab()),
        _view("placement", [{"type": "place", "pawn": "toad", "space": "t-1-1"}, charm], _lab(**spider_charmer)),
        _view("after_placement", [charm, {"type": "end_turn"}], _lab(**spider_charmer)),
    ]
    expected = [
        "Nothing left to place: click Done brewing.",
        "Nothing left to place: click Done brewing.",
        "Nothing left to place: use your Assistant, spend your Worm token or click Done brewing.",
        "Nothing left to place: gain 1 Worm or 1 Cheese with your Coin Pouch, capture a Rat with Cheese or click"
        " Done brewing.",
        "Nothing more you can place: click Done brewing.",
        None,  # Resources to place: the engine's words
        "Move a Familiar to a highlighted space, or end your turn.",
        None,  # another Assistant, in the prompt bar: the engine's words
        "Place an Action pawn, or move a Familiar with your Shapeshifter.",
        None,  # only placements: the engine's words
        # the Spider Charmer's Spiders are ringed on the Forest (new-user trial: menu items)
        "Place an Action pawn, or take a Spider with your Spider Charmer (a ringed one on the Forest).",
        "Take a Spider with your Spider Charmer (click a ringed one on the Forest), or end your turn.",
    ]
    for size in SIZES:
        ctx, page = _open(browser, url, size, 0)
        try:
            got = page.evaluate(PROMPT_JS, views)
            want = [w.replace("click", "tap") if w and size == "375x812" else w for w in expected]
            # a phone's Brewing words on one line, as the engine's are (new-user trial 7: two
            # lines moved the board under the thumb); what is unused is on the Done bar
            if size == "375x812":
                want[:5] = ["All placed: tap Done brewing."] * 4 + ["Nothing more fits: tap Done brewing."]
            assert got == want, (size, got)
        finally:
            ctx.close()


def _brewed(game) -> tuple[int, dict]:
    """Seed 3 (side B), random moves to the first Brewing; the seat it waits for brews one
    Ingredient into its Brewer (a Resource placed this round: it may take it back) and is given
    an Owl Claw Scroll. Returns (seat, the brew)."""
    game.new(2, 3, {"side": "B"})
    rng = random.Random(2)
    while game.engine.view(game.state, None)["game"]["phase"] != "brewing":
        legal = game.engine.legal_actions(game.state, game.seat())
        game.act(game.seat(), rng.choice([a for a in legal if a["type"] != "cancel"] or legal))
    seat = game.seat()
    brew = next(a for a in game.engine.legal_actions(game.state, seat)
                if a["type"] == "brew" and a["cell"].startswith("b-"))
    game.act(seat, brew)
    game.state["alch"][seat]["scrolls"].append("owl")
    return seat, brew


# The seat panel's player board (renderer seatBoard) of the viewer: its words and the
# accessible name of the pawns at home.
SEAT_BOARD_JS = """async () => {
  const r = await import("/static/games/drops_of_evil/renderer.js");
  const v = await (await fetch("/api/view")).json();
  const b = r.seatBoard(v.you, v);
  document.body.append(b);
  const home = [...b.querySelectorAll(".sb-stat")].find((s) => (s.getAttribute("aria-label") || "").includes("at home"));
  const word = home && home.querySelector(".sb-word");
  const out = {label: home ? home.getAttribute("aria-label") : null, word: word ? word.textContent : null,
               shown: !!word && getComputedStyle(word).display !== "none"};
  b.remove();
  return out;
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_small_marks_say_what_they_are(browser, server, size):
    """New-user trial (table review, Drops item 6): "↺" on the Resources just placed, the
    "0 pairs" badge, the pawn icons and the scroll tokens had no words. Each shows a card in
    the rulebook's words on hover (a long-press on a phone): the take-back mark (a click on it
    still takes the Resource back), the top Vial's pairs, a Scroll under the Brewer and one
    gained, a pawn at home; the desktop Brewer names the take-back mark and the Scroll beside
    its title; the "? Key" lists the Familiars and the Coin Pouch; the seat panel's pawns at
    home say "at home" (on a desktop; their name says it on a phone)."""
    game, url = server
    seat, brew = _brewed(game)
    phone = size == "375x812"
    ctx, page = _open(browser, url, size, game.step)
    card = page.locator(".card-pop")

    def card_of(selector: str) -> str:
        text = open_card(page, page.locator(selector).first, phone)
        if phone:
            page.evaluate("document.dispatchEvent(new TouchEvent('touchstart', {bubbles: true}))")
        else:
            page.mouse.move(0, 0)
        card.wait_for(state="detached", timeout=3000)
        return text

    try:
        undo = f"#board .doe-lab.mine .doe-cell[data-cell='{brew['cell']}'] .doe-undo"
        assert page.locator(undo).count() == 1
        page.locator(undo).scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"drops_trial_marks_{size}.png"), full_page=False)
        text = card_of(undo)
        assert "Take back" in text and "into your pool" in text and "earlier rounds" in text, text
        text = card_of("#board .doe-lab.mine .doe-dvial .doe-pairs")
        assert "pairs of Mushrooms in the top Vial" in text and "Bonus token" in text, text
        text = card_of("#board .doe-lab.mine .doe-colbonus .doe-token.scroll")
        assert "Scroll" in text and "Toxicity marker forward" in text, text
        text = card_of("#board .doe-lab.mine .doe-scroll-own")
        assert "Owl Claw Scroll" in text and "Toxicity marker forward" in text, text
        text = card_of("#board .doe-lab.mine .doe-pawns .doe-pawn")
        assert "Crows can only be placed" in text, text
        marks = page.locator("#board .doe-lab.mine .doe-brewer-panel .doe-marks")
        pairs = page.locator("#board .doe-lab.mine .doe-distiller-panel .doe-marks")
        if phone:
            assert not marks.is_visible() and not pairs.is_visible()
        else:
            assert "take back" in marks.inner_text() and "Scroll" in marks.inner_text(), marks.inner_text()
            assert "pairs in the top Vial: a Bonus token each" in pairs.inner_text(), pairs.inner_text()
        key = _key_text(page, phone)
        for words in ("Familiars: Crow, Cat, Toad, Snake", "Coin Pouch", "Take back", "Scroll", "Pairs in the top Vial"):
            assert words in key, (words, key)
        got = page.evaluate(SEAT_BOARD_JS)
        assert got["label"] and got["label"].startswith("Action pawns at home"), got
        assert got["word"] == "at home", got
        # a click on the take-back mark takes the Resource back (the space's action)
        step = game.step
        _tap(page, page.locator(undo), phone)
        page.locator(f"body[data-step='{step + 1}']").wait_for(state="attached", timeout=10_000)
        assert brew["cell"] not in game.state["alch"][seat]["brewer"]
        assert not page.js_errors, page.js_errors
    finally:
        ctx.close()


# The shared helper that reads a board element's action (static/js/dom.js actionOf, used by
# actionNodes and the Drops renderer) and the Drops renderer's one pattern for "Vial X (column c,
# row r)" (logText and labelText).
HELPERS_JS = """async () => {
  const dom = await import("/static/js/dom.js");
  const r = await import("/static/games/drops_of_evil/renderer.js");
  const box = document.createElement("div");
  const node = (action) => { const n = document.createElement("span"); if (action !== undefined) n.dataset.action = action; box.append(n); return n; };
  const good = node('{"type":"bonus","slot":"ds-1-e"}'), bad = node("{not json"), none = node(undefined);
  node('{"slot":"ds-1-e","type":"bonus"}');
  const line = "Player 1 brews Owl Claw into Vial H (column 8, row 2), then Vial J (column 9, row 3)";
  return {good: dom.actionOf(good), bad: dom.actionOf(bad), none: dom.actionOf(none), nothing: dom.actionOf(null),
          found: dom.actionNodes(box, {type: "bonus", slot: "ds-1-e"}).length,
          log: [r.logText(line, {game: {}}), r.logText(line, {game: {}})],
          label: r.labelText("Take back the Resource in Vial A (column 1, row 1)", {game: {}})};
}"""


def test_action_and_vial_helpers(browser, server):
    """The helpers made of the renderer's repeated code (behaviour kept): an element's action
    read once for all (bad or missing JSON is no action), a Vial named by its letter in the log
    and the labels alike, every time (one global pattern)."""
    game, url = server
    game.new(2, 18)
    ctx, page = _open(browser, url, "1366x768", 0)
    try:
        got = page.evaluate(HELPERS_JS)
        assert got["good"] == {"type": "bonus", "slot": "ds-1-e"}, got
        assert got["bad"] is None and got["none"] is None and got["nothing"] is None, got
        assert got["found"] == 2, got  # deep-equal, whatever the key order
        assert got["log"] == ["Player 1 brews Owl Claw into Vial H, then Vial J"] * 2, got
        assert got["label"] == "Take back the Resource in Vial A", got
    finally:
        ctx.close()


# ----- on the real table: "Suggest a move" after placing, on a phone -------------------------

def _my_turn(page) -> None:
    page.wait_for_function(
        "document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'", timeout=30_000)


def _tap_and_wait(page, locator) -> None:
    before = page.evaluate("document.body.dataset.version")
    locator.tap()
    page.wait_for_function(f"document.body.dataset.version !== {before!r}", timeout=10_000)


# The prompt bar: its height, what of it is scrolled out of sight, where its words' first line
# lies against its top, its menu's summary (if any), and the suggestion (its words, where it
# lies against the bar's top).
BAR_JS = """() => {
  const bar = document.getElementById("prompt-bar"), r = bar.getBoundingClientRect();
  const words = document.getElementById("prompt-text").getBoundingClientRect();
  const menu = bar.querySelector("details.action-menu > summary");
  const answer = document.getElementById("hint-answer");
  // (a phone's bar lays the answer's words and buttons out in its own rows: their union)
  const parts = answer && !answer.hidden ? [...answer.querySelectorAll(".hint-label, .hint-reason, .hint-buttons > *")]
    .map((e) => e.getBoundingClientRect()).filter((q) => q.height) : [];
  const a = parts.length ? {top: Math.min(...parts.map((q) => q.top)), bottom: Math.max(...parts.map((q) => q.bottom))} : null;
  return {height: r.height, below: bar.scrollHeight - bar.clientHeight, scrolled: bar.scrollTop,
          wordsTop: words.top - r.top, words: document.getElementById("prompt-text").innerText,
          menu: menu ? menu.textContent : null,
          menuMoves: [...bar.querySelectorAll("details.action-menu [data-action]")]
            .filter((e) => JSON.parse(e.dataset.action).type === "assistant").length,
          answer: a ? answer.innerText : "", answerTop: a ? a.top - r.top : null,
          answerBottom: a ? a.bottom - r.top : null};
}"""


def test_suggest_after_placing_keeps_the_phone_bar_whole(browser, lair_hints):
    """New-user trial at 375x812: "Suggest a move" during "Activate your Assistant or end your
    turn" made the prompt bar a quarter of the window and cut its first line. The Shapeshifter's
    moves were a row of their own in the bar ("Choose: 8 choices": the bar was 199 px of its 203
    before any suggestion). They are on the Forest now: before the suggestion the bar holds two
    lines of the renderer's words and its buttons in under a fifth of the window, nothing in a
    menu; the suggestion then shows whole within the bar's quarter. (A suggestion whose label
    takes three lines fits too since the bar's row of buttons takes the suggestion's: tests/
    browser/test_layout.py test_phone_top_of_the_table_keeps_the_board_in_view.)
    Screenshots: drops_trial_suggest_{before,after}_375x812.png."""
    ctx = browser.new_context(**SIZES["375x812"], reduced_motion="reduce")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        host_new_match(page, lair_hints, "Morgana", "drops_of_evil", 2)
        fill_and_start(page, seed=18)
        _my_turn(page)
        # the Shapeshifter with the Coin Pouch, then the Crow (and "End your turn"), then the Cat
        _tap_and_wait(page, page.locator("#board .doe-asst.legal", has_text="Shapeshifter"))
        _my_turn(page)
        _tap_and_wait(page, page.locator("#board .doe-forest .doe-g.legal").first)
        _my_turn(page)
        _tap_and_wait(page, page.locator("#prompt-actions button", has_text="End your turn"))
        _my_turn(page)
        _tap_and_wait(page, page.locator("#board .doe-forest .doe-as.cat.legal").first)
        _my_turn(page)
        page.wait_for_function("document.body.dataset.hint === 'ready'")
        page.wait_for_timeout(300)  # the decision is brought into view
        before = page.evaluate(BAR_JS)
        screenshot(page, ARTIFACTS / "drops_trial_suggest_before_375x812.png", full_page=False)
        # the moves are on the Forest, not in a menu (a phone's one row of buttons may keep
        # Undo and "Suggest a move" in its "2 more")
        assert before["menuMoves"] == 0, before
        assert before["words"].startswith("Move a Familiar to a highlighted space"), before
        assert before["height"] <= 0.2 * 812 and before["below"] <= 1 and before["wordsTop"] >= 0, before
        if not page.locator("#hint-ask").is_visible():  # in the phone's "2 more" menu: open it
            page.locator("#prompt-actions details.action-menu > summary").tap()
        page.locator("#hint-ask").tap()
        page.wait_for_function("document.body.dataset.hint === 'shown'", timeout=30_000)
        page.wait_for_timeout(300)
        after = page.evaluate(BAR_JS)
        screenshot(page, ARTIFACTS / "drops_trial_suggest_after_375x812.png", full_page=False)
        print("\nbar before and after Suggest:", before, after)
        assert after["height"] <= 0.25 * 812 + 0.5, after
        assert "Suggestion:" in after["answer"], after
        assert after["answerTop"] >= 0 and after["answerBottom"] <= after["height"] + 0.5, after
        assert not errors, errors
    finally:
        ctx.close()


def _charmers(game) -> None:
    """Seed 24, two players: the second in turn order (seat 0) hires the Herbalist (the first
    Assistant), the first (seat 1) the Spider Charmer (the third); a Spider is added to a
    Clearing space where a Crow may go. It is seat 1's second turn: it may place a pawn, or take
    a Spider with its Spider Charmer (from that Clearing space, or another space)."""
    game.new(2, 24)
    assert game.seat() == 1
    game.act(1, {"type": "place", "pawn": "coin", "space": "a-3"})
    game.act(1, {"type": "end_turn"})
    game.act(0, {"type": "place", "pawn": "coin", "space": "a-1"})
    game.act(0, {"type": "end_turn"})
    game.state["forest"].setdefault("g-3-2", {})["spider"] = 1
    game.step += 1


def _rect(page, selector: str) -> dict:
    return page.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }")


@pytest.mark.parametrize("size", list(SIZES))
def test_assistants_take_from_the_forest(browser, server, size):
    """New-user trial: the Spider Charmer's (and the Herbalist's) targets were prompt-bar items,
    "Activate Spider Charmer on … (the 1st of 5 alike, from the top left)" eight times, filling
    the phone's "N more" sheet. They are on the Forest now: each Spider the Spider Charmer may
    take is ringed on its space; a click on a space offering only that takes it; a Clearing
    space where your Crow may also go asks which, in a small choice by the space (in the
    window); the prompt bar keeps none of them. The Herbalist takes a Mushroom the same way."""
    game, url = server
    _charmers(game)
    legal = game.engine.legal_actions(game.state, 1)
    takes = [a for a in legal if a["type"] == "assistant"]
    assert {a["target"] for a in takes} == {"g-3-2", "g-5-3"}, takes
    assert any(a["type"] == "place" and a["pawn"] == "crow" and a["space"] == "g-3-2" for a in legal)
    phone = size == "375x812"
    ctx, page = _open(browser, url, size, game.step)
    try:
        board, picks, prompt, claimed = board_dom(page)
        assert not [k for k in prompt if '"assistant"' in k], prompt
        for a in takes:
            assert canon(a) in claimed, a
        assert page.locator("#board .doe-forest .take-ring").count() == len(takes)
        # a space offering only the Spider: a click takes it
        assert canon(takes[[a["target"] for a in takes].index("g-5-3")]) in board
        # the Clearing space: your Crow or the Spider, asked by the space
        space = page.locator("#board .doe-forest [data-space='g-3-2']")
        assert space.get_attribute("data-choose") == "g-3-2"
        page.locator("#board .doe-forest-box").scroll_into_view_if_needed()
        _tap(page, space, phone)
        choice = page.locator("#board .doe-choice")
        choice.wait_for()
        buttons = choice.locator("button").all_inner_texts()
        assert [b.strip() for b in buttons] == ["Place your Crow here", "Take a Spider with your Spider Charmer",
                                                "Cancel"], buttons
        box, at = _rect(page, "#board .doe-choice"), _rect(page, "#board .doe-forest [data-space='g-3-2']")
        vw, vh = page.viewport_size["width"], page.viewport_size["height"]
        assert box["left"] >= 0 and box["right"] <= vw and box["top"] >= 0 and box["bottom"] <= vh, box
        # by the space: just under it or just above it
        assert min(abs(box["top"] - at["bottom"]), abs(at["top"] - box["bottom"])) < 12, (box, at)
        page.screenshot(path=str(ARTIFACTS / f"drops_trial_choice_{size}.png"), full_page=False)
        # Cancel closes it and acts not
        step = game.step
        _tap(page, choice.locator("button", has_text="Cancel"), phone)
        page.locator("#board .doe-choice").wait_for(state="detached")
        assert game.step == step
        _tap(page, space, phone)
        _tap(page, page.locator("#board .doe-choice button", has_text="Spider Charmer"), phone)
        page.locator(f"body[data-step='{step + 1}']").wait_for(state="attached", timeout=10_000)
        assert page.locator("body[data-illegal]").count() == 0
        assert game.state["alch"][1]["pool"]["spider"] == 1
        assert not game.state["forest"].get("g-3-2", {}).get("spider")
        # the Spider Charmer used: no ring left; a highlighted space places the Crow at once
        assert page.locator("#board .doe-forest .take-ring").count() == 0
        _tap(page, page.locator("#board .doe-forest [data-space='g-3-2'].legal"), phone)
        page.locator(f"body[data-step='{step + 2}']").wait_for(state="attached", timeout=10_000)
        assert game.state["pawns"]["g-3-2"] == [1, "crow"]
        assert game.seat() == 0  # (the Assistant used, the turn ended with the placement)
        # the Herbalist (seat 0): a Mushroom on a space offering only it, taken by a click
        page.goto(f"{url}/harness.html")
        page.locator(f"body[data-step='{game.step}']").wait_for(state="attached", timeout=10_000)
        herb = [a for a in game.engine.legal_actions(game.state, 0) if a["type"] == "assistant"]
        assert herb and all(a["assistant"] == "AS04" for a in herb), herb
        board, picks, prompt, claimed = board_dom(page)
        assert not [k for k in prompt if '"assistant"' in k], prompt
        assert page.locator("#board .doe-forest .take-ring").count() == len(herb)
        one = next(a for a in herb if canon(a) in board)
        before = game.state["alch"][0]["pool"]["mushroom"]
        step = game.step
        _tap(page, page.locator(f"#board .doe-forest [data-space='{one['target']}'].legal"), phone)
        page.locator(f"body[data-step='{step + 1}']").wait_for(state="attached", timeout=10_000)
        assert game.state["alch"][0]["pool"]["mushroom"] == before + 1
        assert not page.js_errors, page.js_errors
    finally:
        ctx.close()


def _four_seats_vial_full(game) -> None:
    """Seed 11, four players; the seat the game waits for has Vial I complete (3 Salamander
    Eyes)."""
    game.new(4, 11)
    game.state["alch"][game.seat()]["brewer"] = {"b-5-3": "salamander", "b-6-3": "salamander",
                                                 "b-6-4": "salamander"}
    game.step += 1


def test_phone_tabs_one_row(browser, server):
    """New-user trial (375×812): four seats' Alchilab tabs wrapped onto two lines. They are one
    row, inside the board (it scrolls sideways when wider); a tap on the last one shows that
    seat's Alchilab, its tab wholly in the row."""
    game, url = server
    _four_seats_vial_full(game)
    ctx, page = _open(browser, url, "375x812", game.step)
    try:
        tops = page.locator("#board .doe-tab").evaluate_all(
            "els => els.map((e) => Math.round(e.getBoundingClientRect().top))")
        assert len(tops) == 4 and len(set(tops)) == 1, tops
        row = _rect(page, "#board .doe-tabs")
        assert row["right"] <= page.viewport_size["width"], row
        page.locator("#board .doe-tabs").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "drops_trial_tabs_375x812.png"))
        # the row scrolls: the shown seat's tab is in it (once the renderer's scroll is done),
        # each end with more beyond fades
        page.wait_for_function("""() => {
          const on = document.querySelector("#board .doe-tab.on").getBoundingClientRect();
          const row = document.querySelector("#board .doe-tabs").getBoundingClientRect();
          return on.left >= row.left - 1 && on.right <= row.right + 1;
        }""", timeout=3000)
        on, row = _rect(page, "#board .doe-tab.on"), _rect(page, "#board .doe-tabs")
        assert on["left"] >= row["left"] - 1 and on["right"] <= row["right"] + 1, (on, row)
        first = page.locator("#board .doe-tab").first
        first.tap()
        page.locator(f"#board .doe-lab[data-seat='{first.get_attribute('data-seat-tab')}']").wait_for()
        assert "more-right" in page.locator("#board .doe-tabs").get_attribute("class")
        last = page.locator("#board .doe-tab").nth(3)
        seat = last.get_attribute("data-seat-tab")
        last.tap()
        page.locator(f"#board .doe-lab[data-seat='{seat}']").wait_for()
        tab, row = _rect(page, "#board .doe-tab.on"), _rect(page, "#board .doe-tabs")
        assert tab["left"] >= row["left"] - 1 and tab["right"] <= row["right"] + 1, (tab, row)
        assert not page.js_errors, page.js_errors
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_complete_vial_badge_clear_of_its_resource(browser, server, size):
    """New-user trial: the "✓2" of a complete Vial lay over the Resource in its first space
    (Vial I). The badge and that Resource do not overlap."""
    game, url = server
    _four_seats_vial_full(game)
    ctx, page = _open(browser, url, size, game.step)
    try:
        assert page.locator("#board .doe-lab.mine .doe-vial-pts").count() == 1
        cell = page.locator("#board .doe-lab.mine [data-cell='b-5-3']")
        b, r = _rect(page, "#board .doe-lab.mine .doe-vial-pts"), _rect(
            page, "#board .doe-lab.mine [data-cell='b-5-3'] .doe-res")
        overlap = min(b["right"], r["right"]) - max(b["left"], r["left"]) > 0.5 and \
            min(b["bottom"], r["bottom"]) - max(b["top"], r["top"]) > 0.5
        assert not overlap, (size, b, r)
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=str(ARTIFACTS / f"drops_trial_vial_badge_{size}.png"))
        assert not page.js_errors, page.js_errors
    finally:
        ctx.close()


# Each Assistant card's head: its number's, name's and phase tag's boxes.
ASSISTANT_HEADS_JS = """() => [...document.querySelectorAll("#board .doe-asst-head")].map((h) => {
  const box = (s) => { const r = h.querySelector(s).getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  return {name: h.querySelector(".doe-asst-name").textContent, num: box(".doe-asst-num"), nm: box(".doe-asst-name"),
          phase: box(".doe-phase")};
})"""


@pytest.mark.parametrize("size", list(SIZES))
def test_an_assistants_name_stays_beside_its_number(browser, server, size):
    """The fourth new-user trial: a long Assistant name ("Worm Farmer") went under its number,
    so at the desktop's fold the card read just "2". Every Assistant's name starts on its
    number's line, right of it (wrapping inside its own box when long), the phase tag on the
    line below."""
    game, url = server
    game.new(4, 11)
    game.step += 1  # (the page shows a new step's view)
    ctx, page = _open(browser, url, size, game.step)
    try:
        heads = page.evaluate(ASSISTANT_HEADS_JS)
        page.locator("#board .doe-assistants").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"drops_trial_assistants_{size}.png"))
        assert len(heads) >= 4, heads
        for h in heads:
            assert h["nm"]["top"] < h["num"]["bottom"] and h["nm"]["left"] >= h["num"]["right"], \
                (size, "the name is not beside its number", h)
            assert h["phase"]["top"] >= h["nm"]["bottom"] - 1, (size, "the phase tag is not below the name", h)
        assert not page.js_errors, page.js_errors
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_vial_letters_clear_of_their_resources(browser, server, size):
    """The fourth new-user trial (375×812): a Resource brewed into a Vial's first space covered
    the Vial's letter (B, C, G, J). With a Resource in the first space of every Vial (none
    complete), each letter is drawn on top, sharing at most a corner with that Resource (15 %
    of the letter's box), and is whole in its space."""
    game, url = server
    game.new(2, 11)
    game.step += 1
    ctx, page = _open(browser, url, size, game.step)
    page.locator("#board .doe-lab.mine .doe-brewer").scroll_into_view_if_needed()
    cells = page.locator("#board .doe-lab.mine .doe-cell:has(.doe-vial-tag)").evaluate_all(
        "els => els.map((e) => e.dataset.cell)")
    ctx.close()
    assert len(cells) >= 10, cells
    game.state["alch"][game.seat()]["brewer"] = {c: "owl" for c in cells}
    game.step += 1
    ctx, page = _open(browser, url, size, game.step)
    try:
        page.locator("#board .doe-lab.mine .doe-brewer").scroll_into_view_if_needed()
        got = page.evaluate("""(ids) => ids.map((id) => {
          const cell = document.querySelector(`#board .doe-lab.mine [data-cell="${id}"]`);
          const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
          const tag = cell.querySelector(".doe-vial-tag"), t = tag.getBoundingClientRect();
          const top = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
          return {id, tag: box(tag), res: box(cell.querySelector(".doe-res")), cell: box(cell),
                  onTop: !!top && tag.contains(top)};
        })""", cells)
        for g in got:
            t, r, c = g["tag"], g["res"], g["cell"]
            # the letter drawn over its Resource at most at a corner, and on top there
            shared = max(0.0, min(t["right"], r["right"]) - max(t["left"], r["left"])) * \
                max(0.0, min(t["bottom"], r["bottom"]) - max(t["top"], r["top"]))
            area = (t["right"] - t["left"]) * (t["bottom"] - t["top"])
            assert g["onTop"] and shared <= 0.15 * area, (size, "a Vial's letter under its Resource", str(g))
            assert t["left"] >= c["left"] - 1 and t["top"] >= c["top"] - 3, (size, "the letter is cut", g)
        grid = page.locator("#board .doe-lab.mine .doe-brewer")
        grid.scroll_into_view_if_needed()
        grid.screenshot(path=str(ARTIFACTS / f"drops_trial_vial_letters_{size}.png"))
        assert not page.js_errors, page.js_errors
    finally:
        ctx.close()
