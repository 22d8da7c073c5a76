"""Where bot decisions run (issue 17, "Thinking never slows other tables").

``easy`` and ``normal`` decide in milliseconds: a thread of the server process. ``hard`` searches
for up to ``BOT_THINK_SECONDS`` of CPU (default 1 s): it runs in a pool of at most cores - 1
worker processes, spawned (never forked from the running server: no copy of its sockets, locks
or event loop), at the lowest OS priority (``nice 19``), so the event loop and the other tables'
moves keep their core; decisions beyond the pool's size queue in the executor. A worker ends
itself within about a second once the server process is gone (killed with -9, its queue is never
closed, and the worker would wait on it for ever). If the pool cannot
decide (it could not start, a worker died), the move is played at the ``normal`` level instead
and the failure is logged.

The worker receives the engine object (pickled by reference to its class, so a match's engine
version travels with it), the state, the seat and the budget; it returns the action. Hints
(app.matches.hints) are the hard level's decisions too, and run in the same pool.

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


#: Seconds between a worker's looks at whether the server process that started it still lives.
PARENT_POLL = 1.0


def _init_worker(parent: int) -> None:
    """Worker initializer: the lowest CPU priority (searches yield to the server), and a
    daemon thread that ends the worker once ``parent`` (the server's pid) is no longer its
    parent."""
    try:
        os.nice(19)
    except OSError:  # not permitted here: still correct, only less polite
        pass
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
    ``submitted``, of which ``done`` (answered) and ``failed`` (raised or cancelled); the
    others are ``in_flight`` (running in a worker or queued for one)."""

    submitted: int = 0
    done: int = 0
    failed: int = 0

    @property
    def in_flight(self) -> int:
        return self.submitted - self.done - self.failed


class BotPool:
    """Runs bot decisions off the event loop. ``workers``: the process pool's size (default
    cores - 1); ``seconds``: the hard level's CPU budget per decision."""

    def __init__(self, workers: int | None = None, seconds: float = 1.0):
        self.workers = workers or default_workers()
        self.seconds = seconds
        self._pool: ProcessPoolExecutor | None = None
        #: Workers are spawned: never forked from the running server (its sockets, its loop).
        self._context = multiprocessing.get_context("spawn")
        self.stats = PoolStats()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=self._context,
                initializer=_init_worker, initargs=(os.getpid(),))
        return self._pool

    async def decide(self, engine: Engine, bot_name: str, state: State, seat: int,
                     rng: Rng) -> Action:
        """The action of bot ``bot_name`` (a level, an old name or a game's own bot) for
        ``seat``. Raises ``KeyError`` for a bot the game does not have."""
        name = levels.canonical(bot_name)
        bots = levels.bots(engine)
        if name not in bots:
            raise KeyError(bot_name)
        if name == "hard":
            try:
                return await self._in_worker(_hard_decision, engine, state, seat, self.seconds)
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
        OS randomness). The game must have a search spec (``levels.spec_of``). Raises what the
        pool raises (a worker that died: ``BrokenProcessPool``; the pool is then reset)."""
        from engines.search import Budget
        return await self._in_worker(_hint_decision, engine, state, seat,
                                     budget or Budget(seconds=self.seconds))

    async def _in_worker(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, awaited without blocking the event loop and
        counted in :attr:`stats`; its result, or what it raised. A pool that cannot run it any
        more (a worker died: ``BrokenExecutor``) is dropped first, so the next decision starts
        a new one; the error is re-raised: each caller decides what a failed decision means (a
        hard bot plays the normal level; a hint reports the failure, as ``normal`` would read
        the real state)."""
        self.stats.submitted += 1
        try:
            out = await asyncio.get_running_loop().run_in_executor(self._executor(), fn, *args)
        except BaseException as exc:  # CancelledError too: the caller no longer waits for it
            self.stats.failed += 1
            if isinstance(exc, BrokenExecutor):
                self._reset()
            raise
        self.stats.done += 1
        return out

    def probe(self) -> dict:
        """The pool as the load benchmark reads it: ``{"workers", "seconds", "start_method",
        "pids", "submitted", "done", "failed", "in_flight"}`` (``pids``: the worker processes
        running now, none before the first hard decision; the process ids are read from the
        executor's private map, as no public API lists them)."""
        pool = self._pool
        return {"workers": self.workers, "seconds": self.seconds,
                "start_method": self._context.get_start_method(),
                "pids": sorted((pool._processes or {}) if pool is not None else ()),
                "submitted": self.stats.submitted, "done": self.stats.done,
                "failed": self.stats.failed, "in_flight": self.stats.in_flight}

    def _reset(self) -> None:
        """Drop a broken pool: the next hard decision starts a new one."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (server shutdown); queued decisions are cancelled (their matches'
        bots are handed over like any bot move)."""
        self._reset()
