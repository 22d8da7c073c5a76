"""Match records: the downloadable file of a finished match, and its re-import.

A record file (``GET /matches/{id}/record``) is ``{"game", "version", "players", "options",
"seed", "actions": [[seat, action], ...], "final_hash", "result", "seats": [{"name", "bot",
"away_name", "host"}], "resigned", "hints": [{"seat", "version", "at"}]}``: everything public
once the match is over (docs/wire.md). Records made before hints have no ``hints``.

Re-import never trusts the file: :func:`parse` checks its size, JSON and shape (pydantic);
:func:`verify` checks the game is hosted, the site still has the rules version the record names
(the live one or one frozen under ``engines/<game>/legacy/``), the options are
valid, every action is exactly one of the legal actions when the log is replayed with the one
canonical replay (``engines.records``, undo included) on that version, the match is over at the end, and the final
state's hash is the recorded one. A record that passes replays to the very same states as the
original match at every step. Imported records are stored (table ``records``) so that their replay
has a URL to share; the same record uploaded twice gets the same URL.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from typing import Annotated, Any

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    model_validator,
)
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.matches import pace
from app.matches.snapshot import HintUse, SeatInfo, Snapshot, default_name, seat_name
from app.models import Match, Record, User
from engines import registry
from engines.base import IllegalAction
from engines.records import UndoTrail, state_hash, step

log = logging.getLogger("lair.records")
#: Most actions a record may hold (the longest real matches have a few hundred).
MAX_ACTIONS = 5_000
#: A fake host id for the seats of an imported record (``build_view`` marks the host's seat).
IMPORTED_HOST = "\x00imported-host"


class RecordError(Exception):
    """A refused record file: ``message`` says what is wrong (shown to the uploader);
    ``status`` is the HTTP status (400 malformed, 413 too large, 422 not a valid match)."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.message = message
        self.status = status


def _printable(text: str | None) -> str | None:
    if text is not None and not all(ch.isprintable() for ch in text):
        raise ValueError("names must be printable text")
    return text


Name = Annotated[str, Field(max_length=40), AfterValidator(_printable)]


class SeatEntry(BaseModel):
    """One seat as a record names it (public facts shown at the table)."""

    model_config = ConfigDict(extra="ignore")
    name: Name | None = None
    bot: Annotated[str, Field(max_length=20, pattern=r"^[a-z0-9_]+$")] | None = None
    away_name: Name | None = None
    host: StrictBool = False


class HintEntry(BaseModel):
    """A hint a player asked for, as a record lists it (app.matches.hints): the seat, the
    version it was asked at, and when (ISO 8601 text; optional)."""

    model_config = ConfigDict(extra="ignore")
    seat: Annotated[StrictInt, Field(ge=0, le=15)]
    version: Annotated[StrictInt, Field(ge=0)]
    at: Annotated[str, Field(max_length=40), AfterValidator(_printable)] | None = None


