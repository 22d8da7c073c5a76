"""Evil Corp.'s table as a new user meets it (issue 14 "The table", for Evil Corp.).

A real server (tests/chromium.py ``lair_process``, bots at 0.05 s) and Debian's Chromium; every
move is a real click on the board ([data-pick], [data-action]) or the prompt bar.

- One round and more by clicks: the host plays a full round (and on, until she has hired and
  kept a fortress monster at night, at most 4 rounds) with a plain player's plan, counting the
  clicks of the named tasks (first placement, a hire, a night keep) from the moment her prompt
  arrives; the counts are printed (``-s``) and kept in docs/evil-corp-table.md. At the second
  Day, before her move, the "Last Night" recap (check_recap): her side's figures as the Night's
  log lines say, nothing hidden, on the first screen (and a phone's line at the bottom); gone
  after her move.
- Names, not codes: all visible text of the table mid-match (HTML and SVG text, tooltips,
  aria labels, prompt buttons, log, the full cards shown on hover), of the replay and of a
  finished match's page holds no catalogue id (B07, SR1, D1), no cell id (raid-1) and no
  two-letter abbreviation.
- Boards laid out as boards: at 1366×768 every fear track is visible at once; when the prompt
  arrives, your screen and the boards you may use are on screen without scrolling by hand at
  1366×768, 1920×1080 and 375×812.

Screenshots: tests/browser/artifacts/evil_corp_table/ (and docs/screenshots/ under
``LAIR_SCREENSHOTS``, as ``make screenshots`` sets it).
"""
from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from tests.browser.test_layout import check_text_sizes, open_page, settle_scroll
from tests.chromium import ARTIFACTS, ROOT, fix_seed, lair_process, match_id, screenshot
from tests.marks_check import assert_tags_clear
from tests.table_clicks import answer_yes

pytestmark = pytest.mark.e2e

OUT = ARTIFACTS / "evil_corp_table"
SIZES = {
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "1920x1080": {"viewport": {"width": 1920, "height": 1080}},
    "375x812": {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2,
                "is_mobile": True, "has_touch": True},
}

#: Catalogue ids (monsters B07 R12 Y03, starting SB SR1 SY2, demons D1), cell ids (raid-1,
#: port-2), and the old renderer's shorthand ("P:", "S:", "A:" ability prefixes, "L1" levels).
CODE = re.compile(r"\b(?:[BRY]\d\d|S[BRY]\d?|D[123])\b|\b(?:raid|port)-\d\b|\b[PSA]:|\bL[123]\b")
#: Two-letter words English has; any other two-letter token is an abbreviation.
WORDS = {"a", "i", "am", "an", "as", "at", "be", "by", "do", "go", "he", "if", "in", "is", "it",
         "me", "my", "no", "of", "ok", "on", "or", "so", "to", "up", "us", "we"}


def save(page, name: str) -> None:
    screenshot(page, OUT / f"{name}.png", full_page=False)
    docs = os.environ.get("LAIR_SCREENSHOTS")
    if docs:
        shutil.copy(OUT / f"{name}.png", ROOT / docs / f"evil_corp-{name}.png")


#: The deals of the matches the tests play (tests/chromium.py ``fix_seed``): what the host
#: meets, and so what the tests can check, depends on the deal; on a fixed one it is the same
#: at every run. Seed 1's 2-player deal gives the host an affordable hire and a night keep in
#: the first round; seed {four}'s 4-player deal brings back a day turn with a tile to pick after
#: a few moves.
SEED_2P = 1
SEED_4P = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with lair_process(tmp_path_factory.mktemp("db") / "lair.db") as url:
        yield url


def new_match(browser, server: str, players: int, options: dict[str, str], size: str,
              seed: int | None = None):
    """The host (Morgana) creates an Evil Corp. match in the lobby, fills the other seats
    with easy bots and starts it (on ``seed``'s deal when given, else the server's random
    one); returns (context, page, match url)."""
    ctx = browser.new_context(**SIZES[size], reduced_motion="reduce")
    page = ctx.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(server + "/")
    page.fill("#name", "Morgana")
    page.click("#name-submit")
    page.check("#game-evil_corp")
    page.select_option("#players-evil_corp", str(players))
    for key, value in options.items():
        page.select_option(f"select[name=opt_evil_corp_{key}]", value)
    page.click("#create")
    page.wait_for_selector("#start")
    url = page.url
    page.select_option("form[action$='/fill'] select[name=bot]", "easy")
    page.click("#fill")
    page.wait_for_selector("#seats li strong >> nth=-1")
    if seed is not None:
        fix_seed(server, match_id(url), seed)
    page.click("#start")
    page.wait_for_selector("#table .ec")
    page.wait_for_function("document.body.dataset.version !== undefined")
    return ctx, page, url


def wait_my_turn(page, timeout: float = 30_000) -> bool:
    """Wait until the host may act (or the match is over); True if she may act."""
    page.wait_for_function(
        "document.body.dataset.finished === 'true' || (document.body.dataset.yourTurn === 'true'"
        " && document.body.dataset.pending !== 'true')", timeout=timeout)
    return page.evaluate("document.body.dataset.finished") != "true"


def targets(page) -> list[tuple[str, dict]]:
    """Clickable legal targets on the board and in the prompt bar: (where, action)."""
    raw = page.locator("#board [data-action], #prompt-actions [data-action]").evaluate_all(
        "els => els.map(e => e.offsetParent !== null && !e.disabled ?"
        " [e.closest('#board') ? 'board' : 'bar', e.getAttribute('data-action')] : null)")
    return [(w, json.loads(a)) for w, a in (x for x in raw if x)]


#: Every target's action and whether it shows, read at one moment (reading them one by one raced
#: a redraw: a bot's move arriving between the count and the read left ``nth(i)`` pointing at
#: nothing, and ``get_attribute`` waited out its timeout in a CI run at load).
TARGETS_JS = """() => [...document.querySelectorAll('#board [data-action], #prompt-actions [data-action]')]
  .map((e) => {
    const r = e.getBoundingClientRect();
    return [e.dataset.action, r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'];
  })"""


def click_action(page, pred) -> bool:
    """Click the first visible target whose action satisfies ``pred``; False if none."""
    for a, shown in page.evaluate(TARGETS_JS):
        if a and shown and pred(json.loads(a)):
            before = page.evaluate("document.body.dataset.version")
            # the element that plays exactly this action (a redraw between the reading and the
            # click, e.g. a bot's move arriving, may have put another one at this index: the CI
            # run of a6affb8 clicked and waited 10 s for a move that never went)
            page.locator(f"#board [data-action='{a}'], #prompt-actions [data-action='{a}']") \
                .filter(visible=True).first.click()
            answer_yes(page)  # a Pass with monsters still to play, a hire: the bar asks first
            page.wait_for_function(
                "(v) => document.body.dataset.version !== v || !!document.querySelector('.toast')",
                arg=before, timeout=20_000)
            return True
    return False


