"""'Suggest a move' on the real table (issue 17, item 6, "A hint that cannot cheat").

A real Lair process whose hard searches think 50 ms in one worker. For each game the host
(Morgana) creates a 2-player match in the lobby, gives the other seat to an Easy bot, and a
spectator opens the spectator link. On her turn she clicks "Suggest a move": the board (or the
prompt bar, for a move that has no place on the board) highlights what the suggested move
touches, with the reason the server gave; she plays it by clicking the highlighted places as
usual. The spectator's log and the replay say that she asked for a hint, and the spectator's
socket never receives the suggestion. With hints turned off in the waiting room, the button is
not there. On a phone (375x812) the suggestion and the prompt's words are both whole in the
prompt bar (a new user's trial: the words were cut in half at its top). Screenshots
(1366x768): tests/browser/artifacts/hints/hint-<game>.png, and docs/screenshots/hint-<game>.png
under ``LAIR_SCREENSHOTS`` (``make screenshots``); hints/hint-phone*.png.
"""
from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from tests.browser.test_full_match import fill_and_start, host_new_match
from tests.browser.test_layout import DESKTOP_768, PHONE_812, check_buttons, new_table
from tests.browser.test_phone_bars import ROUND_JS
from tests.chromium import ARTIFACTS, ROOT, lair_process, screenshot
from tests.marks_check import assert_tags_clear
from tests.table_clicks import answer_yes

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1366, "height": 768}
OUT = ARTIFACTS / "hints"
GAMES = ["drops_of_evil", "evil_corp", "covil"]


@pytest.fixture(scope="module")
def server(lair_hints):
    """The real site, hints thinking 50 ms (conftest.py ``lair_hints``)."""
    return lair_hints


