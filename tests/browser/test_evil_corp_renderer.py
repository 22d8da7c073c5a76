"""Browser test of static/games/evil_corp/renderer.js (notes/renderer-contract.md).

The renderer is loaded in Chromium with a stand-in for the generic client's ``table`` object; seat
0 plays whole 2- and 4-player matches through real clicks on ``[data-pick]`` / ``[data-action]``
elements (actions the renderer leaves to the prompt bar are taken from the unclaimed list, the
way the prompt bar offers them); greedy bots fill the other seats. Checks: no JavaScript error,
every clicked element sends exactly one legal action, every claimed action is reachable on the
board, the match ends. Screenshots go to $LAIR_SHOTS (default /tmp/client-shots).
"""
from __future__ import annotations

import functools
import http.server
import json
import random
import re
import threading

import pytest

from engines.base import Rng
from engines.evil_corp import ENGINE
from engines.evil_corp.bots import greedy
from tests.chromium import ROOT, SHOTS, open_card, screenshot

pytestmark = pytest.mark.e2e

STATIC = ROOT / "static"

PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:sans-serif;background:#f4f1ea">
<div id="board"></div>
<script type="module">
import * as R from "/games/evil_corp/renderer.js";
const COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
let view = null;
window.__acts = []; window.__claimed = new Set();
const canon = (a) => JSON.stringify(Object.keys(a).sort().reduce((o, k) => (o[k] = a[k], o), {}));
const table = {
  act(a) { window.__acts.push(a); },
  actions() { return view.legal_actions; },
  label(a) { const i = view.legal_actions.findIndex(x => canon(x) === canon(a));
             return view.labels[i] || "?"; },
  find(p) { return view.legal_actions.filter(p); },
  seatColor(s) { return COLORS[s]; },
  seatName(s) { return "Player " + (s + 1); },
  claim(a) { window.__claimed.add(canon(a)); },
  showInPromptBar() {},
};
R.mount(document.getElementById("board"), table);
window.__update = (v) => { view = v; window.__claimed = new Set(); R.update(v); };
window.__claimedList = () => [...window.__claimed];
window.__prompt = () => R.promptText(view);
window.__labels = () => view.labels.map((t) => R.labelText(t, view));
window.__ready = true;
</script></body></html>"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/":
            body = PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


@pytest.fixture(scope="module")
def page_url():
    srv = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(STATIC)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/"
    srv.shutdown()


def _key(a: dict) -> str:
    return json.dumps(a, sort_keys=True)