def day_turn(page) -> bool:
    """The host's prompt is a day turn (not a choice such as "Summon a demon")."""
    return page.inner_text("#prompt-text").startswith("Your turn")


def gold(page) -> int:
    label = page.locator("#ec-my-screen [aria-label^='Gold:']").first.get_attribute("aria-label")
    return int(label.split(":")[1])


#: A Night keep button's words (the renderer's labelText): the monster and its price.
KEEP_WORDS = re.compile(r"^(?:\d )?(?:Keep (?P<name>.+) in the fortress of board (?P<board>\d) "
                        r"for (?P<price>\d gold(?: and \d magic coins?)?|\d magic coins?|free)|Discard (?P<dname>.+) from the fortress of "
                        r"board (?P<dboard>\d))$")


def check_keep_buttons(page) -> None:
    """The Night's keep, on the board: the new-user trial read "Keep the fortress monster of
    board 1 (pay)", neither the monster nor the price; the first-time review then saw the
    sentence three times (the prompt and two long bar buttons) and the monster not marked, and
    on a phone both choices hid behind "Choose: 2 choices". Now the choices sit on the head
    line of her screen ("Keep · 2 gold", "Discard"), each named whole for screen readers with
    the monster in her fortress of that board and the keep cost the board's fortress cell
    shows; that fortress cell is lit; the prompt bar holds no keep button. Screenshot:
    evil_corp_table/night-keep-1366x768.png."""
    buttons = page.locator("#ec-keep [data-action]")
    assert buttons.count() >= 1, "no keep choice on the board"
    assert page.locator("#prompt-actions [data-action*='\"keep\"'], "
                        "#prompt-actions [data-action*='\"release\"']").count() == 0
    for i in range(buttons.count()):
        b = buttons.nth(i)
        a = json.loads(b.get_attribute("data-action"))
        assert a["type"] in ("keep", "release"), a
        assert b.is_visible()
        words = " ".join(b.inner_text().split())
        text = b.get_attribute("aria-label")
        m = KEEP_WORDS.match(text)
        assert m, text
        board = int(m.group("board") or m.group("dboard"))
        assert board == a["board"] + 1, (text, a)
        # her fortress cell of that board is lit and names its monster in its tile's label
        lit = page.locator(f".ec-board[data-board='{a['board']}'] [data-cell='fortress'].ec-keeping")
        assert lit.count() == 1 and lit.is_visible(), (text, lit.count())
        labels = lit.locator("[aria-label]").evaluate_all("ts => ts.map((t) => t.getAttribute('aria-label'))")
        assert any(lab.startswith((m.group("name") or m.group("dname")) + ",") for lab in labels), (text, labels)
        if a["type"] == "release":
            assert words == "Discard", words
            continue
        cost = page.locator(f".ec-board[data-board='{a['board']}'] .keep").first.get_attribute("aria-label")
        # what it costs, in gold first, then magic coins (as the side pays: state.py `pay`)
        want = "free" if not a["pay"] else re.search(r"(\d) gold", cost or "").group(1)
        got = "free" if m.group("price") == "free" else str(sum(map(int, re.findall(r"\d", m.group("price")))))
        assert got == want, (text, cost)
        assert words == f"Keep · {m.group('price')}", (words, text)
    save(page, "night-keep-1366x768")
    # "Keep?" clear of the fear track and the conquest shield (review 8, worst problem 2)
    assert_tags_clear(page, expect=1)


def check_keep_on_phone(browser, page) -> None:
    """The same Night keep on the host's phone (375×812, her cookies, a second page): the
    choices whole in the window with the lit fortress once the table brought the decision into
    view, each tall enough to tap, the prompt bar under a quarter of the screen and without
    them (the first-time review: on a phone both hid behind "Choose: 2 choices"). Screenshot:
    evil_corp_table/night-keep-375x812.png."""
    phone = open_page(browser, SIZES["375x812"], page.url, page.context.cookies())
    try:
        phone.wait_for_selector("#ec-keep [data-action]")
        settle_scroll(phone)
        got = phone.evaluate("""() => {
          const box = (n) => { const r = n.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height}; };
          const bar = document.getElementById("prompt-bar").getBoundingClientRect();
          return {bar: bar.bottom - bar.top, barBottom: bar.bottom, height: innerHeight, width: innerWidth,
                  buttons: [...document.querySelectorAll("#ec-keep [data-action]")].map(box),
                  lit: box(document.querySelector(".ec-keeping")),
                  inBar: document.querySelectorAll("#prompt-actions [data-action]").length,
                  menu: !!document.querySelector("#prompt-actions details.action-menu")};
        }""")
        assert got["bar"] <= 0.25 * got["height"], got
        assert got["inBar"] == 0 and not got["menu"], ("the keep choices are in the prompt bar", got)
        for r in got["buttons"] + [got["lit"]]:
            assert got["barBottom"] - 1 <= r["top"] and r["bottom"] <= got["height"] + 1, ("out of view", got)
            assert 0 <= r["left"] and r["right"] <= got["width"] + 1, ("cut", got)
        assert all(r["h"] >= 40 for r in got["buttons"]), ("too small to tap", got)
        # its prompt in two lines that say the price, the "?" beside the last word (review 9:
        # four lines, "?" alone on the last, no "for 2 gold")
        words = phone.inner_text("#prompt-text")
        assert prompt_lines(phone) <= 2 and re.search(r"\bfor (free|\d)", words), (words, prompt_lines(phone))
        alone = phone.evaluate("""() => { const a = document.querySelector('#prompt-text .rule-link');
          const r = document.createRange(); r.selectNodeContents(document.getElementById('prompt-text'));
          const lines = [...r.getClientRects()].filter((q) => q.height && q.width > 1);
          const last = a.getBoundingClientRect();
          return !lines.some((q) => Math.abs(q.bottom - last.bottom) < 3 && q.right < last.left - 1); }""")
        assert not alone, ("the '?' alone on its line", words)
        save(phone, "night-keep-375x812")
        assert_tags_clear(phone, expect=1)
        assert phone.js_errors == []
    finally:
        phone.context.close()


