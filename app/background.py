"""A process's background work, and how it recovers from failures (issue 13, item 7).

Every asyncio task the app starts goes through here, so none can die silently ("Task exception
was never retrieved") or stop for good while the database is away for a while:

- :class:`Background`: a long-running loop (the clock timer, the idle sweeper, the SQLite change
  watcher), and :func:`supervise` for a plain loop coroutine (presence announces, the metrics
  gauges): when the loop raises, the failure is logged once (:class:`Failures`) and the loop is
  started again after a back-off (exponential with jitter: tenacity's ``wait_exponential_jitter``,
  from 0.5 s to 30 s; back to the start once it ran a minute without failing).
- :func:`spawn`: a one-shot task (a bot move, a fan-out relay, a presence announce, a webhook
  call) whose exception, if any, is retrieved and logged once, and which is kept referenced.
- :func:`retry_forever`: a one-shot job that must eventually succeed (resuming the bots at start)
  retried with the same back-off until it does (tenacity).

A failure is an ``background_failed`` log event (task, error class, next retry) and the metric
``lair_background_failures_total{task}``; the first failure of a streak is logged with its
traceback, the following ones of the same kind only as counted events at debug level; the
recovery is logged once.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Awaitable, Callable, Coroutine

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    Retrying,
    retry_if_exception_type,
    wait_exponential_jitter,
)

log = logging.getLogger("lair.background")

#: Back-off between tries: 0.5 s doubling to 30 s, with up to 0.5 s of jitter.
FIRST_WAIT = 0.5
MAX_WAIT = 30.0
#: A loop that ran this long (s) without failing starts its back-off again from FIRST_WAIT.
HEALTHY_AFTER = 60.0


class Failures:
    """The failure streak of one background task ``name``: :meth:`failed` logs the first
    failure of a streak with its traceback (later ones of the same error class quietly) and
    returns how long to wait before trying again; :meth:`ok` ends the streak (logged once)."""

    def __init__(self, name: str, first: float = FIRST_WAIT, cap: float = MAX_WAIT):
        self.name = name
        self.count = 0
        self._kinds: set[str] = set()
        self._wait = wait_exponential_jitter(multiplier=first, max=cap, jitter=min(0.5, first))

    def failed(self, exc: BaseException) -> float:
        """Note a failure; returns the back-off (s) before the next try."""
        from app.telemetry import events

        self.count += 1
        kind = type(exc).__name__
        delay = self._wait(_attempt(self.count))
        events.background_failed(self.name, kind, delay)
        if kind not in self._kinds:  # each kind of failure once per streak, with its traceback
            self._kinds.add(kind)
            log.error("background task %s failed (%s: %s); retrying with back-off", self.name,
                      kind, exc, exc_info=exc)
        return delay

    def ok(self) -> None:
        """The task worked again: end the streak."""
        if self.count:
            log.warning("background task %s recovered after %d failure(s)", self.name,
                        self.count, extra={"event": "background_recovered", "task": self.name})
        self.count = 0
        self._kinds.clear()


#: The retry manager a bare :class:`RetryCallState` names; the wait strategy reads only the
#: attempt number, never the manager.
_NO_RETRYING = Retrying()


def _attempt(n: int) -> RetryCallState:
    state = RetryCallState(_NO_RETRYING, None, (), {})
    state.attempt_number = n
    return state


async def _loop_forever(name: str, run: Callable[[], Awaitable[Any]],
                        failures: Failures | None = None) -> None:
    """Run ``run()`` again and again: after it raises (back-off) or returns (at once)."""
    failures = failures or Failures(name)
    while True:
        started = time.monotonic()
        try:
            await run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if time.monotonic() - started > HEALTHY_AFTER:
                failures.ok()
            await asyncio.sleep(failures.failed(exc))
        else:
            failures.ok()
            await asyncio.sleep(0)


def supervise(name: str, run: Callable[[], Awaitable[Any]], first: float = FIRST_WAIT,
              cap: float = MAX_WAIT) -> asyncio.Task:
    """Start ``run()`` (a loop coroutine function) as a task that is restarted whenever it
    raises, after a back-off from ``first`` to ``cap`` seconds (see the module); cancel the
    task to stop it."""
    return asyncio.get_running_loop().create_task(
        _loop_forever(name, run, Failures(name, first, cap)), name=name)


def spawn(coro: Coroutine, name: str, keep: set[asyncio.Task] | None = None) -> asyncio.Task:
    """Run ``coro`` as a task kept in ``keep`` (if given) until it ends; an exception it ends
    with is retrieved and logged once (``background_failed``), never left to asyncio."""
    task = asyncio.get_running_loop().create_task(coro, name=name)
    if keep is not None:
        keep.add(task)
        task.add_done_callback(keep.discard)
    task.add_done_callback(_report)
    return task


def _report(task: asyncio.Task) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None:
        from app.telemetry import events

        events.background_failed(task.get_name(), type(exc).__name__, 0.0)
        log.error("background task %s failed (%s: %s)", task.get_name(), type(exc).__name__,
                  exc, exc_info=exc)


async def retry_forever(name: str, fn: Callable[[], Awaitable[Any]],
                        first: float = FIRST_WAIT, cap: float = MAX_WAIT) -> Any:
    """``await fn()`` until it succeeds, backing off between tries (tenacity); each failure is
    noted with :class:`Failures`. Returns what ``fn`` returned."""
    failures = Failures(name, first, cap)

    def wait(state: RetryCallState) -> float:
        # tenacity asks how long to wait only after an attempt that raised (retry= above).
        exc = state.outcome.exception() if state.outcome is not None else None
        assert exc is not None
        return failures.failed(exc)

    async for attempt in AsyncRetrying(
            retry=retry_if_exception_type(Exception), wait=wait, reraise=True):
        with attempt:
            result = await fn()
    failures.ok()
    return result


class Background:
    """One asyncio task running the subclass's ``_run()`` loop from :meth:`start` until
    :meth:`stop` (which cancels it and waits for it to end). ``_run`` raising is logged once
    and the loop restarted after a back-off (:func:`supervise`)."""

    _task: asyncio.Task | None = None
    #: The task's name in logs and metrics.
    name = "background"

    async def _run(self) -> None:
        raise NotImplementedError

    _failures: Failures | None = None

    @property
    def failures(self) -> Failures:
        """The loop's failure streak (a loop that catches its own errors notes them here)."""
        if self._failures is None:
            self._failures = Failures(self.name)
        return self._failures

    def start(self) -> None:
        """Start the loop (in the running event loop)."""
        self._task = asyncio.get_running_loop().create_task(
            _loop_forever(self.name, self._run, self.failures), name=self.name)

    async def stop(self) -> None:
        """Stop the loop."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
