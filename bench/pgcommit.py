"""Raw PostgreSQL commit rate with asyncpg: the durability limit under Lair's move path.

Two workloads, each ``concurrency`` connections in a closed loop for ``seconds``:
- ``single_row``: one ``INSERT`` of a ~2 KB JSONB row per transaction (autocommit);
- ``update_insert``: what Lair's move commits: ``UPDATE`` a match row's JSONB state (of
  ``state_bytes``) + ``INSERT`` an action row, in one transaction.
Each returns ``{"commits_per_s", "p50_ms", "p95_ms", "p99_ms", "concurrency", ...}``.
"""
from __future__ import annotations

import asyncio
import time

import asyncpg
import orjson

from bench.common import latency_summary


def _payload(size: int) -> str:
    """A JSON object of about ``size`` bytes, shaped like game data (not one long string)."""
    items = [{"seat": i % 4, "type": "place", "card": f"c{i}", "slot": i % 9, "ok": True}
             for i in range(max(1, size // 60))]
    return orjson.dumps({"log": items}).decode()


async def _run(dsn: str, concurrency: int, seconds: float, warmup: float, body) -> dict:
    pool = await asyncpg.create_pool(dsn, min_size=concurrency, max_size=concurrency)
    lat: list[float] = []
    stop_at = time.perf_counter() + warmup + seconds
    measure_from = time.perf_counter() + warmup
    count = 0

    async def worker(w: int) -> None:
        nonlocal count
        n = 0
        async with pool.acquire() as conn:
            while (t0 := time.perf_counter()) < stop_at:
                await body(conn, w, n)
                n += 1
                if t0 >= measure_from:
                    lat.append(time.perf_counter() - t0)
                    count += 1

    await asyncio.gather(*(worker(w) for w in range(concurrency)))
    await pool.close()
    return {"commits_per_s": round(count / seconds), **latency_summary(lat),
            "concurrency": concurrency}


async def measure(dsn: str, concurrency: int, seconds: float = 5, warmup: float = 1,
                  row_bytes: int = 2048, state_bytes: int = 20000) -> dict:
    """Both workloads on ``dsn`` (tables ``bench_raw_*`` are created and dropped)."""
    conn = await asyncpg.connect(dsn)
    await conn.execute("DROP TABLE IF EXISTS bench_raw_actions, bench_raw_matches;"
                       "CREATE TABLE bench_raw_actions (id bigserial PRIMARY KEY, match_id text,"
                       " seq int, payload jsonb, created_at timestamptz default now());"
                       "CREATE TABLE bench_raw_matches (id int PRIMARY KEY, version int,"
                       " state jsonb)")
    row, state = _payload(row_bytes), _payload(state_bytes)
    await conn.executemany("INSERT INTO bench_raw_matches VALUES ($1, 0, $2::jsonb)",
                           [(w, state) for w in range(concurrency)])

    async def single(c, w, n):
        await c.execute("INSERT INTO bench_raw_actions (match_id, seq, payload) "
                        "VALUES ($1, $2, $3::jsonb)", str(w), n, row)

    async def update_insert(c, w, n):
        async with c.transaction():
            await c.execute("UPDATE bench_raw_matches SET state = $2::jsonb, "
                            "version = version + 1 WHERE id = $1", w, state)
            await c.execute("INSERT INTO bench_raw_actions (match_id, seq, payload) "
                            "VALUES ($1, $2, $3::jsonb)", str(w), n, row)

    out = {"row_bytes": len(row), "state_bytes": len(state)}
    out["single_row"] = await _run(dsn, concurrency, seconds, warmup, single)
    out["update_insert"] = await _run(dsn, concurrency, seconds, warmup, update_insert)
    await conn.execute("DROP TABLE bench_raw_actions, bench_raw_matches")
    await conn.close()
    return out
