"""The websocket per match and this process's hub of sockets (DESIGN.md, "The wire").

Each socket belongs to one viewer: a seat (from the identity cookie) or a spectator. It gets
its own view on connect and after every committed change; errors go to that socket only. Each
socket has a bounded send queue; a socket that falls too far behind is closed (the client
reconnects and receives the whole view again).
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import defaultdict
from typing import Annotated, Any, Literal, Union

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.background import spawn
from app.identity import read_user_id
from app.matches import access, pace
from app.matches.service import MatchService, ServiceError, Snapshot
from app.matches.views import build_views, seat_names, seats_summary
from app.telemetry import events as ops_events
from app.ratelimit import address_key
from app.settings import Settings
from engines import registry

log = logging.getLogger("lair.realtime")
router = APIRouter()


# ----- client messages (validated with pydantic) -------------------------------------------
class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionMsg(_Msg):
    """``{"type":"action","id":str,"version":int,"action":{...}}``."""

    type: Literal["action"]
    # No NUL: PostgreSQL text refuses it (it would surface as a server error, not a refusal).
    id: str = Field(min_length=1, max_length=64, pattern=r"^[^\x00]+$")
    version: int
    action: dict[str, Any]


class ChatMsg(_Msg):
    """``{"type":"chat","text":str}``."""

    type: Literal["chat"]
    text: str = Field(max_length=2000)


class PingMsg(_Msg):
    """``{"type":"ping"}``."""

    type: Literal["ping"]


ClientMsg = TypeAdapter(Annotated[Union[ActionMsg, ChatMsg, PingMsg], Field(discriminator="type")])


def _encode(obj: dict) -> str:
    return orjson.dumps(obj).decode()


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """Cross-site websocket hijacking guard: a browser always sends ``Origin``; accept it only
    when it names this very host (``scheme://<Host header>``) or one of ``allowed`` (exact
    ``scheme://host[:port]`` strings). No ``Origin`` at all (bots, curl, tests) is accepted:
    those clients carry no victim's cookies by accident."""
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in {o.strip().rstrip("/").lower() for o in allowed}:
        return True
    scheme, sep, netloc = origin.partition("://")
    return bool(sep and host) and scheme in ("http", "https") and netloc == host.strip().lower()


class Connection:
    """One open socket: its viewer, a bounded send queue and a sender task."""

    def __init__(self, ws: WebSocket, match_id: str, user_id: str | None, seat: int | None,
                 name: str, queue_size: int):
        self.ws = ws
        self.match_id = match_id
        self.user_id = user_id
        self.seat = seat
        self.name = name
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self.closed = False
        self.tokens: float | None = None  # a full bucket (the configured burst) at first use
        self.limited = False  # the rate limit refused this socket's last message
        self.refilled = time.monotonic()
        self.task: asyncio.Task | None = None  # the sender, cancelled if it stalls
        self.writing = False
        #: What this socket holds of its table, ``(seat, version, length of its log, seat
        #: names, length of the state's log)`` at the last view sent, or None: later views
        #: carry only what it lacks (``Hub.push``).
        self.sent: tuple | None = None

    def send(self, text: str) -> None:
        """Queue a frame; a socket whose queue is full is too slow and gets closed."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            ops_events.limit_hit("ws_slow", self.match_id)  # closing a slow socket
            self.close()
            # The sender may be stuck in a write to a peer that stopped reading: stop it, so
            # the socket is really closed (and its memory freed) instead of lingering.
            if self.writing and self.task is not None:
                self.task.cancel()

    def close(self) -> None:
        """Stop the sender (the socket closes; the client reconnects)."""
        if not self.closed:
            self.closed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    async def sender(self) -> None:
        """Write queued frames in order until closed."""
        try:
            while (text := await self.queue.get()) is not None:
                self.writing = True
                await self.ws.send_text(text)
                self.writing = False
        except Exception:
            pass
        finally:
            self.closed = True
            try:  # a stalled peer cannot take a close frame: give up after a moment
                async with asyncio.timeout(2):  # (3.11's wait_for can swallow a cancel)
                    await self.ws.close(code=1013)
            except Exception:
                pass

    def allow(self, rate: float = 10.0, burst: float = 30.0) -> bool:
        """Token bucket: ``rate`` messages per second, bursts of ``burst``."""
        now = time.monotonic()
        if self.tokens is None:
            self.tokens = burst
        self.tokens = min(burst, self.tokens + (now - self.refilled) * rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Hub:
    """This process's sockets by match, and the push of views after every change."""

    def __init__(self, service: MatchService, settings: Settings):
        self.service = service
        self.settings = settings
        self.conns: dict[str, set[Connection]] = defaultdict(set)
        # When each seat's last socket closed (epoch s): how long a player has been away.
        self.left_at: dict[tuple[str, int], float] = {}
        self.born = service.now().timestamp()
        #: The other processes' sockets (PostgreSQL only), as they announce them: match id ->
        #: process -> (socket count per seat, spectators, monotonic time of the announce).
        self.remote: dict[str, dict[str, tuple[dict[int, int], int, float]]] = defaultdict(dict)
        self._announcing: set[asyncio.Task] = set()
        #: Per-user rate limits (an ``app.ratelimit.Limiter``, set by the app; None: none).
        self.limiter: Any = None
        service.subscribe(self.on_change)

    def note_left(self, match_id: str, seat: int | None) -> None:
        """A socket of ``seat`` closed: if it was the seat's last one, the player is away."""
        if seat is not None and seat not in self.connected_seats(match_id):
            self.left_at[(match_id, seat)] = self.service.now().timestamp()

    # ----- presence across processes (PostgreSQL) ---------------------------------------------
    # A player may be connected to another process than the one serving the others: without
    # this, their seat would look away here (no dot, an "away" timer, even a replacement vote).
    # Each process announces its socket counts per match through the fan-out on every change
    # and every PRESENCE_EVERY seconds; an announce older than three periods (a killed
    # process) no longer counts.
    PRESENCE_EVERY = 20.0

    def _fresh(self, match_id: str, everything: bool = False
               ) -> list[tuple[dict[int, int], int, float]]:
        horizon = -1.0 if everything else time.monotonic() - 3 * self.PRESENCE_EVERY
        return [entry for entry in self.remote.get(match_id, {}).values() if entry[2] > horizon]

    def announce(self, match_id: str) -> None:
        """Tell the other processes how many sockets each seat of the match has here (no-op
        without a fan-out). Runs as its own task: a closing socket handler may be cancelled,
        and a notify cancelled midway would cost the fan-out its connection."""
        notifier = self.service.notifier
        if notifier is None:
            return
        conns = self.conns.get(match_id, ())
        seats: dict[int, int] = defaultdict(int)
        for c in conns:
            if c.seat is not None:
                seats[c.seat] += 1
        what = (f"presence:{sum(1 for c in conns if c.seat is None)}:"
                + ",".join(f"{seat}={n}" for seat, n in sorted(seats.items())))
        spawn(notifier.publish(match_id, what), f"presence of {match_id}", self._announcing)

    def remote_presence(self, match_id: str, origin: str, what: str) -> None:
        """Another process announced its sockets (``presence:<spectators>:<seat>=<n>,...``):
        seats that it alone held and no longer holds are away from now on; this process's
        sockets are told when the table's presence changed."""
        try:
            _, spectators, pairs = what.split(":", 2)
            seats = {int(k): int(v) for k, v in (p.split("=") for p in pairs.split(",") if p)}
            watching = int(spectators)
        except ValueError:
            return
        before = (self.connected_seats(match_id), self.spectators(match_id))
        if seats or watching:
            self.remote[match_id][origin] = (seats, watching, time.monotonic())
        else:
            self.remote.get(match_id, {}).pop(origin, None)
            if not self.remote.get(match_id):
                self.remote.pop(match_id, None)
        self._presence_changed(match_id, before)

    def _presence_changed(self, match_id: str, before: tuple[set[int], int]) -> None:
        after = (self.connected_seats(match_id), self.spectators(match_id))
        if after == before:
            return
        now = self.service.now().timestamp()
        for seat in before[0] - after[0]:
            self.left_at[(match_id, seat)] = now
        if self.conns.get(match_id):
            self.presence(match_id)
            snap = self.service.cached(match_id)
            if before[0] != after[0] and snap is not None and snap.match.status == "active":
                self.push(snap)  # the seat panels' dots and away timers

    async def keep_announcing(self) -> None:
        """Every PRESENCE_EVERY seconds: announce this process's matches again, and forget
        what processes that stopped announcing had said."""
        while True:
            await asyncio.sleep(self.PRESENCE_EVERY)
            for match_id in list(self.conns):
                self.announce(match_id)
            horizon = time.monotonic() - 3 * self.PRESENCE_EVERY
            for match_id, by_origin in list(self.remote.items()):
                stale = [o for o, entry in by_origin.items() if entry[2] <= horizon]
                if not stale:
                    continue
                before = (self.connected_seats(match_id, everything=True),
                          self.spectators(match_id, everything=True))
                for origin in stale:
                    del by_origin[origin]
                if not by_origin:
                    del self.remote[match_id]
                self._presence_changed(match_id, before)

    def away_since(self, match_id: str, seat: int) -> float | None:
        """Since when (epoch s) no socket of ``seat`` is open in this process or, as they
        announce it, in the others (since this process started, for a player not seen since),
        or None while connected."""
        if seat in self.connected_seats(match_id):
            return None
        return self.left_at.get((match_id, seat), self.born)

    def table_facts(self, snap: Snapshot) -> dict:
        """The public pace facts added to every view as ``view["pace"]`` (app.matches.pace):
        clocks, and per seat ``resigned``, ``away`` (seconds, None while connected or a bot),
        the replacement ``votes`` (voter seats) and ``needed``, and ``resign_ends`` (that
        seat's resignation would end the match now)."""
        m = snap.match
        settings = pace.settings_of(m.settings)
        now = self.service.now().timestamp()
        facts = pace.public(settings, m.clocks, m.players,
                            {i.seat for i in snap.seats if i.bot}, now)
        humans = {i.seat for i in snap.seats if i.user_id is not None}
        resigned = [i.seat for i in snap.seats if i.resigned_at is not None]
        teams = registry.get(m.game, m.engine_version).teams if m.game in registry.ENGINES \
            else {}
        since = (m.clocks or {}).get("since") or {}
        for info, entry in zip(snap.seats, facts["seats"]):
            away = self.away_since(m.id, info.seat) if info.seat in humans else None
            votes = info.votes or {}
            current = "since" in votes and votes.get("since") == since.get(str(info.seat))
            entry.update(resigned=info.resigned_at is not None,
                         away=None if away is None else round(max(0.0, now - away), 1),
                         votes=votes.get("voters", []) if current else [],
                         needed=pace.votes_needed(humans, info.seat) if info.seat in humans
                         else None,
                         # whether this seat resigning now ends the match (the dialog says so)
                         resign_ends=pace.last_side(m.players, teams,
                                                    resigned + [info.seat]) is not None)
        return facts

    def _local_seats(self, match_id: str) -> set[int]:
        return {c.seat for c in self.conns.get(match_id, ()) if c.seat is not None}

    def connected_seats(self, match_id: str, everything: bool = False) -> set[int]:
        """Seats with at least one open socket, in this process or (as last announced, within
        three announce periods unless ``everything``) in another one."""
        seats = self._local_seats(match_id)
        for remote, _, _ in self._fresh(match_id, everything):
            seats.update(seat for seat, n in remote.items() if n)
        return seats

    def spectators(self, match_id: str, everything: bool = False) -> int:
        """Number of spectator sockets, in this process and (as announced) the others."""
        return (sum(1 for c in self.conns.get(match_id, ()) if c.seat is None)
                + sum(watching for _, watching, _ in self._fresh(match_id, everything)))

    async def on_change(self, match_id: str, what: str, snap: Snapshot | None = None) -> None:
        """Service listener: push the new state (or a reload) to every socket of the match."""
        if not self.conns.get(match_id):
            return
        if what in ("started", "cancelled"):
            self.broadcast(match_id, {"type": "reload"})
            return
        if what.startswith("chat:"):
            await self.deliver_chat(match_id, int(what.split(":", 1)[1]))
            return
        if what.startswith("notice:"):  # the service tells the table (resign, time, vote)
            # a toast; the same text is also a stored chat line from "Lair", delivered as chat
            self.broadcast(match_id, {"type": "notice", "text": what.split(":", 1)[1]})
            return
        if what.startswith("rematch:"):
            new_id = what.split(":", 1)[1]
            self.broadcast(match_id, {"type": "rematch", "match": new_id, "url": f"/m/{new_id}"})
            return
        self.push(snap or await self.service.current(match_id))

    def broadcast(self, match_id: str, message: dict) -> None:
        """Send the same public message to every socket of a match."""
        text = _encode(message)
        for conn in list(self.conns.get(match_id, ())):
            conn.send(text)

    def push(self, snap: Snapshot, only: Connection | None = None,
             exclude: Connection | None = None) -> None:
        """Send each socket (or just ``only``; never ``exclude``) the view of its own seat:
        the views of every seat present are built together (``build_views``), one encode each."""
        m = snap.match
        targets = [only] if only else [c for c in self.conns.get(m.id, ()) if c is not exclude]
        if m.status == "open" or m.state is None:
            text = _encode({"type": "lobby", "status": m.status,
                            "seats": seats_summary(snap, self.connected_seats(m.id)),
                            "pace": pace.describe(pace.settings_of(m.settings))})
            reload = _encode({"type": "reload"})
            for conn in targets:
                seat = access.seat_of(snap, conn.user_id)
                # this viewer's own seat changed (taken on or from another of the player's
                # devices): the parts of the room drawn for it change, so draw it again
                changed = seat != conn.seat and conn.user_id is not None
                conn.seat = seat
                conn.send(reload if changed else text)
            return
        engine = registry.get(m.game, m.engine_version)
        for conn in targets:  # a seat handed to a bot (or taken back, or played on another
            conn.seat = access.seat_of(snap, conn.user_id)  # device) changes who sees what
        if not targets:
            return
        # Each socket gets the events after those it holds (``_delta``): the views of one
        # starting point are built together; usually every socket of a match is at the same.
        names = tuple(seat_names(snap))
        plans = {conn: _delta(conn, snap, names) for conn in targets}
        by_start: dict[int, list[int | None]] = defaultdict(list)
        for conn, (start, _visible, _keep) in plans.items():
            if conn.seat not in by_start[start]:
                by_start[start].append(conn.seat)
        connected, spectators = self.connected_seats(m.id), self.spectators(m.id)
        facts = self.table_facts(snap)
        views: dict[tuple[int, int | None], dict] = {}
        for start, seats in by_start.items():
            for seat, view in build_views(engine, snap, m.state, m.version, seats,
                                          connected=connected, spectators=spectators,
                                          log_from=start).items():
                view["pace"] = facts
                if m.status == "finished" and m.result:  # ranks after resignations
                    _finished_by_service(view, m.result)
                views[(start, seat)] = view
        static = engine.static_view_keys
        texts: dict[tuple, str] = {}  # one encode per (log start, seat, static parts kept)
        for conn, (start, visible, keep) in plans.items():
            view = views[(start, conn.seat)]
            key = (start, conn.seat, keep)
            if (text := texts.get(key)) is None:
                text = texts[key] = _encode({"type": "view", "view": wire_view(
                    view, visible, static if keep and isinstance(view.get("game"), dict) else ())})
            conn.send(text)
            conn.sent = (conn.seat, m.version, visible + len(view["log"]), names,
                         len(m.state["log"]))

    async def deliver_chat(self, match_id: str, line_id: int) -> None:
        """Send a stored chat line to this process's sockets of the match that may read it:
        the table channel to everyone, the spectators' channel to spectators only (who sits at
        the table is read fresh, so a seat taken a moment ago counts)."""
        line = await self.service.chat_line(match_id, line_id)
        if line is None or not self.conns.get(match_id):
            return
        snap = await self.service.snapshot(match_id)
        frame = _chat_frame(line)
        for conn in list(self.conns.get(match_id, ())):
            if line.channel == "table" or not at_table(snap, conn.user_id):
                conn.send(frame)

    def presence(self, match_id: str) -> None:
        """Tell everyone who is connected."""
        seats = sorted(self.connected_seats(match_id))
        self.broadcast(match_id, {"type": "presence",
                                  "seats": [{"seat": s, "connected": True} for s in seats],
                                  "spectators": self.spectators(match_id)})


def _delta(conn: Connection, snap: Snapshot, names: tuple) -> tuple[int, int, bool]:
    """Where ``conn``'s next view starts: ``(index in the state's log, index in the log the
    viewer sees, whether the static game parts can be left out)``; ``(0, 0, ...)`` sends the
    whole log. The log only grows between undos (``Snapshot.log_since``), so the socket's copy
    is a prefix of the new one when it is of the same seat and names, from a version since the
    latest undo and not newer than this one."""
    sent = conn.sent
    same_seat = sent is not None and sent[0] == conn.seat
    if (same_seat and sent[3] == names and snap.log_since <= sent[1] <= snap.match.version
            and sent[4] <= len(snap.match.state["log"])):
        return sent[4], sent[2], True
    return 0, 0, same_seat


def wire_view(view: dict, log_from: int, kept: tuple[str, ...]) -> dict:
    """The wire form of ``view`` (README "The wire"): its ``log`` (the events from
    ``log_from`` on) and ``kept`` naming the game parts the client keeps from its last view."""
    out = dict(view, log_from=log_from)
    if kept:
        out["game"] = {k: v for k, v in view["game"].items() if k not in kept}
        out["kept"] = list(kept)
    return out


def _finished_by_service(view: dict, result: dict) -> None:
    """The match's stored result wins over the engine's: resigned seats rank last, and a match
    ended by resignation has no engine result at all (nobody is prompted any more)."""
    view["result"] = result
    view["legal_actions"], view["labels"], view["prompt"] = [], [], None
    if isinstance(view.get("header"), dict):
        view["header"] = dict(view["header"], waiting_for=[])


def at_table(snap: Snapshot, user_id: str | None) -> bool:
    """Whether ``user_id`` belongs to the table's chat: a participant (``access.participant``:
    the host, a player, also one a bot stands in for or who plays on another device).
    Everyone else is a spectator: spectators chat in their own channel, which players never
    receive, unless the host opens the table to them (README "Playing")."""
    return access.participant(snap, user_id)


def _chat_frame(line) -> str:
    frame = {"type": "chat", "from": line.name, "text": line.text,
             "at": line.created_at.isoformat(), "channel": line.channel}
    if line.user_id is None:  # Lair's own notices (resignations, timeouts, votes, seats)
        frame["system"] = True
    return _encode(frame)


def _error(conn: Connection, code: str, message: str, ref: str | None = None) -> None:
    conn.send(_encode({"type": "error", "code": code, "message": message, "ref": ref}))


def _internal(conn: Connection, what: str, *args: Any, ref: str | None = None) -> None:
    """The server failed on this socket's message (called in an ``except``): the traceback is
    logged once with a fresh incident id, and the client gets ``internal`` with that id to
    quote (and the action's ``ref``); nothing was changed."""
    incident = secrets.token_hex(6)
    log.exception(what + " (incident %s)", *args, incident)
    _error(conn, "internal", f"The server could not process that (incident {incident}); "
                             "nothing was changed.", ref)


@router.websocket("/ws/matches/{match_id}")
async def match_socket(ws: WebSocket, match_id: str, watch: str | None = None) -> None:
    """The live table of one match for one viewer (seat from the cookie, else spectator)."""
    app = ws.app
    service: MatchService = app.state.service
    hub: Hub = app.state.hub
    settings: Settings = app.state.settings
    user_id = read_user_id(ws.cookies, settings)
    # Accept before refusing: a close code sent before the handshake reaches the browser as
    # 1006, and the client would keep retrying instead of stopping on 4403/4404.
    await ws.accept()
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"),
                          settings.allowed_origins):
        ops_events.ws_refused(match_id, 4403, "cross-site origin",
                              origin=ws.headers.get("origin"), host=ws.headers.get("host"))
        await ws.close(code=4403, reason="Cross-site websocket refused (Origin).")
        return
    code, reason = access.WS_NOT_FOUND
    try:
        snap = await service.snapshot(match_id)
        if not access.may_see(snap, user_id, watch):
            # exactly what a missing match answers (app/matches/access.py: no existence
            # oracle); only the server's own log tells the two apart
            ops_events.ws_refused(match_id, code, "private match, no link")
            await ws.close(code=code, reason=reason)
            return
        seat = access.seat_of(snap, user_id)
        user = await service.get_user(user_id)
    except ServiceError:
        ops_events.ws_refused(match_id, code, "no such match")
        await ws.close(code=code, reason=reason)
        return
    except PoolTimeout:
        await _busy_close(ws, match_id)
        return
    # a device playing a granted seat speaks with the seat's name, not its own browser's
    seat_name = snap.seats[seat].name if seat is not None else None
    conn = Connection(ws, match_id, user_id, seat,
                      seat_name or (user.name if user else "Spectator"), settings.ws_send_queue)
    sender = conn.task = asyncio.create_task(conn.sender())
    hub.conns[match_id].add(conn)
    hub.announce(match_id)
    ops_events.ws_connected(match_id, seat)
    close_code: int | None = None  # the client's close code, for the log
    try:
        # Read everything first: a client that leaves right after its first view would cancel
        # a query still running, and a query cancelled midway costs its pooled connection.
        snap = await service.current(match_id)
        # Table members never receive the spectators' channel, not even its history.
        history = await service.chat_history(
            match_id, 50, None if not at_table(snap, user_id) else ("table",))
        hub.push(snap, only=conn)
        for msg in history:
            conn.send(_chat_frame(msg))
        hub.presence(match_id)
        if seat is not None and snap.match.status == "active":
            hub.push(snap, exclude=conn)  # the others' panels show this seat as connected
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                close_code = frame.get("code")
                break
            raw = frame.get("text")
            if raw is None:  # a binary frame: the wire is JSON text only
                _error(conn, "bad_message", "Send JSON text frames, not binary ones.")
                continue
            try:
                await _handle(raw, conn, service, hub, settings)
            except PoolTimeout:  # every database connection stayed taken (DB_POOL_TIMEOUT)
                _error(conn, "busy", "The server is busy; please try again in a moment.")
            except Exception:  # a bug must cost this one message, not the socket or the server
                _internal(conn, "message failed in match %s", match_id)
    except WebSocketDisconnect as exc:
        close_code = exc.code
    except RuntimeError:  # receive after close
        pass
    except PoolTimeout:  # reading the table for this socket (each message catches its own)
        conn.close()
        await _busy_close(ws, match_id)
    finally:
        ops_events.ws_closed(match_id, seat, close_code,
                             None if close_code is not None else "closed by server")
        hub.conns[match_id].discard(conn)
        hub.note_left(match_id, conn.seat)
        if not hub.conns[match_id]:
            del hub.conns[match_id]
        hub.announce(match_id)
        conn.close()
        await asyncio.gather(sender, return_exceptions=True)
        if match_id in hub.conns:
            hub.presence(match_id)
            # No database call here: a closing handler may be cancelled, and a query cancelled
            # midway costs its pooled connection. The cached snapshot is recent enough to show
            # the others that this seat left.
            snap = service.cached(match_id)
            if seat is not None and snap is not None and snap.match.status == "active":
                hub.push(snap)


