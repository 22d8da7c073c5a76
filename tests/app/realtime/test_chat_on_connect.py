"""A chat line posted while a new socket reads its chat history reaches it once, in order
(app/realtime/connection.py ``send_chat``). Found in CI on PostgreSQL: a player whose first
view came from another socket's push went on before its own history was read, so the table's
"good luck" came live and again in the history."""
from __future__ import annotations

import json

from app.realtime.connection import Connection


def frames(conn: Connection) -> list[str]:
    out = []
    while not conn.queue.empty():
        out.append(json.loads(conn.queue.get_nowait())["text"])
    return out


def line(text: str) -> str:
    return json.dumps({"type": "chat", "text": text})


def test_live_lines_wait_for_the_history_and_come_once():
    conn = Connection(None, "m", "u", 0, "Bob", 16)
    conn.send_chat(7, line("good luck"))    # live, while the history is read
    conn.send_chat(8, line("who is winning?"))
    for text in ("hello", "good luck"):       # the history (lines 6 and 7) is sent
        conn.send(line(text))
    conn.chat_history_sent(7)
    assert frames(conn) == ["hello", "good luck", "who is winning?"]
    conn.send_chat(9, line("thanks"))        # from now on at once
    assert frames(conn) == ["thanks"]


def test_no_history_sends_every_held_line_in_order():
    conn = Connection(None, "m", "u", None, "Eve", 16)
    conn.send_chat(3, line("b"))
    conn.send_chat(2, line("a"))
    conn.chat_history_sent(0)
    assert frames(conn) == ["a", "b"]