def canon(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def frames_of(page) -> list[dict]:
    """Every JSON frame the page's sockets receive from now on (a list that grows)."""
    got: list[dict] = []

    def on_socket(ws) -> None:
        def on_frame(payload) -> None:
            try:
                got.append(json.loads(payload))
            except (TypeError, ValueError):
                pass
        ws.on("framereceived", on_frame)
    page.on("websocket", on_socket)
    return got


def new_page(browser):
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = ctx.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    return ctx, page


def start(browser, server: str, game: str, hints: bool = True):
    """Morgana's 2-player ``game`` match against an Easy bot, started (hints as given), and a
    spectator at its table. Returns (contexts, host page, host frames, spectator page,
    spectator frames)."""
    host_ctx, host = new_page(browser)
    frames = frames_of(host)
    host.goto(server + "/")
    host.fill("#name", "Morgana")
    host.click("#name-submit")
    host.check(f"#game-{game}")
    host.select_option(f"#players-{game}", "2")
    host.click("#create")
    host.wait_for_selector("#start")
    assert host.is_checked("#hints"), "hints are on by default"
    if not hints:
        host.uncheck("#hints")
        host.click("#save-pace")
        host.wait_for_selector("#start")
        assert not host.is_checked("#hints")
    watch = host.input_value("#watch-link")
    fill_and_start(host)
    spect_ctx, spect = new_page(browser)
    spect_frames = frames_of(spect)
    spect.goto(watch)
    if spect.locator("#name").count():
        spect.fill("#name", "Watcher")
        spect.click("#name-submit")
    spect.wait_for_selector("#table")
    spect.wait_for_function("document.body.dataset.version !== undefined")
    return (host_ctx, spect_ctx), host, frames, spect, spect_frames


def wait_my_turn(page, timeout: float = 30_000) -> None:
    page.wait_for_function(
        "document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'",
        timeout=timeout)


def ask(page, frames: list[dict]) -> dict:
    """Click "Suggest a move" (on a fresh position if the table moved meanwhile); the "hint"
    frame the page received."""
    for _ in range(3):
        wait_my_turn(page)
        page.wait_for_selector("#hint-ask:not([disabled])", state="visible")
        before = len(frames)
        page.click("#hint-ask")
        page.wait_for_function("document.body.dataset.hint !== 'asked'", timeout=30_000)
        hints = [f for f in frames[before:] if f.get("type") == "hint"]
        if hints and page.evaluate("document.body.dataset.hint") == "shown":
            return hints[-1]
    raise AssertionError("no suggestion was shown in three tries")


def wait_to_move(page) -> None:
    """Until the page's player may move (their turn, no move of theirs in flight) or the
    match is over."""
    page.wait_for_function("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'"
                           " || document.body.dataset.finished === 'true'", timeout=30_000)


def highlighted(page) -> list[dict]:
    """The highlighted elements: where (board or bar), their data-action / data-pick."""
    return page.locator(".hint-hit").evaluate_all(
        "els => els.map(e => ({where: e.closest('#board') ? 'board' : 'bar',"
        " action: e.getAttribute('data-action'), pick: e.getAttribute('data-pick'),"
        " visible: e.getClientRects().length > 0}))")


def play_by_clicks(page, action: dict) -> None:
    """Play the suggestion as a player would: click the highlighted pick (if any), then the
    highlighted place that plays it; waits for the next version."""
    before = page.evaluate("document.body.dataset.version")
    picks = page.locator("#board .hint-hit[data-pick]")
    if picks.count():
        picks.first.click()  # the first step: the board draws where it may go, highlighted
        page.wait_for_selector("#board .hint-hit[data-action], #prompt-actions .hint-hit[data-action]")
    target = None
    for loc in (page.locator("#board .hint-hit[data-action]"), page.locator("#prompt-actions .hint-hit[data-action]")):
        for i in range(loc.count()):
            el = loc.nth(i)
            if canon(json.loads(el.get_attribute("data-action"))) == canon(action) and el.is_visible():
                target = el
                break
        if target is not None:
            break
    assert target is not None, f"nothing highlighted plays {action}: {highlighted(page)}"
    target.click()
    answer_yes(page)  # a move the bar asks about first (Evil Corp.'s Pass, a hire)
    page.wait_for_function("(v) => document.body.dataset.version !== v", arg=before, timeout=15_000)


# The prompt's words and the suggestion in lines on screen (review 8, worst problem 4: a
# two-line prompt and a two-line suggestion took 17 % of a 1366×768 window): how many lines the
# prompt's words take, how many the suggestion's words and its reason (0: behind "Why?"), and how
# many rows the suggestion's parts (its words, its reason if shown, its buttons) take; and the
# bar's share of the window.
LINES_JS = """() => {
  const lines = (node) => {
    if (!node) return 0;
    const range = document.createRange();
    range.selectNodeContents(node);
    const b = [...range.getClientRects()].filter((q) => q.width && q.height).map((q) => q.bottom).sort((x, y) => x - y);
    return b.filter((v, i) => i === 0 || v - b[i - 1] > 4).length;
  };
  const answer = document.getElementById("hint-answer");
  const parts = [...answer.querySelectorAll(":scope > .hint-label, :scope > .hint-reason, :scope > .hint-buttons")]
    .map((n) => n.getBoundingClientRect()).filter((r) => r.height);
  const mids = parts.map((r) => (r.top + r.bottom) / 2).sort((x, y) => x - y);
  const reason = answer.querySelector(".hint-reason");
  return {prompt: lines(document.getElementById("prompt-text")), label: lines(answer.querySelector(".hint-label")),
          reason: reason && reason.getBoundingClientRect().height ? lines(reason) : 0,
          rows: mids.filter((v, i) => i === 0 || v - mids[i - 1] > 8).length,
          text: document.getElementById("prompt-text").textContent, said: answer.innerText,
          share: document.getElementById("prompt-bar").getBoundingClientRect().height / innerHeight};
}"""


def one_line_each(page) -> dict:
    """The prompt's words and the suggestion (its words and buttons) take one line each."""
    got = page.evaluate(LINES_JS)
    print("prompt and suggestion lines:", got)
    assert got["prompt"] == 1 and got["label"] == 1 and got["reason"] <= 1 and got["rows"] == 1, got
    return got


def save(page, name: str) -> None:
    screenshot(page, OUT / f"{name}.png", full_page=False)
    docs = os.environ.get("LAIR_SCREENSHOTS")
    if docs:
        shutil.copy(OUT / f"{name}.png", ROOT / docs / f"{name}.png")


@pytest.mark.parametrize("game", GAMES)
def test_a_player_sees_the_suggestion_and_the_table_only_that_she_asked(browser, server, game):
    ctxs, host, frames, spect, spect_frames = start(browser, server, game)
    try:
        frame = ask(host, frames)
        action, reason = frame["action"], frame["reason"]
        # the suggestion: its words, its reason, and a highlight on what it touches
        answer = host.locator("#hint-answer")
        assert answer.is_visible()
        words = host.locator("#hint-answer .hint-label b").inner_text().strip()
        assert words
        if game == "drops_of_evil":  # a Forest space by what is there, not by a column and a row
            assert not re.search(r"\b(?:columns?|rows?) \d", words), words
        if reason:
            assert host.locator("#hint-answer .hint-reason").inner_text() == reason
        hits = highlighted(host)
        assert any(h["visible"] for h in hits), f"nothing highlighted for {action}"
        places = host.locator("#board [data-action]").evaluate_all(
            "els => els.map(e => [e.getAttribute('data-action'), e.classList.contains('hint-hit')])")
        assert all(lit for a, lit in places if canon(json.loads(a)) == canon(action)), \
            "a board place that plays the suggestion is not highlighted"
        print(f"{game}: suggested {action} ({reason}); highlighted {hits}")
        # a highlighted place is on screen below the prompt bar, and nothing covers it
        clear = host.evaluate("""() => [...document.querySelectorAll('#board .hint-hit')].filter((e) => {
            const r = e.getBoundingClientRect();
            const bar = document.getElementById('prompt-bar').getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (!r.width || !r.height || y < bar.bottom || y > innerHeight) return false;
            const hit = document.elementFromPoint(x, y);
            return !!hit && document.getElementById('board').contains(hit);
          }).length""")
        if any(h["where"] == "board" for h in hits):
            assert clear >= 1, "no highlighted place is on screen, clear of everything else"
        assert host.evaluate("document.getElementById('prompt-bar').getBoundingClientRect().height") \
            <= DESKTOP["height"] / 4, "the suggestion grew the prompt bar past a quarter"
        save(host, f"hint-{game}")
        # its "Suggested" tags lie on their marks or in free space, whole (review 8, problem 2)
        # (a suggestion lit only in the bar, Covil's "Buy a Power Relic", has no tag: a CI run)
        print("tags:", assert_tags_clear(host, expect=1 if any(h["where"] == "board" for h in hits) else 0))
        if game == "evil_corp":
            # whichever monster of her screen it suggests, its tag lies clear (a CI run's
            # suggested Junior Goblin: the tag covered the edge of its ability badge); each of
            # them lit in turn as the suggestion lights it, then the suggestion's own marks again
            host.evaluate("() => { for (const n of document.querySelectorAll('#board .hint-hit'))"
                          " n.dataset.wasLit = ''; }")
            for pick in host.locator("#ec-my-screen [data-pick]").evaluate_all(
                    "els => els.map((e) => e.dataset.pick)"):
                host.evaluate("""(pick) => {
                  for (const n of document.querySelectorAll('#board .hint-hit')) n.classList.remove('hint-hit');
                  document.querySelector(`#ec-my-screen [data-pick="${pick}"]`).classList.add('hint-hit');
                }""", pick)
                assert_tags_clear(host, expect=1)
            host.evaluate("""() => {
              for (const n of document.querySelectorAll('#board .hint-hit')) n.classList.remove('hint-hit');
              for (const n of document.querySelectorAll('#board [data-was-lit]')) n.classList.add('hint-hit');
            }""")
        # one line each for the prompt and the suggestion; a reason that does not fit beside
        # the suggestion waits behind "Why?", and a click shows it
        one_line_each(host)
        why = host.locator("#hint-answer .hint-why")
        if reason and why.is_visible():
            why.click()
            host.locator("#hint-answer .hint-reason").wait_for(state="visible")
            save(host, f"hint-{game}-why")

        # everyone at the table learns that she asked, and nothing of what was suggested
        line = spect.locator("#log .log-hint").last
        line.wait_for(timeout=10_000)
        assert "Morgana asked for a hint at move" in line.inner_text()
        assert host.locator("#log .log-hint").count() == 1
        assert not [f for f in spect_frames if f.get("type") == "hint"], "the spectator got the hint"
        assert spect.locator(".hint-hit").count() == 0
        assert not spect.locator("#hint-ask").is_visible()
        assert spect.locator("#hint-answer").count() == 0 or not spect.locator("#hint-answer").is_visible()

        # she plays it by clicking as usual; the suggestion goes with the position
        play_by_clicks(host, action)
        host.wait_for_function("document.body.dataset.hint !== 'shown'")
        assert host.locator(".hint-hit").count() == 0

        # the replay lists the use too
        replay_url = host.get_attribute("#table", "data-replay-url")
        replay = ctxs[0].new_page()
        replay.goto(server + replay_url if replay_url.startswith("/") else replay_url)
        replay.wait_for_function("Number(document.getElementById('replay').dataset.shown) > 0")
        assert "Morgana asked for a hint at move" in replay.locator("#log .log-hint").first.inner_text()
        # at its move: after the lines of the moves before, before those of her move (the
        # replay opens at its last step, which it shows first: it was at the end of the log)
        order = replay.evaluate("""() => [...document.querySelectorAll('#log > li')].map(
            (li) => li.classList.contains('log-hint') ? 'hint' : Number(li.dataset.step))""")
        at, version = order.index("hint"), frame["version"]
        assert all(s <= version for s in order[:at]), (version, order)
        assert any(s > version for s in order[at + 1:]), (version, order)
        assert host.js_errors == [] and spect.js_errors == []
    finally:
        for c in ctxs:
            c.close()


def test_no_button_when_the_host_turned_hints_off(browser, server):
    ctxs, host, frames, spect, _ = start(browser, server, "drops_of_evil", hints=False)
    try:
        wait_my_turn(host)
        host.wait_for_function("document.body.dataset.hint === 'none'")
        assert not host.locator("#hint-ask").is_visible()
        assert host.locator("#log .log-hint").count() == 0
        assert host.js_errors == []
    finally:
        for c in ctxs:
            c.close()


def test_a_refused_hint_is_a_toast_and_the_button_stays(browser, server):
    """Over the hint rate limit (6 a minute per user, app/settings.py RATE_HINTS) the answer is
    a toast saying so; the button stays for later, and no suggestion is shown."""
    ctxs, host, frames, spect, _ = start(browser, server, "covil")
    try:
        for _ in range(6):
            ask(host, frames)
            host.click("#hint-answer .hint-dismiss")
            assert host.locator(".hint-hit").count() == 0, "Dismiss left the highlight"
        host.click("#hint-ask")
        toast = host.locator(".toast[data-code='rate_limited']")
        toast.wait_for(timeout=10_000)
        assert toast.inner_text().strip()
        host.wait_for_function("document.body.dataset.hint === 'ready'")
        assert host.locator("#hint-ask").is_visible() and not host.locator("#hint-answer").is_visible()
        assert host.locator("#log .log-hint").count() == 6
        assert host.js_errors == []
    finally:
        for c in ctxs:
            c.close()


@pytest.fixture(scope="module")
def slow_bots(tmp_path_factory):
    """The real site whose bots wait 20 s before each move: a player sees a suggestion before
    the team-mate bot moves (10 s was too short on a CI machine at load 15: the start, the
    table and the search worker's first start took longer)."""
    with lair_process(tmp_path_factory.mktemp("db") / "lair.db", BOT_THINK_SECONDS="0.05",
                      BOT_WORKERS="1", BOT_DELAY="20") as url:
        yield url


def test_a_suggestion_stays_while_a_team_mate_moves(browser, slow_bots):
    """Evil Corp. for 4: Morgana's team-mate (seat 2, an Easy bot) moves at the same time as
    she does. The suggestion she asked for stays, highlighted, when the bot's move arrives (her
    decision is the same), and she plays it by clicking as usual. The match's seed is the
    server's: in some matches the team-mate's move makes the suggested move illegal
    (it took the cell, or played to the portal): then the suggestion goes away, she asks again
    and plays that one (a CI run met this case and the test failed)."""
    ctx, host = new_page(browser)
    frames = frames_of(host)
    try:
        host_new_match(host, slow_bots, "Morgana", "evil_corp", 4,
                       {"select[name=opt_evil_corp_first_player]": "0"})
        host.wait_for_selector("#fill")
        host.select_option("#fill-level", "easy")
        host.click("#fill")
        host.wait_for_selector("#seats li[data-seat='3'] strong")
        host.click("#start")
        host.wait_for_selector("#table")
        frame = ask(host, frames)
        shown_at = frame["version"]
        assert shown_at == 0, "the team-mate moved before the suggestion came: nothing tried"
        # the team-mate's move arrives: another version, the same decision for her
        host.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=shown_at,
                               timeout=30_000)
        now = host.evaluate("Number(document.body.dataset.version)")
        view = next(f["view"] for f in reversed(frames)
                    if f.get("type") == "view" and f["view"]["version"] == now)
        still = any(canon(a) == canon(frame["action"]) for a in view.get("legal_actions") or [])
        if still:
            assert host.evaluate("document.body.dataset.hint") == "shown", \
                "the suggestion went away when the team-mate moved"
            assert any(h["visible"] for h in highlighted(host))
            save(host, "hint-evil_corp-team-mate-moved")
        else:  # her decision changed: the old suggestion must not stay to mislead her
            assert host.evaluate("document.body.dataset.hint") != "shown", \
                "a suggestion the team-mate's move made illegal stayed on screen"
            assert host.locator(".hint-hit").count() == 0
            # (the team-mate's move may also have ended her team's turn: the other team's
            # bots then move first, 20 s each)
            wait_my_turn(host, timeout=120_000)
            frame = ask(host, frames)
        play_by_clicks(host, frame["action"])
        host.wait_for_function("document.body.dataset.hint !== 'shown'")
        assert host.locator(".hint-hit").count() == 0
        assert host.js_errors == []
    finally:
        ctx.close()


