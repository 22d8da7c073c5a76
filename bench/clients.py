"""Load-generator clients: Lair tables (bot players + spectators) and bare fan-out rooms.

Latency is measured from the moment a player sends an action to the moment the LAST socket of
the match (every player and spectator) has received a view with the resulting version. Every
socket records, per match, when it first sees each version; a version counts as delivered when
all sockets of the match have seen it. Modes: ``idle`` (connected, no play), ``paced`` (each
match makes one action per second on average: Poisson arrivals, a bot waits for its match's next
slot), ``saturation`` (a bot acts as soon as its view prompts it).
"""
from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter

import httpx
import orjson
import websockets

from bench.common import form_headers

BACKWARD = {"take_back", "cancel", "rebrew", "undo"}


def choices(view: dict) -> list[dict]:
    """The actions a bench bot picks from: forward ones, an engine's take-backs only when it
    offers nothing else, never the table's ``undo`` (the previous mover is offered it until
    the next seat moves: a bot taking it would replay the whole log after nearly every move,
    which no real table does)."""
    acts = [a for a in view["legal_actions"] if a != {"type": "undo"}]
    return [a for a in acts if a.get("type") not in BACKWARD] or acts


now = time.perf_counter


class Window:
    """The measured interval and the mode all tables are in (shared, mutable)."""

    def __init__(self):
        self.mode = "idle"
        self.start = float("inf")
        self.end = float("inf")
        self.rate = 1.0  # paced: actions per second per match
        self.errors: Counter = Counter()
        self.sent = 0  # actions (rounds) sent inside the window
        self.acked = 0  # acks (complete rounds) received inside the window, whenever sent
        self.view_bytes = 0
        self.views = 0
        self.samples: list[bytes] = []  # spectator views (every 50th), for the bare template
        self.compression: str | None = "deflate"  # what browsers offer; None: no deflate

    def sample_view(self) -> bytes | None:
        """The sampled spectator view whose size is closest to the mean view size."""
        mean = self.view_bytes / max(1, self.views)
        return min(self.samples, key=lambda b: abs(len(b) - mean), default=None)

    def inside(self, t: float) -> bool:
        return self.start <= t < self.end

    def error(self, code: str) -> None:
        if now() >= self.start:
            self.errors[code] += 1


class Game:
    """Delivery bookkeeping of one match instance (versions sent and seen by its sockets)."""

    def __init__(self, n_sockets: int):
        self.n = n_sockets
        self.sent: dict[int, float] = {}
        self.seen: dict[int, list] = {}
        self.acks = 0

    def mark(self, last: int, version: int, t: float) -> None:
        for v in range(last + 1, version + 1):
            rec = self.seen.get(v)
            if rec is None:
                self.seen[v] = [1, t]
            else:
                rec[0] += 1
                rec[1] = t

    def latencies(self) -> tuple[list[float], int]:
        """(latencies of complete deliveries, versions not seen by every socket)."""
        out, missing = [], 0
        for v, t in self.sent.items():
            rec = self.seen.get(v)
            if rec is None or rec[0] < self.n:
                missing += 1
            else:
                out.append(rec[1] - t)
        return out, missing


