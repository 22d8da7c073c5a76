"""Background work recovers from database faults (issue 13, item 7; app/background.py).

The fault: every database connection taken (a starved pool) or the database away, so each read
raises ``sqlalchemy.exc.TimeoutError`` as a starved pool does. Bot-only matches must resume on
their own once the database answers again, and no task may die unretrieved.
"""
from __future__ import annotations

import asyncio
import gc

import pytest
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.background import retry_forever, spawn, supervise
from tests.app.conftest import named

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


class Starved:
    """Makes ``current`` (every read of a match: the bot runner's through the store, the
    sockets' through the service) raise the starved pool's error while ``on``; counts the
    refusals."""

    def __init__(self, service):
        self.service = service
        self.real = service.store.current
        self.on = True
        self.refused = 0
        service.current = service.store.current = self

    async def __call__(self, match_id):
        if self.on:
            self.refused += 1
            raise PoolTimeout("QueuePool limit reached: connection timed out")
        return await self.real(match_id)


def _bots_only(client) -> str:
    named(client, "Host")
    r = client.post("/matches", data={"game": "toy", "players_toy": "2", "public": "on",
                                      "host_plays": "no"}, follow_redirects=False)
    mid = r.headers["location"].rsplit("/", 1)[1]
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    return mid


def test_bot_only_matches_resume_on_their_own_after_the_pool_was_starved(client):
    service = client.app.state.service
    service.bot_retry_first = 0.05  # the back-off's first wait (1 s in production)
    unretrieved: list[dict] = []

    def watch_loop():
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, ctx: unretrieved.append(ctx))

    client.portal.call(watch_loop)
    mid = _bots_only(client)
    starved = client.portal.call(lambda: _starve(service))
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303

    async def until(predicate, what: str):
        for _ in range(2000):  # bounded: at most ~20 s
            if predicate():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(what)

    # the bots failed to read the match several times, and keep trying with back-off
    client.portal.call(until, lambda: starved.refused >= 3, "bots did not retry")
    version = client.portal.call(service.snapshot, mid).match.version
    assert version == 0
    starved.on = False  # the pool has connections again

    async def finished():
        for _ in range(2000):
            if (await service.snapshot(mid)).match.status == "finished":
                return True
            await asyncio.sleep(0.01)
        return False

    assert client.portal.call(finished), "the bot-only match did not resume"

    async def collect():
        gc.collect()
        await asyncio.sleep(0)
    client.portal.call(collect)
    assert not [c for c in unretrieved if "never retrieved" in c.get("message", "")]


async def _starve(service):
    return Starved(service)


async def test_a_failing_loop_is_restarted_with_back_off_and_logged_once(caplog):
    """A supervised loop that raises is started again (not lost); the first failure of a kind
    is logged with its traceback once, the recovery once."""
    runs = []

    async def flaky():
        runs.append(1)
        if len(runs) < 4:
            raise ConnectionError("database away")
        await asyncio.Event().wait()  # healthy: runs until cancelled

    task = supervise("test loop", flaky, first=0.01)
    for _ in range(500):  # bounded
        if len(runs) >= 4:
            break
        await asyncio.sleep(0.01)
    assert len(runs) == 4 and not task.done()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    tracebacks = [r for r in caplog.records if r.name == "lair.background" and r.exc_info]
    assert len(tracebacks) == 1 and "database away" in tracebacks[0].getMessage()

    # a one-shot task's exception is retrieved and logged; one retried until it works
    failed = spawn(_boom(), "one shot")
    await asyncio.gather(failed, return_exceptions=True)
    await asyncio.sleep(0)
    assert any("one shot" in r.getMessage() for r in caplog.records)
    tries = []

    async def third_time():
        tries.append(1)
        if len(tries) < 3:
            raise OSError("refused")
        return "ok"

    assert await retry_forever("job", third_time, first=0.01) == "ok" and len(tries) == 3


async def _boom():
    raise RuntimeError("boom")