PHONE_ROW = "#ec-my-screen .ec-supply"


def _lit_tile(page) -> dict | None:
    """The suggested tile in the phone's sideways row of tiles behind the screen: its index and
    whether the row shows it whole; None if the suggestion picks no tile."""
    return page.evaluate("""(sel) => {
        const row = document.querySelector(sel);
        const tiles = row ? [...row.querySelectorAll('[data-pick]')] : [];
        const i = tiles.findIndex((t) => t.classList.contains('hint-hit'));
        if (i < 0) return null;
        const b = row.getBoundingClientRect(), r = tiles[i].getBoundingClientRect();
        return {i, n: tiles.length, whole: r.left >= b.left - 1 && r.right <= b.right + 1};
      }""", PHONE_ROW)


def test_a_suggested_tile_comes_into_the_phone_rows_view(browser, server):
    """Evil Corp. at 375x812: the tiles behind the screen are one row that scrolls sideways; a
    suggested tile at the row's hidden end comes into view (new-user recheck: its highlight was a
    sliver at the edge). The row is scrolled away from the tile suggested first, then asked again."""
    ctx = browser.new_context(viewport={"width": 375, "height": 812}, reduced_motion="reduce",
                              has_touch=True, is_mobile=True, device_scale_factor=1)
    try:
        host = ctx.new_page()
        frames = frames_of(host)
        host_new_match(host, server, "Morgana", "evil_corp", 2)
        host.wait_for_selector("#start")
        fill_and_start(host)
        checked = 0
        for _ in range(4):
            ask(host, frames)
            first = _lit_tile(host)
            if first is None or first["n"] < 2:
                break
            host.click("#hint-answer .hint-dismiss")
            # hide the suggested tile: the row scrolled to the end away from it
            host.evaluate("""([sel, left]) => { const row = document.querySelector(sel);
                row.style.scrollSnapType = 'none'; row.scrollLeft = left ? 0 : row.scrollWidth; }""",
                          [PHONE_ROW, first["i"] >= first["n"] / 2])
            ask(host, frames)
            again = _lit_tile(host)
            if again is not None:
                assert again["whole"], f"the suggested tile is not whole in the row's view: {again}"
                checked += 1
                break
        assert checked or _lit_tile(host) is None, "no suggested tile to check"
    finally:
        ctx.close()


