"""A crowd leaving at once does not close the sockets that stay (issue 13, "Limits").

Every socket that leaves tells everyone who is connected (``Hub.send_presence``). With one
presence frame queued per leave, 70 spectators closing together filled a reading player's
64-frame send queue and the server closed the player's socket as too slow (1013): any client
could disconnect a table that way (a live re-trial on two processes). A presence frame waiting
in the queue is now replaced by the newer one (``Connection.send_presence``).
"""
from __future__ import annotations

import asyncio

from app.realtime.connection import Connection


class Recorder:
    """A websocket whose peer reads everything."""

    def __init__(self):
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def _presence(n: int) -> str:
    return f'{{"type":"presence","seats":[0],"spectators":{n}}}'


def test_presence_frames_replace_the_one_waiting_and_keep_its_place():
    async def run() -> tuple[Connection, list[str]]:
        ws = Recorder()
        conn = Connection(ws, "m", "u", 0, "Ana", queue_size=4)
        conn.send('{"type":"view","version":1}')
        for left in range(100, 0, -1):  # a hundred spectators leave before the sender runs
            conn.send_presence(_presence(left - 1))
        conn.send('{"type":"view","version":2}')
        assert not conn.closed and conn.queue.qsize() == 3
        conn.task = asyncio.create_task(conn.sender())
        await asyncio.sleep(0)
        conn.send_presence(_presence(7))  # after the sender took the last one: queued anew
        await asyncio.sleep(0)
        conn.close()
        await conn.task
        return conn, ws.sent

    conn, sent = asyncio.run(run())
    assert sent == ['{"type":"view","version":1}', _presence(0),
                    '{"type":"view","version":2}', _presence(7)]
    assert conn.presence is None