def night_keep(page, state: dict) -> int:
    """The host's Night keep, checked (on her phone too, the first time) and played: keep,
    else discard. Returns the clicks it took (1)."""
    check_keep_buttons(page)
    if not state.get("phone keep"):
        state["phone keep"] = True
        check_keep_on_phone(state["browser"], page)
    if click_action(page, lambda a: a["type"] == "keep"):
        state["tasks"].setdefault("night keep", 1)
        return 1
    click_action(page, lambda a: a["type"] == "release")
    return 1


LOG_JS = """() => [...document.querySelectorAll('#log li.log-entry')].map((li) =>
  [li.classList.contains('private'), (li.querySelector('.log-text') || li).textContent.trim()])"""


def night_lines(page) -> tuple[list[str], list[str]]:
    """The public log lines of the Night before this Day (between "Every player has passed:
    Night phase." and "Round N: Day phase."), and every private line of the log (the host's
    own draws: "You drew ...")."""
    lines = page.evaluate(LOG_JS)
    texts = [t for _, t in lines]
    day = max(i for i, t in enumerate(texts) if re.match(r"Round \d+: Day phase\.", t))
    night = max(i for i, t in enumerate(texts[:day]) if t == "Every player has passed: Night phase.")
    return ([t for p, t in lines[night + 1:day] if not p], [t for p, t in lines if p])


def check_recap(page, state: dict) -> None:
    """The "Last Night" recap at the start of the second Day, before the host moves: what the
    Night gave her side, as the Night's log lines say (magic coins received, victory tokens,
    the fear tracks' winners), and nothing hidden (no monster named only in a line the host
    alone reads: the tiles she drew); whole on the first screen at 1366×768 with her screen and
    boards; none on her phone for now (renderer recapNode)."""
    recap = page.locator("#ec-recap")
    assert recap.count() == 1 and recap.is_visible(), "no Last Night recap at the second Day"
    public, private = night_lines(page)
    me = "Morgana"
    magic = sum(int(m.group(1)) for t in public if (m := re.match(rf"{me} receives (\d+) magic coins?", t)))
    vp = sum(1 for t in public if t.startswith(f"{me} receives a victory token"))
    row = page.locator("#ec-recap .ec-recap-row[data-side='0']")
    words = " ".join(row.inner_text().split())
    assert row.get_attribute("data-magic") == str(magic) and row.get_attribute("data-vp") == str(vp), (words, public)
    assert (f"+{magic} magic" in words) == bool(magic) and (f"+{vp} victory token" in words) == bool(vp), (words, public)
    mine = page.locator("#ec-my-screen [aria-label^='Magic coins:']").first.get_attribute("aria-label")
    if magic:
        assert f"({mine.split(':')[1].strip()} now)" in words, (words, mine)
    tracks = " ".join(page.locator("#ec-recap .ec-recap-tracks").inner_text().split())
    for t in public:
        if m := re.match(r"Board (\d+): the fear marker is (\d+) cells? toward .+; (.+) wins\.$", t):
            cells = f"{m.group(2)} cell" + ("" if m.group(2) == "1" else "s")
            assert f"Board {m.group(1)}: {m.group(3)} won, {cells} out" in tracks, (tracks, t)
        elif m := re.match(r"Board (\d+): tie, nobody wins", t):
            assert f"Board {m.group(1)}: tie, nobody won" in tracks, (tracks, t)
    # nothing hidden: no monster named only in the host's own lines
    text = recap.inner_text()
    said = " ".join(public)
    hidden = {n for t in private if t.startswith("You drew ")
              for n in re.findall(r"(?:blue|red|yellow) ([^,(]+?) \(fear", t) if n not in said}
    assert hidden and not [n for n in hidden if n in text], (hidden, text)
    # on the first screen with her screen and her boards (1366×768)
    settle_scroll(page)
    got = page.evaluate("""() => { const r = (n) => { const b = n.getBoundingClientRect(); return [b.top, b.bottom]; };
      return {bar: document.getElementById('prompt-bar').getBoundingClientRect().bottom, h: innerHeight,
              boxes: [r(document.getElementById('ec-recap')), r(document.getElementById('ec-my-screen')),
                      ...[...document.querySelectorAll('.ec-board.usable')].map(r)]}; }""")
    for top, bottom in got["boxes"]:
        assert got["bar"] - 1 <= top and bottom <= got["h"] + 1, ("off the first screen", got)
    save(page, "last-night-1366x768")
    # (a phone shows none for now: its fixed line left too little room, renderer recapNode)
    phone = open_page(state["browser"], SIZES["375x812"], page.url, page.context.cookies())
    try:
        phone.wait_for_selector("#board .ec-board")
        assert phone.locator("#ec-recap").count() == 0
    finally:
        phone.context.close()
    state["screen_top"] = page.evaluate("document.getElementById('ec-my-screen').getBoundingClientRect().top + scrollY")
    state["recap"] = "shown"


def play_turn(page, state: dict) -> int:
    """One decision of the host's plan; returns the clicks it took. Day turn: a monster in her
    fortress first, then a hire that leaves enough gold to keep it, then yellow monsters into
    ports and raids for gold, else pass. Night: keep the fortress monster. Choices: the first
    board target, else the first prompt button that is not "Skip"."""
    acts = targets(page)
    kinds = {a["type"] for _, a in acts}
    picks = page.locator("#board [data-pick]")
    if "keep" in kinds or "release" in kinds:
        return night_keep(page, state)
    if picks.count() or "hire" in kinds:
        hires = [a for w, a in acts if a["type"] == "hire" and w == "board"]
        price = {}
        for q in page.locator("#ec-personnel .ec-qcell[data-action]").all():
            a = json.loads(q.get_attribute("data-action"))
            label = q.locator(".ec-price").get_attribute("aria-label") or "price 99 gold"
            price[a["slot"]] = int(label.split()[1])
        if state["placed_fortress"] and hires and "hire" not in state["tasks"]:
            cheap = [a for a in hires if gold(page) - price.get(a["slot"], 99) >= 2]
            if cheap:
                click_action(page, lambda a: a == cheap[0])
                state["tasks"]["hire"] = 1
                return 1
        if picks.count():
            # pick: yellow first (gold), never one that costs gold while the keep needs it
            order = sorted(range(picks.count()), key=lambda i: (
                "c-yellow" not in (picks.nth(i).get_attribute("class") or "")))
            order = [i for i in order if gold(page) >= 3 or
                     not picks.nth(i).locator("svg[aria-label^='Pay']").count()]
            for i in order:
                picks.nth(i).click()
                # one instruction (review item 9): the prompt bar says the pick's next step; the
                # board repeats no second wording of it
                from playwright.sync_api import expect
                expect(page.locator("#prompt-text")).to_contain_text("click a highlighted cell to put")
                assert page.locator("#board .ec-hint").count() == 0
                cells = [a for _, a in targets(page) if a["type"] == "play"]
                want = [a for a in cells if a["cell"] == "fortress"] if not state["placed_fortress"] \
                    else [a for a in cells if a["cell"].startswith("port")] or \
                    [a for a in cells if a["cell"].startswith("raid")]
                if want:
                    click_action(page, lambda a: a == want[0])
                    if want[0]["cell"] == "fortress":
                        state["placed_fortress"] = True
                    state["tasks"].setdefault("first placement", 2)
                    return 2
                page.locator("#board [data-pick].picked").click()  # put it back
                picks = page.locator("#board [data-pick]")
        if click_action(page, lambda a: a["type"] == "pass"):
            return 1
    # a choice frame (flip, send, move, reveal, summon, ...): the board first, never skip
    for where in ("board", "bar"):
        for w, a in acts:
            if w == where and a["type"] not in ("skip", "undo"):
                click_action(page, lambda x, a=a: x == a)
                return 1
    click_action(page, lambda a: True)
    return 1