# Every line of text in the prompt bar (each line box of its text nodes, closed menus and
# hidden parts left out) against the bar's visible box: where it lies, and which part holds it.
BAR_LINES_JS = """() => {
  const bar = document.getElementById("prompt-bar"), b = bar.getBoundingClientRect();
  const top = b.top + bar.clientTop, bottom = top + bar.clientHeight;
  const out = [];
  const walk = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || !e || e.closest(".bar-cue, details:not([open]) > :not(summary)")) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const q of range.getClientRects()) {
      if (!q.height || !q.width) continue;
      out.push({text: n.textContent.trim().slice(0, 40), top: q.top - top, bottom: q.bottom - top,
                reason: !!e.closest(".hint-reason"), part: e.closest("#prompt-text") ? "prompt" : e.closest("#hint-answer") ? "answer" : "other"});
    }
  }
  // (the "more below" cue covers the bar's bottom edge while there is more below)
  const cue = bar.classList.contains("scrolls-down") ? bar.querySelector(".bar-cue > span").getBoundingClientRect() : null;
  return {height: bottom - top, scrolled: bar.scrollTop, share: b.height / innerHeight, lines: out,
          cue: !!cue, clear: cue ? cue.top - top : bottom - top};
}"""


def whole(line: dict, got: dict) -> bool:
    """Whether a line of BAR_LINES_JS lies wholly in the bar's visible box."""
    return line["top"] >= -0.5 and line["bottom"] <= got["height"] + 0.5


def clear(line: dict, got: dict) -> bool:
    """Whether a line of BAR_LINES_JS lies wholly in the bar's visible box, above its cue."""
    return line["top"] >= -0.5 and line["bottom"] <= got["clear"] + 0.5


def bar_lines(page, name: str) -> dict:
    """BAR_LINES_JS after the next frame, with a screenshot hints/<name>.png; checks that
    the bar keeps to its quarter of the window and no line is cut by its top edge (a line cut
    by its bottom edge only under its "more below" cue)."""
    page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    got = page.evaluate(BAR_LINES_JS)
    screenshot(page, OUT / f"{name}.png", full_page=False)
    print(f"\n{name}:", got)
    assert got["share"] <= 0.25 + 1e-6, got
    for ln in got["lines"]:
        assert whole(ln, got) or ln["bottom"] <= 0.5 or ln["top"] >= got["height"] - 0.5 or \
            (got["cue"] and ln["top"] > 0), ("a line cut by the bar's edge", ln, got)
    return got


def test_a_suggestion_leaves_the_prompt_words_whole_in_the_phone_bar(browser, server):
    """375×812, Evil Corp. for 2: "Suggest a move" answers in the prompt bar, which scrolled to
    its end and cut the prompt's words in half at its top (a new user's trial). Every line of
    the words and of the suggestion (what, Play it, Dismiss, Why?) is whole in the bar; a tap
    on "Why?" shows the reason whole too; no line is ever cut by the bar's top edge (by its
    bottom edge only under its "more below" cue); the bar keeps to its quarter of the window.
    Screenshots: hints/hint-phone.png, hints/hint-phone-why.png."""
    page = new_table(browser, server, PHONE_812, "evil_corp", 2, bots=False)
    try:
        frames = frames_of(page)
        fill_and_start(page, seed=1)  # (a deal: the same suggestion at every run)
        ask(page, frames)
        got = bar_lines(page, "hint-phone")
        assert any(ln["part"] == "prompt" for ln in got["lines"]), got
        assert any(ln["part"] == "answer" for ln in got["lines"]), got
        for ln in got["lines"]:
            if ln["part"] in ("prompt", "answer"):
                assert clear(ln, got), ("a line of the prompt or the suggestion is not whole in the bar", ln, got)
        # its reason on a tap of "Why?": in the bar, whole, no line cut at the bar's top
        why = page.locator("#hint-answer .hint-why")
        if why.count():
            box = why.bounding_box()  # (a finger's tap: Playwright's tap() may scroll the page first)
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            got = bar_lines(page, "hint-phone-why")
            assert [ln for ln in got["lines"] if ln["text"] == why.inner_text()], got
            assert any(ln["part"] == "answer" and ln["reason"] and clear(ln, got) for ln in got["lines"]), got
        assert page.js_errors == []
    finally:
        page.context.close()


LOG_ORDER_JS = """() => [...document.querySelectorAll('#log > li')].map(
    (li) => (li.classList.contains('log-hint') ? 'HINT ' : '') + li.textContent.trim())"""


