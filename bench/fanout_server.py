"""The bare websocket fan-out server: Lair's sending cost with no engine and no database.

    uvicorn bench.fanout_server:app     (FANOUT_TEMPLATE=<file with one real Lair view, JSON>)

``/ws/{room}``: for every text message a client sends (parsed with orjson, as Lair does), every
*other* socket of the room gets ``{"type":"view","view":{...template, "version": n, "you": i}}``,
encoded once per viewer with orjson (the template is a real view captured from Lair, so the
encoder walks the same structure and size). Each socket has Lair's send path: a bounded queue
and a sender task. ``/healthz`` answers ``{"ok": true}``.
"""
from __future__ import annotations

import asyncio
import os
from collections import defaultdict
from pathlib import Path

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

app = FastAPI()
_TEMPLATE: dict = {}
_rooms: dict[str, list["_Conn"]] = defaultdict(list)
_versions: dict[str, int] = defaultdict(int)


def _template() -> dict:
    global _TEMPLATE
    if not _TEMPLATE:
        path = os.environ.get("FANOUT_TEMPLATE")
        _TEMPLATE = orjson.loads(Path(path).read_bytes()) if path else {"pad": "x" * 3000}
    return _TEMPLATE


class _Conn:
    def __init__(self, ws: WebSocket, index: int):
        self.ws, self.index = ws, index
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=64)

    async def sender(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
        except Exception:
            pass


@app.get("/healthz")
async def healthz() -> dict:
    return {"ok": True}


@app.websocket("/ws/{room}")
async def room_socket(ws: WebSocket, room: str) -> None:
    await ws.accept()
    template = _template()
    conn = _Conn(ws, len(_rooms[room]))
    _rooms[room].append(conn)
    task = asyncio.create_task(conn.sender())
    try:
        while True:
            orjson.loads(await ws.receive_text())
            _versions[room] += 1
            version = _versions[room]
            for other in _rooms[room]:
                if other is not conn:
                    text = orjson.dumps({"type": "view", "view": {
                        **template, "version": version, "you": other.index}}).decode()
                    try:
                        other.queue.put_nowait(text)
                    except asyncio.QueueFull:
                        pass
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        _rooms[room].remove(conn)
        if not _rooms[room]:
            del _rooms[room]
        while not conn.queue.empty():
            conn.queue.get_nowait()
        conn.queue.put_nowait(None)
        await asyncio.gather(task, return_exceptions=True)