def play_rounds(browser, server: str) -> tuple[dict, int, int]:
    """One new 2-player match (deal: :data:`SEED_2P`) played by the host's plan until she has
    hired and kept a monster at Night (or 6 rounds, or the end): ``(clicks per named task,
    clicks, rounds)``."""
    ctx, page, _ = new_match(browser, server, 2, {"balance_of_power_seat": "0",
                                                  "first_player": "0"}, "1366x768",
                             seed=SEED_2P)
    state = {"tasks": {}, "placed_fortress": False, "browser": browser}
    clicks, round_no, rounds = 0, 1, 0
    try:
        for _ in range(200):
            if not wait_my_turn(page):
                break
            text = page.inner_text(".ec-strip")
            now = int(re.search(r"Round (\d+)", text).group(1))
            if now != round_no:
                rounds += 1
                round_no = now
                state["placed_fortress"] = False
                if rounds == 1:
                    save(page, "round-2-1366x768")
                    check_recap(page, state)
            if rounds >= 1 and {"hire", "night keep"} <= set(state["tasks"]) and state.get("recap") != "shown" \
                    or rounds >= 6:
                break
            # the desktop's 14 px text floor at Night too (a night keep, asserted below, is
            # played at a Night turn: checked before it)
            if "Night" in page.inner_text("#round-phase") and not state.get("night floor"):
                state["night floor"] = True
                check_text_sizes(page, "desktop", "Evil Corp., the host's turn at Night")
            taken = play_turn(page, state)
            if state.get("recap") != "shown":  # (her move after the recap's check: not the round's)
                clicks += taken
            if state.get("recap") == "shown":
                # she moved this Day: on a desktop the recap stays (its going would move the
                # boards under the pointer), and her screen where it was
                assert page.locator("#ec-recap").count() == 1, "the recap went at her move"
                top = page.evaluate("document.getElementById('ec-my-screen').getBoundingClientRect().top"
                                    " + scrollY")
                assert abs(top - state["screen_top"]) <= 2, (top, state["screen_top"])
                state["recap"] = "kept"
        assert page.js_errors == []
    finally:
        ctx.close()
    state["tasks"]["recap"] = state.get("recap")
    return state["tasks"], clicks, rounds


def test_rounds_by_clicks_count_the_named_tasks(browser, server):
    """Issue 14 "Done when": a full round by real clicks, with the clicks of a hire and a
    night keep counted and printed (one click each is the floor: nothing to hunt for). On a
    random deal a match could end (the bot's tokens) before a Night offered the host a keep,
    or offer no hire she could afford: the deal is fixed (:data:`SEED_2P`), one where both
    come in the first round."""
    tasks, clicks, rounds = play_rounds(browser, server)
    print(f"\nEvil Corp. clicks per named task: {tasks}; "
          f"{clicks} clicks over {rounds} full round(s)")
    assert rounds >= 1, "the host did not play a full round"
    assert tasks.get("first placement") == 2
    assert tasks.get("hire") == 1, "no affordable hire in 6 rounds"
    assert tasks.get("night keep") == 1, "no night keep in 6 rounds"
    assert tasks.get("recap") == "kept", "the Last Night recap was not checked"


VISIBLE_TEXT_JS = """() => {
  const out = [];
  const seen = (el) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none'; };
  for (const sel of ['#board', '#log', '#prompt-bar', '#seats', '#result', '#replay', '.card-pop']) {
    for (const root of document.querySelectorAll(sel)) {
      if (!seen(root)) continue;
      out.push(root.innerText);
      for (const t of root.querySelectorAll('svg text, svg title')) out.push(t.textContent);
      for (const e of root.querySelectorAll('[title], [aria-label]')) {
        out.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '');
      }
    }
  }
  return out.filter(Boolean);
}"""


def offenders(texts: list[str]) -> list[str]:
    """Every code or abbreviation found, with the text around it."""
    bad = []
    for t in texts:
        hits = list(CODE.finditer(t)) + [
            m for m in re.finditer(r"(?<![\w'’-])[A-Za-z]{2}(?![\w'’-])", t)
            if m.group(0).lower() not in WORDS]
        bad += [f"{m.group(0)!r} in {t[max(0, m.start() - 40):m.end() + 40]!r}" for m in hits]
    return bad


def only_i_am_waiting(page) -> bool:
    """The host is the only seat the match waits for: her partner (who shares the team turn
    and acts in either order, rulebook "About the 4-Player Game") has acted or passed, so
    nothing changes on the table until she moves. Waits up to 30 s for the partner bot."""
    page.wait_for_function(
        "document.body.dataset.finished === 'true' || document.body.dataset.yourTurn !== 'true'"
        " || document.querySelectorAll('#seats .seat-panel.is-waiting').length === 1",
        timeout=30_000)
    return page.evaluate("document.body.dataset.yourTurn === 'true'"
                         " && document.body.dataset.finished !== 'true'")