def test_a_late_viewer_reads_the_hint_between_the_right_moves(browser, server):
    """The new-user trial: a table opened (or reloaded) after a hint was asked drew the hint's
    line at the end of the log, after moves made later. Morgana asks for a hint, plays it, and
    the bot answers; the spectator who watched it all reads the hint after the lines before
    her move and before her move's lines. Reloaded, the spectator's page and hers read the log
    in the same order as before, the hint still among the moves, not last."""
    ctxs, host, frames, spect, _spect_frames = start(browser, server, "evil_corp")
    try:
        frame = ask(host, frames)
        play_by_clicks(host, frame["action"])
        wait_my_turn(host)  # the bot moved too: lines after hers
        version = host.evaluate("document.body.dataset.version")
        spect.wait_for_function("(v) => document.body.dataset.version === v", arg=version)
        watched = spect.evaluate(LOG_ORDER_JS)
        played = host.evaluate(LOG_ORDER_JS)
        for order in (watched, played):
            hints = [i for i, t in enumerate(order) if t.startswith("HINT ")]
            assert len(hints) == 1 and 0 < hints[0] < len(order) - 1, order
        for page, before in ((spect, watched), (host, played)):
            page.reload()
            page.wait_for_function("(v) => document.body.dataset.version === v", arg=version)
            page.wait_for_selector("#log .log-hint")
            after = page.evaluate(LOG_ORDER_JS)
            assert after == before, (before, after)
        save(spect, "hint-late-viewer")
        assert host.js_errors == [] and spect.js_errors == []
    finally:
        for c in ctxs:
            c.close()


#: Each highlighted place on the board: whole in the window below the prompt bar (and the
#: last-move line under it), or not; and whether it plays the move by itself (a button).
HINT_PLACES_JS = """() => {
  const bar = document.getElementById("prompt-bar").getBoundingClientRect();
  const lm = document.getElementById("last-move-box");
  const m = lm ? lm.getBoundingClientRect() : null;
  const top = Math.max(bar.bottom, m && m.height ? m.bottom : 0);
  return [...document.querySelectorAll("#board .hint-hit")].map((e) => {
    const r = e.getBoundingClientRect();
    return {top: Math.round(r.top), bottom: Math.round(r.bottom), plays: e.hasAttribute("data-action"),
            whole: r.height > 0 && r.top >= top - 1 && r.bottom <= innerHeight + 1,
            what: e.getAttribute("aria-label") || e.textContent.trim().slice(0, 30)};
  });
}"""


def test_evil_corp_suggestion_comes_into_view_at_1366x768(browser, server):
    """The new-user trial, Evil Corp. with 4 players at 1366×768: "Suggest a move" lit a
    monster behind the screen, in view, and the settlement board's cell it goes to, below the
    window; only the first lit place was brought into view. At each of Morgana's first turns
    she scrolls to the top of the page (the wheel), clicks "Suggest a move": every lit place is
    then whole in the window below the bar when they fit there together, else where the move
    lands (or a lit button that plays it). Screenshots: hints/hint-in-view-<turn>.png."""
    from engines.base import Rng
    from tests.browser.test_full_match import click_something
    page = new_table(browser, server, {"viewport": DESKTOP}, "evil_corp", 4, bots=False)
    try:
        fill_and_start(page, seed=1)
        rng, checked = Rng(3), 0
        for turn in range(6):
            wait_to_move(page)
            page.wait_for_timeout(300)  # (the decision is brought into view first)
            page.mouse.move(640, 400)
            page.mouse.wheel(0, -5000)  # up to the header, as a player looking at the round
            page.wait_for_function("scrollY === 0")
            if turn == 0:
                scrolled_on(page)
            if page.locator("#hint-ask").is_visible():
                page.click("#hint-ask")
                page.wait_for_function("document.body.dataset.hint !== 'asked'", timeout=30_000)
                page.wait_for_timeout(400)  # (a smooth scroll would end; motion is reduced)
                places = page.evaluate(HINT_PLACES_JS)
                screenshot(page, OUT / f"hint-in-view-{turn}.png", full_page=False)
                print(f"turn {turn}: {page.locator('#hint-answer .hint-label').inner_text()!r} {places}")
                check_buttons(page, f"Evil Corp.'s bar with a suggestion, turn {turn}")  # one main button
                if places:
                    checked += 1
                    room = DESKTOP["height"] - page.evaluate("document.getElementById('prompt-bar').getBoundingClientRect().height")
                    together = max(p["bottom"] for p in places) - min(p["top"] for p in places) <= room - 16
                    if together:
                        assert all(p["whole"] for p in places), (turn, "a lit place is out of view", places)
                    else:
                        assert places[-1]["whole"] or any(p["whole"] and p["plays"] for p in places), (turn, places)
                page.click("#hint-answer .hint-dismiss")
            before = page.evaluate("document.body.dataset.version")
            assert click_something(page, rng)
            page.wait_for_function("(v) => document.body.dataset.version !== v || !!document.querySelector('.toast')",
                                   arg=before, timeout=10_000)
        assert checked >= 3, checked
        assert page.js_errors == []
    finally:
        page.context.close()


#: The log's heading ("Log", "Replay so far"): whole in the window below the sticky bar, and
#: uncovered at its corners and centre.
LOG_HEAD_JS = r"""() => {
  const bar = document.getElementById("prompt-bar").getBoundingClientRect().bottom;
  return ["log-title", "log-replay"].map((k) => document.getElementById(k) || document.querySelector("." + k)).map((e) => {
    const r = e.getBoundingClientRect();
    const pts = [[r.left + 1, r.top + 1], [r.right - 1, r.bottom - 1], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    const hit = pts.every(([x, y]) => { const h = document.elementFromPoint(x, y); return !!h && (e.contains(h) || h.contains(e)); });
    return {text: e.textContent.trim(), top: r.top, bottom: r.bottom, bar, whole: hit && r.top >= bar - 0.5 && r.bottom <= innerHeight};
  });
}"""


def scrolled_on(page) -> None:
    """Review 9, worst problem 5: a 1366×768 page scrolled on (the wheel, 600 px) showed the
    round and phase nowhere, and the log's heading cut under the sticky bar. Both whole in view,
    then back at the top. Screenshot: hints/scrolled-desktop.png."""
    page.mouse.wheel(0, 600)
    page.wait_for_function("scrollY >= 500")
    page.wait_for_timeout(200)
    screenshot(page, OUT / "scrolled-desktop.png", full_page=False)
    where, heads = page.evaluate(ROUND_JS), page.evaluate(LOG_HEAD_JS)
    assert where["words"] and where["seen"], ("the round and phase are nowhere whole in view, scrolled", where)
    assert all(h["whole"] for h in heads), ("the log's heading is cut, scrolled", heads)
    page.mouse.wheel(0, -5000)
    page.wait_for_function("scrollY === 0")


