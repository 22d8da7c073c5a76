"""Graceful shutdown (SIGTERM) of one process; see README "Operations" > "Deploys".

uvicorn, on SIGTERM, stops accepting connections and closes every websocket with code 1012
("service restart": the table client reconnects, through the load balancer, to another
process), then runs the app's lifespan shutdown, which calls :func:`drain`: no new bot move is
started, the actions and bot moves already running finish and commit, and the matches whose bot
moves were left pending are returned so another process can take them over (LISTEN/NOTIFY).
"""
from __future__ import annotations

import asyncio
import logging

from app.ops import events

log = logging.getLogger("lair.shutdown")


async def drain(service, timeout: float) -> set[str]:
    """Stop scheduling bot moves and wait (at most ``timeout`` s) for in-flight actions and bot
    moves. Returns the ids of matches whose pending bot moves this process did not make."""
    service.stopping = True
    events.shutdown("draining", bot_tasks=len(service.tasks))

    async def wait() -> None:
        await service.drain()
        # An action being applied holds its match's lock until its commit and fan-out are done.
        for lock in list(service.locks.values()):
            async with lock:
                pass

    try:
        await asyncio.wait_for(wait(), timeout)
    except asyncio.TimeoutError:
        log.error("shutdown: in-flight work still running after %.1f s; exiting anyway", timeout)
    return set(service.handoff)
