"""Lair's app with one extra read-only route for the bench: ``GET /_bench/memory`` answers the
sizes of the per-match maps this process keeps in memory (issue 13, item 4), so the churn run
can check they empty once every socket has been idle for ``MATCH_IDLE_TTL``.

Served by ``bench/load.py`` instead of ``app.main:app`` (started the same way, ``lair serve``'s
options); every other path goes to the app unchanged. Bench only: never deployed.

To find what grows, ``GET /_bench/growth`` answers the live objects per type (``gc``) and, when
the server was started with ``LAIR_BENCH_TRACEMALLOC=<frames>`` (tracemalloc on from import:
slower, more RSS), the allocations per source line, each as the change since the baseline;
``?baseline=1`` takes a new baseline (``?top=N``: how many rows).

``GET /_bench/bots`` answers the hard bots' worker pool (``app.matches.botpool.BotPool.probe``:
its size, start method, worker process ids and job counters): ``bench/hardbots.py`` reads it to
show the hard bots were thinking while it measured the other tables. With it, ``"gc"``: this
process's garbage collections since start-up (:class:`GcPauses`: the collections and their
event-loop time per generation, each full one over 5 ms with its time) and the launcher's
``Reclaim`` runs, so a latency tail can be laid beside the collections that held the loop. ``app.main:app`` has none
of these routes (tests/app/web/test_security.py checks that they answer 404 there).
"""
from __future__ import annotations

import gc
import os
import time
import tracemalloc
from collections import Counter
from urllib.parse import parse_qs

import orjson

from app.main import app as lair

if os.environ.get("LAIR_BENCH_TRACEMALLOC"):
    tracemalloc.start(int(os.environ["LAIR_BENCH_TRACEMALLOC"]))

#: The per-match maps of the service's store and bot runner and of the hub and its presence
#: tracker (dotted paths from ``app.state``; a missing one counts -1, so a renamed map shows up
#: in the bench's output instead of passing silently as empty).
MAPS = ("service.store.snaps", "service.store.locks", "service.store.prompts_at",
        "service.store.movers", "service.bots.failures", "hub.conns", "hub.tracker.left_at",
        "hub.tracker.remote", "hub._writes")


def sizes(state) -> dict[str, int]:
    """``{"service.store.snaps": n, ..., "hub.conns": n, ...}`` for the app's ``state``."""
    out = {}
    for path in MAPS:
        obj = state
        for name in path.split("."):
            obj = getattr(obj, name, None)
        out[path] = -1 if obj is None else len(obj)
    return out


class GcPauses:
    """Garbage collections of this process, timed with ``gc.callbacks``: per generation the
    count and the total milliseconds; the full (generation 2) ones over ``LONG_MS`` as
    ``[monotonic s, ms, objects collected]`` in ``long``, the young ones (generations 0 and 1)
    over ``LONG_MS`` as ``[monotonic s, ms, generation]`` in ``young_long`` (the last ``KEEP``
    of each): a few long young pauses and many short ones cost a window's p99 differently."""

    LONG_MS = 5.0
    KEEP = 2000

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.total_ms = [0.0, 0.0, 0.0]
        self.long: list[list[float]] = []
        self.young_long: list[list[float]] = []
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        ms = (time.perf_counter() - self._start) * 1000
        gen = info["generation"]
        self.count[gen] += 1
        self.total_ms[gen] += ms
        if ms > self.LONG_MS:
            kept, last = (self.long, info.get("collected", 0)) if gen == 2 else (self.young_long, gen)
            kept.append([round(time.monotonic(), 3), round(ms, 1), last])
            del kept[:-self.KEEP]

    def read(self) -> dict:
        """``{"now", "count", "total_ms", "long", "young_long", "objects", "frozen",
        "reclaim_runs", "reclaim_skipped"}``
        (``now``: this process's monotonic clock, the times of ``long``)."""
        from app import serve
        return {"now": round(time.monotonic(), 3), "count": list(self.count),
                "total_ms": [round(t, 1) for t in self.total_ms], "long": list(self.long),
                "young_long": list(self.young_long),
                "objects": sum(gc.get_count()), "frozen": gc.get_freeze_count(),
                "reclaim_runs": getattr(getattr(serve, "RECLAIM", None), "runs", None),
                "reclaim_skipped": getattr(getattr(serve, "RECLAIM", None), "skipped", None)}


GC = GcPauses()

#: The baseline of ``/_bench/growth``: object counts per type and a tracemalloc snapshot.
_baseline: dict = {}


def growth(baseline: bool, top: int) -> dict:
    """``{"objects": [[type, change], ...], "lines": [[where, KB change, count change], ...]}``
    since the baseline (the biggest changes first), or the new baseline's totals."""
    gc.collect()
    counts = Counter(type(o).__qualname__ for o in gc.get_objects())
    snap = tracemalloc.take_snapshot() if tracemalloc.is_tracing() else None
    if baseline or not _baseline:
        _baseline.update(counts=counts, snap=snap)
        return {"baseline": True, "objects": sum(counts.values()),
                "traced_kb": round(tracemalloc.get_traced_memory()[0] / 1024, 1)}
    objects = Counter(counts)
    objects.subtract(_baseline["counts"])
    out: dict = {"objects": [[k, v] for k, v in objects.most_common(top) if v]}
    if snap is not None and _baseline["snap"] is not None:
        stats = snap.compare_to(_baseline["snap"], "traceback")
        out["lines"] = [[" <- ".join(f"{f.filename.rsplit('/site-packages/', 1)[-1]}:{f.lineno}"
                                     for f in s.traceback[:6]),
                         round(s.size_diff / 1024, 1), s.count_diff] for s in stats[:top]]
    return out


#: The probe routes (each read-only).
ROUTES = ("/_bench/memory", "/_bench/growth", "/_bench/bots")


async def app(scope, receive, send):
    """ASGI: the probes (:data:`ROUTES`), Lair for everything else (lifespan included)."""
    if scope["type"] == "http" and scope["path"] in ROUTES:
        if scope["path"] == "/_bench/memory":
            body = orjson.dumps(sizes(lair.state))
        elif scope["path"] == "/_bench/bots":
            body = orjson.dumps({**lair.state.service.bot_pool.probe(), "gc": GC.read()})
        else:
            query = parse_qs(scope.get("query_string", b"").decode())
            body = orjson.dumps(growth("baseline" in query, int(query.get("top", ["25"])[0])))
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})
        return
    await lair(scope, receive, send)
