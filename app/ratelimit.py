"""Rate limits per user and per client address (issue 13, item 3; docs/operations.md, "Rate
limits").

The counting is the ``limits`` library's fixed window (``limits.aio.strategies``): a limit such
as ``30/minute`` lets 30 hits through in a window that starts at the first hit and lasts a
minute; a setting may hold several limits separated by ";" (``30/hour;100/day``: a rate and a
quota), each counting every hit. Where the counters live:

- **PostgreSQL** (several processes share the database): the table ``rate_windows``, one row per
  bucket key, counted with one atomic upsert (:class:`PgStorage`), so the limit holds across
  every process.
- **SQLite** (one process by nature): ``limits``' in-memory storage.

What is limited, and by which key (:data:`RULES`; every rule's limit is a setting):

- ``chat``, ``actions`` and ``hints`` per **user** (every socket of that user counts; a
  spectator without identity by address). A hint is counted as a hint, not as an action: it
  costs up to a hard bot's decision of CPU (app.matches.hints). Actions are counted in the
  process (a move stays one database round trip), so with ``WEB_CONCURRENCY`` > 1 a user
  spread over N processes gets up to N times ``RATE_ACTIONS``; chat and hints are counted in
  the database.
- ``identities`` (``POST /name`` without an identity), ``matches`` (``POST /matches`` and
  rematches), ``records`` (``POST /records``) and ``hints_address`` (hints again, every user
  and spectator of one address together) per **client address**: the peer's address,
  or the one in ``X-Forwarded-For`` when the peer is a trusted proxy (``FORWARDED_ALLOW_IPS``,
  applied by uvicorn before the app sees it). IPv6 addresses are bucketed by their /64 (a home
  or a host usually gets a whole /64).

A refused hit is a log event ``rate_limited`` and the metric ``lair_rate_limited_total{rule}``;
HTTP answers 429 with ``Retry-After`` (a page, or JSON for a client asking for JSON); the
websocket answers the typed error ``rate_limited`` to that socket only. Every limit **fails open**:
when the counter cannot be read (the database is away) the request goes ahead (and fails, or
not, on its own) and the failure is logged once per rule until counting works again.

Other callers use :meth:`Limiter.hit` with a rule of their own.
"""
from __future__ import annotations

import ipaddress
import logging
import time
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter
from sqlalchemy import Float, Integer, String, bindparam, delete, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.models import RateWindow

log = logging.getLogger("lair.ratelimit")


@dataclass(frozen=True)
class Rule:
    """A named limit: ``setting`` is the field of ``app.settings.Settings`` holding its
    ``limits`` notation (``"30/minute"``, ``"5 per 10 seconds"``); ``per`` says whose bucket
    (``"user"`` or ``"address"``); ``shared``: counted in the database on PostgreSQL (else in the
    process); ``what``: the refusal's words."""

    setting: str
    per: str
    shared: bool
    what: str


RULES: dict[str, Rule] = {
    "chat": Rule("rate_chat", "user", True, "chat messages"),
    "actions": Rule("rate_actions", "user", False, "moves"),
    "identities": Rule("rate_identities", "address", True, "new guest names"),
    "matches": Rule("rate_matches", "address", True, "new matches"),
    "records": Rule("rate_records", "address", True, "record uploads"),
    "admin_login": Rule("rate_admin_login", "address", True, "admin sign-in attempts"),
    "hints": Rule("rate_hints", "user", True, "hints"),
    "hints_address": Rule("rate_hints_address", "address", True, "hints"),
}


