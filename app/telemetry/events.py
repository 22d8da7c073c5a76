"""The operational events: one JSON log line and the matching metric per event.

The shared code (service, websocket) calls these one-liners; they decide what is logged. What
may appear: match ids, seat numbers, versions, game ids, bot kinds, error codes, close codes,
durations. What never appears: actions (a secret bid is an action), states, views, events' texts,
seeds, tokens, cookies, user ids or names.
"""
from __future__ import annotations

import logging
import time

from app.telemetry import metrics

log = logging.getLogger("lair.events")

CLOSE_REASONS: dict[int | None, str] = {
    1000: "normal", 1001: "going away", 1006: "dropped", 1012: "service restart",
    4000: "heartbeat timeout", 4403: "forbidden", 4404: "no such match",
    4429: "too many sockets from one address"}


# Positional-only, so that a field can never be taken for the level.
def _emit(event: str, message: str, level: int = logging.INFO, /, **fields) -> None:
    log.log(level, message, extra={"event": event, **fields})


def ws_connected(match_id: str, seat: int | None) -> None:
    """A viewer's socket joined a match (``seat`` None: spectator)."""
    _emit("ws_connect", "websocket connected", match_id=match_id, seat=seat)


def ws_closed(match_id: str, seat: int | None, code: int | None, reason: str | None = None
              ) -> None:
    """A socket left; ``code`` is the websocket close code when known."""
    metrics.WS_CLOSES.labels(str(code) if code is not None else "none").inc()
    _emit("ws_close", "websocket closed", match_id=match_id, seat=seat, code=code,
          reason=reason or CLOSE_REASONS.get(code, "closed"))


def ws_refused(match_id: str, code: int, reason: str, **fields: str | None) -> None:
    """A socket was refused before joining its match: ``code`` 4403 (``reason`` "cross-site
    origin" with the ``origin`` and ``host`` headers) or 4404 ("no such match", or "private
    match, no link": the client gets the same close for both, app/matches/access.py). Never
    the query string: a wrong spectator link is not logged. Header values and the match id
    come from the client, so they are cut to 100 characters."""
    metrics.WS_CLOSES.labels(str(code)).inc()
    _emit("ws_refused", "websocket refused", match_id=match_id[:100], code=code, reason=reason,
          **{k: (v or "")[:100] for k, v in fields.items()})


def csrf_refused(reason: str, route: str, **fields: str | None) -> None:
    """A state-changing request was refused by the CSRF guard (``app.web.csrf``): ``reason``
    "origin" (with the ``origin`` and ``sec-fetch-site`` headers), "missing" (no token sent)
    or "token" (a forged or stale one); ``route`` is the
    route's template (``/rejoin/{token}``, never the token). Header values are cut to 100
    characters."""
    metrics.CSRF_REFUSED.labels(reason).inc()
    _emit("csrf_refused", "cross-site request refused", logging.WARNING, reason=reason,
          route=route, **{k: (v or "")[:100] for k, v in fields.items()})


def limit_hit(limit: str, match_id: str | None = None, quiet: bool = False) -> None:
    """A limit other than the rate limits of app/ratelimit.py (those are ``rate_limited``)
    refused something: ``limit`` "ws_rate" (a socket's messages too fast), "ws_too_large" (a
    message over ``MAX_MESSAGE_BYTES``), "ws_slow" (a socket's send queue full),
    "ws_per_address" (a socket refused: ``WS_PER_ADDRESS`` open from its address), "record_too_large" (a record file over ``RECORD_MAX_BYTES``). A request body over its cap
    (app/web/limits.py) is only counted here (``body_too_large``): that module logs it.
    ``quiet``: counted, not logged (the same socket's flood goes on)."""
    metrics.LIMIT_HITS.labels(limit).inc()
    if quiet:
        return
    _emit("limit_hit", "limit hit", logging.WARNING, limit=limit,
          **({"match_id": match_id} if match_id else {}))


