"""Chat channels (issue 7 item 6): spectators chat among themselves, apart from the players'
table chat, unless the host opens the table to them.

The table channel is written by the players (also one a bot stands in for) and the host, and
read by everyone, spectators included. The spectators' channel is written and read by
spectators only: a spectator's line never reaches a player's socket, not live and not in the
history sent on connect, unless the host has opened the table (then spectators' lines go to the
table channel). Leak checks need no timing: after a spectator's line, a table line is sent, and
the next chat frame a player receives must be that table line.
"""
from __future__ import annotations

import pytest

from tests.app.conftest import named, new_client
from tests.app.ops.test_ops_admin import admin_browser, ops_client  # noqa: F401 (fixture)
from tests.app.realtime.test_live import recv, started


def say(ws, text: str) -> None:
    ws.send_json({"type": "chat", "text": text})


def spectator(client, name: str | None = "Eve"):
    """Another browser with no seat (named, or anonymous with ``name=None``)."""
    other = new_client(client)
    return named(other, name) if name else other


def sees_chat_open(ws, expected: bool, limit: int = 10) -> None:
    """Receive views until one shows the host's setting ``expected`` (a view sent before the
    change may still be queued); fail if none does."""
    for _ in range(limit):
        if recv(ws, "view")["view"]["match"]["spectator_chat_open"] is expected:
            return
    raise AssertionError(f"no view with spectator_chat_open={expected}")


def chat_texts(client, mid, channels=None) -> list[tuple[str, str]]:
    rows = client.portal.call(client.app.state.service.chat_history, mid, 100, channels)
    return [(m.channel, m.text) for m in rows]


def test_spectator_lines_never_reach_the_players(client):
    mid, bob_browser = started(client)  # Ann (host) in seat 0, Bob in seat 1
    eve_browser, anon_browser = spectator(client), spectator(client, None)
    with client.websocket_connect(f"/ws/matches/{mid}") as ann, \
            bob_browser.websocket_connect(f"/ws/matches/{mid}") as bob, \
            eve_browser.websocket_connect(f"/ws/matches/{mid}") as eve, \
            anon_browser.websocket_connect(f"/ws/matches/{mid}") as anon:
        for ws in (ann, bob, eve, anon):
            assert recv(ws, "view")["view"]["match"]["spectator_chat_open"] is False
        say(eve, "psst, Bob bid high")
        for ws in (eve, anon):  # both spectators read it, marked as the spectators' channel
            line = recv(ws, "chat")
            assert (line["from"], line["text"], line["channel"]) == \
                ("Eve", "psst, Bob bid high", "spectators")
        say(ann, "good luck")
        for ws in (ann, bob):  # the next chat frame a player gets is the table line
            line = recv(ws, "chat")
            assert (line["text"], line["channel"]) == ("good luck", "table")
        for ws in (eve, anon):  # spectators read the table chat too
            assert recv(ws, "chat")["text"] == "good luck"
        say(anon, "who is winning?")
        assert recv(eve, "chat")["text"] == "who is winning?"
        say(bob, "thanks")
        assert recv(ann, "chat")["text"] == "thanks"
        assert recv(bob, "chat")["text"] == "thanks"
    assert chat_texts(client, mid) == [("spectators", "psst, Bob bid high"),
                                       ("table", "good luck"),
                                       ("spectators", "who is winning?"), ("table", "thanks")]
    # The history on connect: a player gets the table channel only, a spectator both.
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        recv(ann, "view")
        assert [recv(ann, "chat")["text"] for _ in range(2)] == ["good luck", "thanks"]
        say(ann, "marker")
        assert recv(ann, "chat")["text"] == "marker"  # nothing else came before it
    with eve_browser.websocket_connect(f"/ws/matches/{mid}") as eve:
        recv(eve, "view")
        assert [recv(eve, "chat")["text"] for _ in range(5)] == [
            "psst, Bob bid high", "good luck", "who is winning?", "thanks", "marker"]