async def _busy_close(ws: WebSocket, match_id: str) -> None:
    """Every database connection stayed taken for ``DB_POOL_TIMEOUT`` while this socket was
    being set up (a crowd connecting at once): close it with 1013 "try again later", which
    the table answers by reconnecting after a moment, instead of an unhandled error."""
    ops_events.ws_refused(match_id, 1013, "database busy")
    try:
        await ws.close(code=1013, reason="The server is busy; reconnecting.")
    except Exception:  # the peer may be gone already
        pass


async def user_limit(hub: Hub, conn: Connection, rule: str) -> str | None:
    """Count one ``rule`` hit for the socket's user (a spectator without identity: its
    address); the refusal's message when over the limit, else None."""
    limiter = getattr(hub, "limiter", None)
    if limiter is None:
        return None
    client = conn.ws.client
    key = conn.user_id or "address:" + address_key(client.host if client else None)
    verdict = await limiter.hit(rule, key)
    return None if verdict.allowed else verdict.message


async def _handle(raw: str, conn: Connection, service: MatchService, hub: Hub,
                  settings: Settings) -> None:
    """Validate and execute one client message; every refusal goes to this socket only."""
    if len(raw.encode()) > settings.max_message_bytes:
        ops_events.limit_hit("ws_too_large", conn.match_id)
        _error(conn, "too_large", f"Messages are limited to {settings.max_message_bytes} bytes.")
        return
    if not conn.allow(settings.ws_rate, settings.ws_burst):
        # A flood is counted message by message but logged once until the socket slows down.
        ops_events.limit_hit("ws_rate", conn.match_id, quiet=conn.limited)
        conn.limited = True
        _error(conn, "rate_limited", "Too many messages; slow down.")
        return
    conn.limited = False
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        _error(conn, "bad_message", "That message is not valid JSON.")
        return
    ref = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
    try:
        msg = ClientMsg.validate_python(data)
    except ValidationError:
        kind = data.get("type") if isinstance(data, dict) else None
        text = (f"Unknown message type {str(kind)[:30]!r}." if kind not in ("action", "chat", "ping")
                else f"Malformed {kind} message.")
        _error(conn, "bad_message", text, ref)
        return
    if isinstance(msg, PingMsg):
        conn.send('{"type":"pong"}')
        return
    # Per user, across every socket of theirs (app.ratelimit): many sockets add no chat.
    limited = await user_limit(hub, conn, "chat" if isinstance(msg, ChatMsg) else "actions")
    if limited is not None:
        _error(conn, "rate_limited", limited, ref)
        return
    if isinstance(msg, ChatMsg):
        try:
            # Fresh from the database, not the cached snapshot: who sits at the table and
            # whether the host opened it decide who may read this line.
            snap = await service.snapshot(conn.match_id)
            channel = "table" if (at_table(snap, conn.user_id)
                                  or snap.match.spectator_chat_open) else "spectators"
            text = msg.text.replace("\x00", "")  # NUL is not text (and PostgreSQL refuses it)
            await service.post_chat(conn.match_id, conn.user_id, conn.name, text,
                                    settings.chat_max_chars, channel)
        except ServiceError as exc:
            _error(conn, exc.code, exc.message)
            return
        # post_chat's change ("chat:<id>") delivers the line, here and on the other processes
    else:
        started = time.perf_counter()
        try:
            outcome = await service.submit(conn.match_id, conn.seat, msg.id, msg.version,
                                           msg.action, actor=conn.user_id)
        except ServiceError as exc:
            code = exc.code if exc.code != "not_found" else "bad_message"
            _error(conn, code, exc.message, msg.id)
            ops_events.action_rejected(conn.match_id, conn.seat, code)
            if code != "busy":  # busy: the table did not change, and reading it would wait too
                hub.push(await service.current(conn.match_id), only=conn)
            return
        except Exception:  # a refused commit, a rules loop, a bug: the mover learns which move
            _internal(conn, "action failed in match %s", conn.match_id, ref=msg.id)
            return
        # The mover learns that its action landed (the views alone cannot tell it apart from
        # another seat's move committed meanwhile).
        conn.send(_encode({"type": "ack", "ref": msg.id, "version": outcome.version,
                           "duplicate": outcome.duplicate}))
        if outcome.applied:
            ops_events.action_sent(started)
        if outcome.duplicate:
            hub.push(await service.current(conn.match_id), only=conn)
