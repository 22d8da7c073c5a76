"""Small helpers shared by the benchmark modules: ports, /proc readings, percentiles, servers,
fresh databases."""
from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """An unused loopback TCP port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_fd_limit() -> None:
    """Allow this process (and children started after) as many sockets as the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def cpu_seconds(pid: int) -> float:
    """User+system CPU seconds of a process (Linux /proc); 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """Resident set size of a process (VmRSS), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def postgres_cpu() -> float:
    """CPU seconds of every process named postgres (all databases: other users' load counts)."""
    total = 0.0
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "comm").read_text().strip() == "postgres":
                    total += cpu_seconds(int(d.name))
            except OSError:
                pass
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine from /proc/stat."""
    v = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def percentile(sorted_values: list[float], q: float) -> float | None:
    """Nearest-rank percentile of an ascending list (None when empty)."""
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, int(round(q * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def latency_summary(values: list[float]) -> dict:
    """``{"n", "p50_ms", "p95_ms", "p99_ms", "max_ms"}`` of latencies in seconds."""
    s = sorted(values)
    ms = lambda x: None if x is None else round(x * 1000, 2)  # noqa: E731
    return {"n": len(s), "p50_ms": ms(percentile(s, 0.50)), "p95_ms": ms(percentile(s, 0.95)),
            "p99_ms": ms(percentile(s, 0.99)), "max_ms": ms(s[-1] if s else None)}


#: ``lair serve`` (app/serve.py) for any import string: the site's server options, quieter logs
#: and a deeper accept backlog for thousands of sockets connecting at once.
_SERVE = """
import sys
from app.serve import serve
from app.settings import Settings
serve(Settings(), sys.argv[1], log_config=None, log_level="warning", access_log=False,
      backlog=8192, workers=1)
"""


#: The bench's clients all come from 127.0.0.1, open hundreds of sockets and act far faster than
#: players: the per-user and per-address rate limits (app/ratelimit.py) and the cap on sockets
#: per address (WS_PER_ADDRESS) are switched off for its servers.
UNLIMITED = {name: "0" for name in ("RATE_CHAT", "RATE_ACTIONS", "RATE_IDENTITIES",
                                    "RATE_MATCHES", "RATE_RECORDS", "RATE_HINTS",
                                    "RATE_HINTS_ADDRESS", "WS_PER_ADDRESS")}


def start_uvicorn(app: str, env: dict, port: int, log: Path | None = None,
                  deflate: bool = False, root: Path = ROOT) -> subprocess.Popen:
    """Serve the import string ``app`` on 127.0.0.1:port the way ``lair serve`` does (one
    process, the project's server options from the settings: permessage-deflate off unless
    ``deflate``, as ``make run`` and the container) and wait until ``/healthz`` answers; its
    output goes to ``log`` (default: inherited). ``root``: the source tree served (cwd and
    ``PYTHONPATH``; another commit's export in ``load.py --ab``). Raises RuntimeError if it
    dies."""
    out = open(log, "wb") if log else None
    proc = subprocess.Popen(
        [sys.executable, "-c", _SERVE, app],
        cwd=root, env={**os.environ, **UNLIMITED, **env, "PYTHONPATH": str(root),
                       "HOST": "127.0.0.1",
                       "PORT": str(port), "WS_DEFLATE": "true" if deflate else "false"},
        preexec_fn=raise_fd_limit, stdout=out, stderr=subprocess.STDOUT if out else None)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{app} exited with {proc.returncode}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{app} did not start")


def stop(proc: subprocess.Popen) -> None:
    """Terminate a server we started (kill after 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


#: The bench servers' SECRET_KEY (their CSRF tokens are signed with it: :func:`form_headers`).
SECRET_KEY = "bench"


def form_headers(lair_user: str | None = None, pre: str | None = None) -> dict[str, str]:
    """Headers for one form POST to a bench server as its page would send it (``app.web.csrf``):
    the identity cookie ``lair_user`` (None: a fresh visitor with the pre-session cookie ``pre``,
    random when None) and the ``X-CSRF-Token`` bound to it."""
    import secrets

    from app.identity import COOKIE
    from app.settings import Settings
    from app.web import csrf

    cookies = ({COOKIE: lair_user} if lair_user
               else {csrf.PRE_COOKIE: pre or secrets.token_urlsafe(24)})
    token = csrf.token_for(cookies, Settings(secret_key=SECRET_KEY)) or ""
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), csrf.HEADER: token}


def migrate(db_url: str, root: Path = ROOT) -> None:
    """``alembic upgrade head`` of the tree at ``root`` (its own migrations, cwd and
    ``PYTHONPATH``) on ``db_url``. Raises ``subprocess.CalledProcessError`` if it fails."""
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=root,
                   env={**os.environ, "DATABASE_URL": db_url, "PYTHONPATH": str(root)},
                   check=True, capture_output=True)


@asynccontextmanager
async def fresh_database(pg: str, prefix: str = "lair_bench",
                         root: Path | None = ROOT) -> AsyncIterator[tuple[str, str]]:
    """A new PostgreSQL database ``<prefix>_<8 hex>`` on the server of ``pg`` (a
    ``postgresql://`` URL of any database there), migrated by the tree at ``root`` (None: left
    empty; migrate it later with :func:`migrate`). Yields ``(dsn, url)``: the asyncpg DSN and
    the SQLAlchemy URL (``postgresql+asyncpg://``). Dropped on exit (``WITH (FORCE)``: a
    server that is still connected does not keep it), whatever happened inside."""
    import asyncpg

    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(pg)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    dsn = pg.rsplit("/", 1)[0] + "/" + name
    url = dsn.replace("postgresql://", "postgresql+asyncpg://", 1)
    try:
        if root is not None:
            migrate(url, root)
        yield dsn, url
    finally:
        conn = await asyncpg.connect(pg)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
