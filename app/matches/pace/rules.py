"""Match pace: live or turn-based play, per-seat clocks, resignation ranks (issue 7, "Pace").

Pure functions over a match's stored facts; the service calls them inside its transactions
(``app.matches.pace.clocks``, ``app.matches.pace.seats``), the timer
(``app.matches.pace.timer``) acts on the deadlines they compute.
Times are epoch seconds (floats, UTC) taken from the service's injectable clock.

Rules (README, "Playing"):

- **live** without a time bank: no clock at all.
- **live** with a time bank: every seat starts with ``bank_minutes``; while a seat is prompted
  its bank runs down; after each of its moves it gets ``increment_seconds`` back.
- **turn-based**: each prompted seat has ``turn_hours`` for its move (a move per day by default).
- Clocks run only for prompted seats (a simultaneous frame runs several), and never for bots.
- A seat out of time is handed to a bot for the rest of the match; the player can take the seat
  back (and then has at least :data:`GRACE_SECONDS` on a time bank, a full move limit when
  turn-based).
"""
from __future__ import annotations

import ipaddress
from typing import Any, Iterable, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, HttpUrl, field_validator

#: A player who takes back a seat lost on time gets at least this much time bank.
GRACE_SECONDS = 60.0


class PaceSettings(BaseModel):
    """The host's table settings (stored in ``matches.settings``).

    ``pace``: "live" or "turn" (turn-based); ``bank_minutes`` (live; 0 = no clock) and
    ``increment_seconds`` (added after each own move); ``turn_hours`` (turn-based move limit);
    ``replace_after_minutes`` (0 = off): an absent prompted player can be replaced by a bot by
    the other players' vote after that long; ``webhook``: an http(s) URL called on turns (turn-based)
    and at the end; ``stand_in``: the level of a bot taking a seat over; ``hints``: whether
    players may ask for hints (issue 17, item 6). Raises pydantic's ``ValidationError`` on bad input.
    """

    model_config = ConfigDict(extra="forbid")

    pace: Literal["live", "turn"] = "live"
    bank_minutes: int = Field(0, ge=0, le=600)
    increment_seconds: int = Field(0, ge=0, le=3600)
    turn_hours: int = Field(24, ge=1, le=24 * 14)
    replace_after_minutes: int = Field(0, ge=0, le=60 * 24 * 14)
    webhook: HttpUrl | None = Field(None)
    #: The level of the bot that takes a seat over (a time-out, a vote, a resignation, the host
    #: handing a seat without naming a bot): ``easy``/``normal``/``hard`` (issue 17, item 5).
    stand_in: Literal["easy", "normal", "hard"] = "normal"
    #: Players may ask for a hint ("Suggest a move": the hard bot's choice from their own view,
    #: app.matches.hints); every use is shown to the table. On unless the host turns it off.
    hints: bool = True

    @field_validator("webhook", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if len(value) > 500:
                raise ValueError("the webhook URL is longer than 500 characters")
            if urlsplit(value).scheme.lower() not in ("http", "https"):
                raise ValueError("the webhook URL must start with http:// or https://")
        return value

    @property
    def bank(self) -> float | None:
        """A live match's time bank per seat in seconds, or None."""
        return self.bank_minutes * 60.0 if self.pace == "live" and self.bank_minutes else None

    @property
    def move_limit(self) -> float | None:
        """A turn-based match's time per move in seconds, or None."""
        return self.turn_hours * 3600.0 if self.pace == "turn" else None

    @property
    def timed(self) -> bool:
        """True when a clock runs (a time bank or a move limit)."""
        return self.bank is not None or self.move_limit is not None


def describe(settings: PaceSettings) -> str:
    """The pace in a few words for every player, e.g. "Live · 10 min + 5 s per move" or
    "Turn-based · 24 h per move" (never the webhook URL: it may hold a secret)."""
    if settings.pace == "turn":
        text = f"Turn-based · {settings.turn_hours} h per move"
    elif settings.bank_minutes:
        text = f"Live · {settings.bank_minutes} min per player"
        if settings.increment_seconds:
            text += f" + {settings.increment_seconds} s per move"
    else:
        text = "Live · no clock"
    if settings.replace_after_minutes:
        text += f" · absent players replaceable after {settings.replace_after_minutes} min"
    if settings.stand_in != "normal":
        text += f" · stand-in bots {settings.stand_in}"
    if not settings.hints:
        text += " · hints off"
    if settings.webhook is not None:
        text += " · webhook on"
    return text


def settings_of(raw: dict | None) -> PaceSettings:
    """The settings stored in a match (None or an old shape: the defaults)."""
    if not raw:
        return PaceSettings()
    try:
        return PaceSettings.model_validate(raw)
    except ValueError:  # stored by an older version: play on without clocks
        return PaceSettings()


def stored(settings: PaceSettings) -> dict:
    """The JSON stored in ``matches.settings``."""
    return settings.model_dump(mode="json")


def literal_private_host(url: str) -> bool:
    """True when the URL's host is a literal non-public IP address (loopback, LAN, link-local).
    Names are checked again when the webhook is called (they may resolve anywhere)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return not ipaddress.ip_address(host).is_global
    except ValueError:
        return False


# ----- clocks ------------------------------------------------------------------------------

def start_clocks(settings: PaceSettings, prompted: Iterable[int], players: int,
                 now: float) -> dict:
    """The clocks at the start: every seat's full bank, the first prompted seats' start time."""
    seats = sorted(set(prompted))
    clocks: dict[str, Any] = {"since": {str(s): now for s in seats}, "new": seats}
    if settings.bank is not None:
        clocks["banks"] = {str(s): settings.bank for s in range(players)}
    return clocks


def advance(settings: PaceSettings, clocks: dict | None, before: Iterable[int],
            after: Iterable[int], mover: int, bots: Iterable[int], now: float,
            increment: bool = True) -> dict:
    """The clocks after ``mover``'s move changed the prompted seats from ``before`` to
    ``after``. A seat whose prompt ended (or the mover, whose prompt is new even when it moves
    again) is charged the time since its prompt began, bots excepted; the mover then gets the
    increment (not for an undo: ``increment=False``). ``new``: the seats prompted now that were not
    before (what the turn webhook announces)."""
    clocks = clocks or {}
    before, after, bots = set(before), set(after), set(bots)
    since = {int(k): float(v) for k, v in (clocks.get("since") or {}).items()}
    banks = dict(clocks.get("banks") or {}) if settings.bank is not None else None
    ended = (before - after) | ({mover} & before)
    for s in ended:
        if banks is not None and s not in bots and s in since:
            left = float(banks.get(str(s), settings.bank or 0.0)) - (now - since[s])
            if s == mover and increment:
                left += settings.increment_seconds
            banks[str(s)] = round(left, 3)
        since.pop(s, None)
    for s in after:
        if s not in since:
            since[s] = now
    out: dict[str, Any] = {"since": {str(s): t for s, t in sorted(since.items()) if s in after},
                           "new": sorted(after - before)}
    if banks is not None:
        out["banks"] = banks
    return out


def allowance(settings: PaceSettings, clocks: dict, seat: int) -> float | None:
    """The seconds ``seat`` had when its current prompt began (None: unlimited)."""
    if settings.move_limit is not None:
        return settings.move_limit
    if settings.bank is not None:
        return float((clocks.get("banks") or {}).get(str(seat), settings.bank))
    return None


def deadlines(settings: PaceSettings, clocks: dict | None, humans: Iterable[int]
              ) -> dict[int, float]:
    """``{seat: epoch s}``: when each prompted human seat runs out of time."""
    if not settings.timed or not clocks:
        return {}
    out = {}
    humans = set(humans)
    for key, since in (clocks.get("since") or {}).items():
        seat = int(key)
        limit = allowance(settings, clocks, seat)
        if seat in humans and limit is not None:
            out[seat] = float(since) + limit
    return out


def next_deadline(settings: PaceSettings, clocks: dict | None, humans: Iterable[int]
                  ) -> float | None:
    """The earliest deadline of a prompted human seat, or None."""
    return min(deadlines(settings, clocks, humans).values(), default=None)


def reseat(settings: PaceSettings, clocks: dict | None, seat: int, now: float) -> dict:
    """A player takes a seat back from a bot: a prompt in progress starts anew for them, and a
    spent time bank is topped up to :data:`GRACE_SECONDS` (or the increment, if larger)."""
    clocks = dict(clocks or {})
    since = dict(clocks.get("since") or {})
    if str(seat) in since:
        since[str(seat)] = now
    clocks["since"] = since
    if settings.bank is not None:
        banks = dict(clocks.get("banks") or {})
        floor = max(GRACE_SECONDS, float(settings.increment_seconds))
        banks[str(seat)] = max(float(banks.get(str(seat), settings.bank)), floor)
        clocks["banks"] = banks
    return clocks


def public(settings: PaceSettings, clocks: dict | None, players: int, bots: Iterable[int],
           now: float) -> dict:
    """The clocks as every viewer may see them (public information):
    ``{"pace", "bank", "increment", "turn_hours", "replace_after", "seats": [{"left": s | None,
    "running": bool}]}``; ``left`` is counted at ``now`` and the client counts down from it.
    A seat a bot plays has no clock (``left`` None): bots are never timed, and the bank a
    player left behind (topped up by :func:`reseat`) is not what the bot has."""
    clocks = clocks or {}
    bots = set(bots)
    since = {int(k): float(v) for k, v in (clocks.get("since") or {}).items()}
    seats: list[dict[str, float | bool | None]] = []
    for s in range(players):
        if s in bots:
            seats.append({"left": None, "running": False})
            continue
        running = s in since and s not in bots and settings.timed
        limit = allowance(settings, clocks, s)
        if limit is None or (settings.move_limit is not None and not running):
            left = None
        else:
            left = limit - (now - since[s]) if running else limit
            left = round(max(left, 0.0), 1)
        seats.append({"left": left, "running": running})
    return {"pace": settings.pace, "bank": settings.bank, "increment": settings.increment_seconds,
            "turn_hours": settings.turn_hours if settings.pace == "turn" else None,
            "replace_after": settings.replace_after_minutes * 60 or None, "seats": seats}


# ----- resignation -------------------------------------------------------------------------

def sides(players: int, teams: dict[int, list[list[int]]]) -> list[list[int]]:
    """The sides of a match: its teams, or one side per seat."""
    return [list(t) for t in teams.get(players, [])] or [[s] for s in range(players)]


def last_side(players: int, teams: dict[int, list[list[int]]],
              resigned: Iterable[int]) -> list[int] | None:
    """The only side with a seat that has not resigned (the winner), or None while several
    sides still play."""
    out = set(resigned)
    alive = [side for side in sides(players, teams) if any(s not in out for s in side)]
    return alive[0] if len(alive) == 1 else None


def resigned_result(players: int, teams: dict[int, list[list[int]]], order: list[int],
                    names: list[str]) -> dict:
    """The result of a match ended by resignations: the side still playing wins, the others
    rank by resignation (the last to resign ranks highest). ``order``: resigned seats, earliest
    first. No scores: the game was not played to its end."""
    winner = last_side(players, teams, order) or []
    ranks = [sorted(winner)]
    placed = set(winner)
    for s in reversed(order):
        if s not in placed:
            ranks.append([s])
            placed.add(s)
    who = ", ".join(names[s] for s in order)
    return {"ranks": ranks, "scores": {}, "tiebreak": "", "breakdown": None,
            "resigned": list(order), "reason": f"Resigned: {who}."}


def rank_resigned_last(result: dict, order: list[int]) -> dict:
    """An engine's final result with the resigned seats (``order``: earliest first) moved to
    the bottom, the earliest to resign last; scores are kept as played (by the bot, after the
    resignation)."""
    if not order:
        return result
    gone = set(order)
    ranks = []
    for group in result.get("ranks") or []:
        seats = group if isinstance(group, list) else [group]
        kept = [s for s in seats if s not in gone]
        if kept:
            ranks.append(kept)
    ranks.extend([s] for s in reversed(order))
    return dict(result, ranks=ranks, resigned=list(order))


def votes_needed(humans: Iterable[int], target: int) -> int:
    """Votes to replace ``target``: a majority of the other human players."""
    others = len(set(humans) - {target})
    return others // 2 + 1