def _covil_move_hint(page, frames: list[dict], script: dict) -> dict:
    """From the viewer's Afternoon on, at the first prompt that offers a troop's move (a prompt
    without one is played by _generic's clicks): the player picks the troop, reads the first zone
    it may go to and drops the pick again; that move is the suggestion (scripted on the socket,
    _scripted_hint: the hard bot's own choice varies, and was not a move in five asks on some
    runs). Returns the suggested action."""
    from tests.browser.test_covil_table_clicks import _generic
    from tests.table_clicks import Clicks
    for _ in range(30):
        wait_my_turn(page)
        if not page.locator("#board [data-pick]").count():  # (a move starts with its troop)
            _generic(page, Clicks())
            continue
        page.locator("#board [data-pick]").first.click()
        zone = page.locator("#board .zone-legal[data-action]").first
        script["action"] = json.loads(zone.get_attribute("data-action"))
        page.locator("#board [data-pick].picked").click()
        page.wait_for_function("!document.querySelector('#board .zone-legal')")
        if page.locator("#prompt-actions details.action-menu:not([open]) #hint-ask").count():
            # (a phone's row full: "Suggest a move" waits in the bar's "N more" menu)
            page.locator("#prompt-actions details.action-menu > summary").click()
        ask(page, frames)
        return script["action"]
    raise AssertionError("no troop move was offered")


# The suggested troops' fortress in their zone: whether it is drawn over them (later in the
# drawing) and how much of its hit points' disc their frame covers (px²).
FORT_CLEAR_JS = """() => {
  const t = document.querySelector('#board .cv-troops.hint-hit');
  const f = t && t.parentNode.querySelector(':scope > .cv-fort');
  if (!f) return null;
  const a = f.querySelector('.cv-hp-badge circle').getBoundingClientRect(), b = t.querySelector('.hit').getBoundingClientRect();
  return {over: !!(t.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING),
          overlap: Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top))};
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_suggested_covil_move_lights_the_troop_and_its_zone(browser, server, size):
    """Covil's Afternoon, 1366×768 and 375×812, by clicks: a suggested troop move lit nothing
    (the new-user trial: "hintPlaces failed TypeError: CSS.escape is not a function", the
    renderer's stylesheet constant named CSS hid the browser's). The troop to move and the zone
    it goes to are lit on the board, the suggestion reads as one move ("Move a troop from H to
    A"), and the table logs no error. The suggested move is scripted (_covil_move_hint).
    Screenshot: hints/hint-covil-move-<size>.png."""
    from tests.browser.test_covil_table_clicks import AFTERNOON_SEED, _to_afternoon
    from tests.table_clicks import Clicks
    phone = size == "phone"
    page = new_table(browser, server, PHONE_812 if phone else DESKTOP_768, "covil", 2, bots=False)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        script: dict = {}
        page.route_web_socket(re.compile(r"/ws/matches/"), _scripted_hint(script))
        frames = frames_of(page)
        fill_and_start(page, seed=AFTERNOON_SEED)
        _to_afternoon(page, Clicks(), phone, shots=False)
        action = _covil_move_hint(page, frames, script)
        lit = page.evaluate("""() => [...document.querySelectorAll('#board .hint-hit')].map((e) => ({
            pick: e.getAttribute('data-pick'), zone: e.getAttribute('data-zone'),
            shown: e.getClientRects().length > 0}))""")
        save(page, f"hint-covil-move-{size}")
        # the troop's tag and the zone's apart, whole (review 8: "Suggestec" twice, overlapping)
        print("tags:", assert_tags_clear(page, expect=1))
        # its fortress stays in sight (review 9: the suggested troops' frame and glow hid H's
        # fortress and its "5"): drawn over the troops, their frame clear of its hit points
        fort = page.evaluate(FORT_CLEAR_JS)
        assert fort and fort["over"] and fort["overlap"] == 0, fort
        # the suggestion in one phrase: where from and to (the review: "Lie down a troop in H:
        # move to A" read as lying down and moving)
        said = page.locator("#hint-answer .hint-label").inner_text()
        assert re.fullmatch(rf"Suggestion: Move (a|an enemy) troop from {action['from']} to {action['to']}", said), said
        assert not [e for e in errors if "hintPlaces" in e], errors
        assert any(x["pick"] and x["shown"] for x in lit), ("the troop to move is not lit", action, lit)
        assert any(x["zone"] == str(action["to"]) and x["shown"] for x in lit), ("its zone is not lit", action, lit)
        assert page.js_errors == []
    finally:
        page.context.close()


WHERE_LIT_JS = """() => {
  let top = 0;
  for (const id of ["prompt-bar", "last-move-box"]) {
    const b = document.getElementById(id), r = b && b.getBoundingClientRect();
    if (r && r.height && r.bottom > top) top = Math.min(r.bottom, innerHeight);
  }
  return {scrollY, top, bottom: innerHeight, lit: [...document.querySelectorAll('#board .hint-hit')].map((e) => {
    const r = e.getBoundingClientRect();
    return {asst: !!e.closest('.doe-asst'), action: e.getAttribute('data-action'), pick: e.getAttribute('data-pick'),
            top: Math.round(r.top), bottom: Math.round(r.bottom)};
  })};
}"""


# The suggested pawn in Drops of Evil's tray: the contrast of its name against what lies behind
# it (the nearest background drawn), whether a glow (a drop-shadow filter) blurs over the name,
# how far its mark reaches out of its box (outline, box-shadow), and its ring's width.
PAWN_MARK_JS = """() => {
  const e = document.querySelector('#board .doe-tray .hint-hit[data-pick]');
  const name = e.querySelector('.doe-pawn-name');
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [.2126, .7152, .0722][i], 0);
  let bg = null;
  for (let n = name; n && !bg; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length >= 3 && (c.length < 4 || c[3] > .5)) bg = c;
  }
  const fg = rgb(getComputedStyle(name).color), L1 = lum(fg), L2 = lum(bg || [0, 0, 0]);
  const cs = getComputedStyle(e);
  const ring = cs.outlineStyle === 'none' ? 0 : parseFloat(cs.outlineWidth);
  const shadow = cs.boxShadow === 'none' ? 0 : Math.max(...rgb(cs.boxShadow.replace(/rgba?\\([^)]*\\)/g, '')).slice(2, 4));
  return {text: name.textContent, fg, bg, contrast: (Math.max(L1, L2) + .05) / (Math.min(L1, L2) + .05),
          glow: /drop-shadow/.test(cs.filter), ring, spill: Math.max(ring + parseFloat(cs.outlineOffset || 0), shadow)};
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_suggested_assistant_to_hire_stays_in_view(browser, server, size):
    """Drops of Evil, 1366×768 and 375×812, by clicks: the Familiars placed first, the Coin
    Pouch is the last Action pawn and the table scrolls the Assistants into view; "Suggest a
    move" then scrolled the page back to its top (to the lit Coin Pouch in the pawn tray), and the
    Assistant to hire lay below the window (the new-user trial: y 979–1106 of 812 on a phone).
    The lit Assistant is in the window below the prompt bar. Screenshot:
    hints/hint-drops-coin-<size>.png."""
    from tests.browser.test_drops_table_clicks import DESKTOP as DR_DESKTOP
    from tests.browser.test_drops_table_clicks import PHONE, _start, my_turns
    from tests.table_clicks import Clicks, click_action
    # (the phone at its 2× scale, as the other phone shots: review 8 found this one at 1×)
    ctx, page = _start(browser, server, PHONE if size == "phone" else DR_DESKTOP, seed=1,
                       scale=2 if size == "phone" else 1)
    clicks = Clicks()
    try:
        for phase, acts in my_turns(page):
            places = [a for a in acts if a["type"] == "place"]
            forest = [a for a in places if a["pawn"] != "coin"]
            if phase != "Placement" or not places:
                click_action(page, [a for a in acts if a["type"] not in ("take_back", "cancel")][0], clicks)
            elif forest:
                click_action(page, forest[0], clicks)  # the Familiars first: the Coin Pouch last
            else:
                page.wait_for_selector("#hint-ask:not([disabled])", state="visible")
                page.wait_for_timeout(300)  # (the table's own scroll to the Assistants, settled)
                before = page.evaluate("scrollY")
                page.click("#hint-ask")
                page.wait_for_function("document.body.dataset.hint === 'shown'", timeout=30_000)
                page.wait_for_timeout(300)
                got = page.evaluate(WHERE_LIT_JS)
                save(page, f"hint-drops-coin-{size}")
                print(f"\nbefore {before}:", got)
                hire = [x for x in got["lit"] if x["asst"]]
                assert hire, got
                assert any(x["top"] >= got["top"] - 2 and x["bottom"] <= got["bottom"] + 2 for x in hire), \
                    ("the Assistant to hire is out of view after the suggestion", before, got)
                pawn = page.evaluate(PAWN_MARK_JS)
                print("pawn mark:", pawn)
                assert pawn["contrast"] >= 4.5, ("the suggested pawn's name is hard to read", pawn)
                assert not pawn["glow"], ("a glow over the suggested pawn's name", pawn)
                assert pawn["spill"] <= 3, ("the suggested pawn's mark spills over its neighbours", pawn)
                assert pawn["ring"] >= 3, ("the suggested pawn is not ringed", pawn)
                page.locator("#board .doe-tray").screenshot(path=str(OUT / f"hint-drops-pawn-{size}.png"))
                assert page.js_errors == []
                return
        raise AssertionError("the Coin Pouch was never the last Action pawn")
    finally:
        ctx.close()


