"""The websocket of a match (``/ws/matches/{id}``) and the handling of each client frame.

Each socket belongs to one viewer: a seat (from the identity cookie) or a spectator. It gets
its own view on connect and after every committed change (app.realtime.hub); refusals and
errors go to that socket only (docs/wire.md).
"""
from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.background import spawn
from app.identity import read_user_id
from app.matches import access, chat_policy
from app.matches.service import MatchService, ServiceError
from app.ratelimit import address_key
from app.realtime import protocol
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.settings import Settings
from app.telemetry import events as ops_events

log = logging.getLogger("lair.realtime")
router = APIRouter()


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
    if not (sep and host):
        return False
    return scheme in ("http", "https") and netloc == host.strip().lower()


def _error(conn: Connection, code: str, message: str, ref: str | None = None) -> None:
    conn.send(protocol.error_frame(code, message, ref))


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
    """The live table of one match for one viewer (seat from the cookie, else spectator):
    the origin and the sockets of its address checked (docs/wire.md "Who is on the other
    end"), then :func:`_table`."""
    hub: Hub = ws.app.state.hub
    settings: Settings = ws.app.state.settings
    # Accept before refusing: a close code sent before the handshake reaches the browser as
    # 1006, and the client would keep retrying instead of stopping on 4403/4404.
    await ws.accept()
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"),
                          settings.allowed_origins):
        ops_events.ws_refused(match_id, protocol.CLOSE_CROSS_SITE, "cross-site origin",
                              origin=ws.headers.get("origin"), host=ws.headers.get("host"))
        await ws.close(code=protocol.CLOSE_CROSS_SITE,
                       reason="Cross-site websocket refused (Origin).")
        return
    # The sockets of one client address (WS_PER_ADDRESS), before any database work: counted
    # from here until this handler ends, whichever way (the finally), so no count leaks.
    client = ws.client
    address = address_key(client.host if client else None)
    if not hub.per_address.take(address):
        # a client looping on connect is counted, and logged once until it is under the cap
        ops_events.limit_hit("ws_per_address", match_id[:100],
                             quiet=not hub.per_address.refused(address))
        try:
            await ws.close(code=protocol.CLOSE_TOO_MANY,
                           reason="Too many connections from your address.")
        except Exception:  # the peer may be gone already
            pass
        return
    try:
        await _table(ws, match_id, watch)
    finally:
        hub.per_address.release(address)


# The socket's whole life in order (viewer, admission, the loop, the goodbye): split further
# it would hide the order that makes it safe.
async def _table(ws: WebSocket, match_id: str, watch: str | None) -> None:  # noqa: C901
    """One viewer's socket on one match, from reading who it is to its goodbye."""
    app = ws.app
    service: MatchService = app.state.service
    hub: Hub = app.state.hub
    settings: Settings = app.state.settings
    user_id = read_user_id(ws.cookies, settings)
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
    except (DBAPIError, OSError):  # the database is away (an outage, a restart)
        await _busy_close(ws, match_id, "database unavailable")
        return
    # a device playing a granted seat speaks with the seat's name, not its own browser's
    seat_name = snap.seats[seat].name if seat is not None else None
    conn = Connection(ws, match_id, user_id, seat,
                      seat_name or (user.name if user else "Spectator"), settings.ws_send_queue)
    sender = conn.task = asyncio.create_task(conn.sender())
    hub.join(conn)
    hub.announce(match_id)
    ops_events.ws_connected(match_id, seat)
    close_code: int | None = None  # the client's close code, for the log
    try:
        # Read everything first: a client that leaves right after its first view would cancel
        # a query still running, and a query cancelled midway costs its pooled connection.
        snap = await service.current(match_id)
        # Table members never receive the spectators' channel, not even its history.
        history = await service.chat_history(match_id, 50, chat_policy.readable(snap, user_id))
        hub.push(snap, only=conn)
        for msg in history:
            conn.send(protocol.chat_frame(msg))
        # Lines posted while the history was read came live too (this socket joined the hub
        # first, so none is missed): only those the history does not hold follow it.
        conn.chat_history_sent(max((msg.id for msg in history), default=0))
        hub.send_presence(match_id)
        if seat is not None and snap.match.status == "active":
            hub.push(snap, exclude=conn)  # the others' panels show this seat as connected
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                close_code = frame.get("code")
                break
            try:
                await _handle(frame.get("text"), conn, service, hub, settings)
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
    except (DBAPIError, OSError):  # the database went away while it was read
        conn.close()
        await _busy_close(ws, match_id, "database unavailable")
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
            hub.send_presence(match_id)
            # No database call here: a closing handler may be cancelled, and a query cancelled
            # midway costs its pooled connection. The cached snapshot is recent enough to show
            # the others that this seat left.
            cached = service.cached(match_id)
            if seat is not None and cached is not None and cached.match.status == "active":
                hub.push(cached)


async def _busy_close(ws: WebSocket, match_id: str, why: str = "database busy") -> None:
    """Every database connection stayed taken for ``DB_POOL_TIMEOUT`` while this socket was
    being set up (a crowd connecting at once), or the database could not be reached (``why``
    "database unavailable": an outage; seen live, each table reconnecting during one cost an
    unhandled-error traceback and reached the browser as 1006): close it with 1013 "try again
    later", which the table answers by reconnecting after a moment."""
    ops_events.ws_refused(match_id, protocol.CLOSE_TRY_LATER, why)
    try:
        await ws.close(code=protocol.CLOSE_TRY_LATER, reason="The server is busy; reconnecting.")
    except Exception:  # the peer may be gone already
        pass


