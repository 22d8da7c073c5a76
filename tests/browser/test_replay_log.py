"""The replay says what happened (issue 14, docs/table-review.md "The ten problems" item 3), and
the phone table shows the last move (item 5), in a real browser through real clicks.

A real server (tests/chromium.py ``lair_server``); the host creates an Evil Corp. match for two
(its tile draws are private: "You drew …" for the drawer, "Morgana drew 5 tiles" for everyone
else), gives the other seat to an easy bot, starts it and makes a few moves by clicking. Then:

- the host's replay, stepped with « First and Next ▶: at each step the box under the controls
  names the move in the log's words, the log's marked lines are exactly that move's lines (as the
  server's step says), the mark moves with the step, and a click on a log line goes to its move;
- a spectator's replay (the spectator link) holds no private line, and no line the host reads
  privately, where the host's own replay has them;
- at 375×812 the replay's move box and the live table's last-move line are on the first screen,
  the table's line following every view and staying under the prompt bar when the page scrolls. Screenshots: tests/browser/artifacts/replay-log/.
"""
from __future__ import annotations

import re

import pytest

from engines.base import Rng
from tests.browser.test_full_match import (
    click_something,
    fill_and_start,
    host_moves,
    name_yourself,
)
from tests.browser.test_layout import check_phone_header, check_prompt_bar, open_page, settle_scroll
from tests.chromium import ARTIFACTS, DESKTOP, screenshot
from tests.table_clicks import wait_new_view

pytestmark = pytest.mark.e2e

PHONE_812 = {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2,
             "is_mobile": True, "has_touch": True}
HOST_MOVES = 4
MIN_STEPS = 8  # the replay tests step through moves 1 to 8

# The replay page as the test reads it: the step shown, the move box's words, and per log line
# its step, whether it is marked as the move shown, whether it is private, and its stored text.
REPLAY_JS = """() => {
  const lines = [...document.querySelectorAll("#log > li.log-entry")].map((li) => ({
    step: li.dataset.step === undefined ? null : Number(li.dataset.step),
    current: li.classList.contains("log-current"), private: li.classList.contains("private"),
    stored: li._lairText, text: li.innerText.trim()}));
  return {shown: Number(document.getElementById("replay").dataset.shown),
          counter: document.getElementById("step").innerText,
          label: document.getElementById("now-step").innerText,
          now: [...document.querySelectorAll("#now-lines > li")].map((li) => li.innerText.trim()),
          nowStored: [...document.querySelectorAll("#now-lines > li")].map((li) => li._lairText || null),
          lines};
}"""


def shoot(page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, ARTIFACTS / "replay-log" / f"{name}.png", full_page=False)


@pytest.fixture(scope="module")
def match(browser, lair_server):
    """``{server, mid, cookies, watch}``: a running Evil Corp. match for two (the host Morgana
    and an easy bot) in which the host has made some moves by clicking."""
    ctx = browser.new_context(**DESKTOP)
    host = ctx.new_page()
    host.goto(lair_server + "/")
    name_yourself(host, "Morgana")
    host.check("#game-evil_corp")
    host.select_option("#players-evil_corp", "2")
    host.click("#create")
    host.wait_for_selector("#start")
    mid = re.search(r"/m/(\w+)", host.url).group(1)
    fill_and_start(host)
    rng = Rng(3)
    host_moves(host, rng, HOST_MOVES)
    # The tests step through moves 1..8: how many actions the host's clicks and the bot's turns
    # make depends on the random deal, so the host moves on until the match holds them.
    for _ in range(20):
        if int(host.evaluate("document.body.dataset.version")) >= MIN_STEPS:
            break
        host_moves(host, rng, 1)
    assert int(host.evaluate("document.body.dataset.version")) >= MIN_STEPS
    watch = host.input_value("#watch-link").rsplit("/", 1)[1]
    yield {"server": lair_server, "mid": mid, "cookies": ctx.cookies(), "watch": watch,
           "host": host}
    ctx.close()


