"""The websocket's frames (docs/wire.md): the client's, validated, and the server's, encoded.

Every frame is one JSON object in a text frame, ``type`` first. This module knows the shapes
only; what goes into a view is app.matches.views's, who may read a chat line
app.matches.chat_policy's.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

#: Close codes the server sends (docs/wire.md "Close codes"). 4404 (no such match, and a
#: private match the viewer may not see: ``app.matches.access.WS_NOT_FOUND``) lives with the
#: access policy.
CLOSE_CROSS_SITE = 4403
CLOSE_RESTART = 1012
CLOSE_TRY_LATER = 1013
#: Too many sockets open from the client's address (``WS_PER_ADDRESS``): the table backs off.
CLOSE_TOO_MANY = 4429


# ----- client frames (validated with pydantic) -----------------------------------------------
class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionMsg(_Msg):
    """``{"type":"action","id":str,"version":int,"action":{...}}``."""

    type: Literal["action"]
    # No NUL: PostgreSQL text refuses it (it would surface as a server error, not a refusal).
    id: str = Field(min_length=1, max_length=64, pattern=r"^[^\x00]+$")
    version: int
    action: dict[str, Any]


class ChatMsg(_Msg):
    """``{"type":"chat","text":str}``."""

    type: Literal["chat"]
    text: str = Field(max_length=2000)


class HintMsg(_Msg):
    """``{"type":"hint","ref":str,"version":int}``: "Suggest a move" for the asker's seat, on
    the view of ``version``; ``ref`` comes back with the answer (or the error)."""

    type: Literal["hint"]
    ref: str = Field(min_length=1, max_length=64, pattern=r"^[^\x00]+$")
    version: int


class PingMsg(_Msg):
    """``{"type":"ping"}``."""

    type: Literal["ping"]


ClientMsg = TypeAdapter(Annotated[Union[ActionMsg, ChatMsg, HintMsg, PingMsg],
                                  Field(discriminator="type")])


class BadFrame(Exception):
    """A client frame that is not one of the four: ``message`` says why (safe to show);
    ``ref`` is its ``id`` (an action's) or ``ref`` (a hint's) when it had a string one."""

    def __init__(self, message: str, ref: str | None = None):
        super().__init__(message)
        self.message = message
        self.ref = ref


def parse(raw: str) -> ActionMsg | ChatMsg | HintMsg | PingMsg:
    """The client frame in ``raw`` (JSON text). Raises :class:`BadFrame`."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise BadFrame("That message is not valid JSON.") from None
    ref = None
    if isinstance(data, dict):
        ref = next((v for v in (data.get("id"), data.get("ref")) if isinstance(v, str)), None)
    try:
        return ClientMsg.validate_python(data)
    except ValidationError:
        kind = data.get("type") if isinstance(data, dict) else None
        text = (f"Unknown message type {str(kind)[:30]!r}."
                if kind not in ("action", "chat", "hint", "ping")
                else f"Malformed {kind} message.")
        raise BadFrame(text, ref) from None


# ----- server frames ---------------------------------------------------------------------------
def encode(obj: dict) -> str:
    """A frame's text (orjson: views are encoded once per seat after every move)."""
    return orjson.dumps(obj).decode()


PONG = '{"type":"pong"}'
RELOAD = encode({"type": "reload"})


def wire_view(view: dict, log_from: int, kept: tuple[str, ...]) -> dict:
    """The wire form of ``view``: its ``log`` (the events from ``log_from`` on, as the view was
    built) and ``kept`` naming the game parts the client keeps from its last view."""
    out = dict(view, log_from=log_from)
    if kept:
        out["game"] = {k: v for k, v in view["game"].items() if k not in kept}
        out["kept"] = list(kept)
    return out


def view_frame(view: dict, log_from: int = 0, kept: tuple[str, ...] = ()) -> str:
    """``{"type":"view","view":...}`` (:func:`wire_view`)."""
    return encode({"type": "view", "view": wire_view(view, log_from, kept)})


def lobby_frame(lobby: dict) -> str:
    """``{"type":"lobby","status","seats","pace"}`` (``app.matches.views.lobby_view``)."""
    return encode({"type": "lobby", **lobby})


def chat_frame(line: Any) -> str:
    """``{"type":"chat","from","text","at","channel"[,"system":true]}`` of a stored chat line
    (``app.models.ChatMessage``)."""
    frame = {"type": "chat", "from": line.name, "text": line.text,
             "at": line.created_at.isoformat(), "channel": line.channel}
    if line.user_id is None:  # Lair's own notices (resignations, timeouts, votes, seats)
        frame["system"] = True
    return encode(frame)


def error_frame(code: str, message: str, ref: str | None = None) -> str:
    """``{"type":"error","code","message","ref"}`` (``ref``: the action's ``id``, or null)."""
    return encode({"type": "error", "code": code, "message": message, "ref": ref})


def ack_frame(ref: str, version: int, duplicate: bool) -> str:
    """``{"type":"ack","ref","version","duplicate"}``: the mover's action landed."""
    return encode({"type": "ack", "ref": ref, "version": version, "duplicate": duplicate})


def hint_frame(ref: str, version: int, action: dict, reason: str | None) -> str:
    """``{"type":"hint","ref","version","action","reason"}``: the suggested move (one of the
    asking seat's legal actions at ``version``), to the asking socket only."""
    return encode({"type": "hint", "ref": ref, "version": version, "action": action,
                   "reason": reason})


def presence_frame(seats: list[int], spectators: int) -> str:
    """``{"type":"presence","seats":[{"seat","connected":true}],"spectators"}``."""
    return encode({"type": "presence", "seats": [{"seat": s, "connected": True} for s in seats],
                   "spectators": spectators})


def notice_frame(text: str) -> str:
    """``{"type":"notice","text"}``: a toast (the same text is also a chat line from Lair)."""
    return encode({"type": "notice", "text": text})


def rematch_frame(match_id: str) -> str:
    """``{"type":"rematch","match","url"}``: the rematch of this match was opened."""
    return encode({"type": "rematch", "match": match_id, "url": f"/m/{match_id}"})
