"""Browser test of the Covil renderer (static/games/covil/renderer.js), marked ``e2e``.

A tiny FastAPI app (uvicorn thread) serves /static and a harness page importing the renderer
with a stub ``table`` whose actions go to /api/act (the real engine, hot-seat: the view of the
lowest seat the game waits for); unclaimed legal actions become prompt-bar buttons. Complete
solo and 3-player games are played through real clicks on [data-pick] / [data-action] /
prompt-bar buttons; at every step every legal action must be reachable and every clickable
board element legal. Screenshots: tests/e2e/artifacts/covil_*.png.
Run: ``.venv/bin/python -m pytest tests/engines/covil -m e2e -q``.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "tests" / "e2e" / "artifacts"
CHROMIUM = shutil.which("chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

HARNESS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Covil harness</title>
<link rel="stylesheet" href="/static/css/lair.css">
<style>
  body { margin: 0; padding: 8px; background: var(--bg); color: var(--text); font-family: var(--font); }
  #prompt { background: #201a28; border-top: 2px solid #a8182f; padding: 6px;
            display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-top: 8px; }
  #prompt button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #888;
                   background: #302940; color: #fff; cursor: pointer; }
  #claimed { display: none; }
</style></head>
<body data-step="-1">
<div id="board" class="board"></div>
<div id="prompt"><span id="prompt-text"></span></div>
<pre id="claimed"></pre>
<script type="module">
import * as R from "/static/games/covil/renderer.js";
const COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
let view = null, claimed = new Set(), busy = false;
function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`;
  return JSON.stringify(v === undefined ? null : v);
}
const legal = () => (view ? view.legal_actions : []);
const table = {
  act(a) {
    const i = legal().findIndex((b) => canon(b) === canon(a));
    if (i < 0) { document.body.dataset.illegal = "true"; return false; }
    if (busy) return false;
    busy = true;
    fetch("/api/act", {method: "POST", headers: {"content-type": "application/json"},
                       body: JSON.stringify({seat: view.you, action: legal()[i]})})
      .then((r) => r.json()).then((v) => { busy = false; show(v); });
    return true;
  },
  actions: () => legal(),
  label(a) { const i = legal().findIndex((b) => canon(b) === canon(a)); return i < 0 ? "" : view.labels[i]; },
  find: (pred) => legal().filter(pred),
  seatColor: (s) => COLORS[s % 4],
  seatName: (s) => (view && view.seats[s] && view.seats[s].name) || `Seat ${s + 1}`,
  claim(a) { claimed.add(canon(a)); },
  showInPromptBar() {},
};
function show(v) {
  view = v;
  claimed = new Set();
  R.update(v);
  const bar = document.getElementById("prompt");
  bar.querySelectorAll("button").forEach((b) => b.remove());
  document.getElementById("prompt-text").textContent =
    v.result ? "Match over" : `${table.seatName(v.you)}: ${(v.prompt && v.prompt.text) || ""}`;
  for (const a of legal()) {
    if (claimed.has(canon(a))) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.prompt = canon(a);
    b.textContent = table.label(a);
    b.addEventListener("click", () => table.act(a));
    bar.append(b);
  }
  document.getElementById("claimed").textContent = JSON.stringify([...claimed]);
  document.body.dataset.step = String(v.step);
}
R.mount(document.getElementById("board"), table);
fetch("/api/view").then((r) => r.json()).then(show);
</script></body></html>
"""

def canon(a) -> str:
    return json.dumps(a, sort_keys=True, separators=(",", ":"))


class Game:
    """The match the harness plays (hot-seat)."""

    def __init__(self):
        from engines.covil import ENGINE
        self.engine = ENGINE
        self.state = None
        self.step = 0

    def new(self, players: int, seed: int, options: dict | None = None):
        self.state = self.engine.setup(players, options or {}, seed)
        self.step = 0

    def seat(self) -> int:
        waiting = sorted(self.engine.prompts(self.state))
        return waiting[0] if waiting else 0

    def view(self) -> dict:
        seat = self.seat()
        v = self.engine.view(self.state, seat)
        v["labels"] = [self.engine.describe(self.state, a) for a in v["legal_actions"]]
        for s in v["seats"]:
            s["name"] = ["Morgana", "Grimwald", "Hexley", "Vesper"][s["seat"]]
        v["version"] = v["step"] = self.step
        return v

    def act(self, seat: int, action: dict) -> dict:
        assert seat == self.seat(), "acted for a seat the game is not waiting for"
        self.state, _ = self.engine.apply(self.state, seat, action)
        self.step += 1
        return self.view()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium not installed")
        pytest.skip("chromium not installed")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server():
    import uvicorn

    game = Game()
    app = FastAPI()

    @app.get("/harness.html")
    def harness():
        return HTMLResponse(HARNESS, headers={"cache-control": "no-store"})

    @app.get("/api/view")
    def view():
        return JSONResponse(game.view())

    @app.post("/api/act")
    async def act(request: Request):
        body = await request.json()
        return JSONResponse(game.act(body["seat"], body["action"]))

    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "harness server did not start"
        time.sleep(0.05)
    yield game, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def _origin(a: dict) -> str:
    return canon({k: v for k, v in a.items() if k != "to"})