@pytest.fixture(scope="module")
def four_players(browser, server):
    """A 4-player match (3 boards) the host has made a few moves in, on a day turn where she
    may pick a tile behind her screen and that stays as it is until she moves.

    On the fixed deal (:data:`SEED_4P`) the course is the same at every run; the fixture
    still looks for the turn it needs rather than counting on one (on another deal, after four
    moves the host's screen may be empty or hold only a tile she cannot pay for, a Junior
    Brute at 0 gold, and her partner bot may still spend the team's gold or fill a cell).
    So she plays on until such a turn arrives
    (every Day refills her screen to 4 tiles), rather than stopping at any day turn: the
    first one, after four moves, where her partner has moved (or passed), a tile is pickable
    and four or more tiles are behind her screen (a Day starts with 4 or 5: at 375 px they
    keep one row that scrolls sideways, so her screen and both usable boards fit a 375×812
    window; before, a third tile pushed the second usable board below it; three tiles and her
    discard pile now fit that row without a scroll)."""
    ctx, page, url = new_match(browser, server, 4, {}, "1366x768", seed=SEED_4P)
    state = {"tasks": {}, "placed_fortress": False}
    ready = False
    for moves in range(80):
        if not wait_my_turn(page):
            break
        # her partner bot (0.05 s) moves first, as it would anyway unless the server is slow:
        # on the fixed deal the match then takes the same course at every run
        only_i_am_waiting(page)
        if moves >= 4 and day_turn(page) and only_i_am_waiting(page) and day_turn(page) \
                and page.locator("#board [data-pick]").count() \
                and page.locator("#ec-my-screen .ec-supply > .ec-tile").count() >= 4:
            ready = True
            break
        if wait_my_turn(page):  # (the partner's move may have ended the match)
            play_turn(page, state)
    assert ready, "the host never came back to a day turn with a tile she could pick"
    yield {"cookies": ctx.cookies(), "url": url, "host": page}
    ctx.close()


def test_no_code_cell_id_or_abbreviation_is_visible(browser, four_players):
    """Item 3: names, not codes, in the table mid-match (text, SVG, tooltips, prompt buttons,
    log, every piece's full card) and in its replay."""
    page = four_players["host"]
    texts = page.evaluate(VISIBLE_TEXT_JS)
    assert any("Board 1" in t for t in texts) and any("Junior" in t for t in texts)
    pieces = page.locator("#board .ec-tile:not(.back), #board .ec-cell, #board .ec-demon, #board .ec-track")
    for i in range(pieces.count()):
        piece = pieces.nth(i)
        if not piece.is_visible():
            continue
        piece.evaluate("e => e.scrollIntoView({block: 'center'})")  # clear of the prompt bar
        pop = page.locator(".card-pop")
        # A view arriving mid-hover redraws the board and takes the card away: hover again.
        card = None
        for _ in range(3):
            piece.hover()
            try:
                pop.wait_for(timeout=5000)
            except Exception:
                continue
            card = page.evaluate("() => document.querySelector('.card-pop')?.innerText ?? null")
            if card is not None:
                break
        if card is None:
            info = piece.evaluate("e => { const r = e.getBoundingClientRect(); const h = document.elementFromPoint(r.left + r.width/2, r.top + r.height/2); return [e.className.baseVal ?? e.className, r.top, r.height, h && (h.className.baseVal ?? h.className), h && h.tagName]; }")
            raise AssertionError(f"no card for piece {i}: {info}")
        texts.append(card)
    assert not offenders(texts), offenders(texts)[:10]
    # counts read as English in the log (words.js): "1 tile", "4 tiles", never "tile(s)"
    log = "\n".join(page.locator("#log li .log-text").all_inner_texts())
    assert "(s)" not in log and not re.search(r"(?<![\d.])1 (?:tiles|cells|steps)\b", log), log
    # hovering a log line that puts a monster into play lights that cell of that board
    line = page.locator("#log li", has_text=re.compile(r"into play: raid cell \d+ of board \d+")).last
    m = re.search(r"raid cell (\d+) of board (\d+)", line.inner_text())
    line.hover()
    lit = page.evaluate("() => [...document.querySelectorAll('#board .log-hit')].map((n) => "
                        "[n.closest('[data-board]').dataset.board, n.dataset.cell])")
    assert lit == [[str(int(m.group(2)) - 1), f"raid-{m.group(1)}"]], (line.inner_text(), lit)
    replay = page.context.new_page()
    replay.goto(four_players["url"] + "/replay")
    replay.wait_for_function("Number(document.getElementById('replay').dataset.shown || 0) > 0")
    replay.wait_for_selector("#board .ec-board")
    rtexts = replay.evaluate(VISIBLE_TEXT_JS)
    assert not offenders(rtexts), offenders(rtexts)[:10]
    replay.close()
    assert page.js_errors == []


TRACKS_JS = """() => {
  // the part of the window below the prompt bar (a status bar at the top of the table, sticky
  // at the top of the window once the page scrolls)
  const bar = document.getElementById('prompt-bar');
  let top = 0, barh = 0;
  if (bar) { const r = bar.getBoundingClientRect(); barh = r.height; if (r.height && r.bottom > 0) top = r.bottom; }
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  // (on a phone the whole sticky block: the scores, the bar, the last move, whose second line
  // lies over the board's top edge)
  const block = document.getElementById('table-top'), b = block && block.getBoundingClientRect();
  const lm = document.getElementById('last-move-box'), m = lm && lm.getBoundingClientRect();
  const cover = b && b.height ? Math.max(0, b.bottom, m && m.height ? m.bottom : 0) : top;
  return {top, barh, bottom: window.innerHeight, width: innerWidth, cover,
          strip: [...document.querySelectorAll('#board .ec-strip')].map(box),
          tracks: [...document.querySelectorAll('#board .ec-track')].map(box),
          usable: [...document.querySelectorAll('#board .ec-board.usable')].map(box),
          screen: [...document.querySelectorAll('#ec-my-screen')].map(box)};
}"""


def settled(page) -> dict:
    """TRACKS_JS once three reads 150 ms apart agree (the renderer's scroll, instant with reduced
    motion, and a partner bot's move redrawing the table have settled; the table draws in the
    next frame, which on a loaded CI machine came later than 100 ms once)."""
    got, same = page.evaluate(TRACKS_JS), 0
    for _ in range(50):
        page.wait_for_timeout(150)
        again = page.evaluate(TRACKS_JS)
        same = same + 1 if again == got else 0
        if same == 2:
            return got
        got = again
    return got


PROMPT_LINES_JS = """() => {
  const range = document.createRange();
  range.selectNodeContents(document.getElementById("prompt-text"));
  return new Set([...range.getClientRects()].filter((q) => q.height).map((q) => Math.round(q.bottom))).size;
}"""


def prompt_lines(page) -> int:
    """How many lines the prompt bar's words take."""
    return page.evaluate(PROMPT_LINES_JS)


def strip_whole(got) -> bool:
    """The status strip (round, whose turn) wholly below the sticky top or wholly under it,
    never half under it (the phone's first turn: its top half under the sticky block)."""
    return all(t >= got["cover"] - 0.5 or b <= got["cover"] + 0.5 for t, b, *_ in got["strip"])