async def rate_limit(hub: Hub, conn: Connection, rule: str) -> str | None:
    """Count one hit of ``rule`` (``app.ratelimit.RULES``) for this socket: a rule per user
    counts for the socket's user (a spectator without identity: its address), a rule per
    address for its client address. The refusal's message when over the limit, else None."""
    limiter = getattr(hub, "limiter", None)
    if limiter is None:
        return None
    verdict = await limiter.hit(rule, rate_key(limiter, conn, rule))
    return None if verdict.allowed else verdict.message


def rate_key(limiter, conn: Connection, rule: str) -> str:
    """The bucket ``rule`` counts this socket in: its user (a spectator without identity: its
    client address) for a rule per user, its client address for a rule per address."""
    client = conn.ws.client
    address = "address:" + address_key(client.host if client else None)
    per_user = limiter.rules[rule].per == "user"
    return (conn.user_id or address) if per_user else address


async def _handle(raw: str | None, conn: Connection, service: MatchService, hub: Hub,
                  settings: Settings) -> None:
    """Validate and execute one client message (``raw``: its text; None for a binary frame);
    every refusal goes to this socket only."""
    # The rate first: an oversized or binary message is a message too, so a flood of them is
    # refused like any other flood instead of getting an unlimited stream of answers.
    if not conn.allow(settings.ws_rate, settings.ws_burst):
        # A flood is counted message by message but logged once until the socket slows down.
        ops_events.limit_hit("ws_rate", conn.match_id, quiet=conn.limited)
        conn.limited = True
        _error(conn, "rate_limited", "Too many messages; slow down.")
        return
    conn.limited = False
    if raw is None:  # a binary frame: the wire is JSON text only
        _error(conn, "bad_message", "Send JSON text frames, not binary ones.")
        return
    if len(raw.encode()) > settings.max_message_bytes:
        ops_events.limit_hit("ws_too_large", conn.match_id)
        _error(conn, "too_large", f"Messages are limited to {settings.max_message_bytes} bytes.")
        return
    try:
        msg = protocol.parse(raw)
    except protocol.BadFrame as exc:
        _error(conn, "bad_message", exc.message, exc.ref)
        return
    if isinstance(msg, protocol.PingMsg):
        conn.send(protocol.PONG)
        return
    if isinstance(msg, protocol.HintMsg):  # counted as a hint (its own limit), if it runs
        _hint(msg, conn, service, hub)
        return
    # Per user, across every socket of theirs (app.ratelimit): many sockets add no chat.
    chat = isinstance(msg, protocol.ChatMsg)
    limited = await rate_limit(hub, conn, "chat" if chat else "actions")
    if limited is not None:
        _error(conn, "rate_limited", limited, getattr(msg, "id", None))
        return
    if isinstance(msg, protocol.ChatMsg):
        await _chat(msg, conn, service, settings)
    else:
        await _act(msg, conn, service, hub)


async def _chat(msg: protocol.ChatMsg, conn: Connection, service: MatchService,
                settings: Settings) -> None:
    try:
        # Fresh from the database, not the cached snapshot: who sits at the table and
        # whether the host opened it decide who may read this line.
        snap = await service.snapshot(conn.match_id)
        await service.post_chat(conn.match_id, conn.user_id, conn.name,
                                chat_policy.clean(msg.text), settings.chat_max_chars,
                                chat_policy.channel_for(snap, conn.user_id))
    except ServiceError as exc:
        _error(conn, exc.code, exc.message)
    # post_chat's change (ChatPosted) delivers the line, here and on the other processes


async def _act(msg: protocol.ActionMsg, conn: Connection, service: MatchService,
               hub: Hub) -> None:
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
    conn.send(protocol.ack_frame(msg.id, outcome.version, outcome.duplicate))
    if outcome.applied:
        ops_events.action_sent(started)
    if outcome.duplicate:
        hub.push(await service.current(conn.match_id), only=conn)


def _hint(msg: protocol.HintMsg, conn: Connection, service: MatchService, hub: Hub) -> None:
    """Start answering a hint request (app.matches.hints) in its own task: the search takes up
    to a hard decision's time, and the socket keeps reading meanwhile (pings, chat, its own
    move). One hint at a time per socket."""
    if conn.hinting is not None and not conn.hinting.done():
        _error(conn, "busy", "A hint is already being thought over.", msg.ref)
        return
    conn.hinting = spawn(_answer_hint(msg, conn, service, hub), f"hint in {conn.match_id}",
                         service.tasks)


async def _answer_hint(msg: protocol.HintMsg, conn: Connection, service: MatchService,
                       hub: Hub) -> None:
    """The hint, or the typed error, to this socket only; everyone's views then list the use."""
    async def charge():  # the limits, once the request is known to be valid
        # per user, then per address: many guests or anonymous spectators behind one address
        # share one budget of the search workers' CPU
        for rule in ("hints", "hints_address"):
            limited = await rate_limit(hub, conn, rule)
            if limited is not None:
                raise ServiceError("rate_limited", limited)

        async def refund() -> None:  # no worker came free: the hint cost nothing
            for rule in ("hints", "hints_address"):
                await hub.limiter.refund(rule, rate_key(hub.limiter, conn, rule))
        return refund if getattr(hub, "limiter", None) is not None else None

    try:
        hint = await service.hint(conn.match_id, conn.user_id, msg.version, charge)
    except ServiceError as exc:
        _error(conn, exc.code, exc.message, msg.ref)
        return
    except PoolTimeout:
        _error(conn, "busy", "The server is busy; please try again in a moment.", msg.ref)
        return
    except Exception:  # a worker that died, a bug: this request fails, nothing changed
        _internal(conn, "hint failed in match %s", conn.match_id, ref=msg.ref)
        return
    conn.send(protocol.hint_frame(msg.ref, hint.version, hint.action, hint.reason))