@pytest.mark.parametrize("players", [2, 4])
def test_full_match_through_clicks(players, page_url, browser):
    """Renderer contract: a whole match is playable by clicking the board and the prompt bar."""
    rng, pick = Rng(5), random.Random(players)
    clicks = 0
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_url)
    page.wait_for_function("window.__ready === true")
    s = ENGINE.setup(players, {}, 3)
    shot = False
    for _ in range(3000):
        if ENGINE.result(s):
            break
        movers = sorted(ENGINE.prompts(s))
        seat = 0 if 0 in movers else movers[0]
        legal = ENGINE.legal_actions(s, seat)
        if seat != 0:
            s, _ = ENGINE.apply(s, seat, greedy(ENGINE, s, seat, rng))
            continue
        v = ENGINE.view(s, 0)
        v["labels"] = [ENGINE.describe(s, a) for a in legal]
        page.evaluate("v => window.__update(v)", v)
        assert not errors, errors
        claimed = {_key(json.loads(c)) for c in page.evaluate("window.__claimedList()")}
        on_board = {_key(json.loads(e.get_attribute("data-action")))
                    for e in page.query_selector_all("[data-action]")}
        assert on_board <= {_key(a) for a in legal}
        picks = page.query_selector_all("[data-pick]")
        for a in legal:   # claimed = drawn on the board (plays: via a picked tile)
            if _key(a) in claimed:
                assert _key(a) in on_board or (a["type"] == "play" and picks), a
        if not shot and s["round"] >= 2:
            screenshot(page, SHOTS / f"evil_corp-{players}p.png")
            shot = True
        unclaimed = [a for a in legal if _key(a) not in claimed]
        targets = page.query_selector_all("[data-action]")
        if unclaimed and (not (targets or picks) or pick.random() < 0.15):
            action = pick.choice(unclaimed)        # a prompt-bar button
        else:
            page.evaluate("window.__acts = []")
            options = [("a", t) for t in targets] + [("p", t) for t in picks]
            kind, element = pick.choice(options)
            element.click()
            if kind == "p":
                cells = [c for c in page.query_selector_all("[data-action]")
                         if json.loads(c.get_attribute("data-action"))["type"] == "play"]
                assert cells, "a picked tile highlights no cell"
                pick.choice(cells).click()
            acts = page.evaluate("window.__acts")
            assert len(acts) == 1, acts
            action = acts[0]
            clicks += 1
        assert action in legal
        s, _ = ENGINE.apply(s, 0, action)
    assert ENGINE.result(s) is not None
    final = ENGINE.view(s, 0)
    final["labels"] = []
    page.evaluate("v => window.__update(v)", final)
    assert not errors, errors
    # the strip says the round alone: the table's Final result says how it ended
    # (resultReason; tests/browser/test_full_match.py, the bot match)
    board = page.inner_text("#board")
    assert f"Round {s['round']}" in board and "Game over" not in board, board[:200]
    screenshot(page, SHOTS / f"evil_corp-{players}p-end.png")
    page.close()
    assert clicks > 5