def on_screen(boxes, got) -> bool:
    """Every box wholly in the window and below the prompt bar (never under it)."""
    return all(t >= got["top"] - 0.5 and b <= got["bottom"] + 0.5 and left >= -0.5 and r <= got["width"] + 0.5
               for t, b, left, r in boxes)


@pytest.mark.parametrize("size", list(SIZES))
def test_your_screen_and_boards_are_on_screen_when_the_prompt_arrives(browser, four_players, size):
    """Items 2 and 6: opened on the host's turn, the table shows her screen and the boards she
    may use without a scroll by hand (the renderer brings them into view); at 1366×768 every
    fear track fits on screen at once."""
    page = open_page(browser, SIZES[size], four_players["url"], four_players["cookies"])
    ctx, errors = page.context, page.js_errors
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=30_000)
    page.wait_for_selector("#board .ec-board")
    assert day_turn(page)  # where she decides: her screen and the boards she may use
    got = settled(page)
    screenshot(page, OUT / f"turn-{size}.png", full_page=False)
    save(page, f"turn-{size}")
    assert len(got["tracks"]) == 3 and len(got["usable"]) == 2, got
    assert on_screen(got["screen"] + got["usable"], got), (size, got)
    assert got["strip"] and strip_whole(got), (size, got)
    if size == "375x812":
        from playwright.sync_api import expect
        # every tile behind her screen is in reach: the row scrolls sideways (and takes the
        # keyboard's focus when it does) up to its last tile, which then lies whole on screen
        row = page.evaluate("""() => {
          const row = document.querySelector('#ec-my-screen .ec-supply');
          const tiles = row.querySelectorAll(':scope > .ec-tile'), last = tiles[tiles.length - 1];
          row.scrollLeft = row.scrollWidth;
          const a = row.getBoundingClientRect(), b = last.getBoundingClientRect();
          const out = {tiles: tiles.length, scrolls: row.scrollWidth > row.clientWidth + 1, tab: row.tabIndex,
                       whole: b.left >= a.left - 0.5 && b.right <= Math.min(a.right, innerWidth) + 0.5};
          row.scrollLeft = 0;
          return out;
        }""")
        assert row["tiles"] >= 3 and row["whole"] and (not row["scrolls"] or row["tab"] == 0), row
        # the phone's prompt keeps to two lines (item 7), also with a tile picked
        assert prompt_lines(page) <= 2, page.inner_text("#prompt-text")
        # a finger taps the tile (review item 10): the prompt says "Tap", no card stays open
        # over the board, and the tile the prompt says to tap again is free to tap
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        key = page.locator("#board [data-pick]").first.get_attribute("data-pick")
        tile = page.locator(f"#board [data-pick='{key}']")
        tile.tap()
        expect(page.locator("#prompt-text")).to_contain_text("Tap a highlighted cell for")
        assert "Click" not in page.inner_text("#prompt-text")
        assert prompt_lines(page) <= 2, page.inner_text("#prompt-text")
        page.wait_for_timeout(600)  # past a long-press: a tap never opens the card
        assert page.locator(".card-pop").count() == 0, page.locator(".card-pop").inner_text()
        assert tile.evaluate("""(t) => { const r = t.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !!hit && t.contains(hit); }"""), "the picked tile is covered"
        save(page, "turn-picked-375x812")
        # "Picked" off the tile's ability badge and whole (review 8, worst problem 2)
        assert_tags_clear(page, expect=1)
        tile.tap()  # the tile again: the pick is undone
        expect(page.locator("#prompt-text")).to_contain_text("Your turn: play a monster")
    if size == "1366x768":
        tops = [t for t, *_ in got["tracks"]]
        page.mouse.move(got["width"] / 2, 300)
        # the player scrolls the first track up to just below the (then sticky) prompt bar
        page.mouse.wheel(0, min(tops) - got["barh"] - 8)
        got = settled(page)
        assert on_screen(got["tracks"], got), got
    assert errors == []
    ctx.close()


ROW_JS = """() => {
  const row = document.querySelector('#ec-my-screen .ec-supply');
  return {scrolls: row.scrollWidth > row.clientWidth + 1, tab: row.hasAttribute('tabindex') ? row.tabIndex : null,
          left: row.scrollLeft, focused: document.activeElement === row,
          fade: [row.classList.contains("more-left"), row.classList.contains("more-right")]};
}"""


def test_the_tile_row_stays_reachable_by_keyboard_after_a_rotation(browser, four_players):
    """Item 2 on the phone: the row of tiles behind her screen scrolls sideways at 375×812 and
    then takes the keyboard's focus (the arrow keys scroll it), also when the phone is turned
    after the table was drawn: opened in landscape (812×375, the row wraps, no focus stop),
    turned upright with no new view, Tab from the screen's head reaches the row and the arrow
    key scrolls it; turned back, the row is no focus stop any more. Each end of the row with
    more tiles beyond it fades out (the fourth trial: the cut-off tile said nothing)."""
    page = open_page(browser, {"viewport": {"width": 812, "height": 375}, "device_scale_factor": 2,
                               "is_mobile": True, "has_touch": True},
                     four_players["url"], four_players["cookies"])
    ctx, errors = page.context, page.js_errors
    page.wait_for_function("document.body.dataset.yourTurn === 'true'", timeout=30_000)
    page.wait_for_selector("#ec-my-screen .ec-supply > .ec-tile")
    page.wait_for_timeout(300)
    got = page.evaluate(ROW_JS)
    assert not got["scrolls"] and got["tab"] is None and got["fade"] == [False, False], got
    version = page.evaluate("document.body.dataset.version")
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_function(f"({ROW_JS})().scrolls && ({ROW_JS})().tab === 0", timeout=3000)
    assert page.evaluate("document.body.dataset.version") == version  # no redraw did it
    # the end with more tiles beyond it fades out (the fourth trial: no sign of more)
    page.wait_for_function(f"({ROW_JS})().fade[1]", timeout=3000)
    assert page.evaluate(ROW_JS)["fade"] == [False, True], page.evaluate(ROW_JS)
    # the keyboard: from the screen's head (a click on its words, no focus stop), Tab, then →
    # (on a Day turn that offers a play and a hire the head line holds the applicants to hire
    # and "All applicants": their focus stops come first, then the row's)
    page.locator("#ec-my-screen .ec-phead").click(position={"x": 2, "y": 2})
    # (and their marks' cards): Tab on until the row has the focus, within the head's stops
    for _ in range(40):
        page.keyboard.press("Tab")
        got = page.evaluate(ROW_JS)
        if got["focused"]:
            break
    assert got["focused"], (got, page.evaluate("document.activeElement.outerHTML.slice(0, 120)"))
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"({ROW_JS})().left > 0 && ({ROW_JS})().fade[0]", timeout=3000)
    page.set_viewport_size({"width": 812, "height": 375})
    page.keyboard.press("Shift+Tab")  # the focus leaves the row; it is no focus stop now
    page.wait_for_function(f"!({ROW_JS})().scrolls && ({ROW_JS})().tab === null", timeout=3000)
    assert errors == []
    ctx.close()


