"""``GC_FREEZE`` (app/serve.py ``freeze_start_up``): once the app's start-up is done, the objects
it made are out of the collector's reach, so a full collection (which holds the event loop)
walks only what matches and sockets hold. Once per process: a second app in the same process
(the tests make hundreds) must not freeze the first one's objects for ever."""
from __future__ import annotations

import gc
import subprocess
import sys


def test_a_server_process_freezes_its_start_up_once():
    code = """
import gc
from fastapi.testclient import TestClient
from app import serve
from app.main import create_app
from app.settings import Settings
import tempfile, os
from tests.app.conftest import migrate
d = tempfile.mkdtemp()
url = f"sqlite+aiosqlite:///{d}/lair.db"
migrate(url)
before = gc.get_freeze_count()
with TestClient(create_app(Settings(database_url=url, secret_key="s"))):
    first = gc.get_freeze_count()
    assert serve.freeze_start_up() is False  # once per process
with TestClient(create_app(Settings(database_url=url, secret_key="s"))):
    second = gc.get_freeze_count()
print(before, first, second)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    before, first, second = map(int, out[-3:])
    # (frozen objects freed by their reference counts leave the frozen set: never more)
    assert before == 0 and first > 50_000 and second <= first, (before, first, second)


def test_off_it_freezes_nothing():
    code = """
import gc
from app import serve
print(serve.freeze_start_up(False), gc.get_freeze_count())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    assert out == ["False", "0"]
    assert gc.isenabled()


def test_the_young_generation_is_collected_every_gc_young_allocations():
    """``GC_YOUNG`` (default 5,000; 0 keeps CPython's 700): set when the app starts."""
    code = """
import gc
from app import serve
from app.settings import Settings
first = gc.get_threshold()
serve.tune_collector(0)
kept = gc.get_threshold()
serve.tune_collector(Settings().gc_young)
print(*first, *kept, *gc.get_threshold())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    first, kept, tuned = out[0:3], out[3:6], out[6:9]
    assert kept == first and tuned == ["5000", *first[1:]], out
