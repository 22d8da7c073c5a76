"""Match webhooks against a real local HTTP receiver (issue 7, "Pace")."""
from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.app.matches.test_pace import call, service, snap, submit, table
from tests.app.servers import free_port


class Receiver:
    """A small HTTP server on a loopback port that records every POST. ``statuses``: the
    answers to give, in order (then 200)."""

    def __init__(self):
        self.calls: list[dict] = []
        self.statuses: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                receiver.calls.append({"path": self.path, "body": json.loads(body),
                                       "type": self.headers.get("content-type")})
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/abc"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def bodies(self) -> list[dict]:
        return [c["body"] for c in self.calls]


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def hooks(client):
    w = client.app.state.webhooks
    w.allow_private = True  # the receiver is on loopback
    client.app.state.settings.webhook_allow_private = True
    w.backoff = 0.01
    return w


def drain(client):
    call(client, service(client).drain)


def test_turn_based_match_calls_the_webhook_on_new_turns_and_at_the_end(client, hooks,
                                                                          receiver):
    mid, (bob,) = table(client, pace="turn", webhook=receiver.url, start=False)
    assert receiver.calls == []  # nothing before the start
    client.post(f"/m/{mid}/start")
    drain(client)
    (first,) = receiver.bodies()
    assert first["event"] == "turn" and [s["name"] for s in first["seats"]] == ["Ann", "Bob"]
    assert first["content"] == first["text"] == (
        f"Your turn in Toy Nim, Ann and Bob: http://127.0.0.1:8000/m/{mid}")
    assert first["match"] == {"id": mid, "game": "toy", "title": "Toy Nim",
                              "url": f"http://127.0.0.1:8000/m/{mid}"}
    assert receiver.calls[0]["path"] == "/hooks/abc"
    assert receiver.calls[0]["type"] == "application/json"
    submit(client, mid, 0, {"type": "bid", "n": 3})
    drain(client)
    assert len(receiver.calls) == 1  # Bob was already waited for: no new call
    submit(client, mid, 1, {"type": "bid", "n": 1})  # Ann bid higher: she takes first
    drain(client)
    assert receiver.bodies()[-1]["seats"] == [{"seat": 0, "name": "Ann"}]
    for seat, n in ((0, 2), (1, 2), (0, 2), (1, 1)):  # 7 counters: Bob takes the last
        submit(client, mid, seat, {"type": "take", "n": n})
        drain(client)
    bodies = receiver.bodies()
    assert [b["event"] for b in bodies] == ["turn"] * 5 + ["finished"]
    assert [b["seats"][0]["name"] for b in bodies[1:5]] == ["Ann", "Bob", "Ann", "Bob"]
    end = bodies[-1]
    assert end["result"]["ranks"] == [[{"seat": 1, "name": "Bob"}], [{"seat": 0, "name": "Ann"}]]
    assert end["text"] == f"Toy Nim is over: Bob, Ann. http://127.0.0.1:8000/m/{mid}"
    # never a token or a secret: the invite, spectator and rejoin links stay private
    m = snap(client, mid).match
    text = json.dumps(bodies)
    assert m.invite_token not in text and m.watch_token not in text
    assert "rejoin" not in text and "bids" not in text


def test_live_match_calls_only_at_the_end_with_the_resignation(client, hooks, receiver):
    mid, (bob,) = table(client, webhook=receiver.url)
    submit(client, mid, 0, {"type": "bid", "n": 2})
    drain(client)
    assert receiver.calls == []
    bob.post(f"/m/{mid}/resign")
    drain(client)
    (end,) = receiver.bodies()
    assert end["event"] == "finished" and end["result"]["reason"] == "Resigned: Bob."
    assert "Ann" in end["content"] and "Resigned: Bob." in end["content"]


def test_bot_seats_are_not_announced(client, hooks, receiver):
    mid, () = table(client, names=("Ann",), bots=(1,), pace="turn", webhook=receiver.url)
    drain(client)
    assert [s["name"] for s in receiver.bodies()[0]["seats"]] == ["Ann"]


def test_retries_on_server_errors_then_gives_up_quietly(client, hooks, receiver, caplog):
    receiver.statuses = [500, 503]
    assert call(client, hooks.post, "m1", "turn", receiver.url, {"content": "x"}) is True
    assert len(receiver.calls) == 3
    receiver.statuses = [404]
    with caplog.at_level(logging.WARNING, "lair.events"):
        assert call(client, hooks.post, "m1", "turn", receiver.url, {"content": "x"}) is False
    assert len(receiver.calls) == 4  # a 4xx is not retried
    assert any(r.getMessage() == "webhook failed" and r.status == 404 for r in caplog.records)
    assert "hooks/abc" not in caplog.text  # the URL may hold a secret: never logged
    dead = f"http://127.0.0.1:{free_port()}/nobody"
    assert call(client, hooks.post, "m1", "turn", dead, {"content": "x"}) is False


def test_private_addresses_are_refused_unless_allowed(client, receiver, caplog):
    hooks = client.app.state.webhooks
    assert hooks.allow_private is False
    with caplog.at_level(logging.WARNING, "lair.events"):
        assert call(client, hooks.post, "m1", "turn", receiver.url, {"content": "x"}) is False
    assert receiver.calls == []
    assert any(r.getMessage() == "webhook refused" for r in caplog.records)