MENU_HINT_JS = """() => {
  const details = document.querySelector('#prompt-actions details.action-menu');
  if (!details) return null;
  const summary = details.querySelector('summary'), cs = getComputedStyle(summary), r = summary.getBoundingClientRect();
  const lit = details.querySelector('.action-menu-body .hint-hit');
  const body = details.querySelector('.action-menu-body'), b = body.getBoundingClientRect();
  const q = lit ? lit.getBoundingClientRect() : null;
  const hit = q && q.height ? document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2) : null;
  return {open: details.open, held: !!lit, toggle: summary.textContent, ring: cs.outlineStyle === 'none' ? 0 : parseFloat(cs.outlineWidth),
          toggleInView: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight,
          litShown: !!(q && q.height && q.top >= b.top - 1 && q.bottom <= b.bottom + 1 && hit && lit.contains(hit))};
}"""


# Each choice of the open menu (a phone's sheet): where it is against the sheet's box, the window
# and the sticky block above it (the prompt bar), and whether a tap at its middle reaches it.
SHEET_JS = """() => {
  const body = document.querySelector('#prompt-actions details.action-menu[open] > .action-menu-body');
  if (!body) return null;
  const b = body.getBoundingClientRect(), bar = document.getElementById('prompt-bar').getBoundingClientRect();
  // (the "more below" cue is an opaque strip at the sheet's bottom: what lies under it is hidden)
  const cue = body.classList.contains('scrolls-down') ? body.querySelector('.menu-cue > span').getBoundingClientRect() : null;
  const end = cue ? cue.top : b.bottom;
  return {top: b.top, bottom: b.bottom, end, barBottom: bar.bottom, scrollTop: body.scrollTop,
          cue: cue ? body.querySelector('.menu-cue > span').textContent : null,
          choices: [...body.querySelectorAll('button')].filter((n) => n.getClientRects().length).map((n) => {
    const r = n.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {text: n.textContent, top: r.top, bottom: r.bottom,
            whole: r.top >= b.top - 1 && r.bottom <= end + 1, hidden: r.bottom <= b.top + 1 || r.top >= end - 1,
            reached: !!hit && n.contains(hit)};
  })};
}"""


def _scripted_hint(script: dict):
    """A route for the table's socket (page.route_web_socket) that passes every frame, but makes
    the server's answer to "Suggest a move" suggest ``script["action"]`` when it is set (one of
    the view's legal actions, chosen by the test): the hard bot's own choice varies from run to
    run, and hints are limited to 6 a minute."""
    def route(ws):
        server = ws.connect_to_server()

        def down(message):
            frame = json.loads(message) if isinstance(message, str) else None
            if frame and frame.get("type") == "hint" and script.get("action"):
                frame["action"] = script["action"]
                message = json.dumps(frame)
            ws.send(message)
        server.on_message(down)
        ws.on_message(lambda message: server.send(message))
    return route


