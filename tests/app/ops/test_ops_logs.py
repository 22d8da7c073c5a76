"""Structured logs (issue 8, item 2): one JSON object per line, the operational events with their
ids, and never a secret, a token, a seed or hidden game information.

A real server plays a whole Evil Corp. match between bots while a spectator watches through the
secret spectator link; the invite and rejoin links are used, the admin token is used on
/metrics; then the process is stopped with SIGTERM. Every log line must parse as JSON, the events
must be there, and no secret nor any string that was ever hidden from spectators (the seats'
tiles, "You drew …" texts) may appear in the log.
"""
from __future__ import annotations

import json
import re
import signal

from websockets.sync.client import connect

from app.telemetry.logs import scrub
from engines import registry
from engines.records import replay_states
from tests.app.ops.test_ops_support import (
    ADMIN,
    SECRET,
    browser,
    free_port,
    link,
    log_records,
    start_logged_server,
)

_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _strings(x, out: set[str]) -> set[str]:
    if isinstance(x, dict):
        for v in x.values():
            _strings(v, out)
    elif isinstance(x, list):
        for v in x:
            _strings(v, out)
    elif isinstance(x, str):
        out.add(x)
    return out


def hidden_strings(record: dict) -> set[str]:
    """Strings some seat saw at some step that the spectator did not see at that step."""
    engine = registry.get(record["game"])
    hidden: set[str] = set()
    for state in replay_states(record["game"], record["players"], record["options"],
                               record["seed"], record["actions"]):
        public = _strings(engine.view(state, None), set())
        for seat in range(record["players"]):
            hidden |= _strings(engine.view(state, seat), set()) - public
    return hidden


def test_scrub_removes_query_strings_and_link_tokens():
    line = 'x - "WebSocket /ws/matches/ab12?watch=S3cr3t" [accepted] GET /rejoin/T0k3n-x_y HTTP'
    cleaned = scrub(line)
    assert "S3cr3t" not in cleaned and "T0k3n" not in cleaned
    assert "/ws/matches/ab12" in cleaned and "/rejoin/" in cleaned


def test_full_bot_match_logs_are_json_with_events_and_no_secret(database_url, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "server.log"
    proc = start_logged_server(database_url, port, log_path)
    try:
        ann, bob = browser(base, "Ann"), browser(base, "Bob")
        page = ann.post("/matches", data={"game": "evil_corp", "players_evil_corp": "2"})
        mid = str(page.url).rsplit("/", 1)[1]
        invite, watch = (link(page.text, k) for k in ("invite", "watch"))
        rejoin = link(ann.post(f"/m/{mid}/rejoin-link").text, "rejoin")
        assert invite and watch and rejoin
        assert bob.get(f"/invite/{invite}").status_code == 200
        assert bob.get(f"/watch/{watch}").status_code == 200
        assert bob.get(f"/rejoin/{rejoin}").status_code == 200  # asks to play Ann's seat
        ann.post(f"/m/{mid}/bot", data={"seat": "0", "bot": "random"})
        ann.post(f"/m/{mid}/fill", data={"bot": "greedy"})
        assert browser(base, "Ops").get(
            "/metrics", headers={"Authorization": f"Bearer {ADMIN}"}).status_code == 200
        with connect(f"ws://127.0.0.1:{port}/ws/matches/{mid}?watch={watch}") as spectator:
            ann.post(f"/m/{mid}/start")
            while True:  # the bots play the whole match; the spectator sees it end
                msg = json.loads(spectator.recv(timeout=60))
                if msg["type"] == "view" and msg["view"]["result"] is not None:
                    break
        record = ann.get(f"/matches/{mid}/record").json()
        cookies = {c.cookies["lair_user"] for c in (ann, bob)}
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)

    records = log_records(log_path)  # every line is one JSON object
    events = {r.get("event") for r in records}
    assert {"request", "ws_connect", "ws_close", "match_start", "bot_move", "action_applied",
            "match_end", "shutdown"} <= events, events
    for r in records:
        assert {"time", "level", "logger", "message"} <= r.keys()
        if r.get("event") in ("bot_move", "action_applied", "match_start", "match_end",
                              "ws_connect", "ws_close"):
            assert r["match_id"] == mid, r
        if r.get("event") == "request":
            assert re.fullmatch(r"[0-9a-f]{16}", r["request_id"]), r
    assert sum(r.get("event") == "action_applied" for r in records) == len(record["actions"])

    text = log_path.read_text()
    secrets = {SECRET, ADMIN, invite, watch, rejoin, str(record["seed"]), *cookies}
    leaked = {s for s in secrets if s in text}
    assert not leaked, leaked
    hidden = hidden_strings(record)
    words = {w for w in hidden if _TOKEN.fullmatch(w) and not w.islower()}  # tile ids
    phrases = {p for p in hidden if " " in p}  # "You drew red R10 (fear 4), …"
    assert any(re.fullmatch(r"[A-Z]+\d+", w) for w in words), "the test must see hidden tiles"
    logged = set(_TOKEN.findall(text))
    assert not words & logged, words & logged
    assert not [p for p in phrases if p in text]