def test_a_tile_that_is_no_choice_says_why(page_url, browser):
    """Table review item 2: of two identical tiles behind the screen the engine offers one (the
    lowest id: engines/evil_corp/effects.py ``_dedupe``), and a Junior Brute needs 1 gold to be
    put into play (its spawn ability pays it). The offered tiles are pickable (dashed); the
    others are drawn faded, without the dashed outline, and a click on one sends nothing, picks
    nothing and opens its card, which says why. Seed 1 deals seat 0, first to play, a Junior
    Orc, a Junior Brute, two Junior Imps (the second of them offered) and a Junior Goblin.
    Screenshot: $LAIR_SHOTS/evil_corp-no-choice.png."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_url)
    page.wait_for_function("window.__ready === true")
    s = ENGINE.setup(2, {}, 1)
    legal = ENGINE.legal_actions(s, 0)
    v = ENGINE.view(s, 0)
    v["labels"] = [ENGINE.describe(s, a) for a in legal]
    page.evaluate("v => window.__update(v)", v)
    tiles = page.locator("#ec-my-screen .ec-supply > .ec-tile")
    got = tiles.evaluate_all("""ts => ts.map(t => ({name: t.querySelector('.ec-name').textContent,
        pick: t.hasAttribute('data-pick'), faded: t.classList.contains('no-choice'),
        label: t.getAttribute('aria-label'), outline: getComputedStyle(t).outlineStyle}))""")
    assert [t["name"] for t in got] == ["Junior Orc", "Junior Brute", "Junior Imp", "Junior Goblin", "Junior Imp"]
    assert [t["pick"] for t in got] == [True, False, False, True, True], got
    assert all(t["pick"] != t["faded"] for t in got), got     # a choice, or faded: never both
    assert all(t["outline"] == "none" for t in got if t["faded"]), got
    assert "Same monster as the highlighted Junior Imp" in got[2]["label"], got[2]
    assert "costs 1 gold" in got[1]["label"] and "your side has 0" in got[1]["label"], got[1]
    page.evaluate("window.__acts = []")
    tiles.nth(2).click()
    card = page.locator(".card-pop")
    card.wait_for()
    assert "Same monster as the highlighted Junior Imp" in card.inner_text()
    screenshot(page, SHOTS / "evil_corp-no-choice.png")
    assert page.evaluate("window.__acts") == [] and page.locator(".picked").count() == 0
    tiles.nth(4).click()  # the offered twin picks as ever: its cells light up
    assert page.locator("#ec-my-screen .picked").count() == 1
    assert page.locator("#ec-boards .legal").count() > 0
    assert not errors, errors
    page.close()


ICONS_JS = r"""() => {
  const shown = (e) => !!e && e.getBoundingClientRect().width > 0 && getComputedStyle(e).display !== "none";
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const named = (e) => ({role: e.getAttribute("role"), label: e.getAttribute("aria-label") || ""});
  const cargo = [...document.querySelectorAll(".ec-bhead [aria-label^='Port cargo']")].map((c) => {
    const w = c.querySelector(".ec-cargo-word");
    const colours = [...c.querySelectorAll(".ec-cargo-for")].filter(shown).map((e) => e.textContent);
    return {...named(c), word: w ? w.textContent : null, shown: shown(w), px: w ? px(w) : 0, colours};
  });
  const key = document.querySelector("#ec-boards > .ec-trackkey");
  return {
    steps: [...document.querySelectorAll(".ec-steps > span")].filter((s) => s.querySelector(".ic")).map(named),
    cells: [...document.querySelectorAll(".ec-cell")].map(named),
    keeps: [...document.querySelectorAll(".ec-bhead .keep")].map((e) => ({...named(e),
      word: shown(e.querySelector(".ec-keep-word")) ? e.querySelector(".ec-keep-word").textContent : null})),
    conquest: [...document.querySelectorAll(".ec-conq")].map((c) => ({...named(c),
      word: shown(c.querySelector(".ec-conq-word")) ? px(c.querySelector(".ec-conq-word")) : 0})),
    cargo, trackKey: shown(key) ? key.innerText : null, trackKeyPx: shown(key) ? px(key) : 0,
    magic: [...document.querySelectorAll(".ec-strip .ec-stat")].map((e) => e.innerText.replace(/\s+/g, " ").trim()).filter((t) => /magic|left/i.test(t)),
    levels: [...document.querySelectorAll(".ec-demon")].map((d) => [d.querySelector(".lv-cap").innerText,
      ...[...d.querySelectorAll(".lv")].map((l) => {
      const words = [...l.childNodes].filter((n) => n.nodeType === 3 || !n.matches("svg")).map((n) => n.textContent).join("").trim();
      const w = l.querySelector(".lv-word");
      return {words, px: w && shown(w) ? px(w) : 0};
    })]),
  };
}"""

ICON_SIZES = {
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "1920x1080": {"viewport": {"width": 1920, "height": 1080}},
    "375x812": {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True},
}


@pytest.mark.parametrize("size", list(ICON_SIZES))
def test_board_icons_have_words_names_and_cards(page_url, browser, size):
    """Review item 4 on the settlement boards: every picture that means something — a cell, the
    fortress's keep cost, the port cargo, the conquest track, each symbol and the marker on the
    fear track — has an accessible name and shows its words as a card on hover (a mouse) or a
    long press (touch); where the board has room the words are on it too: "cargo" beside the
    port cargo at 1366×768 (14 px), and at every size the fear track's symbols in words in the
    key above the boards.
    Screenshot: $LAIR_SHOTS/evil_corp-icons-<size>.png."""
    ctx = browser.new_context(**ICON_SIZES[size])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_url)
    page.wait_for_function("window.__ready === true")
    if size == "1366x768":  # the real table's board column there (seats left, log right)
        page.add_style_tag(content="#board { width: 730px; }")
    s, rng = ENGINE.setup(4, {}, 2), Rng(4)
    for _ in range(10):  # a few moves: monsters on the boards
        seat = sorted(ENGINE.prompts(s))[0]
        s, _ = ENGINE.apply(s, seat, greedy(ENGINE, s, seat, rng))
    seat = sorted(ENGINE.prompts(s))[0]
    v = ENGINE.view(s, seat)
    v["labels"] = [ENGINE.describe(s, a) for a in v["legal_actions"]]
    page.evaluate("v => window.__update(v)", v)
    got = page.evaluate(ICONS_JS)
    phone = size == "375x812"
    floor = 13 if phone else 14
    assert len(got["steps"]) >= 3 * 10, got["steps"]
    for st in got["steps"]:
        assert st["role"] == "img" and re.match(r"(Fear marker|Conquest symbol|Magic coin symbol|Victory token symbol)",
                                                st["label"]), st
    assert {st["label"].split(" (")[0].split(":")[0] for st in got["steps"]} == {
        "Fear marker", "Conquest symbol", "Magic coin symbol", "Victory token symbol"}
    assert got["cells"] and all(c["role"] in ("img", "group", "button") and c["label"] for c in got["cells"]), got["cells"]
    assert any(c["role"] == "group" for c in got["cells"]), "no monster on a board"
    # the fortress's keep cost in the board's head, in words ("keep": it was a bare coin on the cell)
    assert len(got["keeps"]) == 3 and all(k["role"] == "img" and k["label"].startswith("Keep cost: ")
                                          and k["word"] == "keep" for k in got["keeps"]), got["keeps"]
    assert all(c["label"].startswith("Conquest track") and c["word"] >= floor for c in got["conquest"]), got["conquest"]
    assert len(got["cargo"]) == 3 and all(c["label"] and c["word"] == "cargo" for c in got["cargo"]), got["cargo"]
    # the word at every size (table review 7: the phone's heads showed pictures alone); the
    # squares' colours in words where the board is wide (1366×768: not with two boards a row
    # at 1920×1080, nor on a phone, whose head keeps to two lines)
    assert all(c["shown"] for c in got["cargo"]), got["cargo"]
    assert all(c["colours"] == (["yellow", "red/blue"] if size == "1366x768" else []) for c in got["cargo"]), got["cargo"]
    assert all(c["px"] >= floor for c in got["cargo"] if c["shown"]), got["cargo"]
    # the fear tracks' key above the boards at every size (the fresh review: at 1920 px only)
    assert got["trackKey"] and all(w in got["trackKey"] for w in ("conquest", "2 magic coins", "victory token")), got
    assert got["trackKeyPx"] >= floor, got
    # no row of pictures alone (issue 14, item 1): the supply's magic coins and each demon's
    # levels say what they are in words beside their pictures, at the text floor
    assert len(got["magic"]) == 1 and re.fullmatch(r"Magic coins left: \d+", got["magic"][0]), got["magic"]
    assert len(got["levels"]) == 3, got["levels"]
    for cap, *rows in got["levels"]:
        assert cap == "By summoning strength:", cap
        assert [re.match(r"Level (\d): \d\+", r["words"]) and int(r["words"][6]) for r in rows] == [1, 2, 3], rows
        assert all(r["px"] >= floor for r in rows), rows
    screenshot(page, SHOTS / f"evil_corp-icons-{size}.png", full_page=False)
    # each kind of picture shows its card: hover (a mouse) or a long press (touch)
    card = page.locator(".card-pop")
    for sel, words in ((".ec-steps > span[aria-label^='Conquest symbol']", "move your conquest token"),
                       (".ec-steps > span[aria-label^='Magic coin symbol']", "receive 2 magic coins"),
                       (".ec-steps > span.marker", "Fear marker"),
                       (".ec-bhead .keep", "Keep cost"),
                       (".ec-bhead [aria-label^='Port cargo']", "Port cargo"),
                       (".ec-cell[role='img']", "cell"),
                       (".ec-conq", "Conquest track")):
        text = open_card(page, page.locator(sel).first, phone)
        assert words.lower() in text.lower(), (sel, text)
        if phone:  # a tap elsewhere closes it
            page.evaluate("document.dispatchEvent(new TouchEvent('touchstart', {bubbles: true}))")
            card.wait_for(state="detached", timeout=3000)
    if not phone:  # from a symbol onto a plain step of its track: the track's card again
        track = page.locator(".ec-track").first
        track.locator(".ec-steps > span[aria-label^='Conquest symbol']").first.hover()
        card.wait_for(timeout=3000)
        assert "Conquest symbol" in card.inner_text()
        track.locator(".ec-steps > span:not([role])").first.hover()
        page.wait_for_function("(document.querySelector('.card-pop') || {}).innerText?.startsWith('Fear track')",
                               timeout=3000)
    assert not errors, errors
    ctx.close()


def named_view(s, seat: int) -> dict:
    """The engine's view of ``s`` for ``seat`` with names where the stored texts hold codes
    (log lines, action labels), as the site's views have them (app/matches/views.py)."""
    from app.matches.views import game_namer
    name = game_namer(ENGINE)
    v = ENGINE.view(s, seat)
    v["labels"] = [name(ENGINE.describe(s, a)) for a in v["legal_actions"]]
    v["log"] = [dict(e, text=name(e["text"])) if isinstance(e, dict) else name(e) for e in v["log"]]
    return v


