"""One open websocket: its viewer, its bounded send queue and its message allowance; and the
count of this process's open sockets per client address (:class:`SocketsPerAddress`).

A socket that falls too far behind (its queue full) is closed: the client reconnects and
receives the whole view again, instead of the server holding an unbounded backlog for it.
"""
from __future__ import annotations

import asyncio
import time

from fastapi import WebSocket

from app.realtime.protocol import CLOSE_TRY_LATER
from app.telemetry import events as ops_events

#: Holds a presence frame's place in a send queue; the sender sends the newest presence then.
_PRESENCE_SLOT = "\x00presence"


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
        #: The hint being thought over for this socket (app.realtime.socket), if any.
        self.hinting: asyncio.Task | None = None
        #: Live chat lines ``(line id, frame)`` that arrived before the socket's chat history
        #: was sent (None once it was): ``send_chat`` holds them, ``chat_history_sent``
        #: sends those the history did not hold, so no line comes twice or out of order.
        self.chat_held: list[tuple[int, str]] | None = []
        #: The newest presence frame while one waits in the queue (else None): see
        #: :meth:`send_presence`.
        self.presence: str | None = None

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

    def send_presence(self, frame: str) -> None:
        """Queue who is connected now. A presence frame still waiting in the queue is
        replaced, not followed by another: only the newest is true. A crowd of sockets leaving
        at once (each leave tells everyone) otherwise filled a reading player's queue with
        presence frames and closed it as too slow."""
        waiting = self.presence is not None
        self.presence = frame
        if not waiting:
            self.send(_PRESENCE_SLOT)

    def send_chat(self, line_id: int, frame: str) -> None:
        """Queue a live chat line (stored line ``line_id``), or hold it while this socket's
        history is still being read."""
        if self.chat_held is not None:
            self.chat_held.append((line_id, frame))
        else:
            self.send(frame)

    def chat_history_sent(self, last_id: int) -> None:
        """The history (lines up to ``last_id``, 0: none) was queued: the live lines held
        meanwhile that are newer follow it, in order; from now on lines go out at once."""
        held, self.chat_held = self.chat_held or [], None
        for line_id, frame in sorted(held):
            if line_id > last_id:
                self.send(frame)

    def close(self) -> None:
        """Stop the sender (the socket closes; the client reconnects)."""
        if not self.closed:
            self.closed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    async def sender(self) -> None:
        """Write queued frames in order until closed, then close the socket with 1013."""
        try:
            while (text := await self.queue.get()) is not None:
                if text == _PRESENCE_SLOT:
                    text, self.presence = self.presence or "", None
                self.writing = True
                await self.ws.send_text(text)
                self.writing = False
        except Exception:
            pass
        finally:
            self.closed = True
            try:  # a stalled peer cannot take a close frame: give up after a moment
                async with asyncio.timeout(2):  # (3.11's wait_for can swallow a cancel)
                    await self.ws.close(code=CLOSE_TRY_LATER)
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


class SocketsPerAddress:
    """This process's open sockets per client address (``app.ratelimit.address_key``'s bucket:
    the trusted address, IPv6 by /64), held to ``cap`` (``WS_PER_ADDRESS``; 0: no cap). Each
    socket costs memory and a share of every push to its match: one address with 200 sockets
    took 10 MB and slowed another player's views from 0.2 s to 1.3 s. Every :meth:`take` that
    returned True is followed by exactly one :meth:`release` (``app.realtime.socket`` holds it
    in a ``try``/``finally``); an address with no socket left is forgotten."""

    def __init__(self, cap: int):
        self.cap = cap
        self.open: dict[str, int] = {}
        #: Addresses refused since they were last under the cap: their next refusals are
        #: counted, not logged (a client looping on connect would fill the log).
        self.crowded: set[str] = set()

    def take(self, address: str) -> bool:
        """Count a socket of ``address`` opening: False (not counted) when it already has
        ``cap`` open."""
        count = self.open.get(address, 0)
        if 0 < self.cap <= count:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        """A socket counted by :meth:`take` closed."""
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)
        if count < self.cap:
            self.crowded.discard(address)

    def refused(self, address: str) -> bool:
        """Note a refusal of ``address``: True when it is the first since it was under the cap
        (log that one)."""
        first = address not in self.crowded
        self.crowded.add(address)
        return first
