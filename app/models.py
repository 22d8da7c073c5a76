"""Database tables (docs/design.md, "The service"). Every change here needs an Alembic migration."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: JSON columns store the text as written (PostgreSQL ``json``, not ``jsonb``): ``jsonb``
#: reorders object keys, and a state must round-trip exactly (docs/design.md, the engine contract);
#: some engines iterate their dicts in insertion order.
JSONType = JSON()


def utcnow() -> datetime:
    """Timezone-aware now (UTC)."""
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    """Declarative base of Lair's tables."""


class User(Base):
    """A guest identity: one per browser. A rejoin link never hands it to another browser: it
    grants that browser's own identity one seat (``SeatGrant``)."""

    __tablename__ = "users"
    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Match(Base):
    """One game being played. ``state`` is the snapshot after ``version`` actions.

    ``version`` is the optimistic-concurrency counter: an action commits only with
    ``UPDATE ... WHERE version = <version it was built on>``; it equals the number of rows in
    ``actions`` for this match.
    """

    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("rematch_of", name="uq_matches_rematch_of"),)
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    engine_version: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict] = mapped_column(JSONType)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12), index=True, default="open")
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict | None] = mapped_column(JSONType, nullable=True)
    result: Mapped[dict | None] = mapped_column(JSONType, nullable=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    invite_token: Mapped[str] = mapped_column(String(64), unique=True)
    watch_token: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The host's table settings (app.matches.pace.PaceSettings: pace, time banks, move limit,
    #: replacement limit, webhook URL). None: a live match without clocks.
    settings: Mapped[dict | None] = mapped_column(JSONType, nullable=True)
    #: Clocks as of ``version`` (app.matches.pace): ``{"since": {seat: epoch s}, "banks":
    #: {seat: s left}, "new": [seats prompted anew at this version]}``.
    clocks: Mapped[dict | None] = mapped_column(JSONType, nullable=True)
    #: When the next seat runs out of time (None: no clock runs); the timer re-reads it.
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True,
                                                       index=True)
    #: The host let the spectators talk to the table: their chat lines go to the table channel
    #: (everyone reads them) instead of the spectators' channel (README "Playing" > chat).
    spectator_chat_open: Mapped[bool] = mapped_column(Boolean, default=False,
                                                      server_default=false())
    #: The finished match this one is the rematch of (unique: a match has at most one rematch,
    #: so concurrent "Rematch" clicks in any process agree on it). None: not a rematch.
    rematch_of: Mapped[str | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL", name="fk_matches_rematch_of_matches"),
        nullable=True)

    @property
    def started_state(self) -> dict:
        """``state`` of a match that has started (active or finished: it has one). Raises
        ``ValueError`` for a match that never started (open, or cancelled while open)."""
        if self.state is None:
            raise ValueError(f"match {self.id} has not started: it has no state")
        return self.state