def harness(browser, page_url, size=None):
    page = browser.new_page(viewport=size or {"width": 1366, "height": 768})
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(page_url)
    page.wait_for_function("window.__ready === true")
    return page


def into_supply(s, seat: int, type_id: str) -> int:
    """Test only: the tile of monster ``type_id`` out of the Evil Corp. bag (or the applicant
    queue) and behind ``seat``'s screen; its tile id."""
    from engines.evil_corp import data
    tile = next(i for i, t in enumerate(data.TILES) if t["id"] == type_id)
    s["corp_bag"] = [t for t in s["corp_bag"] if t != tile]
    s["queue"] = [None if t == tile else t for t in s["queue"]]
    s["seats"][seat]["supply"].append(tile)
    return tile


def test_choose_an_opponent_says_what_for(page_url, browser):
    """New-user trial: after the Rampaging Minotaur's spawn ability the prompt said only "Choose
    an opponent" (the engine's words for every such choice). The renderer words it from the
    view: the monster whose ability asks (the newest log line that put it into play or activated
    it) and the ability in the rulebook's words, and where to click; a click on a highlighted
    name chooses. Seed 1's 3-player deal: seat 2 plays first; the Minotaur is put behind its
    screen, then into play (a raid cell). The same for an activated ability: the Bully Ogre's."""
    page = harness(browser, page_url)
    s = ENGINE.setup(3, {}, 1)
    seat = sorted(ENGINE.prompts(s))[0]
    tile = into_supply(s, seat, "R10")
    play = next(a for a in ENGINE.legal_actions(s, seat) if a["type"] == "play" and a["tile"] == tile)
    s, _ = ENGINE.apply(s, seat, play)
    assert ENGINE.prompts(s)[seat]["text"] == "Choose an opponent"
    page.evaluate("v => window.__update(v)", named_view(s, seat))
    assert page.evaluate("window.__prompt()") == (
        "Rampaging Minotaur's spawn ability: choose an opponent; he must draw 1 monster tile from "
        "his bag and place it behind his screen. Click a highlighted name.")
    names = page.locator(".ec-strip [data-action]")
    assert names.count() == 2
    screenshot(page, SHOTS / "evil_corp-choose-opponent.png", full_page=False)
    names.first.click()
    assert page.evaluate("window.__acts") == [{"type": "opponent", "seat": json.loads(names.first.get_attribute("data-action"))["seat"]}]
    # a phone's prompt bar keeps to two lines: the same in fewer words
    page.set_viewport_size({"width": 375, "height": 812})
    assert page.evaluate("window.__prompt()") == (
        "Rampaging Minotaur: click the opponent who must draw 1 monster tile.")
    page.set_viewport_size({"width": 1366, "height": 768})
    # an activated ability: the Bully Ogre put into play, then activated on the seat's next turn
    s = ENGINE.setup(3, {}, 1)
    ogre = into_supply(s, seat, "R02")
    play = next(a for a in ENGINE.legal_actions(s, seat) if a["type"] == "play" and a["tile"] == ogre)
    s, _ = ENGINE.apply(s, seat, play)
    for _ in range(20):
        who = sorted(ENGINE.prompts(s))[0]
        acts = ENGINE.legal_actions(s, who)
        if who == seat and any(a["type"] == "activate" for a in acts):
            break
        s, _ = ENGINE.apply(s, who, next((a for a in acts if a["type"] == "pass"), acts[0]))
    s, _ = ENGINE.apply(s, seat, next(a for a in ENGINE.legal_actions(s, seat) if a["type"] == "activate"))
    assert ENGINE.prompts(s)[seat]["kind"] == "choose_opponent"
    page.evaluate("v => window.__update(v)", named_view(s, seat))
    assert page.evaluate("window.__prompt()") == (
        "Bully Ogre's activated ability: choose an opponent; he must discard 1 monster tile from his "
        "supply (his choice). Click a highlighted name.")
    assert page.js_errors == []
    page.close()


