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
  costs up to a hard bot's decision of CPU (app.matches.hints). Chat and hints are counted in
  the database on every hit. Actions are counted in batches (:class:`Batches`), so that nine
  moves in ten stay one database round trip: each process counts a user's moves itself and
  adds them to the shared row every ``RATE_ACTIONS_BATCH`` moves (10), one upsert that returns
  the total of every process; once that total is over the limit the process refuses the
  user's moves until the shared window ends, and it refuses them anyway once its own count
  plus the last total it heard reaches the limit. Moves a process let through but has not
  added yet are the price: with N processes a user gets at most ``RATE_ACTIONS`` + (N − 1) ×
  (batch − 1) moves a window (one process: exactly ``RATE_ACTIONS``);
  ``RATE_ACTIONS_BATCH=1`` counts every move in the database.
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

import asyncio
import ipaddress
import logging
import time
from collections.abc import Callable
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
    process); ``what``: the refusal's words; ``batch``: the setting holding how many hits a
    process adds to the database at once (:class:`Batches`; "": every hit)."""

    setting: str
    per: str
    shared: bool
    what: str
    batch: str = ""


RULES: dict[str, Rule] = {
    "chat": Rule("rate_chat", "user", True, "chat messages"),
    "actions": Rule("rate_actions", "user", True, "moves", batch="rate_actions_batch"),
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
        "RETURNING count, expires_at").bindparams(
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
        return (await self.incr_window(key, expiry, amount))[0]

    async def incr_window(self, key: str, expiry: int, amount: int = 1) -> tuple[int, float]:
        """Add ``amount`` hits to ``key``'s window (a new one of ``expiry`` s if the stored one
        has ended): ``(the window's count now, when it ends (epoch s))``."""
        now = time.time()
        async with self.engine.begin() as conn:
            row = (await conn.execute(self._HIT, {
                "key": key[:200], "amount": amount, "now": now,
                "ends": now + float(expiry)})).one()
        if now - self._pruned > 300:
            await self.prune(now)
        return int(row[0]), float(row[1])

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
class _Tally:
    """One user's count of one limit in this process (:class:`Batches`)."""

    ends: float  # when the window ends (epoch s): the shared window's once a batch was added
    known: int = 0  # the shared count (every process) as the last batch added returned it
    pending: int = 0  # hits let through here and not added to the shared count yet
    full: bool = False  # the shared count went over the limit: refuse until ``ends``
    adding: asyncio.Event | None = None  # set when the batch being added is added


class Batches:
    """A limit counted in the process and added to the shared counter (``storage``'s
    ``incr_window``: :class:`PgStorage`) ``batch`` hits at a time, so that only one hit in
    ``batch`` waits for the database.

    A hit is refused when the shared count went over the limit (until the shared window ends),
    or when the last shared count heard plus the hits counted here since reaches the limit.
    Otherwise it is let through and counted; the ``batch``-th hit counted here adds them all to
    the shared count and takes the total (every process's) back; it is refused itself when that
    total is over the limit. While a batch is being added, the key's next hits in this process
    wait for its total (decided on a stale count, concurrent moves of one user let one more
    batch through: measured 110 at a limit of 100 before they waited). The bound, per window,
    with N processes and ``b = min(batch, limit)``: at most ``limit + (N - 1) * (b - 1)`` hits
    are let through (the process whose batch brought the shared count to its last value at or
    below the limit lets through no more than the limit's rest; every other one at most
    ``b - 1`` it has not added yet, or that it added in the batch that went over); one process
    alone: exactly ``limit``. A window that ends drops the hits counted here and not added
    (they belonged to it)."""

    SWEEP_EVERY = 60.0  # seconds between two sweeps of the tallies of ended windows

    def __init__(self, storage: Any, batch: int, clock: Callable[[], float] = time.time):
        self.storage = storage
        self.batch = max(1, batch)
        self.clock = clock  # epoch seconds (the storage's clock)
        self.tallies: dict[str, _Tally] = {}
        self._swept = clock()
        #: Batches added to the storage so far (a hit that added none did not reach it).
        self.added = 0

    async def hit(self, item: RateLimitItem, *identifiers: str) -> tuple[bool, float]:
        """Count one hit of ``item`` for ``identifiers``: ``(let through, when the window
        ends (epoch s))``. The storage's errors propagate (the hits of that batch are lost)."""
        key = item.key_for(*identifiers)
        while True:
            now = self.clock()
            if now - self._swept > self.SWEEP_EVERY:
                self._sweep(now)
            tally = self.tallies.get(key)
            if tally is None or now >= tally.ends:
                tally = self.tallies[key] = _Tally(now + item.get_expiry())
            if tally.adding is None:
                break
            await tally.adding.wait()  # decided on the total the batch in flight brings
        if tally.full or tally.known + tally.pending >= item.amount:
            return False, tally.ends
        tally.pending += 1
        if tally.pending < min(self.batch, item.amount):
            return True, tally.ends
        amount, tally.pending = tally.pending, 0
        adding = tally.adding = asyncio.Event()
        try:
            count, ends = await self.storage.incr_window(key, item.get_expiry(), amount)
            self.added += 1
        finally:
            tally.adding = None
            adding.set()
        # one batch at a time: the answer is the newest (a later end: a new shared window)
        tally.known, tally.ends, tally.full = count, ends, count > item.amount
        return not tally.full, tally.ends

    def _sweep(self, now: float) -> None:
        self._swept = now
        for key in [k for k, t in self.tallies.items() if now >= t.ends and t.adding is None]:
            del self.tallies[key]


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
        storage = (PgStorage(engine)
                   if engine is not None and engine.dialect.name == "postgresql" else None)
        shared = FixedWindowRateLimiter(storage) if storage is not None else memory
        self._by_rule = {name: shared if rule.shared else memory
                         for name, rule in self.rules.items()}
        #: Shared rules counted in batches (PostgreSQL only; SQLite is one process).
        self._batches: dict[str, Batches] = {}
        for name, rule in self.rules.items():
            batch = int(getattr(settings, rule.batch, 1) or 1) if rule.batch else 1
            if storage is not None and rule.shared and batch > 1:
                self._batches[name] = Batches(storage, batch)
        self._failing: set[str] = set()

    async def hit(self, rule: str, key: str) -> Verdict:
        """Count one hit of ``rule`` for ``key`` (a user id, or :func:`address_key`'s bucket).
        Refused: a ``rate_limited`` event and metric. Fails open (see the module)."""
        items = self.items.get(rule)
        if not items:  # no such rule, or its limit is switched off ("" / "0")
            return Verdict(True)
        strategy = self._by_rule[rule]
        batches = self._batches.get(rule)
        added = batches.added if batches is not None else 0
        try:
            # the first limit the hit went over, and when its window ends if known
            refused: tuple[RateLimitItem, float | None] | None = None
            for each in items:  # every limit of the rule counts the hit (a rate and a quota)
                if batches is not None:
                    allowed, ends = await batches.hit(each, rule, key)
                else:
                    allowed, ends = await strategy.hit(each, rule, key), None
                if not allowed and refused is None:
                    refused = (each, ends)
        except Exception as exc:  # the database is away: fail open, say so once
            if rule not in self._failing:
                self._failing.add(rule)
                log.warning("rate limit %s not counted (%s); letting requests through", rule,
                            exc.__class__.__name__, extra={"event": "rate_limit_unavailable",
                                                            "rule": rule})
            return Verdict(True)
        # Counted again only once the storage answered: a batched hit that was let through
        # without reaching it says nothing (else an outage is logged again after every batch).
        if rule in self._failing and (batches is None or batches.added != added):
            self._failing.discard(rule)
            log.info("rate limit %s counted again", rule,
                     extra={"event": "rate_limit_available", "rule": rule})
        if refused is None:
            return Verdict(True)
        item, reset = refused
        if reset is None:
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

    async def refund(self, rule: str, key: str) -> None:
        """Take back one hit of ``rule`` for ``key`` that was let through but cost nothing
        after all (a hint no search worker took: app.matches.hints). Counted as a hit of cost
        -1 in each of the rule's windows (if the window ended meanwhile, the next one starts
        one lower: at most one more hit). Not for a rule counted in batches. Fails open, like
        :meth:`hit`: a refund the storage could not take is lost (logged)."""
        if rule in self._batches:
            raise ValueError(f"rule {rule} is counted in batches: no refund")
        if rule not in self._by_rule:
            return
        strategy = self._by_rule[rule]
        for each in self.items.get(rule, []):
            try:
                await strategy.hit(each, rule, key, cost=-1)
            except Exception as exc:  # the database is away: the hit stays counted
                log.warning("rate limit %s not refunded (%s)", rule, exc.__class__.__name__)


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
