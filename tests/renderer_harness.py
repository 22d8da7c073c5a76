"""The renderer harness: a game's ``static/games/<game>/renderer.js`` in Chromium without the
service, for the renderer-contract browser tests (tests/browser/test_drops_renderer.py,
tests/browser/test_covil_renderer.py).

A tiny FastAPI app (in a uvicorn thread) serves /static and a harness page that imports the
renderer with a stub ``table``; the stub sends actions to /api/act, which applies them with the
real engine and answers with the next view (hot-seat: the view of the lowest seat the game waits
for). The stub renders a prompt bar with a button for every legal action the renderer did not
claim (``#prompt button[data-prompt]``) and lists the claimed ones in ``#claimed``;
``body[data-step]`` is the step on screen, ``body[data-illegal]`` marks a refused action.
"""
from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from tests.chromium import ROOT, serve_in_thread

#: Stand-ins for the real table page's columns (lair.css .table-body): seats | board | log+chat.
COLUMNS_CSS = """  .cols { display: grid; gap: 16px; grid-template-columns: minmax(200px, 250px) minmax(0, 1fr) minmax(240px, 320px); }
  .cols > aside { border: 1px dashed #4a4058; border-radius: 8px; min-height: 300px; color: #777; padding: 8px; }
  @media (max-width: 1100px) { .cols { grid-template-columns: minmax(0, 1fr); } .cols > aside { display: none; } }
"""
COLUMNS_BODY = """<div class="cols"><aside>seat panels</aside>
<main><div id="board" class="board"></div>
<div id="prompt"><span id="prompt-text"></span></div></main>
<aside>log, chat</aside></div>
"""
PLAIN_BODY = """<div id="board" class="board"></div>
<div id="prompt"><span id="prompt-text"></span></div>
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@ harness</title>
<link rel="stylesheet" href="/static/css/lair.css">
<style>
  body { margin: 0; padding: 8px; background: var(--bg); color: var(--text); font-family: var(--font); }
@COLUMNS_CSS@  #prompt { background: #201a28; border-top: 2px solid #a8182f; padding: 6px;
            display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-top: 8px; }
  #prompt button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid #888;
                   background: #302940; color: #fff; cursor: pointer; }
  #claimed { display: none; }
</style></head>
<body data-step="-1">
@BODY@<pre id="claimed"></pre>
<script type="module">
import * as R from "@RENDERER@";
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
fetch(`/api/view${location.search}`).then((r) => r.json()).then(show);
</script></body></html>
"""

NAMES = ["Morgana", "Grimwald", "Hexley", "Vesper"]


def canon(a) -> str:
    """An action as canonical JSON (sorted keys, no spaces): the harness's ``data-prompt``."""
    return json.dumps(a, sort_keys=True, separators=(",", ":"))


def harness_page(title: str, renderer: str, columns: bool) -> str:
    """The harness HTML for the renderer module at URL ``renderer``; ``columns`` puts the
    board between stand-ins for the table's seat and log columns (as on the real table)."""
    return (PAGE.replace("@TITLE@", title).replace("@RENDERER@", renderer)
            .replace("@COLUMNS_CSS@", COLUMNS_CSS if columns else "")
            .replace("@BODY@", COLUMNS_BODY if columns else PLAIN_BODY))


class Game:
    """The match the harness plays (hot-seat), shared by the app and the test driver."""

    def __init__(self, engine):
        self.engine = engine
        self.state = None
        self.step = 0

    def new(self, players: int, seed: int, options: dict | None = None):
        self.state = self.engine.setup(players, options or {}, seed)
        self.step = 0

    def seat(self) -> int:
        waiting = sorted(self.engine.prompts(self.state))
        return waiting[0] if waiting else 0

    def view(self, spectator: bool = False) -> dict:
        seat = None if spectator else self.seat()
        v = self.engine.view(self.state, seat)
        v["labels"] = [self.engine.describe(self.state, a) for a in v["legal_actions"]]
        for s in v["seats"]:
            s["name"] = NAMES[s["seat"]]
        v["version"] = v["step"] = self.step
        return v

    def act(self, seat: int, action: dict) -> dict:
        assert seat == self.seat(), "acted for a seat the game is not waiting for"
        self.state, _ = self.engine.apply(self.state, seat, action)
        self.step += 1
        return self.view()


@contextlib.contextmanager
def harness_server(engine, title: str, game: str, columns: bool = False
                   ) -> Iterator[tuple[Game, str]]:
    """Serve the harness of ``static/games/<game>/renderer.js`` playing ``engine``; yields
    ``(game, base_url)``: the page is ``<base_url>/harness.html`` (``?spectator=1`` shows the
    spectator's view)."""
    g = Game(engine)
    page = harness_page(title, f"/static/games/{game}/renderer.js", columns)
    app = FastAPI()

    @app.get("/harness.html")
    def harness():
        return HTMLResponse(page, headers={"cache-control": "no-store"})

    @app.get("/api/view")
    def view(spectator: int = 0):
        return JSONResponse(g.view(spectator=bool(spectator)))

    @app.post("/api/act")
    async def act(request: Request):
        body = await request.json()
        return JSONResponse(g.act(body["seat"], body["action"]))

    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    with serve_in_thread(app) as url:
        yield g, url


def board_dom(page) -> tuple[list[str], set[str], set[str], set[str]]:
    """The harness page's (board data-action keys in DOM order, data-pick keys, prompt-bar
    keys, keys the renderer claimed)."""
    acts, picks, prompt, claimed = page.evaluate("""() => {
      const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
      return [all("#board [data-action]", (e) => e.dataset.action), all("#board [data-pick]", (e) => e.dataset.pick),
              all("#prompt button[data-prompt]", (e) => e.dataset.prompt),
              JSON.parse(document.getElementById("claimed").textContent || "[]")];
    }""")
    return [canon(json.loads(a)) for a in acts], set(picks), set(prompt), set(claimed)


def check_reachable(page, legal: list[dict], by_pick) -> tuple[list[str], set[str], set[str]]:
    """Every legal action is reachable: on the board, in the prompt bar (never both), or
    claimed and reached through a pick first (``by_pick(action, picks)`` says whether the
    game's renderer shows it after one of ``picks``); the board offers nothing illegal.
    Returns (board keys, picks, prompt keys)."""
    board, picks, prompt, claimed = board_dom(page)
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
        assert by_pick(a, picks), f"claimed action not on the board: {k}"
    return board, picks, prompt