def action_applied(match_id: str, game: str, seat: int, version: int, started: float) -> None:
    """An action was committed as ``version`` (``started``: ``time.perf_counter()`` at receipt)."""
    metrics.ACTIONS_APPLIED.labels(game).inc()
    elapsed = time.perf_counter() - started
    metrics.ACTION_SECONDS.labels("commit").observe(elapsed)
    _emit("action_applied", "action applied", match_id=match_id, game=game, seat=seat,
          version=version, ms=round(elapsed * 1000, 2))


def action_sent(started: float) -> None:
    """The views of a committed action (and the mover's ack) are queued to every socket."""
    metrics.ACTION_SECONDS.labels("sent").observe(time.perf_counter() - started)


def action_rejected(match_id: str, seat: int | None, code: str, bot: bool = False) -> None:
    """An action was refused with wire error ``code`` (the message is not logged: an engine's
    reason is safe for its seat, and that is all we promise about it)."""
    metrics.ACTIONS_REJECTED.labels(code).inc()
    _emit("action_rejected", "action rejected", match_id=match_id, seat=seat, code=code, bot=bot)


def bot_move(match_id: str, game: str, seat: int, kind: str, version: int) -> None:
    """A bot's move was committed as ``version``."""
    metrics.BOT_MOVES.labels(game).inc()
    _emit("bot_move", "bot moved", match_id=match_id, game=game, seat=seat, bot=kind,
          version=version)


def match_started(match_id: str, game: str, players: int) -> None:
    """A match left the waiting room."""
    metrics.MATCHES_STARTED.labels(game).inc()
    _emit("match_start", "match started", match_id=match_id, game=game, players=players)


def match_ended(match_id: str, how: str, version: int | None = None) -> None:
    """A match is over: ``how`` in {"finished", "cancelled", "ended_by_admin", "resigned"}."""
    metrics.MATCHES_ENDED.labels(how).inc()
    _emit("match_end", "match ended", match_id=match_id, how=how, version=version)


def clock_expired(match_id: str, seats: int) -> None:
    """``seats`` seats of a match ran out of time and were handed to bots."""
    _emit("clock_expired", "seat out of time", match_id=match_id, seats=seats)


def webhook(match_id: str, kind: str, outcome: str, status: int | None = None,
            attempts: int = 1) -> None:
    """A match's webhook call (``kind`` "turn"/"finished"): ``outcome`` "sent", "failed",
    "refused" (a private address). The URL is not logged: it may hold a secret."""
    _emit("webhook", f"webhook {outcome}", logging.INFO if outcome == "sent" else logging.WARNING,
          match_id=match_id, kind=kind, outcome=outcome, status=status, attempts=attempts)


def shutdown(stage: str, **fields) -> None:
    """Graceful shutdown progress (``stage``: "draining", "handoff", "done")."""
    _emit("shutdown", f"shutdown {stage}", stage=stage, **fields)


def rate_limited(rule: str, per: str) -> None:
    """A request went over its rate limit ``rule`` (app.ratelimit; ``per`` "user" or
    "address"). Neither the user nor the address is logged."""
    metrics.RATE_LIMITED.labels(rule).inc()
    _emit("rate_limited", "rate limit reached", logging.WARNING, rule=rule, per=per)


def outage_credited(seconds: float, matches: int) -> None:
    """Nothing was served for ``seconds`` (no live process, or the database failing): that
    time was given back to the clocks of ``matches`` running matches (app.matches.outage)."""
    metrics.OUTAGE_SECONDS.inc(seconds)
    _emit("outage_credited", "outage time given back to the clocks", logging.WARNING,
          seconds=round(seconds, 1), matches=matches)


def background_failed(task: str, error: str, retry_in: float) -> None:
    """A background task (``task``) failed with ``error`` (the exception's class); it runs
    again in ``retry_in`` seconds (app.background)."""
    metrics.BACKGROUND_FAILURES.labels(task).inc()
    _emit("background_failed", f"background task {task} failed; retrying",
          logging.WARNING, task=task, error=error, retry_in=round(retry_in, 2))
