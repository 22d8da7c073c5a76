"""The match service: one object the routes, the websocket hub and the operator tools talk to.

A thin facade: each operation lives in the module that has its job, and is handed out here
under the name the callers have always used.

=================  ==========================================================================
``store``          sessions, per-match locks, the snapshot cache, the change bus
``moves``          the path of every move: decide once, commit (``commit``), tell listeners
``lobby``          users, the lobby's lists, create / start / cancel / end a match
``links``          invite, spectator and rejoin links; a seat on a player's other devices
``seats``          take, leave, set seats; bots standing in; the host role; rematch
``chat``           chat lines and the table's notices
``pace.seats``     set the pace, resign, vote a bot in, expire seats out of time
``bots``           the bot runner (it subscribes to the changes; nothing calls it)
``hints``          "Suggest a move": the hard bot's choice for the asking seat; each use kept
=================  ==========================================================================

A move, from the socket to every viewer: ``app.realtime`` -> :meth:`Moves.submit`
(``app/matches/moves.py``: lock, :func:`~app.matches.moves.decide`) -> ``app/matches/commit.py``
(one transaction) -> ``Store.changed`` (``app/matches/store.py``) -> the hub sends each viewer
its view (``app/matches/views.py``); the bot runner (``app/matches/bots.py``) plays on.
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.matches.botpool import BotPool
from app.matches.bots import BotRunner
from app.matches.chat import Chat
from app.matches.commit import BOT
from app.matches.errors import ErrorCode, ServiceError
from app.matches.hints import Hints
from app.matches.links import Links
from app.matches.lobby import Lobby, new_match_id
from app.matches.moves import Moves
from app.matches.pace.seats import PaceSeats
from app.matches.seats import Seats
from app.matches.snapshot import Outcome, SeatInfo, Snapshot
from app.matches.store import Listener, Store

__all__ = ["BOT", "ErrorCode", "Listener", "MatchService", "Outcome", "SeatInfo",
           "ServiceError", "Snapshot", "new_match_id"]


class MatchService:
    """Lobby and play operations on matches, safe against concurrent requests and processes."""

    def __init__(self, sessionmaker: async_sessionmaker, *, bot_delay: float = 0.6,
                 bot_pool: BotPool | None = None):
        self.store = store = Store(sessionmaker)
        self.chat = Chat(store)
        self.lobby_ops = Lobby(store)
        self.links = Links(store)
        self.seats = Seats(store, self.chat, self.lobby_ops)
        self.moves = Moves(store)
        self.pace = PaceSeats(store, self.chat)
        self.bots = BotRunner(store, self.moves, delay=bot_delay, pool=bot_pool)
        self.hints = Hints(store, self.bots.pool, self.moves)

        # reading and the change bus (app/matches/store.py)
        self.subscribe = store.subscribe
        self.changed = store.changed
        self.snapshot = store.snapshot
        self.current = store.current
        self.cached = store.cached
        self.heads = store.heads
        self.forget = store.forget
        self.remembered = store.remembered
        self.footprint = store.footprint
        self.actions = store.actions
        # users, the lobby, a match's life (app/matches/lobby.py)
        self.ensure_user = self.lobby_ops.ensure_user
        self.get_user = self.lobby_ops.get_user
        self.lobby = self.lobby_ops.lobby
        self.create_match = self.lobby_ops.create_match
        self.start = self.lobby_ops.start
        self.cancel = self.lobby_ops.cancel
        self.end = self.lobby_ops.end
        # links and devices (app/matches/links.py)
        self.by_token = self.links.by_token
        self.seat_by_rejoin = self.links.seat_by_rejoin
        self.make_rejoin_link = self.links.make_rejoin_link
        self.grant_seat = self.links.grant_seat
        self.take_seat_here = self.links.take_seat_here
        self.replace_link = self.links.replace_link
        # seats (app/matches/seats.py)
        self.take_seat = self.seats.take_seat
        self.leave_seat = self.seats.leave_seat
        self.set_seat = self.seats.set_seat
        self.fill_with_bots = self.seats.fill_with_bots
        self.replace_with_bot = self.seats.replace_with_bot
        self.reclaim_seat = self.seats.reclaim_seat
        self.set_host = self.seats.set_host
        self.set_spectator_chat = self.seats.set_spectator_chat
        self.rematch = self.seats.rematch
        self.rematch_id = self.seats.rematch_id
        self.mark_away = self.seats.mark_away
        self.mark_back = self.seats.mark_back
        # play (app/matches/moves.py) and chat (app/matches/chat.py)
        self.submit = self.moves.submit
        self.post_chat = self.chat.post_chat
        self.chat_line = self.chat.chat_line
        self.chat_history = self.chat.chat_history
        # pace (app/matches/pace/seats.py)
        self.set_pace = self.pace.set_pace
        self.resign = self.pace.resign
        self.vote_replace = self.pace.vote_replace
        self.expire_due = self.pace.expire_due
        # bots (app/matches/bots.py)
        self.schedule_bots = self.bots.schedule
        self.resume_bots = self.bots.resume
        # hints (app/matches/hints.py)
        self.hint = self.hints.suggest

    # ----- shared settings, kept where they are used ------------------------------------------
    @property
    def sm(self) -> async_sessionmaker:
        """The session factory."""
        return self.store.sm

    @property
    def notifier(self) -> Any:
        """The cross-process fan-out (``Store.notifier``), None on SQLite."""
        return self.store.notifier

    @notifier.setter
    def notifier(self, value: Any) -> None:
        self.store.notifier = value

    @property
    def now(self) -> Callable[[], Any]:
        """The clock of every pace rule (``Store.now``; tests set a fake one)."""
        return self.store.now

    @now.setter
    def now(self, value: Callable[[], Any]) -> None:
        self.store.now = value

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before it moves."""
        return self.bots.delay

    @bot_delay.setter
    def bot_delay(self, value: float) -> None:
        self.bots.delay = value

    @property
    def bot_pool(self) -> BotPool:
        """Where the bots decide."""
        return self.bots.pool

    @property
    def bot_retry_first(self) -> float:
        """The first wait (s) after a failed bot move; it doubles with each failure."""
        return self.bots.retry_first

    @bot_retry_first.setter
    def bot_retry_first(self, value: float) -> None:
        self.bots.retry_first = value

    @property
    def stopping(self) -> bool:
        """Set at shutdown (app.ops.shutdown): no new bot move starts."""
        return self.bots.stopping

    @stopping.setter
    def stopping(self, value: bool) -> None:
        self.bots.stopping = value

    @property
    def handoff(self) -> set[str]:
        """The matches whose bot moves another process must make (after ``stopping``)."""
        return self.bots.handoff

    @property
    def tasks(self) -> set[asyncio.Task]:
        """The service's background work in flight (bot moves, webhook calls)."""
        return self.store.tasks

    @property
    def locks(self) -> dict[str, asyncio.Lock]:
        """The per-match locks (an operation in flight holds its match's)."""
        return self.store.locks

    # ----- across modules ---------------------------------------------------------------------
    def drop(self, match_id: str) -> bool:
        """Free what this process keeps in memory for the match (all of it reloads from the
        database when needed), unless it is in use: its lock held or awaited, or a bot move
        pending. Returns whether it was freed."""
        if self.store.in_use(match_id) or self.bots.busy(match_id):
            return False
        self.store.drop(match_id)
        self.bots.forget(match_id)
        return True

    async def drain(self) -> None:
        """Wait for the running background tasks (tests and shutdown)."""
        while self.store.tasks:
            await asyncio.gather(*list(self.store.tasks), return_exceptions=True)

    def pending(self) -> int:
        """How many background tasks are running (the shutdown logs it)."""
        return len(self.store.tasks)

    async def settle(self) -> None:
        """Wait for the running background tasks, then for every action holding its match's
        lock (app.ops.shutdown). The lock covers an action's decision and commit, not its
        listeners: they are told after the lock is released, by the same ``submit`` call. So
        once this returns, every move that was being decided is committed or refused; a view
        it owes a socket may still be on its way."""
        await self.drain()
        for lock in list(self.store.locks.values()):
            async with lock:
                pass