# The board's parts on screen whose visible points something outside the board lies over.
UNCOVERED_JS = """() => {
  const board = document.getElementById('board'), bad = [];
  for (const part of board.querySelectorAll('.ec-board, #ec-personnel')) {
    const r = part.getBoundingClientRect();
    for (const fy of [0.1, 0.5, 0.9]) for (const fx of [0.1, 0.5, 0.9]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (y < 0 || y >= innerHeight || x < 0 || x >= innerWidth) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && !board.contains(hit) && !hit.closest('.card-pop')) bad.push([part.className || part.id, x, y, hit.id || hit.className]);
    }
  }
  return bad;
}"""


def prompt_and_scroll(page) -> list:
    """What a failed track check needs to say: the window's scroll, the prompt's words, where
    the host's screen starts (a hire offered on her turn once put board 3's track 6 px under
    the window's edge: the applicants took a line of their own on her screen)."""
    return page.evaluate("[scrollY, document.getElementById('prompt-text')?.textContent, "
                         "document.querySelector('#ec-my-screen')?.getBoundingClientRect().top]")


def tracks_clear(got) -> bool:
    """Every fear track wholly in the viewport and below the prompt bar."""
    return bool(got["tracks"]) and on_screen(got["tracks"], got)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_fear_track_is_on_screen_at_1366x768_without_scrolling(browser, server, players):
    """Issue 14 item 2, as a new user's trial found it: in a 3-player match, board 3's fear
    track sat under the prompt bar for the host at the top of the page and for a spectator.
    Opened at 1366×768, the table shows every fear track at once, clear of the prompt bar,
    without a scroll by hand: for the host (on her turn or not, and reloaded) and a spectator."""
    ctx, page, url = new_match(browser, server, players, {}, "1366x768")
    boards = {2: 2, 3: 3, 4: 3}[players]
    got = settled(page)
    save(page, f"tracks-host-{players}p")
    assert len(got["tracks"]) == boards and tracks_clear(got), (got, prompt_and_scroll(page))
    page.reload()
    page.wait_for_selector("#board .ec-track")
    got = settled(page)
    assert tracks_clear(got), got
    watcher = browser.new_context(**SIZES["1366x768"], reduced_motion="reduce")
    spect = watcher.new_page()
    spect.goto(url)
    if spect.locator("#name").count():
        spect.fill("#name", "Watcher")
        spect.click("#name-submit")
    spect.wait_for_selector("#board .ec-track")
    got = settled(spect)
    save(spect, f"tracks-spectator-{players}p")
    assert spect.evaluate("window.scrollY") == 0, "a spectator's page was scrolled"
    assert len(got["tracks"]) == boards and tracks_clear(got), got
    # A spectator has nothing to do: no "You are watching" bar over the Personnel department
    # or a board (the header says whose turn it is).
    assert spect.evaluate(UNCOVERED_JS) == [], spect.evaluate(UNCOVERED_JS)
    assert page.js_errors == []
    watcher.close()
    ctx.close()


# The fresh review's worst problems 3, 5, 6 and 10 (docs/table-review.md, "Worst problems"), read
# on the host's first Day turn of seed 1's 2-player deal: behind her screen a Junior Orc, a
# Junior Brute (its spawn ability costs 1 gold; she has none), two Junior Imps (the engine
# offers one of the twins) and a Junior Goblin.

#: A faded tile's few words on the tile (the renderer's notChosenWhy / cannotPlay).
WHY_WORDS = re.compile(r"(?:\d+ gold short|\d+ tiles? short|no free cell|no cell fits|play the other [A-Z][A-Za-z ]+|not a choice)")

# Each faded tile behind the host's screen and the words on it: shown, unfaded, whole, inside it.
FADED_JS = """() => [...document.querySelectorAll('#ec-my-screen .ec-supply > .ec-tile.no-choice')].map((t) => {
  const w = t.querySelector(':scope > .ec-why');
  const r = t.getBoundingClientRect(), q = w ? w.getBoundingClientRect() : null;
  let opacity = 1;
  for (let e = w; e && e !== document.body; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
  return {name: t.querySelector('.ec-name').textContent, label: t.getAttribute('aria-label'),
          words: w ? w.textContent : null, px: w ? parseFloat(getComputedStyle(w).fontSize) : 0,
          shown: !!q && q.width > 0 && getComputedStyle(w).visibility !== 'hidden', opacity,
          inside: !!q && q.left >= r.left - 0.5 && q.right <= r.right + 0.5 && q.top >= r.top - 0.5 && q.bottom <= r.bottom + 0.5,
          cut: !!w && w.scrollWidth > w.clientWidth + 1};
})"""

# Each fear track's scale (the number in each cell, null where none) and the tracks' key.
SCALE_JS = """() => {
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const inside = (a, b) => b.left >= a.left - .5 && b.right <= a.right + .5 && b.top >= a.top - .5 && b.bottom <= a.bottom + .5;
  const tracks = [...document.querySelectorAll('#board .ec-track')].map((t) => {
    const cells = [...t.querySelectorAll('.ec-steps > span')];
    return {marker: cells.findIndex((c) => c.classList.contains('marker')), nums: cells.map((c) => {
      const d = c.querySelector('.ec-dist');
      return d && {n: Number(d.textContent), px: px(d),
                   inside: inside(c.getBoundingClientRect(), d.getBoundingClientRect())};
    })};
  });
  const key = document.querySelector('#board .ec-trackkey');
  const r = key.getBoundingClientRect();
  const shown = [...key.querySelectorAll('b, span')].filter((e) => e.getClientRects().length);
  return {tracks, key: key.innerText.replace(/\\s+/g, ' '), box: [r.top, r.bottom, r.left, r.right],
          px: Math.min(...shown.map(px))};
}"""

