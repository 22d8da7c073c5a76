"""Where bot decisions run (issue 17, "Thinking never slows other tables").

``easy`` and ``normal`` decide in milliseconds: a thread of the server process. ``hard`` searches
for up to ``BOT_THINK_SECONDS`` of CPU (default 1 s): it runs in a pool of at most cores - 1
worker processes, spawned (never forked from the running server: no copy of its sockets, locks
or event loop), at the lowest OS priority (``nice 19`` and, on Linux, ``SCHED_IDLE``), so the
event loop and the other tables' moves keep their core. A worker ends itself within about a second once the server process is
gone (killed with -9, its queue is never closed, and the worker would wait on it for ever). If
the pool cannot decide (it could not start, a worker died), the move is played at the ``normal``
level instead and the failure is logged.

The worker receives the engine object (pickled by reference to its class, so a match's engine
version travels with it), the state, the seat and the budget; it returns the action. Hints
(app.matches.hints) are the hard level's decisions too, and run in the same pool.

Jobs beyond the pool's size wait in the pool's own queue in the server process, not in the
executor's: the executor is handed at most one job per worker, so what runs next is chosen
when a worker comes free. A hint (a player looks at the screen, waiting) goes before the bot
decisions waiting (a bot's move can wait a little); each kind keeps its order of arrival. So a
hint waits at most for the searches already running (one decision's budget each) and the hints
asked before it, never for the whole queue of bot decisions. A bot decision is not starved by a
steady trickle of hints: while one waits, at most ``hint_streak`` (default :data:`HINT_STREAK`)
hints start in a row before it. A hint that waited ``hint_wait`` seconds
(``HINT_WAIT_SECONDS``) for a worker is given up with :class:`PoolBusy` (the asker gets
``busy``: ask again), never answered by a weaker level; a bot decision waits as long as it
takes. Server stop (:meth:`BotPool.close`) cancels the jobs still waiting. A match that ends
or is cancelled drops its decisions still waiting (:meth:`BotPool.drop`): nobody would play
them, and each would hold a worker for a whole budget while live tables' bots wait behind it.

The pool counts its jobs (:class:`PoolStats`) and :meth:`BotPool.probe` reports them with its
workers' process ids: the load benchmark (``bench/hardbots.py``) reads them to show the hard bots
were thinking while it measured the other tables.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from engines import levels
from engines.base import Action, Engine, Rng, State

log = logging.getLogger("lair.bots")

T = TypeVar("T")


def default_workers() -> int:
    """cores - 1, at least 1."""
    return max(1, (os.cpu_count() or 2) - 1)


#: Queue priorities (lower first): a hint, then a bot decision.
HINT, DECISION = 0, 1

#: Hints that may start in a row while a bot decision waits (then the decision goes).
HINT_STREAK = 3


class PoolBusy(Exception):
    """A hint waited longer than the pool's ``hint_wait`` seconds for a worker (the workers
    stayed busy with searches): it was never started."""


#: Seconds between a worker's looks at whether the server process that started it still lives.
PARENT_POLL = 1.0


def lowest_priority() -> None:
    """Give this process the lowest CPU priority there is: ``nice 19`` everywhere, and on Linux
    the ``SCHED_IDLE`` policy. Nice 19 alone still takes a share of a core the server wants
    (on a 2-core machine the tables' p99 rose 1.3-1.8x with a search beside them: bench/README.md),
    and the kernel places a waking server thread on a free core only: a core running a
    ``SCHED_IDLE`` task counts as free, and any other task preempts it at once. Neither needs a
    privilege (only raising a priority does)."""
    try:
        os.nice(19)
    except OSError:  # not permitted here: still correct, only less polite
        pass
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:  # a sandbox refusing it: nice 19 stays
            pass


def _init_worker(parent: int) -> None:
    """Worker initializer: the lowest CPU priority (:func:`lowest_priority`: searches yield to
    the server), and a daemon thread that ends the worker once ``parent`` (the server's pid) is
    no longer its parent."""
    lowest_priority()
    threading.Thread(target=_watch_parent, args=(parent,), name="lair-parent-watch",
                     daemon=True).start()


def _watch_parent(parent: int) -> None:
    """Poll the parent pid every :data:`PARENT_POLL` s; when it changed (the server died and
    the worker was handed to init or a subreaper), exit at once: nobody is left to read the
    result, and a lingering worker would hold its memory (and, mid-search, a core)."""
    while True:
        if os.getppid() != parent:
            os._exit(0)  # no cleanup to wait for: the queues' other end is gone
        time.sleep(PARENT_POLL)


def _hard_decision(engine: Engine, state: State, seat: int, seconds: float) -> Action:
    """Run in a worker: the ``hard`` level's action (seeded from the seat's view and OS
    randomness: see :func:`engines.search.search_rng`)."""
    from engines.search import Budget
    bot = levels.hard_bot(engine, Budget(seconds=seconds))
    return bot(engine, state, seat, Rng(0))


def _hint_decision(engine: Engine, state: State, seat: int, budget) -> tuple[Action, dict]:
    """Run in a worker: the ``hard`` level's action for a hint, and the search's statistics
    (``engines.search.decide``'s ``stats``: the hint's reason is made of them)."""
    from engines.search import decide
    stats: dict = {}
    action = decide(engine, levels.spec_of(engine), state, seat, budget, stats)
    return action, stats


@dataclass
class PoolStats:
    """Jobs (hard decisions and hints) handed to the worker pool since the server started:
    ``submitted``, of which ``done`` (answered) and ``failed`` (raised, cancelled, or a hint
    given up with :class:`PoolBusy`); the others are ``in_flight`` (running in a worker or
    waiting in the pool's queue). ``dropped``: of the failed, the decisions of matches that
    were over before a worker came free (:meth:`BotPool.drop`)."""

    submitted: int = 0
    done: int = 0
    failed: int = 0
    dropped: int = 0

    @property
    def in_flight(self) -> int:
        return self.submitted - self.done - self.failed


class BotPool:
    """Runs bot decisions off the event loop. ``workers``: the process pool's size (default
    cores - 1); ``seconds``: the hard level's CPU budget per decision; ``hint_wait``: the
    longest a hint waits for a worker, in seconds (None: no limit); ``hint_streak``: hints
    that may start in a row while a bot decision waits (at least 1).

    Used from one event loop at a time (the server's; a test's ``asyncio.run``): the queue is
    kept by that loop's thread, without locks."""

    def __init__(self, workers: int | None = None, seconds: float = 1.0,
                 hint_wait: float | None = 20.0, hint_streak: int = HINT_STREAK):
        self.workers = workers or default_workers()
        self.seconds = seconds
        self.hint_wait = hint_wait
        self.hint_streak = max(1, hint_streak)
        self._pool: ProcessPoolExecutor | None = None
        #: Workers are spawned: never forked from the running server (its sockets, its loop).
        self._context = multiprocessing.get_context("spawn")
        self.stats = PoolStats()
        #: Jobs holding a worker (handed to the executor, or about to be): at most ``workers``.
        self._running = 0
        #: The jobs waiting for a worker, per priority (:data:`HINT`, :data:`DECISION`), in
        #: order of arrival: each a future set when the job may start, and its tag (the
        #: match of a bot decision, for :meth:`drop`; None for a hint).
        self._waiting: tuple[deque[tuple[asyncio.Future[None], str | None]], ...] = (
            deque(), deque())
        #: Hints started in a row while a bot decision waited (:meth:`_next`).
        self._hints_in_a_row = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=self._context,
                initializer=_init_worker, initargs=(os.getpid(),))
        return self._pool

    async def decide(self, engine: Engine, bot_name: str, state: State, seat: int,
                     rng: Rng, tag: str | None = None) -> Action:
        """The action of bot ``bot_name`` (a level, an old name or a game's own bot) for
        ``seat``. ``tag`` (the match id) lets :meth:`drop` cancel a hard decision still waiting
        for a worker. Raises ``KeyError`` for a bot the game does not have, ``CancelledError``
        for a decision dropped."""
        name = levels.canonical(bot_name)
        bots = levels.bots(engine)
        if name not in bots:
            raise KeyError(bot_name)
        if name == "hard":
            try:
                return await self._in_worker(_hard_decision, engine, state, seat, self.seconds,
                                             priority=DECISION, tag=tag)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("hard bot pool failed; playing this move at the normal level",
                            exc_info=True)
                name = "normal"
        return await asyncio.to_thread(bots[name], engine, state, seat, rng)

    async def hint(self, engine: Engine, state: State, seat: int, budget=None
                   ) -> tuple[Action, dict]:
        """The hard level's choice for ``seat`` and the search's statistics, decided in the
        worker pool like a hard bot's move (never on the event loop). ``budget``: an
        ``engines.search.Budget`` (default: ``seconds`` of CPU, seeded from the seat's view and
        OS randomness). The game must have a search spec (``levels.spec_of``). It goes before
        the bot decisions waiting for a worker. Raises :class:`PoolBusy` when it waited
        ``hint_wait`` seconds for one, and what the pool raises (a worker that died:
        ``BrokenProcessPool``; the pool is then reset)."""
        from engines.search import Budget
        return await self._in_worker(_hint_decision, engine, state, seat,
                                     budget or Budget(seconds=self.seconds), priority=HINT)

    async def _in_worker(self, fn: Callable[..., T], *args: Any, priority: int = DECISION,
                         tag: str | None = None) -> T:
        """``fn(*args)`` in a worker process, awaited without blocking the event loop and
        counted in :attr:`stats`; its result, or what it raised. It waits for a worker in the
        pool's queue at ``priority`` (:data:`HINT` or :data:`DECISION`; see :meth:`_turn`). A
        pool that cannot run it any more (a worker died: ``BrokenExecutor``) is dropped first,
        so the next decision starts a new one; the error is re-raised: each caller decides what
        a failed decision means (a hard bot plays the normal level; a hint reports the failure,
        as ``normal`` would read the real state)."""
        self.stats.submitted += 1
        try:
            await self._turn(priority, tag)
            try:
                out = await asyncio.get_running_loop().run_in_executor(
                    self._executor(), fn, *args)
            except BrokenExecutor:
                self._reset()  # before the next job is let in: it starts a new pool
                raise
            finally:
                # Cancelled mid-search (only at shutdown) the place is given on at once: its
                # search may still finish in the worker while the next job waits in the executor.
                self._release()
        except BaseException:  # CancelledError too: the caller no longer waits for it
            self.stats.failed += 1
            raise
        self.stats.done += 1
        return out

    async def _turn(self, priority: int, tag: str | None = None) -> None:
        """Wait until a job of ``priority`` may hand itself to the executor (it then holds a
        worker until :meth:`_release`). At once if a worker is free and nobody waits; else in
        the queue, picked by :meth:`_next`. Raises :class:`PoolBusy` for a hint that waited
        ``hint_wait`` seconds, ``CancelledError`` if the caller gave up or the pool closed."""
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[None] = loop.create_future()
        entry = (turn, tag)
        self._waiting[priority].append(entry)
        self._fill()  # a free worker: this job starts at once (nobody else waits then)
        if turn.done():
            return
        timer = (loop.call_later(self.hint_wait, self._give_up, turn)
                 if priority == HINT and self.hint_wait is not None else None)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                self._release()  # given a worker, but the caller left meanwhile: pass it on
            elif entry in self._waiting[priority]:
                self._waiting[priority].remove(entry)
            raise
        finally:
            if timer is not None:
                timer.cancel()

    def _give_up(self, turn: asyncio.Future[None]) -> None:
        """A hint waited ``hint_wait`` seconds: out of the queue, with :class:`PoolBusy`."""
        if not turn.done():
            self._waiting[HINT].remove((turn, None))
            turn.set_exception(PoolBusy(f"no search worker came free in {self.hint_wait} s"))

    def _release(self) -> None:
        """A job left its worker: let the next one in."""
        self._running -= 1
        self._fill()

    def _fill(self) -> None:
        """Start waiting jobs (set their turns) while a worker is free."""
        while self._running < self.workers:
            turn = self._next()
            if turn is None:
                return
            self._running += 1
            turn.set_result(None)

    def _next(self) -> asyncio.Future[None] | None:
        """The waiting job to start next (taken out of the queue), or None: the first hint,
        unless ``hint_streak`` hints started in a row while a bot decision waited (then the
        first decision); else the first decision."""
        hints, decisions = (self._drop_done(queue) for queue in self._waiting)
        if hints and (not decisions or self._hints_in_a_row < self.hint_streak):
            self._hints_in_a_row = self._hints_in_a_row + 1 if decisions else 0
            return hints.popleft()[0]
        self._hints_in_a_row = 0
        return decisions.popleft()[0] if decisions else None

    @staticmethod
    def _drop_done(queue: deque[tuple[asyncio.Future[None], str | None]]
                   ) -> deque[tuple[asyncio.Future[None], str | None]]:
        """``queue`` without the turns at its head already done (a caller cancelled, whose own
        clean-up has not run yet)."""
        while queue and queue[0][0].done():
            queue.popleft()
        return queue

    def drop(self, tag: str) -> int:
        """Cancel the bot decisions tagged ``tag`` (a match that ended or was cancelled) still
        waiting for a worker: their callers get ``CancelledError``. A search already running
        finishes in its worker (a process cannot be interrupted mid-search; its move is then
        refused like any move in a match that is over). Returns how many were dropped."""
        queue = self._waiting[DECISION]
        dropped = [entry for entry in queue if entry[1] == tag and not entry[0].done()]
        for entry in dropped:
            queue.remove(entry)
            entry[0].cancel()
        self.stats.dropped += len(dropped)
        return len(dropped)

    def probe(self) -> dict:
        """The pool as the load benchmark reads it: ``{"workers", "seconds", "start_method",
        "pids", "submitted", "done", "failed", "dropped", "in_flight"}`` (``pids``: the worker processes
        running now, none before the first hard decision; the process ids are read from the
        executor's private map, as no public API lists them)."""
        pool = self._pool
        return {"workers": self.workers, "seconds": self.seconds,
                "start_method": self._context.get_start_method(),
                "pids": sorted((pool._processes or {}) if pool is not None else ()),
                "submitted": self.stats.submitted, "done": self.stats.done,
                "failed": self.stats.failed, "dropped": self.stats.dropped,
                "in_flight": self.stats.in_flight}

    def _reset(self) -> None:
        """Drop a broken pool: the next hard decision starts a new one."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (server shutdown); the jobs waiting in the queue are cancelled
        (their matches' bots are handed over like any bot move)."""
        for queue in self._waiting:
            while queue:
                turn, _tag = queue.popleft()
                if not turn.done() and not turn.get_loop().is_closed():
                    turn.cancel()
        self._reset()