def shown_at(page, n: int) -> dict:
    """Wait until the replay has drawn step ``n``; the page as REPLAY_JS reads it."""
    page.wait_for_function(f"document.getElementById('replay').dataset.shown === '{n}'")
    return page.evaluate(REPLAY_JS)


def server_lines(page, n: int, watch: str = "") -> list[dict]:
    """The log the server gives this page's visitor at step ``n`` (what the page drew from)."""
    q = f"step={n}" + (f"&watch={watch}" if watch else "")
    return page.evaluate(f"""async () => {{
      const r = await fetch(document.getElementById("replay").dataset.replayApi + "?{q}");
      return (await r.json()).view.log; }}""")


def check_step(page, n: int, watch: str = "") -> dict:
    """Step ``n`` is drawn as the server says: the move box names it and holds that move's
    lines (none: it says so), the log holds the lines up to it with exactly that move's lines
    marked."""
    got = shown_at(page, n)
    log = server_lines(page, n, watch)
    assert got["counter"].startswith(f"{n} / "), got["counter"]
    assert got["label"] == (f"Move {n}:" if n else "Setup:"), got["label"]
    mine = [e["text"] for e in log if e["step"] == n]
    assert [x["stored"] for x in got["lines"]] == [e["text"] for e in log], "the log up to the step"
    assert [x["stored"] for x in got["lines"] if x["current"]] == mine, "the marked lines"
    assert all(x["step"] <= n for x in got["lines"])
    if mine:
        assert got["nowStored"] == mine and all(got["now"]), got
        marked = [x["text"] for x in got["lines"] if x["current"]]
        assert got["now"] == marked, "the move box reads as the log's marked lines"
    else:  # no line of its own: the latest line before it, saying so
        earlier = [e for e in log if e["step"] < n][-1]  # the setup writes lines: there is one
        assert got["nowStored"][1:] == [earlier["text"]], got
        where = f"move {earlier['step']}" if earlier["step"] else "the setup"
        assert got["now"][0] == f"No line of its own; the latest before it ({where}):", got
    return got


def test_the_replay_names_each_move_and_its_log_lines_go_to_their_moves(browser, match):
    page = open_page(browser, DESKTOP, f"{match['server']}/m/{match['mid']}/replay",
                     match["cookies"])
    page.wait_for_function("Number(document.getElementById('replay').dataset.shown || 0) > 0")
    page.click("#first")
    first = check_step(page, 0)
    assert first["lines"] and all(x["step"] == 0 for x in first["lines"])
    marks, with_lines = [], 0
    for n in range(1, 9):
        page.click("#next")
        got = check_step(page, n)
        marks.append([x["stored"] for x in got["lines"] if x["current"]])
        with_lines += bool(marks[-1])
    assert with_lines >= 3, "moves of this match write log lines"
    lit = [m for m in marks if m]
    assert any(a != b for a, b in zip(lit, lit[1:])), "the mark moves with the step"
    shoot(page, "replay-desktop-step-8")
    # a click on a line of an earlier move goes to that move
    target = page.locator("#log > li.log-entry[data-step='2']")
    if not target.count():
        target = page.locator("#log > li.log-entry[data-step='1']")
    step = int(target.first.get_attribute("data-step"))
    target.first.click()
    got = check_step(page, step)
    assert any(x["current"] for x in got["lines"])
    # ... and the keyboard: Enter on a line goes to its move, the focus stays on its line
    page.click("#last")
    page.wait_for_function("document.getElementById('replay').dataset.shown === "
                           "document.getElementById('step').innerText.split(' / ')[1]")
    line = page.locator("#log > li.log-entry[data-step='0']").first
    line.focus()
    page.keyboard.press("Enter")
    check_step(page, 0)
    assert page.evaluate("document.activeElement.closest('#log') !== null && "
                         "document.activeElement.dataset.step === '0'")
    assert page.js_errors == []
    page.context.close()