class Table:
    """One Lair match: ``players`` bots with cookies and ``spectators`` anonymous viewers."""

    def __init__(self, index: int, base: str, cookies: list[str], spectators: int,
                 window: Window, game_id: str, http: httpx.AsyncClient, rng: random.Random):
        self.index, self.base, self.cookies = index, base, cookies
        self.n_spectators, self.window, self.game_id = spectators, window, game_id
        self.http, self.rng = http, rng
        self.games: list[Game] = []
        self.game = Game(len(cookies) + spectators)
        self.match_id: str | None = None
        self.socks: list[Sock] = []
        self.next_slot = 0.0
        self.active = True  # saturation may use only some tables
        self.restarting = False

    async def create_match(self) -> str:
        """Host creates a public match, the others sit, the host starts (HTTP lobby)."""
        h = lambda i: form_headers(self.cookies[i])  # noqa: E731
        r = await self.http.post("/matches", headers=h(0), data={
            "game": self.game_id, f"players_{self.game_id}": str(len(self.cookies)),
            "public": "on"})
        mid = r.headers["location"].rsplit("/", 1)[1]
        for i in range(1, len(self.cookies)):
            await self.http.post(f"/m/{mid}/seat", headers=h(i), data={"seat": str(i)})
        r = await self.http.post(f"/m/{mid}/start", headers=h(0))
        if r.status_code >= 400:
            raise RuntimeError(f"start failed: {r.status_code}")
        self.match_id = mid
        return mid

    def slot(self) -> float:
        """Paced mode: the time this match may make its next action (Poisson process)."""
        if not self.next_slot:  # first slot: spread the matches' starts over one interval
            self.next_slot = now() + self.rng.uniform(0, 1 / self.window.rate)
        t = max(now(), self.next_slot)
        self.next_slot = t + self.rng.expovariate(self.window.rate)
        return t

    async def connect(self, sem: asyncio.Semaphore) -> None:
        url = f"{self.base.replace('http', 'ws', 1)}/ws/matches/{self.match_id}"
        self.socks = [Sock(self, url, c, i) for i, c in enumerate(self.cookies)]
        self.socks += [Sock(self, url, None, None) for _ in range(self.n_spectators)]
        await asyncio.gather(*(s.start(sem) for s in self.socks))

    async def restart(self) -> None:
        """The match ended: start a new one with the same people (sockets reconnect)."""
        if self.restarting:
            return
        self.restarting = True
        try:
            for s in self.socks:
                s.stop()
            self.games.append(self.game)
            self.game = Game(len(self.socks))
            await self.create_match()
            await self.connect(asyncio.Semaphore(10))
        except Exception as exc:  # noqa: BLE001 - counted, the run goes on
            self.window.error(f"restart:{type(exc).__name__}")
        finally:
            self.restarting = False

    def all_games(self) -> list[Game]:
        return [*self.games, self.game]


class Sock:
    """One websocket of a table: a bot player (``seat`` set) or a spectator."""

    def __init__(self, table: Table, url: str, cookie: str | None, seat: int | None):
        self.table, self.url, self.cookie, self.seat = table, url, cookie, seat
        self.ws = None
        self.last = -1
        self.view: dict | None = None
        self.inflight: float | None = None
        self.scheduled = False
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    async def start(self, sem: asyncio.Semaphore) -> None:
        async with sem:
            self.task = asyncio.create_task(self.run())
            await asyncio.wait_for(self.ready.wait(), 60)

    def stop(self) -> None:
        if self.task:
            self.task.cancel()

    async def run(self) -> None:
        headers = {"Cookie": f"lair_user={self.cookie}"} if self.cookie else {}
        origin = self.url.replace("ws", "http", 1).split("/ws/")[0]
        w = self.table.window
        try:
            async with websockets.connect(self.url, additional_headers=headers, origin=origin,
                                          max_size=None, open_timeout=60,
                                          ping_interval=None, compression=w.compression) as ws:
                self.ws = ws
                async for raw in ws:
                    self.on_message(raw, w)
                w.error(f"closed:{ws.close_code}")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - counted
            w.error(f"socket:{type(exc).__name__}")
        finally:
            self.ready.set()

    def on_message(self, raw: str, w: Window) -> None:
        t = now()
        msg = orjson.loads(raw)
        kind = msg.get("type")
        if kind == "view":
            view = msg["view"]
            v = view["version"]
            if self.last < 0:
                self.last = v
                self.ready.set()
            elif v > self.last:
                self.table.game.mark(self.last, v, t)
                self.last = v
            if w.inside(t):
                w.views += 1
                w.view_bytes += len(raw)
                if self.seat is None and w.views % 50 == 0 and len(w.samples) < 200:
                    w.samples.append(orjson.dumps(view))
            if view.get("result") is not None:
                asyncio.get_running_loop().create_task(self.table.restart())
                return
            if self.seat is not None:
                self.view = view
                self.maybe_act()
        elif kind == "ack":
            sent, self.inflight = self.inflight, None
            if w.inside(t):
                w.acked += 1
            if sent is not None and w.inside(sent):
                self.table.game.sent[msg["version"]] = sent
                self.table.game.acks += 1
            self.maybe_act()
        elif kind == "error":
            w.error(msg.get("code", "?"))
            self.inflight = None
            if msg.get("code") in ("rate_limited", "busy"):  # retryable: back off a little
                asyncio.get_running_loop().call_later(0.2, self.maybe_act)
            else:
                self.maybe_act()
        elif kind == "reload":
            self.ready.set()

    def maybe_act(self) -> None:
        w, table, view = self.table.window, self.table, self.view
        if (self.inflight is not None or self.scheduled or w.mode == "idle" or not table.active
                or view is None or not choices(view) or view.get("result") is not None):
            return
        if w.mode == "paced":
            delay = table.slot() - now()
            if delay > 0:
                self.scheduled = True
                asyncio.get_running_loop().call_later(delay, self._fire)
                return
        self._send()

    def _fire(self) -> None:
        self.scheduled = False
        view = self.view
        if self.inflight is None and view and choices(view) and view.get("result") is None:
            self._send()

    def _send(self) -> None:
        view = self.view
        acts = choices(view)
        self.inflight = now()
        if self.table.window.inside(self.inflight):
            self.table.window.sent += 1
        text = orjson.dumps({"type": "action", "id": uuid.uuid4().hex, "version": view["version"],
                             "action": self.table.rng.choice(acts)}).decode()
        asyncio.get_running_loop().create_task(self._write(text))

    async def _write(self, text: str) -> None:
        try:
            await self.ws.send(text)
        except Exception as exc:  # noqa: BLE001 - counted
            self.inflight = None
            self.table.window.error(f"send:{type(exc).__name__}")


