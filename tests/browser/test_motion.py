"""The table's motion hooks (static/js/motion.js; issue 14, item 5) in Chromium: a piece marked
``data-motion-key`` that moved between two drawings slides from its old place (at most 300 ms),
a number marked ``data-count`` that changed flashes, and with reduced motion nothing moves (the
changed number is still marked). The table calls snapshot() before a renderer's update() and
play() after it (static/js/table/board.js); this page does the same around a toy redraw.
"""
from __future__ import annotations

import pytest

from tests.chromium import serve_page

pytestmark = pytest.mark.e2e

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/css/lair.css"></head>
<body><div id="board" style="position:relative;height:300px"></div>
<script type="module">
import {motion} from "/static/js/motion.js";
import {el} from "/static/js/dom.js";
const board = document.getElementById("board");
function draw(x, gold) {
  board.replaceChildren(
    el("div", {id: "piece", dataset: {motionKey: "troop:zone-1:standing:0"},
               style: {position: "absolute", left: `${x}px`, top: "20px", width: "30px", height: "30px"}}),
    el("span", {id: "gold", dataset: {count: "gold-0"}}, String(gold)),
    el("span", {id: "same", dataset: {count: "hp-0"}}, "5"));
}
draw(10, 3);
window.redraw = (x, gold) => {
  const before = motion.snapshot(board);
  draw(x, gold);
  motion.play(board, before);
  const anims = document.getElementById("piece").getAnimations();
  return {moving: anims.length, duration: anims.length ? anims[0].effect.getTiming().duration : 0,
          from: anims.length ? anims[0].effect.getKeyframes()[0].transform : null,
          flash: document.getElementById("gold").classList.contains("num-flash"),
          same: document.getElementById("same").classList.contains("num-flash")};
};
document.body.dataset.ready = "true";
</script></body></html>"""


@pytest.fixture(scope="module")
def motion_url():
    with serve_page(PAGE) as url:
        yield url


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_a_moved_piece_slides_and_a_changed_number_flashes(browser, motion_url, reduced):
    ctx = browser.new_context(reduced_motion="reduce" if reduced else "no-preference")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(motion_url)
        page.wait_for_selector("body[data-ready=true]")
        got = page.evaluate("window.redraw(210, 4)")
        assert got["flash"] and not got["same"]
        if reduced:
            assert got["moving"] == 0
        else:
            assert got["moving"] == 1 and 0 < got["duration"] <= 300
            assert got["from"] == "translate(-200px, 0px)"  # starts where it was drawn before
        # wait for the slide (a flash the page cancels meanwhile rejects with AbortError: settled)
        page.evaluate("Promise.allSettled(document.getAnimations().map((a) => a.finished))")
        assert page.evaluate("window.redraw(210, 4)")["moving"] == 0  # nothing moved this time
        assert errors == []
    finally:
        ctx.close()


# ----- a real renderer: Covil's troops (interchangeable meeples matched by owner, zone, posture) --

COVIL_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/css/lair.css"></head>
<body><div id="board" class="board"></div>
<script type="module">
import {motion} from "/static/js/motion.js";
import * as R from "/static/games/covil/renderer.js";
const COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
let view = null;
const table = {act: () => false, actions: () => view.legal_actions, find: () => [], label: () => "",
  claim() {}, showInPromptBar() {}, seatColor: (s) => COLORS[s % 4], seatName: (s) => `Seat ${s + 1}`,
  seatShape: () => "\u25CF", you: () => view.you, view: () => view, busy: () => false};
const board = document.getElementById("board");
R.mount(board, table);
// as the table does (static/js/table/board.js): snapshot, update, play; then which keyed pieces
// slide and from how far (the first keyframe's translate, in the map's units)
window.draw = (v) => {
  view = v;
  const before = motion.snapshot(board);
  R.update(v);
  motion.play(board, before);
  return [...board.querySelectorAll("[data-motion-key]")].filter((n) => n.getAnimations().length)
    .map((n) => {
      const m = /translate\\(([-\\d.e]+)px, ([-\\d.e]+)px\\)/.exec(n.getAnimations()[0].effect.getKeyframes()[0].transform);
      return {key: n.dataset.motionKey, dist: m ? Math.hypot(Number(m[1]), Number(m[2])) : 0,
              ms: n.getAnimations()[0].effect.getTiming().duration};
    });
};
document.body.dataset.ready = "true";
</script></body></html>"""


def covil_views_around_a_move() -> tuple[dict, dict]:
    """Two views of seat 0's Covil table: before and after one of its troops moved to another
    zone (a seeded game played by random legal actions until a move is legal)."""
    import random

    from engines.covil import ENGINE
    state = ENGINE.setup(2, {}, 7)
    rng = random.Random(3)
    for _ in range(400):
        seat = min(ENGINE.prompts(state))
        view = ENGINE.view(state, seat)
        moves = [a for a in view["legal_actions"] if a.get("type") == "move"]
        if moves:
            state, _ = ENGINE.apply(state, seat, moves[0])
            return view, ENGINE.view(state, seat)
        state, _ = ENGINE.apply(state, seat, rng.choice(view["legal_actions"]))
    raise AssertionError("no move became legal")


@pytest.fixture(scope="module")
def covil_url():
    with serve_page(COVIL_PAGE) as url:
        yield url


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_a_moved_covil_troop_slides_from_its_old_zone(browser, covil_url, reduced):
    before, after = covil_views_around_a_move()
    ctx = browser.new_context(reduced_motion="reduce" if reduced else "no-preference",
                              viewport={"width": 1366, "height": 900})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(covil_url)
        page.wait_for_selector("body[data-ready=true]")
        assert page.evaluate("(v) => window.draw(v)", before) == []  # the first drawing: nothing to slide from
        keys = page.evaluate("() => [...document.querySelectorAll('#board [data-motion-key]')].map((n) => n.dataset.motionKey)")
        assert len(keys) == len(set(keys)) == sum(len(p["troops"]) for p in before["game"]["owners"])
        slides = page.evaluate("(v) => window.draw(v)", after)
        if reduced:
            assert slides == []
        else:
            # the moved troop hops a zone (the others of its old zone only close up)
            assert slides and all(0 < s["ms"] <= 300 for s in slides)
            assert max(s["dist"] for s in slides) > 60, slides
        assert errors == []
    finally:
        ctx.close()