class RecordFile(BaseModel):
    """The record file's shape. Integers are strict (``1.0`` or ``true`` is no seat). Other
    keys (``result``, or fields a later Lair may add) are ignored: the result is recomputed
    from the replay, never taken from the file. ``resigned``: the seats that resigned,
    earliest first (a match may end by resignation; records made before this field carry
    it as ``result.resigned``). ``hints``: the hints the players asked for (records made
    before hints have none)."""

    model_config = ConfigDict(extra="ignore")
    game: Annotated[str, Field(max_length=40)]
    version: StrictInt
    players: Annotated[StrictInt, Field(ge=1, le=16)]
    options: dict[str, Any]
    seed: Annotated[StrictInt, Field(ge=0, lt=1 << 63)]
    actions: Annotated[list[tuple[Annotated[StrictInt, Field(ge=0, le=15)], dict[str, Any]]],
                       Field(max_length=MAX_ACTIONS)]
    final_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    seats: Annotated[list[SeatEntry], Field(max_length=16)] | None = None
    resigned: Annotated[list[StrictInt], Field(max_length=16)] | None = None
    hints: Annotated[list[HintEntry], Field(max_length=MAX_ACTIONS)] | None = None

    @model_validator(mode="before")
    @classmethod
    def _resigned_from_result(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("resigned") is None and \
                isinstance(data.get("result"), dict) and "resigned" in data["result"]:
            data = dict(data, resigned=data["result"]["resigned"])
        return data


@dataclass
class Verified:
    """A record that replays: normalized options, the seats, the result and the final hash."""

    game: str
    version: int
    players: int
    options: dict
    seed: int
    actions: list[list]
    seats: list[dict]
    result: dict
    final_hash: str
    #: ``[{"seat", "version", "at"}]``: the hints asked for, oldest first (may be empty).
    hints: list[dict] = field(default_factory=list)

    def digest(self) -> str:
        """SHA-256 of the canonical record (sorted keys): equal records, equal digests (a record
        without hints digests as before hints existed)."""
        body = {"game": self.game, "version": self.version, "players": self.players,
                "options": self.options, "seed": self.seed, "actions": self.actions,
                "seats": self.seats}
        if self.hints:
            body["hints"] = self.hints
        return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


def parse(raw: bytes, max_bytes: int) -> RecordFile:
    """Decode and shape-check a record file. Raises ``RecordError`` (413 too large, 400 not
    JSON, 422 not a record)."""
    if len(raw) > max_bytes:
        raise RecordError(f"A record file is at most {max_bytes // 1000} kB.", 413)
    if not raw.strip():
        raise RecordError("The file is empty: choose a match record (.json).", 400)
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise RecordError("This file is not JSON: a match record is the .json file from a "
                          "finished match's replay page.", 400) from None
    if not isinstance(data, dict):
        raise RecordError("This JSON file is not a match record.", 422)
    try:
        return RecordFile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "record"
        raise RecordError(f"This is not a valid match record ({where}: {err['msg']}).",
                          422) from None


def verify(rec: RecordFile) -> Verified:
    """Replay a parsed record and check it is a complete, legal match of a hosted game.

    CPU-bound (run it in a thread). Raises ``RecordError`` (422) naming the first problem:
    unknown game, a rules version this site does not have, bad player count or options, the
    first illegal action (by its 1-based number; the log is replayed on the rules version the
    record names), a match not over at the end, a final state that differs from the
    recorded hash.
    """
    try:
        engine = registry.get(rec.game, rec.version)
    except registry.UnknownVersion:
        live = registry.get(rec.game)
        known = ", ".join(str(v) for v in registry.versions(rec.game))
        raise RecordError(f"This record was made with version {rec.version} of {live.title}'s "
                          f"rules; this site has versions {known} and cannot replay it "
                          "faithfully.") from None
    except KeyError:
        raise RecordError(f"This record is of a game this site does not host "
                          f"({rec.game[:40]!r}).") from None
    if not engine.min_players <= rec.players <= engine.max_players:
        raise RecordError(f"{engine.title} is for {engine.min_players}–{engine.max_players} "
                          "players.")
    if rec.seats is not None and len(rec.seats) != rec.players:
        raise RecordError(f"The record names {len(rec.seats)} seats for {rec.players} players.")
    try:
        options = engine.parse_options(rec.players, rec.options).model_dump(mode="json")
        state = engine.setup(rec.players, options, rec.seed)
    except Exception as exc:  # noqa: BLE001 - any refusal of the engine is the file's fault
        message = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
        raise RecordError(f"The record's options are not valid: {message}"[:300]) from None
    trail = UndoTrail()
    for n, (seat, action) in enumerate(rec.actions, start=1):
        if seat >= rec.players:
            raise RecordError(f"Action {n} names seat {seat + 1}, but the match has "
                              f"{rec.players} seats.")
        try:
            # type-exact like a live move: Engine.apply refuses a 1.0 or true for a 1
            state, _events = step(engine, state, trail, seat, action)
        except IllegalAction:
            raise RecordError(f"Action {n} of {len(rec.actions)} (seat {seat + 1}) is not legal "
                              "at that point: the record was altered or is from another "
                              "version of the rules.") from None
        except Exception:  # an engine failing on a legal move is a bug, not the file's fault
            log.exception("record replay failed at action %s of a %s record", n, rec.game)
            raise RecordError(f"Action {n} of {len(rec.actions)} could not be replayed.") \
                from None
    result = _result(engine, rec, state)
    final = state_hash(state)
    if rec.final_hash is not None and rec.final_hash != final:
        raise RecordError("The record's final state does not match its recorded hash: the "
                          "record was altered.")
    seats = [s.model_dump() for s in rec.seats] if rec.seats is not None else \
        [SeatEntry().model_dump() for _ in range(rec.players)]
    hints = [h.model_dump() for h in rec.hints or []]
    for h in hints:
        if h["seat"] >= rec.players or h["version"] >= len(rec.actions):
            raise RecordError(f"The record lists a hint for seat {h['seat'] + 1} at move "
                              f"{h['version'] + 1}, which the match does not have.")
    return Verified(game=rec.game, version=rec.version, players=rec.players, options=options,
                    seed=rec.seed, actions=[[s, a] for s, a in rec.actions], seats=seats,
                    result=result, final_hash=final, hints=hints)


def _result(engine, rec: RecordFile, state: dict) -> dict:
    """The final result: the engine's, with resigned seats ranked last (issue 7 "Pace"); a
    match that resignations ended (one side left) ranks by them. Raises ``RecordError`` for a
    match not over, or resignations that name a seat twice or one the match lacks."""
    order = list(rec.resigned or [])
    if len(set(order)) != len(order) or any(not 0 <= s < rec.players for s in order):
        raise RecordError("The record's resignations name a seat twice or a seat the match "
                          "does not have.")
    result = engine.result(state)
    if result is not None:
        return pace.rank_resigned_last(result, order)
    if order and pace.last_side(rec.players, engine.teams, order) is not None:
        seats = rec.seats or [SeatEntry() for _ in range(rec.players)]
        names = [seat_name(SeatInfo(i, None, e.name, e.bot, None, e.away_name))
                 for i, e in enumerate(seats)]
        return pace.resigned_result(rec.players, engine.teams, order, names)
    raise RecordError("The match in this record is not over: only finished matches have "
                      "records.")


def seat_entries(snap: Snapshot) -> list[dict]:
    """The ``seats`` of a match's record: each seat's public name, bot and host flag."""
    return [{"name": i.name, "bot": i.bot, "away_name": i.away_name,
             "host": i.user_id is not None and i.user_id == snap.match.host_id}
            for i in snap.seats]


def record_file(*, game: str, version: int, players: int, options: dict, seed: int,
                actions: list, final_hash: str, result: dict | None, seats: list,
                hints: list | None = None) -> dict:
    """The record file of a finished match (what ``RecordFile`` reads back): ``resigned`` is
    taken from the result (the seats that resigned, earliest first); ``hints``:
    ``[{"seat", "version", "at"}]``, the hints the players asked for."""
    return {"game": game, "version": version, "players": players, "options": options,
            "seed": seed, "actions": actions, "final_hash": final_hash, "result": result,
            "seats": seats, "resigned": (result or {}).get("resigned") or [],
            "hints": list(hints or [])}


def hint_entries(snap: Snapshot) -> list[dict]:
    """The ``hints`` of a match's record: every use, oldest first."""
    return [use.as_dict() for use in snap.hint_uses]


def as_file(rec: Record) -> dict:
    """A stored record as a record file (the shape ``GET /matches/{id}/record`` gives)."""
    return record_file(game=rec.game, version=rec.engine_version, players=rec.players,
                       options=rec.options, seed=rec.seed, actions=rec.actions,
                       final_hash=rec.final_hash, result=rec.result, seats=rec.seats,
                       hints=rec.hints)


def snapshot(rec: Record) -> Snapshot:
    """A finished-match snapshot of an imported record, for ``build_view`` (no database row:
    the match only exists in the record)."""
    match = Match(id=rec.id, game=rec.game, engine_version=rec.engine_version,
                  options=rec.options, seed=rec.seed, players=rec.players, status="finished",
                  version=len(rec.actions), state=None, result=rec.result,
                  host_id=IMPORTED_HOST, public=True)
    # A record that names no one (hand-made, or tests/records): "Player n", the engines' word.
    seats = [SeatInfo(n, IMPORTED_HOST if s.get("host") else None,
                      s.get("name") or (None if s.get("bot") else default_name(n)),
                      s.get("bot"), None, s.get("away_name")) for n, s in enumerate(rec.seats)]
    uses = [HintUse(h["seat"], h["version"], h.get("at")) for h in rec.hints or []]
    return Snapshot(match, seats, hint_uses=uses)


async def store(sm: async_sessionmaker, verified: Verified, uploader_id: str | None) -> Record:
    """Save a verified record (or find the same one stored before). Returns the row."""
    digest = verified.digest()
    async with sm() as s:
        found = await s.scalar(select(Record).where(Record.digest == digest))
        if found is not None:
            return found
        if uploader_id is not None and await s.get(User, uploader_id) is None:
            uploader_id = None
        row = Record(id=secrets.token_urlsafe(9), digest=digest, game=verified.game,
                     engine_version=verified.version, options=verified.options,
                     seed=verified.seed, players=verified.players, actions=verified.actions,
                     seats=verified.seats, result=verified.result,
                     final_hash=verified.final_hash, hints=verified.hints or None,
                     uploader_id=uploader_id)
        s.add(row)
        try:
            await s.commit()
        except IntegrityError:  # the same record, uploaded at the same moment by someone else
            await s.rollback()
            found = await s.scalar(select(Record).where(Record.digest == digest))
            if found is None:
                raise
            return found
        return row


async def load(sm: async_sessionmaker, record_id: str) -> Record | None:
    """The stored record, or None."""
    async with sm() as s:
        return await s.get(Record, record_id)