def test_night_keep_says_how_it_is_paid(page_url, browser):
    """New-user trial: the Night's keep button said "Keep … for 2 gold" to a side with no gold
    left, which pays with magic coins (engines/evil_corp/state.py ``pay``: gold first, then magic
    coins; the rulebook: magic coins "are used in the same way as gold coins"), and the prompt
    said "(pay or free)" with no free keep offered. The button and the prompt now say what is
    offered and what pays: seed 2's 2-player match, greedy moves, comes to seat 0's keep with 0
    gold and 2 magic coins."""
    page = harness(browser, page_url)
    s, rng = ENGINE.setup(2, {}, 2), Rng(2)
    for _ in range(300):
        seat = sorted(ENGINE.prompts(s))[0]
        if seat == 0 and ENGINE.prompts(s)[0]["kind"] == "keep":
            break
        s, _ = ENGINE.apply(s, seat, greedy(ENGINE, s, seat, rng))
    assert ENGINE.prompts(s)[0]["text"] == "Night: keep your fortress monster (pay or free) or discard it"
    side = s["sides"][0]
    assert (side["gold"], side["magic"]) == (0, 2)

    def words(gold: int, magic: int, free: int = 0) -> tuple[str, list[str]]:
        side["gold"], side["magic"] = gold, magic
        s["stack"][-1]["free"][0] = free
        page.evaluate("v => window.__update(v)", named_view(s, 0))
        return page.evaluate("window.__prompt()"), page.evaluate("window.__labels()")

    prompt, labels = words(0, 2)
    keep = re.fullmatch(r"Keep (.+) in the fortress of board (\d) for 2 magic coins", labels[0])
    assert keep, labels
    name, board = keep.groups()
    assert labels[1] == f"Discard {name} from the fortress of board {board}", labels
    assert prompt == f"Night: keep {name} in the fortress of board {board} for 2 magic coins, or discard it."
    prompt, labels = words(1, 1)
    assert labels[0].endswith("for 1 gold and 1 magic coin") and "1 gold and 1 magic coin, or" in prompt, (prompt, labels)
    prompt, labels = words(2, 0)
    assert labels[0].endswith(" for 2 gold") and prompt.endswith("for 2 gold, or discard it."), (prompt, labels)
    prompt, labels = words(3, 2, free=1)
    assert labels[:2] == [f"Keep {name} in the fortress of board {board} for free",
                          f"Keep {name} in the fortress of board {board} for 2 gold"], labels
    assert prompt == f"Night: keep {name} in the fortress of board {board} for free or for 2 gold, or discard it."
    assert page.js_errors == []
    page.close()


