"""Manual trial (not part of ``make test``): bots and hints played as real players would.

Usage: ``python tests/browser/trial_bots_hints.py http://127.0.0.1:PORT [game ...]`` against a
running ``lair serve``. For each game the host (Ana) creates a 4-player match, a friend (Ben)
joins by the invite link, the host gives seats 3 and 4 to Hard bots from the waiting room and
starts; a spectator (Cleo) watches. Both humans click legal moves for at least one full round,
each asks "Suggest a move" once and plays it; the host hands Ben's seat to a bot and Ben takes
it back. The websocket frames of every context are recorded to check that nobody but the asker
receives a suggestion, and the wall time of every bot turn is printed. Screenshots (1366x768)
go to ``$TRIAL_OUT`` (default /tmp/trial17).
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from playwright.sync_api import Page  # noqa: E402

from engines.base import Rng  # noqa: E402
from tests.browser.test_full_match import click_something, name_yourself  # noqa: E402
from tests.browser.test_hints_table import play_by_clicks  # noqa: E402
from tests.chromium import _wait_for_function  # noqa: E402
from tests.table_clicks import wait_new_view  # noqa: E402

# Playwright's own wait_for_function evaluates source in the page, which the site's CSP refuses.
Page.wait_for_function = _wait_for_function  # type: ignore[method-assign]

OUT = Path(os.environ.get("TRIAL_OUT", "/tmp/trial17"))
SIZE = {"width": 1366, "height": 768}
BODY = ("() => { const d = document.body.dataset;"
        " return [d.yourTurn === 'true' && d.pending !== 'true', d.version, d.finished === 'true']; }")


class Player:
    """A browser context (one person) and its page, recording every frame its sockets get."""

    def __init__(self, browser, name: str) -> None:
        self.name = name
        self.ctx = browser.new_context(viewport=SIZE)
        self.page = self.ctx.new_page()
        self.frames: list[tuple[float, dict]] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        def got(payload) -> None:
            try:
                self.frames.append((time.monotonic(), json.loads(payload)))
            except (TypeError, ValueError):
                pass
        ws.on("framereceived", got)

    def shot(self, name: str) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(OUT / f"{name}.png"))
        print(f"  screenshot {name}.png")


def views(p: Player) -> list[tuple[float, dict]]:
    return [(t, f["view"]) for t, f in p.frames if f.get("type") == "view"]


def last_round(p: Player):
    vs = views(p)
    return vs[-1][1].get("header", {}).get("round") if vs else None


def bot_turns(p: Player) -> list[tuple[int, float, int]]:
    """(bot seat, wall seconds, moves) for each stretch the table waited on a bot alone."""
    seats_bot: dict[int, bool] = {}
    out: list[tuple[int, float, int]] = []
    cur = None  # (seat, start, moves)
    for t, v in views(p):
        for s in v.get("seats", []):
            if "seat" in s:
                seats_bot[s["seat"]] = bool(s.get("bot"))
        waiting = v.get("header", {}).get("waiting_for") or []
        bot = waiting[0] if len(waiting) == 1 and seats_bot.get(waiting[0]) else None
        if cur and (bot != cur[0]):
            out.append((cur[0], t - cur[1], cur[2]))
            cur = None
        if bot is not None:
            cur = (bot, cur[1], cur[2] + 1) if cur else (bot, t, 0)
    return out


def ask_hint(asker: Player, others: list[Player], tag: str) -> None:
    page = asker.page
    page.wait_for_selector("#hint-ask:not([disabled])", state="visible", timeout=20_000)
    before = len(asker.frames)
    t0 = time.monotonic()
    page.click("#hint-ask")
    page.wait_for_function("document.body.dataset.hint !== 'asked'", timeout=30_000)
    took = time.monotonic() - t0
    hints = [f for _, f in asker.frames[before:] if f.get("type") == "hint"]
    state = page.evaluate("document.body.dataset.hint")
    print(f"  {asker.name} hint: {took:.1f}s, state={state}, frame={hints[-1] if hints else None}")
    time.sleep(1.0)  # the highlighted place scrolls into view (smoothly)
    asker.shot(f"{tag}-hint-{asker.name}")
    if state != "shown" or not hints:
        print("  !! no suggestion shown")
        return
    frame = hints[-1]
    text = page.locator("#hint-answer").inner_text()
    hits = page.locator(".hint-hit").count()
    print(f"  answer text: {text!r}; highlighted elements: {hits}")
    time.sleep(1.0)
    for o in others:
        leaked = [f for _, f in o.frames if f.get("type") == "hint" and f.get("ref") == frame["ref"]]
        reason = frame.get("reason") or "\0"
        in_frames = [f for _, f in o.frames if reason in json.dumps(f)]
        dom = o.page.locator(".hint-hit").count(), o.page.locator("#hint-answer:visible").count()
        log = o.page.locator("#log .log-hint").all_inner_texts()
        print(f"  {o.name} sees: hint frames={len(leaked)}, reason in frames={len(in_frames)},"
              f" dom hint-hit/answer={dom}, log={log[-1:] if log else None}")
        o.shot(f"{tag}-after-hint-of-{asker.name}-seen-by-{o.name}")
    # play it by clicking the highlighted places (or "Play it" when none plays it)
    before_v = page.evaluate("document.body.dataset.version")
    try:
        play_by_clicks(page, frame["action"])
        print("  played the suggestion by clicking the highlight")
    except AssertionError as e:
        print(f"  !! {e}; trying 'Play it'")
        page.click("#hint-answer .hint-play")
        wait_new_view(page, before_v)


def hand_over_and_back(ana: Player, ben: Player, cleo: Player, tag: str) -> None:
    """The host hands Ben's seat to a Hard bot from the table's host controls; Ben takes it back."""
    h = ana.page
    h.click("details.host-controls > summary")
    ana.shot(f"{tag}-07-host-controls")
    print("  replace options:", h.locator("form[action$='/replace'] select").first
          .locator("option").all_inner_texts())
    h.select_option("form[action$='/replace'] select", "hard")
    h.click("#replace-1")
    ben.page.wait_for_selector("#reclaim", timeout=15_000)
    time.sleep(3)
    ana.shot(f"{tag}-08-ben-replaced-host-view")
    ben.shot(f"{tag}-08b-ben-replaced-ben-view")
    cleo.shot(f"{tag}-08c-ben-replaced-spectator")
    ben.page.click("#reclaim")
    ben.page.wait_for_selector("#table")
    time.sleep(2)
    ben.shot(f"{tag}-09-ben-reclaimed")


def report(ana: Player, ben: Player, cleo: Player) -> None:
    """Bot turn times (from the spectator's frames) and what each context received."""
    turns = bot_turns(cleo)
    for seat in sorted({s for s, _, _ in turns}):
        ts = [d for s, d, _ in turns if s == seat]
        ms = [m for s, _, m in turns if s == seat]
        print(f"  bot seat {seat + 1}: {len(ts)} turns, wall s: mean {sum(ts) / len(ts):.1f}"
              f" max {max(ts):.1f}; moves per turn max {max(ms) + 1}")
    for p in (ana, ben, cleo):
        leaks = [f for _, f in p.frames if f.get("type") == "hint"]
        print(f"  {p.name}: js errors {p.errors}; hint frames received {len(leaks)}")


def run(base: str, game: str) -> None:
    print(f"== {game}")
    tag = game
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"),
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        ana, ben, cleo = Player(browser, "Ana"), Player(browser, "Ben"), Player(browser, "Cleo")
        h = ana.page
        h.goto(base + "/")
        name_yourself(h, "Ana")
        h.check(f"#game-{game}")
        h.select_option(f"#players-{game}", "4")
        ana.shot(f"{tag}-01-lobby-form")
        h.click("#create")
        h.wait_for_selector("#invite-link")
        invite, watch = h.input_value("#invite-link"), h.input_value("#watch-link")
        ben.page.goto(invite)
        name_yourself(ben.page, "Ben")
        ben.page.click("#take-1")
        h.wait_for_selector("#seats li[data-seat='1'] strong")
        print("  level options:", h.locator("#bot-level-2 option").all_inner_texts(),
              "fill options:", h.locator("#fill-level option").all_inner_texts())
        ana.shot(f"{tag}-02-waiting-before-bots")
        for seat in (2, 3):
            h.select_option(f"#bot-level-{seat}", "hard")
            h.click(f"#bot-{seat}")
            h.wait_for_selector(f"#seats li[data-seat='{seat}'] strong")
        print("  seats:", [s.strip() for s in h.locator("#seats li").all_inner_texts()])
        ana.shot(f"{tag}-03-waiting-with-hard-bots")
        ben.shot(f"{tag}-03b-waiting-friend-view")
        cleo.page.goto(watch)
        if cleo.page.locator("#name").count():
            name_yourself(cleo.page, "Cleo")
        h.click("#start")
        for p in (ana, ben, cleo):
            p.page.wait_for_selector("#table")
            p.page.wait_for_function("document.body.dataset.version !== undefined")
        ana.shot(f"{tag}-04-table-start")
        print("  table seat panels:", [s.replace("\n", " | ") for s in
                                       h.locator("#seats .seat-panel").all_inner_texts()][:4])
        rng = Rng(17)
        humans = [ana, ben]
        hinted = {ana.name: False, ben.name: False}
        start_round = None
        replaced = reclaimed = False
        t_end = time.monotonic() + 900
        moves = {ana.name: 0, ben.name: 0}
        while time.monotonic() < t_end:
            rnd = last_round(cleo)
            if start_round is None:
                start_round = rnd
            full_round = rnd is not None and start_round is not None and rnd != start_round and \
                all(moves.values())
            if full_round and all(hinted.values()) and reclaimed:
                break
            if full_round and all(hinted.values()) and not replaced:
                hand_over_and_back(ana, ben, cleo, tag)
                replaced = reclaimed = True
                continue
            moved = False
            for p in humans:
                my_turn, before, finished = p.page.evaluate(BODY)
                if finished:
                    print("  finished")
                    t_end = 0
                    break
                if not my_turn:
                    continue
                if not hinted[p.name] and p.page.locator("#hint-ask:visible").count():
                    others = [o for o in (ana, ben, cleo) if o is not p]
                    ask_hint(p, others, tag)
                    hinted[p.name] = True
                    moves[p.name] += 1
                    moved = True
                    continue
                if click_something(p.page, rng):
                    moves[p.name] += 1
                    moved = True
                    wait_new_view(p.page, before)
                    if moves[p.name] == 3:
                        p.shot(f"{tag}-05-midturn-{p.name}")
            if not moved:
                time.sleep(0.1)
        ana.shot(f"{tag}-10-end-of-trial")
        cleo.shot(f"{tag}-10b-end-spectator")
        print(f"  rounds {start_round} -> {last_round(cleo)}; human clicks {moves}")
        report(ana, ben, cleo)
        browser.close()


if __name__ == "__main__":
    url = sys.argv[1]
    for g in sys.argv[2:] or ["drops_of_evil", "evil_corp", "covil"]:
        run(url, g)