def address_key(host: str | None) -> str:
    """The bucket of a client address: an IPv4 address as is, an IPv6 one by its /64 (an
    IPv4-mapped IPv6 address as its IPv4 address); anything else (a Unix socket, a test client's
    name) as given, "unknown" when missing."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class PgStorage(Storage):
    """``limits`` storage in the PostgreSQL table ``rate_windows`` (``key``, ``count``,
    ``expires_at`` epoch s): a hit is one atomic ``INSERT ... ON CONFLICT DO UPDATE ...
    RETURNING count`` that starts a new window when the stored one has expired. Rows of expired
    windows are deleted now and then (:meth:`prune`)."""

    STORAGE_SCHEME = ["lair+postgresql"]

    _HIT = text(
        "INSERT INTO rate_windows (key, count, expires_at) VALUES (:key, :amount, :ends) "
        "ON CONFLICT (key) DO UPDATE SET "
        "count = CASE WHEN rate_windows.expires_at <= :now THEN :amount "
        "ELSE rate_windows.count + :amount END, "
        "expires_at = CASE WHEN rate_windows.expires_at <= :now THEN :ends "
        "ELSE rate_windows.expires_at END "
        "RETURNING count").bindparams(
            bindparam("key", type_=String), bindparam("amount", type_=Integer),
            bindparam("now", type_=Float), bindparam("ends", type_=Float))

    def __init__(self, engine: AsyncEngine, **options: Any):
        super().__init__(None, wrap_exceptions=False)
        self.engine = engine
        self._pruned = time.time()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return Exception

    async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        async with self.engine.begin() as conn:
            count = await conn.scalar(self._HIT, {"key": key[:200], "amount": amount,
                                                  "now": now, "ends": now + float(expiry)})
        if now - self._pruned > 300:
            await self.prune(now)
        return int(count)

    async def prune(self, now: float | None = None) -> None:
        """Delete the rows of windows that have expired."""
        self._pruned = now = time.time() if now is None else now
        async with self.engine.begin() as conn:
            await conn.execute(delete(RateWindow).where(RateWindow.expires_at <= now))

    async def _row(self, key: str) -> tuple[int, float] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(text(
                "SELECT count, expires_at FROM rate_windows WHERE key = :key"),
                {"key": key[:200]})).first()
        if row is None or row[1] <= time.time():
            return None
        return int(row[0]), float(row[1])

    async def get(self, key: str) -> int:
        row = await self._row(key)
        return row[0] if row else 0

    async def get_expiry(self, key: str) -> float:
        row = await self._row(key)
        return row[1] if row else time.time()

    async def check(self) -> bool:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return True

    async def reset(self) -> int | None:
        async with self.engine.begin() as conn:
            return (await conn.execute(delete(RateWindow))).rowcount

    async def clear(self, key: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(RateWindow).where(RateWindow.key == key[:200]))


@dataclass
class Verdict:
    """A hit's outcome: ``allowed``; when refused, ``retry_after`` (whole seconds until the
    window ends) and ``message`` (safe to show to the client)."""

    allowed: bool
    retry_after: int = 0
    message: str = ""


class Limiter:
    """The process's rate limits (``app.state.limiter``): counters for every rule of
    :data:`RULES` (or ``rules``) with the limits of ``settings``."""

    def __init__(self, settings: Any, engine: AsyncEngine | None = None,
                 rules: dict[str, Rule] | None = None):
        self.rules = dict(rules or RULES)
        self.items: dict[str, list[RateLimitItem]] = {
            name: _parse(getattr(settings, rule.setting)) for name, rule in self.rules.items()}
        memory = FixedWindowRateLimiter(MemoryStorage())
        shared = (FixedWindowRateLimiter(PgStorage(engine))
                  if engine is not None and engine.dialect.name == "postgresql" else memory)
        self._by_rule = {name: shared if rule.shared else memory
                         for name, rule in self.rules.items()}
        self._failing: set[str] = set()

    async def hit(self, rule: str, key: str) -> Verdict:
        """Count one hit of ``rule`` for ``key`` (a user id, or :func:`address_key`'s bucket).
        Refused: a ``rate_limited`` event and metric. Fails open (see the module)."""
        items = self.items.get(rule)
        if not items:  # no such rule, or its limit is switched off ("" / "0")
            return Verdict(True)
        strategy = self._by_rule[rule]
        try:
            item: RateLimitItem | None = None  # the first limit the hit went over
            for each in items:  # every limit of the rule counts the hit (a rate and a quota)
                if not await strategy.hit(each, rule, key) and item is None:
                    item = each
        except Exception as exc:  # the database is away: fail open, say so once
            if rule not in self._failing:
                self._failing.add(rule)
                log.warning("rate limit %s not counted (%s); letting requests through", rule,
                            exc.__class__.__name__, extra={"event": "rate_limit_unavailable",
                                                            "rule": rule})
            return Verdict(True)
        if rule in self._failing:
            self._failing.discard(rule)
            log.info("rate limit %s counted again", rule,
                     extra={"event": "rate_limit_available", "rule": rule})
        if item is None:
            return Verdict(True)
        try:
            reset = (await strategy.get_window_stats(item, rule, key)).reset_time
        except Exception:
            reset = time.time() + item.get_expiry()
        wait = max(1, int(reset - time.time() + 0.999))
        from app.telemetry import events
        events.rate_limited(rule, self.rules[rule].per)
        what = self.rules[rule].what
        return Verdict(False, wait, f"Too many {what} from you for now ({_describe(item)}); "
                                    f"try again in {_seconds(wait)}.")


def _parse(value: str | None) -> list[RateLimitItem]:
    """A setting's limits (``limits`` notation, several separated by ";"), or none when
    switched off ("", "0", "off")."""
    value = (value or "").strip()
    if value.lower() in ("", "0", "off", "none"):
        return []
    return parse_many(value)


def _describe(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    span = f"{item.multiples} {unit}s" if item.multiples != 1 else unit
    return f"at most {item.amount} per {span}"


def _seconds(n: int) -> str:
    if n < 120:
        return f"{n} s"
    return f"{(n + 59) // 60} min"
