"""A tiny stand-in server for the table client (static/js/table.js), for browser tests.

It serves ``static/``, renders the real ``templates/table.html`` (with ``mock_table.html`` as its
``base.html``) and speaks the wire protocol (docs/wire.md) with canned views of a toy
game, so the client can be checked in Chromium before (and independently of) the real app.

Pages: ``/m/{match_id}?seat=N`` (omit ``seat`` to watch as a spectator); ``?ping=ms&dead=ms``
shorten the client's heartbeat. Match ids: ``m1`` uses a small test renderer that draws clickable
cells, ``f1`` the fallback renderer, ``broken`` a renderer URL that does not exist, ``crash`` a
renderer whose update() throws; an id starting with ``t3`` has three seats, seat 2 a bot; ``t4`` four seats.

Test controls (HTTP): ``POST /mock/reset``, ``/mock/drop?code=1001`` (close every socket with that code), ``/mock/silence``
(current sockets get no more frames, not even pongs), ``/mock/refuse?count=n&code=1013`` (close the next n
connections at once with that code; 4429 with Lair's reason), ``/mock/busy?count=n`` (refuse the next n actions with ``busy``), ``/mock/finish``, ``/mock/reload``,
``/mock/chat?text=``, ``/mock/notice?text=``, ``/mock/presence?spectators=n``; ``GET /mock/received`` (client frames),
``GET /mock/stats``.

Run by hand: ``.venv/bin/python tests/browser/mock_server.py --port 8765`` then open
http://127.0.0.1:8765/.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import time
from datetime import datetime, timezone
from pathlib import Path

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import ChoiceLoader, DictLoader, Environment, FileSystemLoader, select_autoescape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

NAMES = ["Alice <b>", "Bob", "Carmilla", "Dracul"]
CELLS = [f"c{i}" for i in range(9)]
RENDERERS = {
    "m1": "/mock/renderer.js",
    "crash": "/mock/crashing-renderer.js",
    "f1": "/static/js/fallback-renderer.js",
    "broken": "/static/games/no_such_game/renderer.js",
}

# A test renderer following notes/renderer-contract.md: a 3x3 grid whose empty cells are
# clickable `place` actions (claimed, so the prompt bar does not repeat them).
MOCK_RENDERER_JS = r"""
let root, table, prev = null;
export const title = "Mock Lair";
export function mount(r, t) {
  root = r; table = t;
  root.addEventListener("click", (e) => {
    const c = e.target.closest("[data-action]");
    if (c) table.act(JSON.parse(c.dataset.action));
  });
  root.addEventListener("keydown", (e) => {
    const c = e.target.closest("[data-action]");
    if (c && e.key === "Enter") { e.preventDefault(); table.act(JSON.parse(c.dataset.action)); }
  });
}
export function update(view) {
  const grid = document.createElement("div");
  grid.className = "mock-grid";
  grid.style.cssText = "display:grid;grid-template-columns:repeat(3,minmax(0,90px));gap:8px;justify-content:center";
  for (const id of Object.keys(view.game.cells)) {
    const owner = view.game.cells[id];
    const cell = document.createElement("div");
    cell.className = "mock-cell";
    cell.dataset.cell = id;
    cell.style.cssText = "aspect-ratio:1;border:2px solid #4a4058;border-radius:8px;display:flex;" +
      "align-items:center;justify-content:center;font-size:2rem;background:#252030";
    if (owner !== null) {
      cell.textContent = table.seatShape(owner);
      cell.style.color = table.seatColor(owner);
      cell.setAttribute("aria-label", `${id}: ${table.seatName(owner)}`);
    }
    if (prev && prev.cells[id] !== owner) cell.classList.add("changed");
    const [action] = table.find((a) => a.type === "place" && a.cell === id);
    if (action) {
      cell.dataset.action = JSON.stringify(action);
      cell.classList.add("legal");
      cell.tabIndex = 0;
      cell.setAttribute("role", "button");
      cell.setAttribute("aria-label", table.label(action));
      cell.style.borderColor = "#f0c93e";
      cell.textContent = "+";
      table.claim(action);
    }
    grid.append(cell);
  }
  // Exercise showInPromptBar: cell 8 is also offered as a button (drawn AND listed).
  table.showInPromptBar(table.find((a) => a.type === "place" && a.cell === "c8"));
  root.replaceChildren(grid);
  prev = view.game;
}
"""

# A renderer whose update() always throws: the client must still offer every legal action.
CRASHING_RENDERER_JS = """
export function mount(root) { root.textContent = "about to crash"; }
export function update(view) { throw new Error("boom"); }
"""

LOBBY_HTML = """{% extends "base.html" %}
{% block title %}Mock lobby · Lair{% endblock %}
{% block content %}<div class="container">
<h1>Mock lobby</h1>
<p class="muted">Pages served by tests/browser/mock_server.py.</p>
<ul class="match-list">
  <li><span class="grow"><strong>Mock Lair</strong> <span class="muted">test renderer</span></span>
      <span class="badge status-badge" data-status="active">active</span>
      <span class="actions"><a class="btn btn-primary" href="/m/m1?seat=0">Play as Alice</a>
      <a class="btn" href="/m/m1?seat=1">Play as Bob</a><a class="btn" href="/m/m1">Watch</a></span></li>
  <li><span class="grow"><strong>Fallback board</strong> <span class="muted">no renderer</span></span>
      <span class="badge status-badge" data-status="open">open</span>
      <span class="actions"><a class="btn" href="/m/f1?seat=0">Open</a></span></li>