def test_host_opens_the_table_to_spectators_and_closes_it(client):
    mid, bob_browser = started(client)
    eve_browser = spectator(client)
    assert bob_browser.post(f"/m/{mid}/spectator-chat", data={"open": "1"}).status_code == 403
    assert eve_browser.post(f"/m/{mid}/spectator-chat", data={"open": "1"}).status_code == 403
    assert 'id="spectator-chat-toggle"' in client.get(f"/m/{mid}").text
    assert 'id="spectator-chat-toggle"' not in bob_browser.get(f"/m/{mid}").text
    assert 'data-chat-role="spectator"' in eve_browser.get(f"/m/{mid}").text
    assert 'data-chat-role="table"' in bob_browser.get(f"/m/{mid}").text
    with bob_browser.websocket_connect(f"/ws/matches/{mid}") as bob, \
            eve_browser.websocket_connect(f"/ws/matches/{mid}") as eve:
        recv(bob, "view"), recv(eve, "view")
        r = client.post(f"/m/{mid}/spectator-chat", data={"open": "1"}, follow_redirects=False)
        assert r.status_code == 303
        sees_chat_open(bob, True), sees_chat_open(eve, True)
        say(eve, "hello players")
        line = recv(bob, "chat")
        assert (line["from"], line["text"], line["channel"]) == ("Eve", "hello players", "table")
        assert recv(eve, "chat")["channel"] == "table"
        client.post(f"/m/{mid}/spectator-chat", data={})
        sees_chat_open(bob, False), sees_chat_open(eve, False)
        say(eve, "apart again")
        assert recv(eve, "chat")["channel"] == "spectators"
        say(bob, "marker")
        assert recv(bob, "chat")["text"] == "marker"
    # What was said while the table was open stays readable by the players.
    assert chat_texts(client, mid, ("table",)) == [("table", "hello players"),
                                                   ("table", "marker")]


def test_host_who_only_watches_and_player_away_belong_to_the_table(client):
    named(client, "Host")
    r = client.post("/matches", data={"game": "toy", "players_toy": "2", "host_plays": "no",
                                      "public": "on"}, follow_redirects=False)
    mid = r.headers["location"].rsplit("/", 1)[1]
    bob_browser = named(new_client(client), "Bob")
    bob_browser.post(f"/m/{mid}/seat", data={"seat": "0"})
    client.post(f"/m/{mid}/bot", data={"seat": "1", "bot": "random"})
    client.post(f"/m/{mid}/start")
    service = client.app.state.service
    service.bot_delay = 3600  # the bot waits: the match stays running during the test
    client.post(f"/m/{mid}/replace", data={"seat": "0", "bot": "random"})  # Bob is away
    eve_browser = spectator(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as host, \
            bob_browser.websocket_connect(f"/ws/matches/{mid}") as bob, \
            eve_browser.websocket_connect(f"/ws/matches/{mid}") as eve:
        for ws in (host, bob, eve):
            recv(ws, "view")
            assert recv(ws, "chat")["system"]  # Lair told the table Bob's seat went to a bot
        say(eve, "spectators only")
        assert recv(eve, "chat")["channel"] == "spectators"
        say(host, "from the host")
        assert recv(bob, "chat")["text"] == "from the host"  # not the spectators' line
        assert recv(host, "chat")["text"] == "from the host"
        say(bob, "from away Bob")  # a player a bot stands in for still talks to the table
        assert recv(eve, "chat")["text"] == "from the host"
        for ws in (eve, host):
            line = recv(ws, "chat")
            assert (line["from"], line["text"], line["channel"]) == \
                ("Bob", "from away Bob", "table")
    assert chat_texts(client, mid)[1:] == [("spectators", "spectators only"),
                                       ("table", "from the host"), ("table", "from away Bob")]


def test_admin_sees_both_channels_and_removes_a_spectator_line(ops_client):  # noqa: F811
    mid, _bob = started(ops_client)
    eve_browser = spectator(ops_client)
    with eve_browser.websocket_connect(f"/ws/matches/{mid}") as eve:
        recv(eve, "view")
        say(eve, "rude spectator words")
        recv(eve, "chat")
    admin = admin_browser(ops_client)
    page = admin.get(f"/admin/m/{mid}").text
    assert "rude spectator words" in page and '<span class="badge">spectators</span>' in page
    [(line_id, channel)] = [(m.id, m.channel) for m in ops_client.portal.call(
        ops_client.app.state.service.chat_history, mid)]
    assert channel == "spectators"
    assert admin.post(f"/admin/chat/{line_id}/delete", follow_redirects=False).status_code == 303
    with eve_browser.websocket_connect(f"/ws/matches/{mid}") as eve:
        recv(eve, "view")
        say(eve, "marker")
        assert recv(eve, "chat")["text"] == "marker"  # the removed line is not in the history


@pytest.mark.parametrize("bad", ["", "   ", "\x00"])
def test_empty_spectator_lines_are_refused(client, bad):
    mid, _bob = started(client)
    with spectator(client).websocket_connect(f"/ws/matches/{mid}") as eve:
        recv(eve, "view")
        say(eve, bad)
        assert recv(eve, "error")["code"] == "bad_message"
    assert chat_texts(client, mid) == []

