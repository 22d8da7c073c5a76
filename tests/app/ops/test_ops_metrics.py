"""Prometheus metrics (issue 8, item 3): ``/metrics`` only with the operator's token; the
documented metric names, and counters that follow applied and rejected actions."""
from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.app.ops import test_ops_admin
from tests.app.ops.test_ops_support import ADMIN
from tests.app.realtime.test_live import act, recv, started, view_at
from tests.csrf import as_browser

NAMES = {"lair_open_sockets", "lair_matches_in_progress", "lair_actions_applied",
         "lair_actions_rejected", "lair_action_seconds", "lair_bot_moves",
         "lair_matches_started", "lair_matches_ended", "lair_websocket_closes",
         "lair_db_pool_connections"}


#: The operator's client (test_ops_admin's fixture).
ops_client = test_ops_admin.ops_client

def scrape(client, families: set[str] | None = None) -> dict[tuple[str, tuple], float]:
    """``{(sample name, labels): value}``; the metric family names go into ``families``."""
    r = client.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200
    samples = {}
    for fam in text_string_to_metric_families(r.text):
        if families is not None:
            families.add(fam.name)
        for s in fam.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def test_metrics_are_disabled_without_an_admin_token(client):
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


def test_metrics_refuse_a_missing_or_wrong_token(ops_client):
    assert ops_client.get("/metrics").status_code == 401
    assert ops_client.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert ops_client.get("/metrics", headers={"Authorization": ADMIN}).status_code == 401


def test_metric_names_and_action_counters(ops_client):
    families: set[str] = set()
    before = scrape(ops_client, families)
    assert NAMES <= families, NAMES - families
    mid, _bob = started(ops_client)
    with ops_client.websocket_connect(f"/ws/matches/{mid}") as ws:
        view_at(ws, 0)
        act(ws, 0, {"type": "bid", "n": 2}, "m1")
        assert recv(ws, "ack")["version"] == 1
        act(ws, 1, {"type": "bid", "n": 3}, "m2")  # Ann has bid already
        rejected_code = recv(ws, "error")["code"]
        after = scrape(ops_client)
        assert after[("lair_open_sockets", ())] == 1
    assert after[("lair_matches_in_progress", ())] == 1

    def delta(name, **labels):
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0) - before.get(key, 0)

    assert delta("lair_actions_applied_total", game="toy") == 1
    assert delta("lair_actions_rejected_total", code=rejected_code) == 1
    assert delta("lair_action_seconds_count", stage="commit") == 1
    assert delta("lair_action_seconds_count", stage="sent") == 1
    assert delta("lair_matches_started_total", game="toy") == 1
    assert after[("lair_db_pool_connections", (("state", "size"),))] >= 1


def test_workers_sharing_a_port_sum_their_metrics(database_url, tmp_path):
    """``WEB_CONCURRENCY=2`` with ``PROMETHEUS_MULTIPROC_DIR`` (as the container runs it): a
    scrape reaches one worker, yet counts the sockets open on both (issue 8 item 3)."""
    import contextlib
    import os
    import subprocess
    import sys
    import time

    import httpx
    from websockets.sync.client import connect

    from tests.app.servers import ROOT, START_TIMEOUT, free_port

    if not database_url.startswith("postgresql"):
        pytest.skip("several workers need PostgreSQL")
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "test-workers",
           "ADMIN_TOKEN": ADMIN, "WEB_CONCURRENCY": "2", "LOG_LEVEL": "warning",
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "HOST": "127.0.0.1", "PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "-m", "app.ops.cli", "serve"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"

    def open_sockets() -> float:
        r = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {ADMIN}"})
        return next(s.value for f in text_string_to_metric_families(r.text)
                    for s in f.samples if s.name == "lair_open_sockets")

    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        ann = as_browser(httpx.Client(base_url=base, follow_redirects=True), "test-workers")
        ann.post("/name", data={"name": "Ann", "next": "/"})
        mid = str(ann.post("/matches", data={"game": "drops_of_evil",
                                             "players_drops_of_evil": "2",
                                             "public": "on"}).url).rsplit("/", 1)[1]
        with contextlib.ExitStack() as stack:
            for _ in range(12):
                stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/matches/{mid}")
                                    ).recv(timeout=10)
            # each worker writes its gauge every 5 s; then every scrape, whichever worker
            # answers it, counts all twelve
            deadline = time.monotonic() + 20
            while (seen := open_sockets()) != 12:
                assert time.monotonic() < deadline, f"a scrape counted {seen} sockets, not 12"
                time.sleep(0.5)
            assert [open_sockets() for _ in range(6)] == [12] * 6
    finally:
        proc.terminate()
        proc.wait(timeout=30)