def _dom(page):
    acts, picks, prompt, claimed = page.evaluate("""() => {
      const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
      return [all("#board [data-action]", (e) => e.dataset.action), all("#board [data-pick]", (e) => e.dataset.pick),
              all("#prompt button[data-prompt]", (e) => e.dataset.prompt),
              JSON.parse(document.getElementById("claimed").textContent || "[]")];
    }""")
    return [canon(json.loads(a)) for a in acts], set(picks), set(prompt), set(claimed)


def _check_reachable(page, legal: list[dict]):
    board, picks, prompt, claimed = _dom(page)
    keys = {canon(a) for a in legal}
    for k in board:
        assert k in keys, f"board offers an illegal action {k}"
    assert not (claimed & prompt), "an action is both claimed and in the prompt bar"
    for a in legal:
        k = canon(a)
        if k in prompt:
            continue
        assert k in claimed, f"legal action neither claimed nor in the prompt bar: {k}"
        if k in board:
            continue
        assert "to" in a and _origin(a) in picks, f"claimed action not on the board: {k}"
    return board, picks, prompt


def _wait_step(page, step: int):
    page.locator(f"body[data-step='{step}']").wait_for(state="attached", timeout=10_000)


def _choose(game: Game, rng: random.Random) -> dict:
    legal = game.engine.legal_actions(game.state, game.seat())
    pool = [a for a in legal if a["type"] not in ("cancel", "buy_relic")] or legal
    for kind, p in (("done", 0.7), ("end_turn", 0.6), ("target", 0.9), ("confirm", 0.9)):
        hits = [a for a in pool if a["type"] == kind]
        if hits and rng.random() < p:
            return rng.choice(hits)
    board_first = [a for a in pool if a["type"] in ("place", "move", "retreat", "target",
                                                     "acquire", "activate", "defend", "effect")]
    if board_first and rng.random() < 0.8:
        return rng.choice(board_first)
    return rng.choice(pool)


def _click(page, action: dict, board: list[str], prompt: set[str]):
    k = canon(action)
    if k in prompt:
        page.locator(f"#prompt button[data-prompt='{k}']").click()
        return "prompt"
    if k not in board:
        page.locator(f"#board [data-pick='{_origin(action)}']").first.click()
    page.locator(f"#board [data-action='{json.dumps(action, separators=(',', ':'))}']").first.click()
    return "board"


def _play(page, game: Game, url: str, players: int, seed: int, options: dict, tag: str):
    game.new(players, seed, options)
    page.goto(f"{url}/harness.html")
    _wait_step(page, 0)
    rng = random.Random(seed)
    counts = {"board": 0, "prompt": 0}
    shot_combat = False
    while game.engine.result(game.state) is None:
        step = game.step
        legal = game.engine.legal_actions(game.state, game.seat())
        board, picks, prompt = _check_reachable(page, legal)
        if not shot_combat and any(f["kind"] == "combat" for f in game.state["stack"]):
            shot_combat = True
            page.screenshot(path=str(ARTIFACTS / f"covil_{tag}_combat.png"), full_page=True)
        action = _choose(game, rng)
        counts[_click(page, action, board, prompt)] += 1
        _wait_step(page, step + 1)
        assert page.locator("body[data-illegal]").count() == 0
    _check_reachable(page, [])
    page.screenshot(path=str(ARTIFACTS / f"covil_{tag}_final.png"), full_page=True)
    assert counts["board"] > 0 and counts["prompt"] > 0, counts
    return counts


@pytest.mark.parametrize("players,seed,options,tag", [
    (1, 3, {"dummies": 1}, "solo"),
    (3, 5, {"board": "B"}, "3p"),
])
def test_full_game_through_clicks(browser, server, players, seed, options, tag):
    """Renderer contract: a complete game played through real clicks (solo and 3 players)."""
    game, url = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _play(page, game, url, players, seed, options, tag)
    assert not errors, errors
    page.close()
