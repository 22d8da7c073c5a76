"""A slow or stalled client never delays the others' views (issue 6, section 3), every database.

A socket whose peer stopped reading (its writes never complete, not even the close frame) sits
in the hub of a bot-only match beside a real spectator. Its bounded send queue fills, it is
closed and its sender stopped; the spectator meanwhile gets every view up to the end.
"""
from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient

from app.main import create_app
from app.realtime.connection import Connection
from app.settings import Settings
from tests.app.conftest import named, new_client
from tests.csrf import as_browser


class StalledSocket:
    """A websocket whose peer never reads: every write (and the close frame) blocks."""

    def __init__(self):
        self.writes = 0

    async def send_text(self, text: str) -> None:
        self.writes += 1
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await asyncio.Event().wait()


def test_a_stalled_socket_is_closed_while_the_others_get_every_view(database_url):
    app = create_app(Settings(database_url=database_url, secret_key="s", bot_delay=0,
                              ws_send_queue=3))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        named(client, "Host")
        r = client.post("/matches", data={"game": "toy", "players_toy": "2",
                                          "public": "on", "host_plays": "no"},
                        follow_redirects=False)
        mid = r.headers["location"].rsplit("/", 1)[1]
        client.post(f"/m/{mid}/fill", data={"bot": "random"})
        hub = app.state.hub
        stalled_ws = StalledSocket()

        async def attach() -> Connection:
            conn = Connection(stalled_ws, mid, None, None, "Stalled", 3)
            conn.task = asyncio.create_task(conn.sender())
            hub.conns[mid].add(conn)
            return conn

        stalled = client.portal.call(attach)
        watcher = new_client(client)
        with watcher.websocket_connect(f"/ws/matches/{mid}") as spec:
            client.post(f"/m/{mid}/start")
            versions = []
            while True:
                msg = spec.receive_json()
                if msg["type"] == "reload":  # the table page reloads at the start
                    break
            with watcher.websocket_connect(f"/ws/matches/{mid}") as table:
                while True:
                    msg = table.receive_json()
                    if msg["type"] == "view":
                        versions.append(msg["view"]["version"])
                        if msg["view"]["result"] is not None:
                            break
        final = client.portal.call(app.state.service.snapshot, mid).match
        assert final.status == "finished" and versions[-1] == final.version >= 5
        assert versions == sorted(versions)
        assert stalled.closed and stalled_ws.writes == 1  # stuck on its first write
        client.portal.call(asyncio.sleep, 2.5)  # the close frame gives up after 2 s
        assert stalled.task.done()
        assert stalled.queue.qsize() <= 1  # nothing piles up for it any more
