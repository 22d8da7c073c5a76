"""Configuration from the environment (pydantic-settings).

``DATABASE_URL`` (SQLAlchemy async URL; ``postgresql://`` is rewritten to ``postgresql+asyncpg://``),
``SECRET_KEY`` (signs identity cookies), ``HOST``/``PORT``, ``BOT_DELAY`` (seconds a bot waits
before acting, so humans can follow), ``COOKIE_SECURE`` (set when served over HTTPS),
``ALLOWED_ORIGINS`` (other sites' origins allowed to open the websocket; default none).
"""
from __future__ import annotations

from functools import lru_cache

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "dev-insecure-secret-change-me"


class Settings(BaseSettings):
    """Process settings; every field maps to an upper-case environment variable."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./lair.db"
    secret_key: str = DEV_SECRET
    host: str = "127.0.0.1"
    port: int = 8000
    bot_delay: float = 0.6
    # Hard bots (issue 17): CPU seconds per decision, and search worker processes (0: cores - 1).
    bot_think_seconds: float = 1.0
    bot_workers: int = 0
    # Seconds a hint waits for a search worker (it goes before the bots' decisions) before it
    # is answered "busy" (app/matches/botpool.py); 0: no limit. Under the table's 30 s wait for an
    # answer, and above a 1 s search at nice 19 on a loaded 2-core machine (5-12 s seen).
    hint_wait_seconds: float = 20.0
    # Start-up's objects (modules, routes, the games' data) moved out of the collector's reach
    # once the server is up (gc.freeze): a full collection then walks only what the matches
    # and sockets hold (app/main.py; docs/operations.md).
    gc_freeze: bool = True
    # Net allocations between two collections of the youngest generation (0: CPython's 700);
    # app/serve.py tune_collector.
    gc_young: int = 5_000
    cookie_secure: bool = False
    max_message_bytes: int = 64 * 1024
    chat_max_chars: int = 500
    ws_send_queue: int = 64
    # Extra browser origins allowed to open the websocket (exact "https://host[:port]"; JSON
    # list in ALLOWED_ORIGINS). The site's own host is always allowed; other sites never are.
    allowed_origins: list[str] = []
    # Open websockets per client address in each process (the trusted address, IPv6 by /64;
    # 0: no cap). Friends behind one home router share one address: 4 players with a table,
    # the waiting room and a replay or two open each (~16), a dozen spectators with a tab or
    # two, and the sockets a reconnect briefly leaves behind (a dropped one lingers up to
    # WS_PING_INTERVAL + WS_PING_TIMEOUT) stay well under 64; 200 sockets from one address
    # cost a process 10 MB and slowed another player's views from 0.2 s to 1.3 s.
    ws_per_address: int = 64
    # Per-socket rate limit (token bucket): messages per second, and the burst allowed.
    ws_rate: float = 10.0
    ws_burst: float = 30.0
    # Rate limits per user (every socket of theirs) and per client address (app/ratelimit.py),
    # in the `limits` notation ("30/minute", "5 per 10 seconds"); "" or "0" switches one off.
    # Counted in PostgreSQL across processes (actions: in batches); SQLite: in memory.
    # Defaults suit friends behind one home router: 4 players, several tabs, spectators.
    rate_chat: str = "30/minute"  # chat lines per user
    rate_actions: str = "300/minute"  # moves (and undos) per user
    # Moves a process counts itself before adding them to the shared count in PostgreSQL (one
    # upsert per batch, not per move): with N processes a user gets at most RATE_ACTIONS +
    # (N - 1) x (batch - 1) moves a window; 1: every move is counted in the database.
    rate_actions_batch: int = 10
    rate_identities: str = "30/hour"  # new guest identities (POST /name) per address
    rate_matches: str = "60/hour"  # new matches (and rematches) per address
    rate_records: str = "30/hour;100/day"  # record uploads per address (a rate and a quota)
    rate_admin_login: str = "5/15 minutes"  # admin sign-in attempts per address
    # hints per user (each costs up to BOT_THINK_SECONDS of a search worker's CPU)
    rate_hints: str = "6/minute;60/hour"
    # hints per address, every user and spectator behind it together (many guests or anonymous
    # spectators behind one address must not burn the search workers' CPU)
    rate_hints_address: str = "30/minute;300/hour"
    # Largest match record file accepted for import (bytes); a full 4-player match is ~50 kB.
    record_max_bytes: int = 256_000
    # Largest request body of every other route (bytes): the site's forms are a few hundred.
    form_max_bytes: int = 16_384
    # PostgreSQL connection pool: connections kept open (per process), extra ones opened per use
    # beyond that, and seconds an operation waits for one before answering "busy".
    db_pool_size: int = 40
    db_pool_overflow: int = 0
    db_pool_timeout: float = 5.0

    # Operations (docs/operations.md, "Running the site"): logs, operator access, shutdown, process count.
    log_level: str = "INFO"
    log_format: str = "json"  # "json" (one JSON object per line) or "text"
    admin_token: str = ""  # enables /admin and /metrics (Bearer token); empty: both disabled
    shutdown_timeout: float = 10.0  # seconds to finish in-flight actions on SIGTERM
    web_concurrency: int = 1  # uvicorn worker processes (read by uvicorn too); >1 needs PostgreSQL

    # The HTTP server (app/serve.py: `lair serve` passes these to uvicorn).
    # Websocket messages read ahead per socket (uvicorn's --ws-max-queue; its default
    # websockets-sansio implementation reads one at a time anyway).
    ws_max_queue: int = 4
    # Keepalive: a ping every WS_PING_INTERVAL s; no pong within WS_PING_TIMEOUT s closes the
    # socket. Together at most 15 s: a silently dropped player's seat turns away within that.
    ws_ping_interval: float = 5.0
    ws_ping_timeout: float = 10.0
    ws_deflate: bool = False  # permessage-deflate: off, it costs CPU and memory (bench/README.md)
    # Proxies whose X-Forwarded-For/-Proto are trusted (comma list, or "*" for any).
    forwarded_allow_ips: str = "127.0.0.1"
    # Seconds uvicorn waits for open connections on SIGTERM before stopping them (keep it above
    # SHUTDOWN_TIMEOUT).
    graceful_timeout: float = 20.0

    # Pace (README "Playing"): links in webhook calls, which addresses they may reach, clocks.
    public_url: str = ""  # the site's address as players reach it; empty: http://HOST:PORT
    webhook_timeout: float = 5.0  # seconds per webhook attempt (3 attempts)
    webhook_allow_private: bool = False  # allow webhooks to loopback/LAN addresses
    clock_poll: float = 5.0  # longest pause (s) of the clock timer between deadline checks
    # Seconds with no process serving (every process down, or the database failing) after
    # which that time is given back to every running clock (app/matches/outage.py).
    clock_outage_after: float = 15.0
    # Seconds a match must stay unchanged with no socket in this process before the process
    # frees what it keeps in memory for it (app.matches.idle).
    match_idle_ttl: float = 600.0
    # Anonymous storage (app/matches/expiry.py; 0: never): seconds after which a never-started
    # match untouched that long, and a guest identity that never did anything, are deleted.
    open_match_ttl: float = 14 * 86400.0
    guest_ttl: float = 30 * 86400.0
    expiry_every: float = 3600.0  # seconds between two sweeps

    @field_validator("rate_chat", "rate_actions", "rate_identities", "rate_matches",
                     "rate_records", "rate_admin_login", "rate_hints",
                     "rate_hints_address")
    @classmethod
    def _rate(cls, value: str) -> str:
        """Limits in the ``limits`` notation ("30/minute", several: "30/hour;100/day"), or
        "" / "0" (off)."""
        if value.strip().lower() not in ("", "0", "off", "none"):
            from limits import parse_many
            parse_many(value)  # ValueError: "couldn't parse rate limit string ..."
        return value

    @field_validator("rate_actions_batch")
    @classmethod
    def _batch(cls, value: int) -> int:
        """At least 1 (1: every hit counted in the database)."""
        if value < 1:
            raise ValueError("RATE_ACTIONS_BATCH must be at least 1")
        return value

    @property
    def site_url(self) -> str:
        """The site's public address, without a trailing slash."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def async_database_url(self) -> str:
        """The URL with an async driver (asyncpg / aiosqlite)."""
        url = self.database_url
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://"):]
        if url.startswith("postgresql://"):
            url = "postgresql+asyncpg://" + url[len("postgresql://"):]
        if url.startswith("sqlite://") and not url.startswith("sqlite+aiosqlite://"):
            url = "sqlite+aiosqlite://" + url[len("sqlite://"):]
        return url


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (read once)."""
    return Settings()