def test_a_click_closes_the_card_until_a_new_hover(page_url, browser):
    """New-user trial: a card opened by the mouse resting on a tile stayed open after a click on
    it: the click redraws the board (here a pick), and the browser "enters" the new tile under
    the resting mouse. The card now closes on the click and stays closed until the mouse moves
    onto a piece again. Seed 1 deals seat 0 tiles to pick behind its screen."""
    page = harness(browser, page_url)
    page.evaluate("v => window.__update(v)", named_view(ENGINE.setup(2, {}, 1), 0))
    tile = page.locator("#ec-my-screen [data-pick]").first
    card = page.locator(".card-pop")
    page.mouse.move(0, 0)
    tile.hover()
    card.wait_for(timeout=3000)
    assert "Junior" in card.inner_text()
    tile.click()  # a pick: the screen is drawn again, the mouse rests on the new tile
    page.wait_for_selector("#ec-my-screen .picked")
    page.wait_for_timeout(800)
    assert card.count() == 0, card.inner_text()
    box = page.locator("#ec-my-screen .picked").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2 + 1, box["y"] + box["height"] / 2 + 1)  # a small move on it: no new hover
    page.wait_for_timeout(300)
    assert card.count() == 0
    page.mouse.move(0, 0)  # off the tile and back: a new hover opens its card
    page.locator("#ec-my-screen .picked").hover()
    card.wait_for(timeout=3000)
    assert page.js_errors == []
    page.close()