# The phone's row behind the host's screen: its cues at either end ("2 more ›") and every tile
# (or the discard pile) that shows only in part, neither whole nor under a cue.
ROW_CUT_JS = """() => {
  const row = document.querySelector('#ec-my-screen .ec-supply');
  const b = row.getBoundingClientRect();
  const cue = (side) => {
    const c = document.querySelector(`#ec-my-screen > .ec-more.${side}`);
    if (!c || c.hidden) return null;
    const r = c.getBoundingClientRect();
    return {left: r.left, right: r.right, text: c.innerText.replace(/\\s+/g, ' ').trim()};
  };
  const L = cue('left'), R = cue('right');
  const lo = Math.max(b.left, L ? L.right : -1e9), hi = Math.min(b.right, R ? R.left : 1e9);
  const cut = [];
  for (const t of row.querySelectorAll(':scope > .ec-tile, :scope > .ec-discard')) {
    const r = t.getBoundingClientRect();
    if (Math.min(r.right, hi) - Math.max(r.left, lo) > 0.5 && (r.left < lo - 0.5 || r.right > hi + 0.5)) {
      cut.push([t.getAttribute('aria-label'), Math.round(r.left), Math.round(r.right), Math.round(lo), Math.round(hi)]);
    }
  }
  return {scrolls: row.scrollWidth > row.clientWidth + 1, left: L, right: R, cut, at: row.scrollLeft,
          end: row.scrollWidth - row.clientWidth};
}"""

#: The least size of an ability symbol on an applicant's tile and on a chip to hire (CSS px of
#: its 32-unit drawing, which its symbol fills to ~90 %: ~14 px drawn).
ABILITY_PX = 16


def ability_sizes(page, where: str) -> list[float]:
    """The drawn size (the smaller side) of every ability symbol on the tiles at ``where``."""
    return page.locator(f"{where} .ec-tile .ec-abil .ic").evaluate_all(
        "ics => ics.map((i) => { const r = i.getBoundingClientRect(); return Math.min(r.width, r.height); })"
        ".filter((x) => x > 0)")


def abilities_outside(page, where: str) -> list[str]:
    """The tiles at ``where`` whose row of ability symbols reaches past the tile's sides."""
    return page.locator(f"{where} .ec-tile .ec-abil").evaluate_all(
        """rows => rows.filter((a) => { const r = a.getBoundingClientRect(), t = a.closest('.ec-tile').getBoundingClientRect();
             return r.width > 0 && (r.left < t.left - 0.5 || r.right > t.right + 0.5); })
           .map((a) => a.closest('.ec-tile').getAttribute('aria-label'))""")


def check_scale_and_key(page, floor: float, phone: bool) -> None:
    """Every fear track numbers its cells from the centre (each cell but the centre and the
    marker's), at the text floor, inside the cell; the tracks' key names each symbol, on screen
    with the tracks: on a desktop with its title and the scale, on a phone on one line (the
    boards stay on its first screen; the scale's words are in the "? Key")."""
    got = page.evaluate(SCALE_JS)
    for t in got["tracks"]:
        L = (len(t["nums"]) - 1) // 2
        want = [None if i in (L, t["marker"]) else abs(i - L) for i in range(len(t["nums"]))]
        assert [x and x["n"] for x in t["nums"]] == want, t
        assert all(x["px"] >= floor - 0.05 and x["inside"] for x in t["nums"] if x), t
    for words in ("conquest", "2 magic coins", "victory token") + (() if phone else ("Fear track:", "cells from the centre")):
        assert words in got["key"], got["key"]
    assert got["px"] >= floor - 0.05, got
    assert not phone or got["box"][1] - got["box"][0] <= 26, ("the key takes more than a line", got)
    where = settled(page)
    assert on_screen([got["box"]] + where["tracks"][:1], where), ("the key is not on screen with a track", got, where)


@pytest.mark.parametrize("size", ["1366x768", "375x812"])
def test_faded_tiles_say_why_and_tracks_have_a_scale(browser, server, size):
    """The fresh review's worst problems 3, 5, 6 and 10 on the host's first Day turn:
    - a faded tile behind her screen says why on the tile, in a few words at the text floor
      (14 px on a desktop, 13 on a phone), unfaded and whole inside it: the Junior Brute "1 gold
      short", the second Junior Imp "play the other Junior Imp" (the reason was a hover away;
      "use its twin" said not which);
    - every fear track numbers its cells from the centre, and the tracks' key is on screen with
      them (it was shown at 1920 px only);
    - on the phone, the row of tiles behind her screen (it scrolls sideways) shows no tile cut
      at its edge: a cue, "› 2 more", lies over what is not wholly in view, and a tap on it
      scrolls the row (the fourth tile's "Ju…" read as a clipped word);
    - the ability symbols on the applicants' tiles are drawn at ~14 px (they were 9 to 10).
    Screenshots: evil_corp_table/first-turn-<size>.png."""
    ctx, page, _ = new_match(browser, server, 2, {}, size, seed=SEED_2P)
    phone = size == "375x812"
    floor = 13 if phone else 14
    assert wait_my_turn(page) and day_turn(page)
    page.wait_for_selector("#ec-my-screen .ec-tile.no-choice")
    got = settled(page)
    assert got["strip"] and strip_whole(got), (size, got)  # (the phone's strip was half hidden)
    faded = page.evaluate(FADED_JS)
    assert {(t["name"], t["words"]) for t in faded} == {("Junior Brute", "1 gold short"),
                                                        ("Junior Imp", "play the other Junior Imp")}, faded
    for t in faded:
        assert WHY_WORDS.fullmatch(t["words"]) and t["shown"] and t["opacity"] == 1, t
        assert t["px"] >= floor and t["inside"] and not t["cut"], t
    check_scale_and_key(page, floor, phone)
    assert min(ability_sizes(page, "#ec-personnel")) >= ABILITY_PX - 0.05, ability_sizes(page, "#ec-personnel")
    for where in ("#ec-personnel", "#ec-my-screen"):
        assert not abilities_outside(page, where), (where, abilities_outside(page, where))
    save(page, f"first-turn-{size}")
    if phone:
        got = page.evaluate(ROW_CUT_JS)
        assert got["scrolls"] and got["right"] and not got["left"] and not got["cut"], got
        assert re.fullmatch(r"› \d more", got["right"]["text"]), got
        page.locator("#ec-my-screen > .ec-more.right").tap()
        page.wait_for_function(f"({ROW_CUT_JS})().at > 0")
        page.wait_for_timeout(300)  # (the snap settles)
        got = page.evaluate(ROW_CUT_JS)
        assert got["left"] and re.fullmatch(r"‹ \d more", got["left"]["text"]) and not got["cut"], got
        save(page, "first-turn-scrolled-375x812")
        page.evaluate("document.querySelector('#ec-my-screen .ec-supply').scrollLeft = 1e6")
        page.wait_for_function(f"!({ROW_CUT_JS})().right")
        got = page.evaluate(ROW_CUT_JS)
        assert got["left"] and not got["cut"], got
    check_text_sizes(page, "phone" if phone else "desktop", f"first turn at {size}")
    assert page.js_errors == []
    ctx.close()
