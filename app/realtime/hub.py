"""This process's sockets by match, and what they are sent after every committed change.

Each socket gets the view of its own seat (app.matches.views.live_views) on connect and after
every change; a view carries only the log events and game parts the socket lacks (docs/wire.md
"Deltas"). The hub listens to the service's changes (app.matches.changes) and to the other
processes' (app.realtime.fanout) and turns them into frames; it decides no match rule.
"""
from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from app.background import spawn
from app.matches import access, chat_policy
from app.matches.changes import Cancelled, Change, ChatPosted, Notice, Rematch, Started
from app.matches.service import MatchService, Snapshot
from app.matches.views import Presence, live_views, lobby_view, seat_names
from app.realtime import protocol
from app.realtime.connection import Connection, SocketsPerAddress
from app.realtime.presence import Announce, PresenceTracker
from app.settings import Settings
from engines import registry


class Hub:
    """This process's sockets by match, and the push of views after every change."""

    def __init__(self, service: MatchService, settings: Settings):
        self.service = service
        self.settings = settings
        self.conns: dict[str, set[Connection]] = defaultdict(set)
        self.tracker = PresenceTracker(self.conns, lambda: service.now().timestamp())
        self._announcing: set[asyncio.Task] = set()
        #: The away-time writes in flight, by ``(match id, seat)`` (``_store``).
        self._writes: dict[tuple[str, int], asyncio.Task] = {}
        #: Per-user rate limits (an ``app.ratelimit.Limiter``, set by the app; None: none).
        self.limiter: Any = None
        #: Open sockets per client address in this process (``WS_PER_ADDRESS``).
        self.per_address = SocketsPerAddress(settings.ws_per_address)
        service.subscribe(self.on_change)

    # ----- presence (app.realtime.presence) ----------------------------------------------------
    @property
    def left_at(self) -> dict[tuple[str, int], float]:
        """When each seat's last socket closed (epoch s), by ``(match id, seat)``."""
        return self.tracker.left_at

    def connected_seats(self, match_id: str) -> set[int]:
        """Seats with an open socket, here or in another process."""
        return self.tracker.connected_seats(match_id)

    def spectators(self, match_id: str) -> int:
        """Spectator sockets, here and in the other processes."""
        return self.tracker.spectators(match_id)

    def away_since(self, snap: Snapshot, seat: int) -> float | None:
        """Since when (epoch s) ``seat`` has no socket open anywhere, or None: as this
        process saw it, else as stored with the seat (``snap``: the match as loaded)."""
        stored = snap.seats[seat].away_since if 0 <= seat < len(snap.seats) else None
        return self.tracker.away_since(snap.match.id, seat, stored)

    def presence_of(self, snap: Snapshot) -> Presence:
        """The match's presence as data, for views (the away times this process did not see
        come from the seats as stored)."""
        return self.tracker.presence_of(snap.match.id, len(snap.seats),
                                        {i.seat: i.away_since for i in snap.seats})

    def join(self, conn: Connection) -> None:
        """Count a socket that opened. If its seat had none open anywhere, its player is back:
        the stored away time is cleared (in the background)."""
        back = self.tracker.note_joined(conn.match_id, conn.seat)
        self.conns[conn.match_id].add(conn)
        if back and conn.seat is not None:
            self._store(partial(self.service.mark_back, conn.match_id, conn.seat,
                                self.tracker.now()), conn.match_id, conn.seat)

    def note_left(self, match_id: str, seat: int | None) -> None:
        """A socket of ``seat`` closed (the player is away if it was the seat's last: since
        when is stored, in the background)."""
        at = self.tracker.note_left(match_id, seat)
        if at is not None and seat is not None:
            self._store(partial(self.service.mark_away, match_id, seat, at), match_id, seat)

    def _stored_away(self, match_id: str, seats: list[int]) -> None:
        """``seats`` turned away as another process's announce (or its silence) tells."""
        for seat in seats:
            at = self.tracker.left_at.get((match_id, seat))
            if at is not None:
                self._store(partial(self.service.mark_away, match_id, seat, at), match_id, seat)

    def _store(self, write: Callable[[], Awaitable[None]], match_id: str, seat: int) -> None:
        # Its own task: a closing socket handler may be cancelled, and a query cancelled midway
        # costs its pooled connection. Kept in the service's tasks: drained at shutdown and by
        # the tests. A failed write is logged; this process still remembers the time. The
        # writes of one seat take turns, in the order their events happened (a leave written
        # after the reconnect that followed it would leave a connected player's time stored);
        # only those in flight are kept here.
        key = (match_id, seat)
        before = self._writes.get(key)

        async def in_turn() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            await write()

        task = self._writes[key] = spawn(in_turn(), f"away time in {match_id}",
                                         self.service.tasks)
        task.add_done_callback(
            lambda done: self._writes.pop(key) if self._writes.get(key) is done else None)

    def announce(self, match_id: str) -> None:
        """Tell the other processes how many sockets each seat of the match has here (no-op
        without a fan-out). Runs as its own task: a closing socket handler may be cancelled,
        and a notify cancelled midway would cost the fan-out its connection."""
        notifier = self.service.notifier
        if notifier is None:
            return
        spawn(notifier.publish(match_id, self.tracker.local(match_id)),
              f"presence of {match_id}", self._announcing)

    def remote_presence(self, match_id: str, origin: str, announce: Announce) -> None:
        """Another process announced its sockets: this process's sockets are told when the
        table's presence changed."""
        changed, seats, gone = self.tracker.heard(match_id, origin, announce)
        self._stored_away(match_id, gone)
        self._presence_changed(match_id, changed, seats)

    def _presence_changed(self, match_id: str, changed: bool, seats: bool) -> None:
        if not changed or not self.conns.get(match_id):
            return
        self.send_presence(match_id)
        snap = self.service.cached(match_id)
        if seats and snap is not None and snap.match.status == "active":
            self.push(snap)  # the seat panels' dots and away timers

    async def keep_announcing(self) -> None:
        """Every ``PresenceTracker.EVERY`` seconds: announce this process's matches again, and
        forget what processes that stopped announcing had said."""
        while True:
            await asyncio.sleep(self.tracker.EVERY)
            for match_id in list(self.conns):
                self.announce(match_id)
            for match_id, seats, gone in self.tracker.forget_stale():
                self._stored_away(match_id, gone)
                self._presence_changed(match_id, True, seats)

    def send_presence(self, match_id: str) -> None:
        """Tell everyone who is connected."""
        frame = protocol.presence_frame(sorted(self.connected_seats(match_id)),
                                        self.spectators(match_id))
        for conn in list(self.conns.get(match_id, ())):
            conn.send_presence(frame)

    # ----- changes ---------------------------------------------------------------------------
    async def on_change(self, match_id: str, change: Change, snap: Snapshot | None = None
                        ) -> None:
        """Service listener: push the new state (or a reload, a chat line, a toast) to every
        socket of the match."""
        if not self.conns.get(match_id):
            return
        if isinstance(change, (Started, Cancelled)):
            self.broadcast_text(match_id, protocol.RELOAD)
        elif isinstance(change, ChatPosted):
            await self.deliver_chat(match_id, change.line_id)
        elif isinstance(change, Notice):  # the service tells the table (resign, time, vote)
            # a toast; the same text is also a stored chat line from "Lair", delivered as chat
            self.broadcast_text(match_id, protocol.notice_frame(change.text))
        elif isinstance(change, Rematch):
            self.broadcast_text(match_id, protocol.rematch_frame(change.match_id))
        else:
            self.push(snap or await self.service.current(match_id))

    def broadcast_text(self, match_id: str, text: str) -> None:
        """Send the same public frame to every socket of a match."""
        for conn in list(self.conns.get(match_id, ())):
            conn.send(text)

    async def deliver_chat(self, match_id: str, line_id: int) -> None:
        """Send a stored chat line to this process's sockets of the match that may read it
        (app.matches.chat_policy; who sits at the table is read fresh, so a seat taken a
        moment ago counts)."""
        line = await self.service.chat_line(match_id, line_id)
        if line is None or not self.conns.get(match_id):
            return
        snap = await self.service.snapshot(match_id)
        frame = protocol.chat_frame(line)
        for conn in list(self.conns.get(match_id, ())):
            if chat_policy.may_read(snap, conn.user_id, line.channel):
                conn.send_chat(line.id, frame)

    # ----- views -----------------------------------------------------------------------------
    def push(self, snap: Snapshot, only: Connection | None = None,
             exclude: Connection | None = None) -> None:
        """Send each socket (or just ``only``; never ``exclude``) the view of its own seat:
        the views of every seat present are built together (``live_views``), one encode each."""
        m = snap.match
        targets = [only] if only else [c for c in self.conns.get(m.id, ()) if c is not exclude]
        # Never a view older than one the socket holds: a push from a snapshot read before a
        # newer move's push (a presence change, a stale cache) would take its table back a move.
        targets = [c for c in targets if c.sent is None or c.sent[1] <= m.version]
        if m.status == "open" or m.state is None:
            self._push_lobby(snap, targets)
            return
        for conn in targets:  # a seat handed to a bot (or taken back, or played on another
            conn.seat = access.seat_of(snap, conn.user_id)  # device) changes who sees what
        if not targets:
            return
        engine = registry.get(m.game, m.engine_version)
        # Each socket gets the events after those it holds (``_delta``): the views of one
        # starting point are built together; usually every socket of a match is at the same.
        names = tuple(seat_names(snap))
        plans = {conn: _delta(conn, snap, names) for conn in targets}
        by_start: dict[int, list[int | None]] = defaultdict(list)
        for conn, (start, _visible, _keep) in plans.items():
            if conn.seat not in by_start[start]:
                by_start[start].append(conn.seat)
        presence = self.presence_of(snap)
        now = self.service.now().timestamp()
        views: dict[tuple[int, int | None], dict] = {}
        for start, seats in by_start.items():
            for seat, view in live_views(engine, snap, seats, presence, now,
                                         log_from=start).items():
                views[(start, seat)] = view
        static = engine.static_view_keys
        texts: dict[tuple, str] = {}  # one encode per (log start, seat, static parts kept)
        for conn, (start, visible, keep) in plans.items():
            view = views[(start, conn.seat)]
            key = (start, conn.seat, keep)
            if (text := texts.get(key)) is None:
                text = texts[key] = protocol.view_frame(
                    view, visible, static if keep and isinstance(view.get("game"), dict) else ())
            conn.send(text)
            conn.sent = (conn.seat, m.version, visible + len(view["log"]), names,
                         len(m.state["log"]))

    def _push_lobby(self, snap: Snapshot, targets: list[Connection]) -> None:
        text = protocol.lobby_frame(lobby_view(snap, self.presence_of(snap)))
        for conn in targets:
            seat = access.seat_of(snap, conn.user_id)
            # this viewer's own seat changed (taken on or from another of the player's
            # devices): the parts of the room drawn for it change, so draw it again
            changed = seat != conn.seat and conn.user_id is not None
            conn.seat = seat
            conn.send(protocol.RELOAD if changed else text)


def _delta(conn: Connection, snap: Snapshot, names: tuple) -> tuple[int, int, bool]:
    """Where ``conn``'s next view starts: ``(index in the state's log, index in the log the
    viewer sees, whether the static game parts can be left out)``; ``(0, 0, ...)`` sends the
    whole log. The log only grows between undos (``Snapshot.log_since``), so the socket's copy
    is a prefix of the new one when it is of the same seat and names, from a version since the
    latest undo and not newer than this one."""
    sent = conn.sent
    if sent is None or sent[0] != conn.seat:
        return 0, 0, False
    if (sent[3] == names and snap.log_since <= sent[1] <= snap.match.version
            and sent[4] <= len(snap.match.started_state["log"])):
        return sent[4], sent[2], True
    return 0, 0, True
