"""The hard bots' worker processes end when the server process dies (app/matches/botpool.py).

A server killed with -9 never shuts its pool down: without a watch of their own, the spawned
workers would wait on the pool's queue for ever (holding memory, and a core mid-search).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

#: A stand-in server: starts a two-worker pool, has both workers run a task (so both exist and
#: ran the initializer), prints their pids, then waits to be killed.
SERVER = """
import os, sys, time
from concurrent.futures import wait
from app.matches.botpool import BotPool

pool = BotPool(workers=2)
executor = pool._executor()
futures = [executor.submit(time.sleep, 0.3) for _ in range(2)]
wait(futures)
print(" ".join(str(pid) for pid in executor._processes), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for init to reap it has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def test_workers_exit_soon_after_the_server_is_killed():
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, text=True,
                              stdout=subprocess.PIPE)
    workers: list[int] = []
    try:
        line = server.stdout.readline()  # blocks until the pool runs (or the child failed)
        workers = [int(pid) for pid in line.split()]
        assert len(workers) == 2, f"the stand-in server printed {line!r}"
        assert all(_alive(pid) for pid in workers)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 15.0  # the watch polls every second
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.1)
        lingering = [pid for pid in workers if _alive(pid)]
        assert not lingering, f"workers {lingering} outlived the server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        for pid in workers:  # only ours, and only if the test failed
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        server.stdout.close()