# ----- bare fan-out rooms ------------------------------------------------------------------
class Room:
    """A bare fan-out room with ``players`` senders taking turns and ``spectators``."""

    def __init__(self, index: int, base: str, players: int, spectators: int, window: Window,
                 rng: random.Random):
        self.index, self.base, self.players, self.spectators = index, base, players, spectators
        self.window, self.rng = window, rng
        self.game = Game(players + spectators - 1)  # every socket but the sender
        self.socks: list[RoomSock] = []
        self.turn = 0
        self.version = 0
        self.sent_at: float | None = None
        self.got = 0
        self.next_slot = 0.0
        self.active = True
        self.rounds = 0

    async def connect(self, sem: asyncio.Semaphore) -> None:
        url = f"{self.base.replace('http', 'ws', 1)}/ws/r{self.index}"
        self.socks = [RoomSock(self, url) for _ in range(self.players + self.spectators)]
        for s in self.socks:  # in order: the server numbers sockets by arrival
            await s.start(sem)

    def kick(self) -> None:
        """Start the next round (after the previous one was fully delivered)."""
        w = self.window
        if w.mode == "idle" or not self.active or self.sent_at is not None:
            return
        if w.mode == "paced":
            if not self.next_slot:  # first slot: spread the rooms' starts over one interval
                self.next_slot = now() + self.rng.uniform(0, 1 / w.rate)
            t = max(now(), self.next_slot)
            self.next_slot = t + self.rng.expovariate(w.rate)
            delay = t - now()
            if delay > 0:
                self.sent_at = -1.0  # reserved
                asyncio.get_running_loop().call_later(delay, self._send)
                return
        self._send()

    def _send(self) -> None:
        sender = self.socks[self.turn % self.players]
        self.sent_at = now()
        if self.window.inside(self.sent_at):
            self.window.sent += 1
        self.got = 0
        asyncio.get_running_loop().create_task(
            sender.ws.send(orjson.dumps({"type": "action", "id": uuid.uuid4().hex,
                                         "version": self.version, "action": {"x": 1}}).decode()))

    def on_view(self, version: int, t: float) -> None:
        self.got += 1
        if self.got == len(self.socks) - 1:
            w = self.window
            if w.inside(t):
                w.acked += 1
            if w.inside(self.sent_at):
                self.game.sent[version] = self.sent_at
                self.game.seen[version] = [self.game.n, t]
                self.game.acks += 1
            self.version = version
            self.turn += 1
            self.sent_at = None
            self.kick()

    def all_games(self) -> list[Game]:
        return [self.game]


class RoomSock:
    def __init__(self, room: Room, url: str):
        self.room, self.url = room, url
        self.ws = None
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def start(self, sem: asyncio.Semaphore) -> None:
        async with sem:
            self.task = asyncio.create_task(self.run())
            await asyncio.wait_for(self.ready.wait(), 60)

    def stop(self) -> None:
        if self.task:
            self.task.cancel()

    async def run(self) -> None:
        w = self.room.window
        try:
            async with websockets.connect(self.url, max_size=None, open_timeout=60,
                                          ping_interval=None, compression=w.compression) as ws:
                self.ws = ws
                self.ready.set()
                async for raw in ws:
                    t = now()
                    msg = orjson.loads(raw)
                    if w.inside(t):
                        w.views += 1
                        w.view_bytes += len(raw)
                    self.room.on_view(msg["view"]["version"], t)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - counted
            w.error(f"socket:{type(exc).__name__}")
        finally:
            self.ready.set()