def test_a_spectators_replay_shows_no_private_line(browser, match):
    """Compared with the host's own replay at the same step: the host reads private lines
    ("only you"), the spectator none of them, and no line the server marks private."""
    base = f"{match['server']}/m/{match['mid']}/replay"
    host = open_page(browser, DESKTOP, base, match["cookies"])
    spectator = open_page(browser, DESKTOP, f"{base}?watch={match['watch']}")
    for page in (host, spectator):
        page.wait_for_function("Number(document.getElementById('replay').dataset.shown || 0) > 0")
    n = 6  # a step both have: the match only grows
    for page in (host, spectator):
        page.click("#first")
        shown_at(page, 0)
        for k in range(1, n + 1):
            page.click("#next")
            shown_at(page, k)
    mine = check_step(host, n)
    theirs = check_step(spectator, n, match["watch"])
    private = [x["stored"] for x in mine["lines"] if x["private"]]
    assert private, "the host's replay shows their own private lines (their tile draws)"
    assert all(x["text"].lower().startswith("only you") for x in mine["lines"] if x["private"])
    assert not [x for x in theirs["lines"] if x["private"]], theirs["lines"]
    seen = {x["stored"] for x in theirs["lines"]}
    assert not seen & set(private), "a spectator reads a line the host reads privately"
    assert not [x for x in theirs["lines"] if x["stored"].startswith("You ")]
    # what the spectator's page was given holds only public lines
    data = server_lines(spectator, n, match["watch"])
    assert data and all(e["to"] == "all" or e.get("spectators") for e in data), data
    # the spectator reads the public wording of the host's draw instead ("Morgana drew …")
    assert any(re.match(r"Morgana drew \d+ tiles?", x["stored"]) for x in theirs["lines"])
    shoot(spectator, "replay-spectator-desktop")
    assert host.js_errors == [] and spectator.js_errors == []
    host.context.close()
    spectator.context.close()


# A phone's replay as its reader sees it after a step: the move box (stuck at the window's top
# once scrolled) and the controls' bar (fixed at its bottom), and the board's places marked as
# the move shown (the renderer's logPlaces of its lines), each with its edges.
PHONE_STEP_JS = """() => {
  const box = document.getElementById("replay-now").getBoundingClientRect();
  const bar = document.querySelector(".replay-controls").getBoundingClientRect();
  const places = [...document.querySelectorAll("#board .move-shown")].map((n) => {
    const r = n.getBoundingClientRect(); return [r.top, r.bottom]; });
  return {box: [box.top, box.bottom], bar: [bar.top, bar.bottom], places, height: innerHeight,
          scrolled: scrollY, next: document.getElementById("next").getBoundingClientRect().bottom};
}"""


def test_phone_replay_shows_the_move_on_the_first_screen(browser, match):
    """375×812: the move box on the first screen; stepping with Next (a tap on the bar at the
    window's bottom), the board's places of the move shown are marked and brought into view
    between the move box (at the window's top once scrolled) and the bar (review 9, problem 9:
    Evil Corp.'s move on board 2, the first board at 94 % of the phone's first screen), the two
    taking at most a quarter of the window."""
    page = open_page(browser, PHONE_812, f"{match['server']}/m/{match['mid']}/replay",
                     match["cookies"])
    page.wait_for_function("Number(document.getElementById('replay').dataset.shown || 0) > 0")
    page.click("#first")
    shown_at(page, 0)
    placed = 0
    for n in range(1, MIN_STEPS + 1):
        page.tap("#next")
        got = check_step(page, n)
        settle_scroll(page)
        at = page.evaluate(PHONE_STEP_JS)
        assert at["bar"][1] <= at["height"] + 0.5 and at["next"] <= at["height"] + 0.5, (n, at)
        assert 0 <= at["box"][0] and at["box"][1] <= at["bar"][0], (n, "the move box in view", at)
        if at["scrolled"] > 0:  # the box stuck at the top: it and the bar take a quarter at most
            assert (at["box"][1] - at["box"][0]) + (at["bar"][1] - at["bar"][0]) <= 0.25 * at["height"], (n, at)
        if at["places"]:
            placed += 1
            assert any(top >= at["box"][1] - 1 and bottom <= at["bar"][0] + 1
                       for top, bottom in at["places"]), (n, "the move's place out of view", at)
    assert placed >= MIN_STEPS // 2, "the moves' places are marked on the board"
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator("#replay-now").bounding_box()
    first = page.locator("#now-lines > li").first.bounding_box()
    assert box["y"] >= 0 and first["y"] + first["height"] <= 812, (box, first)
    assert got["now"][0], got
    shoot(page, "replay-phone-812")
    assert page.js_errors == []
    page.context.close()