</ul>
<form class="card" onsubmit="return false">
  <h2>New match</h2>
  <div class="field"><label for="g">Game</label><select id="g"><option>Drops of Evil</option><option>Covil</option></select></div>
  <div class="field"><label for="n">Your name</label><input id="n" type="text" placeholder="Lord of the lair"></div>
  <label class="check"><input type="checkbox" checked> Public match</label>
  <div class="form-actions"><button class="btn btn-primary" type="submit">Create</button><button type="button">Cancel</button></div>
</form>
<div class="flash error">Example error message.</div>
</div>{% endblock %}"""


def _env() -> Environment:
    base = (HERE / "mock_table.html").read_text()
    loader = ChoiceLoader([DictLoader({"base.html": base, "mock_lobby.html": LOBBY_HTML}),
                           FileSystemLoader(ROOT / "templates")])
    env = Environment(loader=loader, autoescape=select_autoescape(["html"]))
    from app.web import csrf, templating
    for name in ("bot_label", "bot_help", "renderer_styles"):  # the real templates' filters
        env.filters[name] = templating.templates.env.filters[name]
    csrf.install(env)  # the forms' csrf_field(): empty here (no request, nothing is posted)
    return env


class Game:
    """The toy game behind the canned views: 2 seats take turns claiming cells of a 3x3 grid."""

    def __init__(self, match_id: str, players: int = 2):
        self.match_id = match_id
        self.players = players
        self.version = 1
        self.turn = 0
        self.round = 1
        self.cells: dict[str, int | None] = {c: None for c in CELLS}
        self.scores = [0] * players
        self.gold = [3] * players
        self.log: list[dict] = [{"text": "The match begins.", "to": "all", "irreversible": False},
                                {"text": "You drew the Crypt Key.", "to": [0], "irreversible": True},
                                {"text": "You drew a Bat.", "to": [1], "irreversible": True},
                                # the others' wording of the Bat draw (the server marks it;
                                # the engine lets spectators read it: engines/base.py)
                                {"text": "Bob drew a card.", "irreversible": True, "others": True,
                                 "spectators": True,
                                 "to": [s for s in range(players) if s != 1]}]
        self.result: dict | None = None
        self.status = "active"
        self.seen_ids: set[str] = set()
        self.wishes = 0  # extra choices ("Make wish 1"…), for a long menu: /mock/wishes
        self.also: list[int] = []  # more seats the turn waits for (simultaneous): /mock/also_waiting

    def legal(self, seat: int | None) -> list[dict]:
        if self.result is not None or seat is None or seat != self.turn:
            return []
        acts = [{"type": "place", "cell": c} for c, o in self.cells.items() if o is None]
        acts += [{"type": "wish", "n": n} for n in range(1, self.wishes + 1)]
        return acts + [{"type": "pass"}, {"type": "shout", "word": "boo"}, {"type": "gamble"}]

    @staticmethod
    def label(action: dict) -> str:
        if action["type"] == "place":
            return f"Claim cell {action['cell'][1:]}"
        if action["type"] == "wish":
            return f"Make wish {action['n']}"
        return {"pass": "Pass", "shout": "Shout “boo!”", "gamble": "Gamble (always refused)"}[action["type"]]

    def apply(self, seat: int, action: dict) -> None:
        name = NAMES[seat]
        if action["type"] == "place":
            self.cells[action["cell"]] = seat
            self.scores[seat] += 2
            self.log.append({"text": f"{name} claims cell {action['cell'][1:]}.", "to": "all", "irreversible": False})
        elif action["type"] == "pass":
            self.log.append({"text": f"{name} passes.", "to": "all", "irreversible": False})
        elif action["type"] == "wish":
            self.log.append({"text": f"{name} makes wish {action['n']}.", "to": "all", "irreversible": False})
        elif action["type"] == "shout":
            self.gold[seat] += 1
            self.log.append({"text": f"{name} shouts “boo!” and finds 1 gold.", "to": "all", "irreversible": False})
            self.log.append({"text": "Only you hear the echo answer.", "to": [seat], "irreversible": False})
        self.turn = (self.turn + 1) % self.players
        if self.turn == 0:
            self.round += 1
        self.version += 1

    def finish(self) -> None:
        order = sorted(range(self.players), key=lambda s: -self.scores[s])
        self.result = {
            "ranks": [[s] for s in order],
            "scores": {str(s): self.scores[s] for s in range(self.players)},
            "tiebreak": "most gold",
            "breakdown": {str(s): {"cells": self.scores[s], "gold_bonus": 0, "crypt_key": 0}
                          for s in range(self.players)},
        }
        self.status = "finished"
        self.version += 1
        self.log.append({"text": "The match is over.", "to": "all", "irreversible": False})

    def view(self, seat: int | None, connected: set[int], spectators: int) -> dict:
        legal = self.legal(seat)
        return {
            "version": self.version,
            "you": seat,
            "seats": [{"seat": s, "name": NAMES[s], "bot": s == 1 and self.players > 2, "host": s == 0,
                       "connected": s in connected, "score": self.scores[s], "gold": self.gold[s],
                       "hand_size": 2, "relics": ["Crypt Key"] if s == 0 else []}
                      for s in range(self.players)],
            "header": {"round": self.round, "phase": "night_phase",
                       "waiting_for": [] if self.result else [self.turn] + [s for s in self.also if s != self.turn]},
            "prompt": ({"kind": "turn", "text": "Claim a cell, shout, or pass."}
                       if seat == self.turn and self.result is None else None),
            "legal_actions": legal,
            "labels": [self.label(a) for a in legal],
            "log": [e for e in self.log if e["to"] == "all" or (seat is not None and seat in e["to"])
                    or (seat is None and e.get("spectators"))],
            "result": self.result,
            "game": {
                "cells": dict(self.cells),
                "moon": "waxing",
                "bag_count": 17,
                "night_falls": True,
                "first_player": 0,
                "market": [{"name": "Bat Wing", "cost": 2, "stock": 3},
                           {"name": "Toad <script>alert(1)</script>", "cost": 1, "stock": 0}],
                "tracks": {"0": 4, "1": 7},
                "hand": ["Crypt Key", "Bat"] if seat is not None else None,
                "supply": {"gold": 40, "relics": {"power": 2, "curse": 1}},
            },
            "match": {"id": self.match_id, "game": "mock", "title": "Mock Lair", "status": self.status,
                      "players": self.players, "spectators": spectators},
        }


class Conn:
    def __init__(self, ws: WebSocket, seat: int | None):
        self.ws = ws
        self.seat = seat
        self.silent = False


# Complex on purpose: the mock server's routes are closures over its shared state.
def create_app() -> FastAPI:  # noqa: C901
    app = FastAPI()
    env = _env()
    games: dict[str, Game] = {}
    conns: dict[str, list[Conn]] = {}
    received: list[dict] = []
    stats = {"connects": 0, "attempts": [], "refuse": 0, "refuse_code": 1013, "busy": 0}
    chat_log: dict[str, list[dict]] = {}

    def game(match_id: str) -> Game:
        if match_id not in games:
            # "t3…": three seats, the second played by a bot
            games[match_id] = Game(match_id, 3 if match_id.startswith("t3") else 4 if match_id.startswith("t4") else 2)
        return games[match_id]

    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")

    @app.get("/", response_class=HTMLResponse)
    async def lobby():
        return env.get_template("mock_lobby.html").render()

    @app.get("/mock/renderer.js")
    async def mock_renderer():
        return Response(MOCK_RENDERER_JS, media_type="text/javascript")

    @app.get("/mock/crashing-renderer.js")
    async def crashing_renderer():
        return Response(CRASHING_RENDERER_JS, media_type="text/javascript")

    @app.get("/m/{match_id}", response_class=HTMLResponse)
    async def table_page(match_id: str, seat: int | None = None):
        g = game(match_id)
        ws_path = f"/ws/matches/{match_id}" + (f"?seat={seat}" if seat is not None else "")
        return env.get_template("table.html").render(
            match={"id": match_id, "game": "mock", "title": "Mock Lair", "status": g.status},
            you=seat, is_host=seat == 0,
            renderer_url=RENDERERS.get(match_id, RENDERERS["m1"]),
            ws_path=ws_path, replay_url=f"/matches/{match_id}/replay", lobby_url="/")

    async def send(c: Conn, msg: dict) -> None:
        if c.silent:
            return
        try:
            await c.ws.send_text(json.dumps(msg))
        except Exception:  # the socket is already gone; its receive loop cleans up
            pass

    def presence_msg(match_id: str) -> dict:
        live = conns.get(match_id, [])
        seated = {c.seat for c in live if c.seat is not None}
        return {"type": "presence",
                "seats": [{"seat": s, "connected": s in seated} for s in range(game(match_id).players)],
                "spectators": sum(1 for c in live if c.seat is None)}

    async def push_views(match_id: str) -> None:
        live = list(conns.get(match_id, []))
        seated = {c.seat for c in live if c.seat is not None}
        spectators = sum(1 for c in live if c.seat is None)
        for c in live:
            await send(c, {"type": "view", "view": game(match_id).view(c.seat, seated, spectators)})

    async def push_presence(match_id: str) -> None:
        msg = presence_msg(match_id)
        for c in list(conns.get(match_id, [])):
            await send(c, msg)

    @app.websocket("/ws/matches/{match_id}")
    async def socket(ws: WebSocket, match_id: str):
        seat_q = ws.query_params.get("seat")
        seat = int(seat_q) if seat_q not in (None, "") else None
        await ws.accept()
        stats["attempts"].append(time.monotonic())
        if stats["refuse"] > 0:           # simulate a server that is down: close at once, no view
            stats["refuse"] -= 1
            code = stats["refuse_code"]
            await ws.close(code=code, reason="Too many connections from your address."
                           if code == 4429 else None)
            return
        c = Conn(ws, seat)
        conns.setdefault(match_id, []).append(c)
        stats["connects"] += 1
        g = game(match_id)
        live = conns[match_id]
        seated = {x.seat for x in live if x.seat is not None}
        await send(c, {"type": "view", "view": g.view(seat, seated, sum(1 for x in live if x.seat is None))})
        for m in chat_log.get(match_id, [])[-50:]:
            await send(c, m)
        await push_presence(match_id)
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    msg = json.loads(raw)
                except ValueError:
                    await send(c, {"type": "error", "code": "bad_message", "message": "Not JSON.", "ref": None})
                    continue
                received.append({"match": match_id, "seat": seat, **msg})
                kind = msg.get("type")
                if kind == "ping":
                    await send(c, {"type": "pong"})
                elif kind == "chat":
                    text = str(msg.get("text", ""))
                    if len(text) > 500:
                        await send(c, {"type": "error", "code": "too_large", "message": "Chat message too long.",
                                       "ref": None})
                        continue
                    out = {"type": "chat", "from": NAMES[seat] if seat is not None else "Spectator",
                           "text": text, "at": datetime.now(timezone.utc).isoformat()}
                    chat_log.setdefault(match_id, []).append(out)
                    for x in list(conns[match_id]):
                        await send(x, out)
                elif kind == "action":
                    await on_action(c, match_id, msg)
                else:
                    await send(c, {"type": "error", "code": "bad_message", "message": "Unknown message.",
                                   "ref": None})
        except WebSocketDisconnect:
            pass
        finally:
            if c in conns.get(match_id, []):
                conns[match_id].remove(c)
            await push_presence(match_id)

    async def on_action(c: Conn, match_id: str, msg: dict) -> None:
        g = game(match_id)
        ref = msg.get("id")

        async def error(code: str, message: str) -> None:
            await send(c, {"type": "error", "code": code, "message": message, "ref": ref})
            await push_views(match_id)

        if c.seat is None:
            return await error("spectator", "Spectators cannot act.")
        if stats["busy"] > 0:  # like Lair when every database connection stays taken: no view
            stats["busy"] -= 1
            return await send(c, {"type": "error", "code": "busy", "ref": ref,
                                  "message": "The server is busy; please try again in a moment."})
        if ref in g.seen_ids:  # a duplicate is acknowledged, never re-applied
            await push_views(match_id)
            return await send(c, {"type": "ack", "ref": ref, "version": g.version,
                                  "duplicate": True})
        if msg.get("version") != g.version:
            return await error("stale", "The table changed before your move arrived; look again.")
        action = msg.get("action")
        if action not in g.legal(c.seat):
            return await error("illegal", "That action is not allowed now.")
        if action == {"type": "gamble"}:
            return await error("illegal", "The dice refuse you: no gambling in the Lair tonight.")
        g.seen_ids.add(ref)
        await asyncio.sleep(0.05)  # a little latency, so "pending" is observable
        g.apply(c.seat, action)
        await push_views(match_id)
        await send(c, {"type": "ack", "ref": ref, "version": g.version, "duplicate": False})

    # ----- test controls ---------------------------------------------------------------------

    @app.post("/mock/reset")
    async def reset():
        for match_id in list(conns):
            for c in list(conns[match_id]):
                try:
                    await c.ws.close(code=1001)
                except Exception:
                    pass
        games.clear()
        received.clear()
        chat_log.clear()
        stats.update(connects=0, attempts=[], refuse=0, refuse_code=1013, busy=0)
        return {"ok": True}

    @app.post("/mock/wishes")
    async def wishes(count: int, match_id: str = "f1"):
        """``count`` more choices for the seat to move ("Make wish 1"…): a long menu."""
        game(match_id).wishes = count
        await push_views(match_id)
        return {"ok": True}

    @app.post("/mock/also_waiting")
    async def also_waiting(seats: str, match_id: str = "f1"):
        """The turn waits for ``seats`` ("1,2,3") too, as in a simultaneous step."""
        game(match_id).also = [int(s) for s in seats.split(",") if s]
        await push_views(match_id)
        return {"ok": True}

    @app.post("/mock/drop")
    async def drop(code: int = 1001):
        n = 0
        for match_id in list(conns):
            for c in list(conns[match_id]):
                try:
                    await c.ws.close(code=code)
                    n += 1
                except Exception:
                    pass
        return {"dropped": n}

    @app.post("/mock/refuse")
    async def refuse(count: int, code: int = 1013):
        stats["refuse"] = count
        stats["refuse_code"] = code
        return {"ok": True}

    @app.post("/mock/busy")
    async def busy(count: int):
        stats["busy"] = count
        return {"busy": count}

    @app.post("/mock/silence")
    async def silence():
        for match_id in conns:
            for c in conns[match_id]:
                c.silent = True
        return {"ok": True}

    @app.post("/mock/finish")
    async def finish(match_id: str = "m1"):
        game(match_id).finish()
        await push_views(match_id)
        return {"ok": True}

    @app.post("/mock/delta")
    async def delta(text: str, fits: bool = True, match_id: str = "m1"):
        """Log ``text`` and send each socket a wire view that carries only that event and
        leaves out ``market`` (README "The wire"); ``fits=false`` claims a wrong ``log_from``,
        as a delta for another view would."""
        g = game(match_id)
        g.version += 1
        g.log.append({"text": text, "to": "all", "irreversible": False})
        live = list(conns.get(match_id, []))
        seated = {c.seat for c in live if c.seat is not None}
        for c in live:
            view = g.view(c.seat, seated, 0)
            held = len(view["log"]) - 1
            view.update(log=view["log"][held:], log_from=held if fits else held + 5,
                        kept=["market"])
            del view["game"]["market"]
            await send(c, {"type": "view", "view": view})
        return {"ok": True}

    @app.post("/mock/reload")
    async def reload(match_id: str = "m1"):
        for c in list(conns.get(match_id, [])):
            await send(c, {"type": "reload"})
        return {"ok": True}

    @app.post("/mock/chat")
    async def server_chat(text: str, match_id: str = "m1", sender: str = "Dracul"):
        out = {"type": "chat", "from": sender, "text": text, "at": datetime.now(timezone.utc).isoformat()}
        chat_log.setdefault(match_id, []).append(out)
        for c in list(conns.get(match_id, [])):
            await send(c, out)
        return {"ok": True}

    @app.post("/mock/notice")
    async def notice(text: str, match_id: str = "m1"):
        for c in list(conns.get(match_id, [])):
            await send(c, {"type": "notice", "text": text})
        return {"ok": True}

    @app.post("/mock/presence")
    async def presence(spectators: int, match_id: str = "m1"):
        msg = presence_msg(match_id)
        msg["spectators"] = spectators
        for c in list(conns.get(match_id, [])):
            await send(c, msg)
        return {"ok": True}

    @app.get("/mock/received")
    async def get_received():
        return JSONResponse(received)

    @app.get("/mock/stats")
    async def get_stats():
        return {**stats, "open": {m: len(v) for m, v in conns.items()}}

    return app


app = create_app()

if __name__ == "__main__":
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    from app.serve import uvicorn_config
    from app.settings import Settings

    uvicorn.Server(uvicorn_config(Settings(), app, args.host, args.port,
                                  log_level="warning")).run()
