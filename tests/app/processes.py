"""Service instances standing for server processes, for the sequencing and move-path tests:
each ``MatchService`` has its own engine (connection pool), cache and locks, as two uvicorn
processes on one database would."""
from __future__ import annotations

from app.db import make_engine, make_sessionmaker
from app.matches.service import MatchService


async def services(url: str, n: int = 2, **pool):
    """``(engines, services)``: ``n`` services on ``url`` (bots move at once). The caller
    disposes the engines."""
    engines = [make_engine(url, **pool) for _ in range(n)]
    return engines, [MatchService(make_sessionmaker(e), bot_delay=0) for e in engines]


async def toy_match_at_take_phase(service: MatchService) -> str:
    """A started toy match (Ann in seat 0, Bob in seat 1) whose bids are made: version 2,
    seat 0 to take. Returns its id."""
    await service.ensure_user("u0", "Ann")
    await service.ensure_user("u1", "Bob")
    match = await service.create_match("u0", "toy", 2, {}, public=True)
    await service.take_seat(match.id, "u1", 1)
    await service.start(match.id, "u0")
    await service.submit(match.id, 0, "bid0", 0, {"type": "bid", "n": 2})
    await service.submit(match.id, 1, "bid1", 1, {"type": "bid", "n": 1})
    # the start's look for bot seats reads the match; its statements must not land in the
    # window a test records
    await service.drain()
    return match.id
