"""The refusals of the match service: :class:`ServiceError` and its wire codes.

Every refused request raises ``ServiceError(code, message, status)``; the routes answer it
with ``status`` and the socket with an ``error`` frame carrying ``code`` (docs: "The wire").
``ErrorCode`` is a ``StrEnum``: a code compares equal to, formats and serialises as the very
string the wire has always carried (``ErrorCode.STALE == "stale"``).
"""
from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """The wire's error codes (one per kind of refusal a client may handle differently)."""

    #: The request is malformed or not possible in the match's state (shown to the user).
    BAD_REQUEST = "bad_request"
    #: A socket message the server cannot read (no such match, empty chat, bad shape).
    BAD_MESSAGE = "bad_message"
    #: Only the host (or a player) may do that.
    FORBIDDEN = "forbidden"
    #: No such match, link or line, or one this visitor may not see (app/matches/access.py).
    NOT_FOUND = "not_found"
    #: A spectator tried to act.
    SPECTATOR = "spectator"
    #: The seat is not (any more) the actor's, or it is not their turn.
    NOT_YOUR_SEAT = "not_your_seat"
    #: The match is over.
    FINISHED = "finished"
    #: The table changed before the request arrived: reload and try again.
    STALE = "stale"
    #: The engine refused the action (the message is its reason).
    ILLEGAL = "illegal"
    #: A race for a seat was lost (409).
    SEAT_TAKEN = "seat_taken"
    #: A start lost to another start (409).
    ALREADY_STARTED = "already_started"
    #: No database connection came free in time: nothing was done, send it again (503).
    BUSY = "busy"
    #: Over a per-user or per-address rate limit (app.ratelimit): wait and try again.
    RATE_LIMITED = "rate_limited"
    #: Hints are off in this match (the host's setting, or rules without a search bot).
    HINTS_OFF = "hints_off"


class ServiceError(Exception):
    """A refused request. ``code`` is one of the wire's error codes (:class:`ErrorCode`; a
    plain string of one is accepted, anything else raises ``ValueError``); ``message`` is
    safe to show to the requesting client (it never names hidden information); ``status`` is
    the HTTP status a route answers with."""

    def __init__(self, code: ErrorCode | str, message: str, status: int = 400):
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.status = status


def busy() -> ServiceError:
    """The answer when every pooled database connection stayed busy (503)."""
    return ServiceError(ErrorCode.BUSY, "The server is busy; please try again in a moment.", 503)
