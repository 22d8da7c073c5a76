"""A match's chat: lines kept in ``chat_messages`` and delivered by the change listeners (this
process's websocket hub; the other processes' through fan-out), and the table's notices (a
line from "Lair" plus a toast)."""
from __future__ import annotations

from sqlalchemy import select

from app.matches.changes import ChatPosted, Notice
from app.matches.errors import ErrorCode, ServiceError
from app.matches.store import Store
from app.models import CHAT_CHANNELS, ChatMessage


class Chat:
    """Post and read chat lines; tell the table a notice."""

    def __init__(self, store: Store):
        self.store = store

    async def post_chat(self, match_id: str, user_id: str | None, name: str, text: str,
                        max_chars: int = 500, channel: str = "table") -> ChatMessage:
        """Store a chat line (trimmed to ``max_chars``) in ``channel`` (``CHAT_CHANNELS``).
        Raises ``bad_message`` when empty."""
        text = text.strip()[:max_chars]
        if not text:
            raise ServiceError(ErrorCode.BAD_MESSAGE, "Empty chat message.")
        if channel not in CHAT_CHANNELS:
            raise ServiceError(ErrorCode.BAD_MESSAGE, "Unknown chat channel.")
        msg = ChatMessage(match_id=match_id, user_id=user_id, name=name, text=text,
                          channel=channel)
        async with self.store.sm() as s:
            s.add(msg)
            await s.commit()
        # Listeners deliver it: this process's hub, and the other processes' through fan-out.
        await self.store.changed(match_id, ChatPosted(msg.id))
        return msg

    async def chat_line(self, match_id: str, line_id: int) -> ChatMessage | None:
        """The chat line ``line_id`` of ``match_id`` (None if removed or not of this match)."""
        async with self.store.sm() as s:
            msg = await s.get(ChatMessage, line_id)
        return msg if msg is not None and msg.match_id == match_id else None

    async def chat_history(self, match_id: str, limit: int = 100,
                           channels: tuple[str, ...] | None = None) -> list[ChatMessage]:
        """The latest chat lines (of ``channels`` only, if given), oldest first."""
        q = select(ChatMessage).where(ChatMessage.match_id == match_id)
        if channels is not None:
            q = q.where(ChatMessage.channel.in_(channels))
        async with self.store.sm() as s:
            rows = (await s.execute(q.order_by(ChatMessage.id.desc()).limit(limit))
                    ).scalars().all()
        return list(reversed(rows))

    async def notice(self, match_id: str, text: str) -> None:
        """Tell the table (a chat line from "Lair", kept in the history, and a toast)."""
        await self.post_chat(match_id, None, "Lair", text)
        await self.store.changed(match_id, Notice(text))