@pytest.mark.parametrize("size", ["1366x768", "375x812"])
def test_tile_marks_and_cargo_squares_say_what_they_are(page_url, browser, size):
    """New-user trial: the small marks on Evil Corp.'s boards were unexplained: a tile's corner
    numbers and ability badges, the port cargo's coloured squares. With the mouse, each mark on
    a tile shows its own card (fear strength, hire cost or starting monster, the ability with its
    background's meaning); a long-press on a phone still opens the whole tile's card. Each
    cargo cell (its squares and coins) says which monsters take its coins, by mouse and by
    long-press; the key lists the hatched inactive side and the number beside a symbol.
    Screenshots: $LAIR_SHOTS/evil_corp-marks-<size>.png (desktop), evil_corp-cargo-<size>.png."""
    phone = size == "375x812"
    ctx = browser.new_context(**ICON_SIZES[size])
    page = ctx.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(page_url)
    page.wait_for_function("window.__ready === true")
    s, rng = ENGINE.setup(4, {}, 2), Rng(4)
    for _ in range(10):  # a few moves: monsters on the boards
        seat = sorted(ENGINE.prompts(s))[0]
        s, _ = ENGINE.apply(s, seat, greedy(ENGINE, s, seat, rng))
    seat = sorted(ENGINE.prompts(s))[0]
    page.evaluate("v => window.__update(v)", named_view(s, seat))
    tile = page.locator(".ec-cell .ec-tile:has(.k-spawn)").first
    name = tile.get_attribute("aria-label").split(",")[0]
    marks = ((tile.locator(".ec-tl"), r"Fear strength \d"),
             (tile.locator(".ec-tr"), r"Hire cost \d gold|Starting monster"),
             (tile.locator(".ec-abil > .k-spawn"), r"Spawn ability \(grey background\)"))
    for node, words in marks:
        text = open_card(page, node, phone)
        if phone:  # a long-press on a mark opens the tile's whole card
            assert text.startswith(name) or name in text.split("\n")[0], (name, text)
            page.evaluate("document.dispatchEvent(new TouchEvent('touchstart', {bubbles: true}))")
            page.locator(".card-pop").wait_for(state="detached", timeout=3000)
        else:
            assert re.search(words, text), (words, text)
            if words.startswith("Fear"):
                screenshot(page, SHOTS / f"evil_corp-marks-{size}.png", full_page=False)
    cargo = page.locator(".ec-bhead .ec-cargo-cell")
    assert cargo.count() == 6
    for i, words in ((0, r"Yellow port cargo: \d gold coins?\nTaken by the next yellow monster"),
                     (1, r"Red/blue port cargo: \d gold coins?\nTaken by the next red or blue monster")):
        text = open_card(page, cargo.nth(i), phone)
        assert re.search(words, text), text
        if i == 0:
            screenshot(page, SHOTS / f"evil_corp-cargo-{size}.png", full_page=False)
        if phone:
            page.evaluate("document.dispatchEvent(new TouchEvent('touchstart', {bubbles: true}))")
            page.locator(".card-pop").wait_for(state="detached", timeout=3000)
    key = page.locator(".ec-strip .legend-key")
    key.locator("summary").click()
    rows = key.locator(".legend-row").all_inner_texts()
    assert any("Inactive side (a hatched tile) \u2014 a monster turned inactive side up" in r for r in rows), rows
    assert any("Number beside an ability symbol \u2014 a multiplier" in r for r in rows), rows
    assert page.js_errors == []
    ctx.close()