class Seat(Base):
    """A place at a match's table: empty, a user, or a bot (``bot`` = bot kind). A user sits
    in at most one seat of a match (``uq_seats_match_user``, a partial unique index: several
    server processes cannot seat one user twice; app.matches.seats takes seats with
    conditional updates)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("rejoin_hash", name="uq_seats_rejoin_hash"),
                      Index("uq_seats_match_user", "match_id", "user_id", unique=True,
                            postgresql_where=text("user_id IS NOT NULL"),
                            sqlite_where=text("user_id IS NOT NULL")))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    #: While a bot stands in for a player who left mid-match: that player, who may come back.
    away_user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    #: SHA-256 (hex) of the seat's current rejoin link token (the token itself is shown once,
    #: to the seat's owner, and never stored); None: no link. A new link replaces it.
    rejoin_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The identity that plays the seat now when it is not its owner (``user_id``): a device
    #: that redeemed the rejoin link (it holds a ``SeatGrant``). None: the owner plays it.
    player_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    #: The player resigned (a bot plays on; ranked last); they cannot take the seat back.
    resigned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: Votes of the other players to hand this absent seat to a bot:
    #: ``{"since": <the seat's prompt start, epoch s>, "voters": [seat, ...]}``.
    replace_votes: Mapped[dict | None] = mapped_column(JSONType, nullable=True)
    #: Since when (epoch s) the seat's player has had no socket open in any process: written
    #: when their last socket closes, cleared when one opens again (app.realtime.presence; a
    #: process keeps it in memory too, and forgets that copy once the match is idle). None:
    #: connected, or not seen since (then: away since the serving process started).
    away_since: Mapped[float | None] = mapped_column(Float, nullable=True)


class SeatGrant(Base):
    """A seat granted to another identity (another device of the seat's player) by the seat's
    rejoin link: that identity may play this seat of this match, nothing else. The seat still
    belongs to its owner (``Seat.user_id``), who keeps the host role and makes new links (a new
    link removes the grants of the old one). app/matches/access.py reads these rows."""

    __tablename__ = "seat_grants"
    __table_args__ = (ForeignKeyConstraint(["match_id", "seat"], ["seats.match_id", "seats.seat"],
                                           ondelete="CASCADE"),)
    match_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ActionRow(Base):
    """The append-only action log: row ``seq`` turned version ``seq-1`` into ``seq``."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "seat", "action_id",
                                       name="uq_actions_match_seat_action_id"),)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action_id: Mapped[str] = mapped_column(String(64))
    action: Mapped[dict] = mapped_column(JSONType)
    #: This move can't be taken back: some event of it drew something random or revealed
    #: hidden information, or a bot made it (a player undoes only their own moves).
    irreversible: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: This row is ``{"type": "undo"}`` (docs/design.md, "Undo is an action too").
    undo: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


#: Chat channels: ``table`` (written by the players and the host, read by everyone at the table
#: including spectators) and ``spectators`` (written and read by spectators only).
CHAT_CHANNELS = ("table", "spectators")


class ChatMessage(Base):
    """A chat line in a match (stored as typed; escaped by the client when shown)."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    #: One of ``CHAT_CHANNELS``: who receives the line.
    channel: Mapped[str] = mapped_column(String(12), default="table", server_default="table")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Record(Base):
    """An imported match record (a finished match's record file uploaded by anyone), kept so
    its replay has a URL to share. Validated on import: known game, supported engine version,
    every action legal when replayed, the final state's hash as recorded (app/records.py)."""

    __tablename__ = "records"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: SHA-256 of the canonical record: the same record uploaded twice gets the same URL.
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    engine_version: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict] = mapped_column(JSONType)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    #: ``[[seat, action], ...]`` as in the record file.
    actions: Mapped[list] = mapped_column(JSONType)
    #: ``[{"name", "bot", "host"}]`` per seat as the record names them (may be empty names).
    seats: Mapped[list] = mapped_column(JSONType)
    result: Mapped[dict] = mapped_column(JSONType)
    final_hash: Mapped[str] = mapped_column(String(64))
    #: The hints the players asked for, as the record lists them: ``[{"seat", "version",
    #: "at"}]`` (app.matches.hints). None: a record without hints (or made before them).
    hints: Mapped[list | None] = mapped_column(JSONType, nullable=True)
    uploader_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class HintUseRow(Base):
    """A player asked for a hint (issue 17, item 6; app.matches.hints): which seat, at which
    version of the match (the position it was asked in), when. Public: every viewer's view
    lists the uses, the replay and the record file too; the suggested action is not kept (only
    the asking socket received it). Recorded by the service, not in the engine's log."""

    __tablename__ = "hint_uses"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    #: How many events the match's log held when it was asked (the engine's whole log, every
    #: seat's events): where its line goes among a viewer's log lines, which carry no move
    #: (app.matches.views ``hint_uses``). None: a use recorded before this column.
    log_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RateWindow(Base):
    """A rate limit's current window for one bucket (app.ratelimit, PostgreSQL only): hits
    counted since the window began, and when it ends (epoch s). Transient: rows of ended
    windows are deleted."""

    __tablename__ = "rate_windows"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class Heartbeat(Base):
    """When a process last served (app.matches.outage): one row (``id`` 1) that every live
    process updates every few seconds, so a process starting after an outage (or a database
    back after failing) knows how long nothing was served, and gives that time back to every
    running clock."""

    __tablename__ = "heartbeats"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    beat_at: Mapped[float] = mapped_column(Float)
