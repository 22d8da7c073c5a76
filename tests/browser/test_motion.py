"""The table's motion hooks (static/js/motion.js; issue 14, item 5) in Chromium: a piece marked
``data-motion-key`` that moved between two drawings slides from its old place (at most 300 ms),
a number marked ``data-count`` that changed flashes, and with reduced motion nothing moves (the
changed number is still marked). The table calls snapshot() before a renderer's update() and
play() after it (static/js/table/board.js); this page does the same around a toy redraw.
"""
from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from tests.browser import ROOT, serve_in_thread

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
    app = FastAPI()
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")

    @app.get("/", response_class=HTMLResponse)
    async def page():
        return PAGE

    with serve_in_thread(app) as url:
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