def test_phone_table_shows_the_last_move_under_the_prompt_bar(browser, match):
    """375×812: the newest log line under the prompt bar on the first screen, in the log's
    words, following every view; the phone header and the prompt bar keep their budgets."""
    page = open_page(browser, PHONE_812, f"{match['server']}/m/{match['mid']}",
                     match["cookies"])
    page.wait_for_function("document.body.dataset.version !== undefined")
    page.wait_for_function("!!document.querySelector('#last-move > li')")

    def last_move_matches_log() -> dict:
        page.evaluate("window.scrollTo(0, 0)")
        return page.evaluate("""() => {
          const li = document.querySelector("#last-move > li");
          const r = document.getElementById("last-move-box").getBoundingClientRect();
          const log = [...document.querySelectorAll("#log > li.log-entry")];
          return {text: li ? li.innerText.trim() : "", last: log.length ? log[log.length - 1].innerText.trim() : null,
                  top: r.top, bottom: r.bottom, height: innerHeight,
                  shown: getComputedStyle(document.getElementById("last-move-box")).display};
        }""")
    got = last_move_matches_log()
    assert got["text"] and got["text"] == got["last"], got
    assert got["shown"] != "none" and 0 <= got["top"] and got["bottom"] <= got["height"], got
    check_phone_header(page, "evil_corp")
    check_prompt_bar(page, "phone")
    shoot(page, "table-phone-812-last-move")
    # another view (the host moves on the desktop page): the line follows
    host = match["host"]
    rng = Rng(11)
    for _ in range(200):
        body = host.locator("body")
        if body.get_attribute("data-your-turn") == "true" and \
                body.get_attribute("data-pending") != "true":
            break
        host.wait_for_timeout(50)
    before = page.evaluate("document.body.dataset.version")
    host_before = host.evaluate("document.body.dataset.version")
    assert click_something(host, rng)
    wait_new_view(host, host_before)
    page.wait_for_function("(v) => document.body.dataset.version !== v", arg=before)
    got = last_move_matches_log()
    assert got["text"] and got["text"] == got["last"], got
    # scrolled down (a swipe; or the table bringing the place to decide into view), the line
    # stays right under the prompt bar, uncovered (review item 5)
    # First the bot's answer and the turn back (the table may scroll to the place to decide
    # when the prompt arrives); then the page scrolled down 400 px.
    page.wait_for_function("document.body.dataset.yourTurn === 'true' && "
                           "document.body.dataset.pending !== 'true'", timeout=20_000)
    room = page.evaluate("document.scrollingElement.scrollHeight - innerHeight")
    assert room >= 400, f"the phone table is longer than the screen: {room} px to scroll"
    # (the page's own scroll: a wheel over the board may scroll a row of tiles instead)
    page.evaluate("window.scrollTo(0, 400)")
    page.wait_for_function("scrollY >= 300")
    stuck = page.evaluate("""() => {
      const bar = document.getElementById("prompt-bar").getBoundingClientRect();
      const r = document.getElementById("last-move-box").getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {bar: bar.bottom, barTop: bar.top, top: r.top, bottom: r.bottom, height: innerHeight,
              beside: document.getElementById("last-move-box").classList.contains("beside"),
              hit: !!hit && document.getElementById("last-move-box").contains(hit)};
    }""")
    # (or beside the scores, above the bar, where their last line leaves it room: phone-top.js)
    if stuck["beside"]:
        assert 0 <= stuck["top"] and stuck["bottom"] <= stuck["barTop"] + 1, stuck
    else:
        assert abs(stuck["top"] - stuck["bar"]) <= 1 and stuck["bottom"] < stuck["height"], stuck
    assert stuck["hit"], stuck
    screenshot(page, ARTIFACTS / "replay-log" / "table-phone-812-scrolled.png", full_page=False)
    assert page.js_errors == []
    page.context.close()