#: The cues over the rows that scroll sideways (moreCue) that show, each with its box, its
#: words' box and whether it lies on another cue or on the key line below your screen.
CUES_JS = r"""() => {
  const box = (n) => n.getBoundingClientRect();
  const cues = [...document.querySelectorAll(".ec-more:not([hidden])")];
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const key = document.querySelector(".ec-trackkey");
  return cues.map((c, i) => {
    const r = box(c), words = box(c.querySelector(".ec-more-n"));
    return {text: c.innerText.replace(/\s+/g, " ").trim(), r: [r.left, r.top, r.right, r.bottom],
            whole: words.left >= r.left - 0.5 && words.right <= r.right + 0.5 && words.bottom <= r.bottom + 0.5
              && words.top >= r.top - 0.5 && c.querySelector(".ec-more-n").getClientRects().length === 1,
            onCue: cues.some((d, j) => j !== i && meet(r, box(d))), onKey: !!key && meet(r, box(key))};
  });
}"""


def test_phone_cues_whole_and_one_highlight_while_picked(page_url, browser):
    """Review 9 on a phone (375×812, touch), a Day turn with five applicants to hire and a
    screen row wider than the window: the applicants' "› 4 more" cue lay on the tile row's "› 2
    more" (the first cut to "1 m" where it was narrow), and a cue reached over the key line
    below; every cue is now whole (its words on one line inside it) and on nothing else. The
    Key says how a touch screen opens a tile's words (it said "Hover a tile"). A tile tapped:
    the prompt asks for a cell, and the applicants (still a tap away) wear no amber frame
    meanwhile (review 9, worst problem 8: two gold things to act on). The page has the site's
    stylesheet, as the table has."""
    ctx = browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    try:
        page.goto(page_url)
        page.wait_for_function("window.__ready === true")
        page.add_style_tag(url="/css/lair.css")
        s = ENGINE.setup(2, {}, 1)
        s["sides"][0]["gold"] = 12  # every applicant affordable: the strip scrolls sideways
        page.evaluate("v => window.__update(v)", named_view(s, 0))
        page.wait_for_function("document.querySelectorAll('.ec-more:not([hidden])').length >= 2")
        page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        cues = page.evaluate(CUES_JS)
        assert len(cues) >= 2 and all(c["whole"] and not c["onCue"] and not c["onKey"] for c in cues), cues
        key = page.locator(".ec-strip").inner_text() + page.locator(".ec-strip").text_content()
        assert "Long-press a tile for its words" in key and "Hover a tile" not in key, key
        amber = "n => getComputedStyle(n).outlineStyle === 'solid' && getComputedStyle(n).outlineWidth === '3px'"
        assert page.locator("#ec-hire .legal").first.evaluate(amber)
        page.locator("#board [data-pick]").first.tap()
        page.wait_for_selector("#board .picked")
        assert page.evaluate("window.__prompt()").startswith("Tap a highlighted cell")
        lit = page.locator("#board .legal").evaluate_all(f"ns => ns.filter({amber}).map(n => n.closest('#ec-boards') ? 'cell' : n.className)")
        assert lit and set(lit) == {"cell"}, lit
        cues = page.evaluate(CUES_JS)
        assert all(c["whole"] and not c["onCue"] and not c["onKey"] for c in cues), cues
        screenshot(page, SHOTS / "evil_corp-phone-cues-picked.png", full_page=False)
        assert page.js_errors == []
    finally:
        ctx.close()