def test_a_suggestion_in_the_phone_bars_menu_is_marked_on_its_toggle(browser, server):
    """Covil at 375×812, by taps: a suggestion whose button sits in the bar's "N more" menu
    marked nothing visible (the new-user trial: the lit button inside the closed menu). The
    menu's toggle is ringed and says it holds the suggestion; one tap opens the sheet with the
    suggested choice lit and in view; the sheet lies below the prompt bar, inside the window,
    and shows its choices whole (the first-time review: the first choice was cut to a sliver at
    the sheet's top, as if under the prompt). The suggestion is the menu's last choice, by a
    scripted answer (_scripted_hint): the one the sheet must scroll to. Screenshots:
    hints/hint-covil-menu{,-open}.png."""
    from tests.browser.test_covil_table_clicks import AFTERNOON_SEED, _generic, _to_afternoon
    from tests.table_clicks import Clicks
    page = new_table(browser, server, PHONE_812, "covil", 2, bots=False)
    try:
        script: dict = {}
        page.route_web_socket(re.compile(r"/ws/matches/"), _scripted_hint(script))
        frames = frames_of(page)
        fill_and_start(page, seed=AFTERNOON_SEED)
        _to_afternoon(page, Clicks(), True, shots=False)
        for _ in range(20):
            wait_my_turn(page)
            if page.locator("#prompt-actions details.action-menu").count() and page.is_visible("#hint-ask"):
                break
            _generic(page, Clicks())
        in_menu = page.locator("#prompt-actions details.action-menu .action-menu-body button[data-action]")
        assert in_menu.count() >= 2, "no choices in the bar's menu"
        # (its last choice: the sheet, a quarter of the screen with the bar, scrolls to show it)
        script["action"] = json.loads(in_menu.last.get_attribute("data-action"))
        ask(page, frames)
        lit = page.locator("#prompt-actions .hint-hit[data-action]")
        assert lit.count() == 1 and json.loads(lit.get_attribute("data-action")) == script["action"], "not the scripted suggestion"
        got = page.evaluate(MENU_HINT_JS)
        assert got and got["held"], ("the suggestion is not in the bar's menu", got)
        save(page, "hint-covil-menu")
        check_buttons(page, "Covil's phone bar with a suggestion")  # "Play it" is not red (review 8)
        assert got["ring"] >= 3 and got["toggleInView"], ("the menu's toggle does not show it holds the suggestion", got)
        summary = page.locator("#prompt-actions details.action-menu summary")
        assert "suggest" in summary.get_attribute("aria-label"), got
        assert "suggestion" in summary.evaluate("(e) => getComputedStyle(e, '::after').content"), got
        box = page.locator("#prompt-actions details.action-menu summary").bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function("document.querySelector('#prompt-actions details.action-menu').open")
        page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        got = page.evaluate(MENU_HINT_JS)
        save(page, "hint-covil-menu-open")
        assert got["litShown"], ("the suggested choice is not in view in the open sheet", got)
        sheet = page.evaluate(SHEET_JS)
        assert sheet["top"] >= sheet["barBottom"] - 1 and sheet["bottom"] <= 812 + 1, ("the sheet is out of its place", sheet)
        # its first choice whole at its top when it opens, and its three choices with it (review
        # 8: "▴ more above" at its bottom, the first choice hidden above the other two)
        print("\nsheet:", sheet)
        assert sheet["choices"] and sheet["choices"][0]["whole"] and sheet["scrollTop"] < 1, ("the first choice is not in view", sheet)
        if len(sheet["choices"]) <= 3:
            assert all(c["whole"] for c in sheet["choices"]) and not sheet["cue"], ("the sheet does not show its choices", sheet)
        for c in sheet["choices"]:
            assert c["whole"] or c["hidden"], ("a choice is cut at the sheet's edge", c, sheet)
            assert c["hidden"] or c["reached"], ("a choice in view is under something", c, sheet)
        # choices out of its view are announced: "more below", or at its end "more above"
        if any(c["hidden"] and c["top"] >= sheet["end"] - 1 for c in sheet["choices"]):
            assert sheet["cue"] and "more below" in sheet["cue"], sheet
        elif any(c["hidden"] for c in sheet["choices"]):
            assert sheet["cue"] and "more above" in sheet["cue"], sheet
        assert page.js_errors == []
    finally:
        page.context.close()


def test_a_suggested_cell_never_plays_the_tile_picked_before(browser, server):
    """New-user trial 5 (Evil Corp., both sizes): with one monster picked from behind the
    screen, "Suggest a move" for another monster lit that monster and the cell it goes to, but
    the lit cell still played the picked monster ("Put Junior Orc into raid cell 3" played Junior
    Goblin there). Now no lit place plays anything but the suggestion: the suggested monster is
    lit to be picked, then its cell, and the move played is the suggestion. At each of Morgana's
    turns she asks; when the suggestion plays a monster, she picks another one behind her screen
    first (the board then draws that one's cells), then plays the suggestion by its lit places.
    (At most 6 asks: the hint limit per user is 6 a minute, app/settings.py RATE_HINTS.)"""
    from playwright.sync_api import expect

    from engines.base import Rng
    from tests.browser.test_full_match import click_something
    page = new_table(browser, server, {"viewport": DESKTOP}, "evil_corp", 2, bots=False)
    frames = frames_of(page)
    try:
        fill_and_start(page, seed=1)
        rng, checked, asked = Rng(5), 0, 0
        while not checked and asked < 6:
            wait_to_move(page)
            if not page.locator("#hint-ask").is_visible():
                before = page.evaluate("document.body.dataset.version")
                assert click_something(page, rng)
                page.wait_for_function("(v) => document.body.dataset.version !== v", arg=before, timeout=10_000)
                continue
            action = ask(page, frames)["action"]
            asked += 1
            others = [t for t in page.locator("#ec-my-screen [data-pick]").all()
                      if action["type"] == "play" and t.get_attribute("data-pick") != str(action["tile"])]
            if others:
                others[0].click()  # another monster picked: its cells take clicks now
                # (the board draws the pick in its next frame: a CI run at load read the class
                # before it)
                expect(others[0]).to_have_class(re.compile(r"\bpicked\b"), timeout=5_000)
                lit = page.locator(".hint-hit[data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
                assert all(canon(json.loads(a)) == canon(action) for a in lit), \
                    ("a lit place plays another move than the suggestion", action, lit)
                assert page.locator(f"#ec-my-screen .hint-hit[data-pick='{action['tile']}']").count() == 1
                checked += 1
                save(page, "hint-evil_corp-picked-other")
                one_line_each(page)
            play_by_clicks(page, action)
        assert checked, f"no suggestion to play a monster in {asked} asks"
        assert page.js_errors == []
    finally:
        page.context.close()
