"""Finished matches, record re-import and chat channels in Chromium (issue 7 items 4 and 6).

A real uvicorn on a fresh SQLite database (the ``lair_server`` fixture of tests/chromium.py). Bots play
a match to the end; a visitor finds it in the finished list with its result, downloads its
record, opens it from the lobby and steps through the imported replay with the slider and
buttons, comparing every step shown with the original match's replay. At a running table, a
spectator's chat stays among spectators until the host opens the table to them.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.test_full_match import bots_only_match, host_new_match, name_yourself, shoot

pytestmark = pytest.mark.e2e
VIEWPORT = {"width": 1400, "height": 1000}


@pytest.fixture(scope="module")
def server(lair_server):
    """The real site on a fresh SQLite database (``lair_server`` of tests/chromium.py)."""
    return lair_server



def step_text(page) -> tuple[int, int]:
    a, b = page.inner_text("#step").split(" / ")
    return int(a), int(b)


def wait_step(page, n: int) -> None:
    """Wait until step ``n`` is drawn (the label moves at once; the board follows its view)."""
    page.wait_for_function(
        "n => document.getElementById('replay').dataset.shown === String(n)"
        " && document.getElementById('step').textContent.startsWith(n + ' /')", arg=n)


def shown(page) -> dict:
    return {"log": page.locator("#log li").all_inner_texts(),
            "board": page.inner_text("#board"),
            "result": page.inner_text("#result") if page.locator("#result").is_visible() else ""}


def test_finished_list_record_download_and_imported_replay(browser, server, tmp_path):
    host_ctx = browser.new_context(viewport=VIEWPORT)
    host = host_ctx.new_page()
    host.goto(server + "/")
    name_yourself(host, "Morgana")
    mid = bots_only_match(host, server)

    visitor_ctx = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    visitor = visitor_ctx.new_page()
    visitor.goto(server + "/")
    visitor.click("#finished-link")
    row = visitor.locator(f"tr[data-match='{mid}']")
    row.wait_for()
    assert "Evil Corp" in row.inner_text()
    winner = row.locator(".places li.winner").inner_text()
    assert re.search(r"bot \d+ \d+", winner), winner  # a bot's name and its score
    shoot(visitor, "finished-list")
    with visitor.expect_download() as dl:
        row.locator("a.record-link").click()
    record_path = tmp_path / "record.json"
    dl.value.save_as(record_path)

    visitor.goto(server + "/")
    visitor.set_input_files("#record-file", str(record_path))
    visitor.click("#record-open")
    visitor.wait_for_url(re.compile(r".*/records/[^/]+$"))
    assert visitor.locator("#imported-note").is_visible()
    _, steps = step_text(visitor)
    wait_step(visitor, steps)
    assert visitor.locator("#result").is_visible()
    shoot(visitor, "imported-replay-end")

    original = host_ctx.new_page()
    original.goto(f"{server}/m/{mid}/replay")
    wait_step(original, steps)
    assert shown(visitor) == shown(original)
    # Everything is revealed at the end, so each private line says whose it was ("You drew …"
    # would not say whom it addressed), and the others' wording of a draw says so too.
    lines = original.locator("#log li").evaluate_all(
        "lis => lis.map(li => [li.querySelector('.log-tag') ? li.querySelector('.log-tag')"
        ".textContent : null, li.lastChild.textContent])")
    private = [tag for tag, text in lines if text.startswith("You ")]
    assert private and all(tag and tag.startswith("Only ") for tag in private), lines[:12]
    assert any(tag and tag.startswith("All but ") for tag, _ in lines), lines[:12]
    # shown as written (not in capitals, which read as shouting), at the desktop's 14 px
    tags = original.locator("#log .log-tag").evaluate_all(
        "ts => ts.map(t => [t.innerText, t.textContent, parseFloat(getComputedStyle(t).fontSize)])")
    assert tags and all(shown == text and px >= 14 for shown, text, px in tags), tags[:6]
    # Step through: the first step, next, previous, then the slider; the same as the original.
    for page in (visitor, original):
        page.click("#first")
        wait_step(page, 0)
    assert shown(visitor) == shown(original)
    for page in (visitor, original):
        page.click("#next")
        page.click("#next")
        wait_step(page, 2)
        page.click("#prev")
        wait_step(page, 1)
    assert shown(visitor) == shown(original)
    middle = steps // 2
    for page in (visitor, original):
        page.locator("#slider").fill(str(middle))
        wait_step(page, middle)
    assert shown(visitor) == shown(original)
    assert not visitor.locator("#result").is_visible()
    shoot(visitor, "imported-replay-middle")
    # The imported replay's own link works for anyone and downloads the same record again.
    url = visitor.url
    other = browser.new_context(viewport=VIEWPORT).new_page()
    other.goto(url)
    wait_step(other, steps)
    assert other.locator("#record-download").get_attribute("href").endswith("/record")

    # A file that is not a record: a clear page, no server error.
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "evil_corp", "version": 1}')
    visitor.goto(server + "/matches/finished")
    visitor.set_input_files("#record-file", str(bad))
    visitor.click("#record-open")
    assert "This record cannot be opened" in visitor.inner_text("h1")
    assert "not a valid match record" in visitor.inner_text("#message")
    shoot(visitor, "record-refused")
    for ctx in (host_ctx, visitor_ctx, other.context):
        ctx.close()


def chat_lines(page) -> list[str]:
    return page.locator("#chat-messages .chat-text").all_inner_texts()


def send_chat(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def wait_line(page, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-messages .chat-text')]"
        ".some(e => e.textContent === t)", arg=text)


# The chat box's placeholder and the room for text in it (CSS px, the box's own font): the
# placeholder was cut at 1366 px ("Chat with the spectator", a new user's trial).
PLACEHOLDER_JS = """() => {
  const i = document.getElementById("chat-input"), cs = getComputedStyle(i);
  const c = document.createElement("canvas").getContext("2d");
  c.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  return {text: i.placeholder, width: c.measureText(i.placeholder).width,
          room: i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)};
}"""


def placeholder_fits(page) -> None:
    got = page.evaluate(PLACEHOLDER_JS)
    assert got["text"] and got["width"] <= got["room"], got


def test_spectator_chat_is_apart_until_the_host_opens_the_table(browser, server):
    host_ctx, eve_ctx = (browser.new_context(viewport=VIEWPORT) for _ in range(2))
    host, eve = host_ctx.new_page(), eve_ctx.new_page()
    host_new_match(host, server, "Morgana", "drops_of_evil", 2)
    watch = host.input_value("#watch-link")
    host.click("#bot-1")
    host.wait_for_selector("#seats li[data-seat='1'] strong")
    host.click("#start")
    host.wait_for_selector("#table")
    eve.goto(server + "/")
    name_yourself(eve, "Eve")
    eve.goto(watch)
    eve.wait_for_selector("#table")
    for page in (host, eve):
        page.wait_for_function("document.body.dataset.version !== undefined")
    assert "spectators' chat" in eve.inner_text("#chat-note")
    assert "Spectators chat among themselves" in host.inner_text("#chat-note")
    for page in (host, eve):
        placeholder_fits(page)

    send_chat(eve, "psst: the bot is bluffing")
    wait_line(eve, "psst: the bot is bluffing")
    assert eve.locator(".chat-spectators .chat-channel").first.text_content() == "spectators"
    send_chat(host, "welcome, watchers")
    for page in (host, eve):
        wait_line(page, "welcome, watchers")
    # The host got the table line, which was sent after the spectator's: never the latter.
    assert chat_lines(host) == ["welcome, watchers"]
    assert chat_lines(eve) == ["psst: the bot is bluffing", "welcome, watchers"]
    shoot(eve, "chat-spectator-apart")

    host.click("#spectator-chat-toggle")  # "Let spectators talk to the table"
    host.wait_for_selector("#table")
    eve.wait_for_function("document.getElementById('table').dataset.spectatorChat === 'open'")
    assert "your messages go to everyone" in eve.inner_text("#chat-note")
    placeholder_fits(eve)
    send_chat(eve, "hello, players")
    wait_line(host, "hello, players")
    assert "psst: the bot is bluffing" not in chat_lines(host)  # the history stays apart
    shoot(host, "chat-host-opened")
    for ctx in (host_ctx, eve_ctx):
        ctx.close()
