"""Load benchmark: bots playing real matches over real websockets against a real server.

    .venv/bin/python bench/load.py [--matches 50] [--seconds 15] [--game drops_of_evil]
                                   [--database sqlite|postgresql]

Starts ``uvicorn app.main:app`` on a fresh migrated database, creates ``--matches`` matches
through the HTTP lobby (two guest players each), connects both players' websockets, and lets
each player act (a random legal move, take-backs excluded) whenever its view says it may, for
``--seconds`` after a warm-up. Reports moves/s, the mover's round trip (action sent -> own new
view) p50/p99, and the server's CPU µs per move, beside the engine's own cost per move measured
in this process in the same run, so the figures read as ratios (service cost / rules cost), not
as absolute claims about another machine.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BACKWARD = {"take_back", "cancel", "rebrew"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User+system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def engine_cost(game: str, players: int, moves: int = 3000) -> float:
    """Seconds of CPU per engine.apply + one view per seat, in this process (the rules' cost)."""
    from engines import registry
    from engines.base import Rng

    engine = registry.get(game)
    rng = Rng(7)
    done, t0 = 0, time.process_time()
    while done < moves:
        state = engine.setup(players, {}, rng.below(1 << 30))
        while done < moves and engine.prompts(state):
            seat = rng.choice(sorted(engine.prompts(state)))
            acts = [a for a in engine.legal_actions(state, seat) if a["type"] not in BACKWARD]
            acts = acts or engine.legal_actions(state, seat)
            state, _ = engine.apply(state, seat, rng.choice(acts))
            for viewer in range(players):
                orjson.dumps(engine.view(state, viewer))
            done += 1
    return (time.process_time() - t0) / moves


class Player:
    """One guest with a websocket, acting whenever its view offers a legal move."""

    def __init__(self, url: str, cookie: str, rng: random.Random):
        self.url, self.cookie, self.rng = url, cookie, rng
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.sent_at: float | None = None
        self.measuring = False

    async def run(self, stop: asyncio.Event) -> None:
        view = None
        async with websockets.connect(self.url, additional_headers={"Cookie": self.cookie},
                                      max_size=None) as ws:
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except asyncio.TimeoutError:
                    continue
                msg = orjson.loads(raw)
                if msg["type"] == "ack":
                    if self.measuring and self.sent_at is not None:
                        self.latencies.append(time.perf_counter() - self.sent_at)
                        self.moves += 1
                    self.sent_at = None
                    if view is not None:
                        await self.maybe_act(ws, view)
                    continue
                if msg["type"] == "error":
                    self.sent_at = None
                    if self.measuring:
                        self.errors[msg["code"]] = self.errors.get(msg["code"], 0) + 1
                    continue
                if msg["type"] != "view":
                    continue
                view = msg["view"]
                await self.maybe_act(ws, view)

    async def maybe_act(self, ws, view: dict) -> None:
        """Send one random forward move if none is in flight (one message in flight each)."""
        acts = view["legal_actions"]
        if self.sent_at is not None or not acts or view["result"] is not None:
            return
        forward = [a for a in acts if a.get("type") not in BACKWARD] or acts
        self.sent_at = time.perf_counter()
        await ws.send(orjson.dumps({"type": "action", "id": uuid.uuid4().hex,
                                    "version": view["version"],
                                    "action": self.rng.choice(forward)}).decode())


async def main_async(args) -> None:
    tmp = tempfile.mkdtemp(prefix="lair-bench-")
    if args.database == "sqlite":
        db_url = f"sqlite+aiosqlite:///{tmp}/bench.db"
    else:
        import asyncpg
        name = f"lair_bench_{uuid.uuid4().hex[:8]}"
        conn = await asyncpg.connect(args.pg)
        await conn.execute(f'CREATE DATABASE "{name}"')
        await conn.close()
        db_url = args.pg.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") \
            + "/" + name
    env = {**os.environ, "DATABASE_URL": db_url, "SECRET_KEY": "bench", "BOT_DELAY": "0",
           "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--port",
                               str(port), "--log-level", "warning"], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, follow_redirects=True) as probe:
            for _ in range(100):
                try:
                    await probe.get("/healthz")
                    break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
        players: list[Player] = []
        rng = random.Random(1)
        for m in range(args.matches):
            host = httpx.AsyncClient(base_url=base, follow_redirects=True)
            guest = httpx.AsyncClient(base_url=base, follow_redirects=True)
            await host.post("/name", data={"name": f"h{m}", "next": "/"})
            await guest.post("/name", data={"name": f"g{m}", "next": "/"})
            r = await host.post("/matches", data={"game": args.game,
                                                  f"players_{args.game}": "2", "public": "on"})
            mid = str(r.url).rsplit("/", 1)[1]
            await guest.post(f"/m/{mid}/seat", data={"seat": "1"})
            await host.post(f"/m/{mid}/start")
            for c in (host, guest):
                players.append(Player(f"ws://127.0.0.1:{port}/ws/matches/{mid}",
                                      f"lair_user={c.cookies['lair_user']}",
                                      random.Random(rng.random())))
                await c.aclose()
        stop = asyncio.Event()
        tasks = [asyncio.create_task(p.run(stop)) for p in players]
        await asyncio.sleep(args.warmup)
        for p in players:
            p.measuring = True
        cpu0, t0 = cpu_seconds(server.pid), time.perf_counter()
        await asyncio.sleep(args.seconds)
        cpu1, t1 = cpu_seconds(server.pid), time.perf_counter()
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
    moves = sum(p.moves for p in players)
    lat = sorted(x for p in players for x in p.latencies)
    rules = engine_cost(args.game, 2)
    per_move = (cpu1 - cpu0) / max(moves, 1)
    print(f"game {args.game}, {args.matches} matches x 2 players, {args.database}, "
          f"{args.seconds:.0f} s measured")
    errors: dict[str, int] = {}
    for p in players:
        for code, n in p.errors.items():
            errors[code] = errors.get(code, 0) + n
    print(f"moves/s                 {moves / (t1 - t0):10.0f}")
    print(f"refused actions         {sum(errors.values()):10d} {errors or ''}")
    if lat:
        print(f"mover round trip p50    {statistics.median(lat) * 1000:10.2f} ms")
        print(f"mover round trip p99    {lat[int(len(lat) * 0.99) - 1] * 1000:10.2f} ms")
    print(f"server CPU per move     {per_move * 1e6:10.0f} µs")
    print(f"rules CPU per move      {rules * 1e6:10.0f} µs (apply + one view per seat, in-process)")
    print(f"service / rules ratio   {per_move / rules:10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--game", default="drops_of_evil")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="postgresql")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
