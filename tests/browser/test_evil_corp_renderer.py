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
import threading

import pytest

from engines.base import Rng
from engines.evil_corp import ENGINE
from engines.evil_corp.bots import greedy
from tests.chromium import ROOT, SHOTS, screenshot

pytestmark = pytest.mark.e2e

STATIC = ROOT / "static"

PAGE = """<!doctype html><html><body style="font-family:sans-serif;background:#f4f1ea">
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
    assert "Game over" in page.inner_text("#board")
    screenshot(page, SHOTS / f"evil_corp-{players}p-end.png")
    page.close()
    assert clicks > 5
