"""Graceful shutdown and deploys (issue 8, item 4), two real processes on PostgreSQL.

Process A is stopped with SIGTERM while a player's action is in flight and while a bots-only
match is being played on it: A's sockets are closed with 1012 ("service restart"), A finishes
what it started and exits cleanly; the players reconnect to process B and find every move that
was acknowledged (a resent action is recognised, never applied twice); B takes over the bots,
whose match ends with a record that replays to its final state. Nothing is lost.
"""
from __future__ import annotations

import json
import signal
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from engines.records import replay_record, state_hash
from tests.app.ops.test_ops_support import (
    browser,
    cookie_header,
    free_port,
    log_records,
    start_logged_server,
)
from tests.app.servers import START_TIMEOUT, view_at


def test_sigterm_hands_everything_over_to_the_other_process(database_url, tmp_path):
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes need PostgreSQL (LISTEN/NOTIFY)")
    port_a, port_b = free_port(), free_port()
    log_a = tmp_path / "a.log"
    log_b = tmp_path / "b.log"
    # A's bots are slow (a toy match takes them >= 6 s), so A is stopped mid-match for sure.
    proc_a = start_logged_server(database_url, port_a, log_a, bot_delay=1.0)
    proc_b = start_logged_server(database_url, port_b, log_b, bot_delay=0.2)
    try:
        a_url, b_url = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
        ann, bob = browser(a_url, "Ann"), browser(a_url, "Bob")
        mid = str(ann.post("/matches", data={"game": "toy", "players_toy": "2",
                                             "public": "on"}).url).rsplit("/", 1)[1]
        bob.post(f"/m/{mid}/seat", data={"seat": "1"})
        ann.post(f"/m/{mid}/start")
        bots = str(ann.post("/matches", data={"game": "toy", "players_toy": "2",
                                              "public": "on"}).url).rsplit("/", 1)[1]
        ann.post(f"/m/{bots}/bot", data={"seat": "0", "bot": "random"})
        ann.post(f"/m/{bots}/fill", data={"bot": "random"})
        ann.post(f"/m/{bots}/start")  # its bots now play, on process A

        path = f"/ws/matches/{mid}"
        url = f"ws://127.0.0.1:{port_a}{path}"
        with connect(url, additional_headers=cookie_header(ann)) as a, \
                connect(url, additional_headers=cookie_header(bob)) as b:
            view_at(a), view_at(b)
            a.send(json.dumps({"type": "action", "id": "ann-1", "version": 0,
                               "action": {"type": "bid", "n": 3}}))
            view_at(b, 1)
            # Bob's bid and the SIGTERM leave together: the action is in flight at shutdown.
            b.send(json.dumps({"type": "action", "id": "bob-1", "version": 1,
                               "action": {"type": "bid", "n": 1}}))
            proc_a.send_signal(signal.SIGTERM)
            codes, acked = [], False
            for ws in (a, b):
                try:
                    while True:
                        msg = json.loads(ws.recv(timeout=15))
                        acked |= msg.get("type") == "ack" and msg.get("ref") == "bob-1"
                except ConnectionClosed as closed:
                    codes.append(closed.rcvd.code if closed.rcvd else None)
        assert codes == [1012, 1012]  # "service restart": the client reconnects
        # uvicorn re-raises the SIGTERM it caught once its shutdown is complete
        assert proc_a.wait(timeout=30) in (0, -signal.SIGTERM)
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"{a_url}/healthz", timeout=2)  # A no longer accepts anything

        # The clients reconnect through the load balancer: to B.
        path_b = f"ws://127.0.0.1:{port_b}{path}"
        with connect(path_b, additional_headers=cookie_header(ann)) as a2, \
                connect(path_b, additional_headers=cookie_header(bob)) as b2:
            view = view_at(b2)
            assert view["version"] >= (2 if acked else 1)
            # Bob's client resends the action it has no ack for (same id): applied once.
            b2.send(json.dumps({"type": "action", "id": "bob-1", "version": 1,
                                "action": {"type": "bid", "n": 1}}))
            while (msg := json.loads(b2.recv(timeout=10)))["type"] not in ("ack", "error"):
                pass
            assert msg["type"] == "ack" and msg["version"] == 2
            assert msg["duplicate"] is (view["version"] == 2)
            after = view_at(a2, 2)
            assert after["game"]["bids"] == [3, 1] and after["prompt"]["kind"] == "take"

        # B took over the bots' match from A and finished it; the record replays exactly.
        deadline = time.monotonic() + START_TIMEOUT
        while (r := httpx.get(f"{b_url}/matches/{bots}/record")).status_code != 200:
            assert time.monotonic() < deadline, "the bots' match stalled after A stopped"
            time.sleep(0.2)
        record = r.json()
        assert state_hash(replay_record(record)) == record["final_hash"]
        seqs = httpx.get(f"{b_url}/matches/{bots}/replay?step=999").json()["steps"]
        assert seqs == len(record["actions"])
    finally:
        for proc in (proc_a, proc_b):
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
    records = log_records(log_a)
    stages = [r for r in records if r.get("event") == "shutdown"]
    assert [r["stage"] for r in stages] == ["draining", "done"]
    assert stages[-1]["handed_off"] >= 1  # the bots' match was handed over ...
    assert any(r.get("event") == "bot_move" and r["match_id"] == bots
               for r in log_records(log_b))  # ... and B made moves in it
    assert records[-2]["message"] == "Application shutdown complete."  # not killed midway
