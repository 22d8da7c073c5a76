"""Who may see a match, play a seat, host it or watch it: Lair's one access policy (issue 12).

Every page, form post, JSON route (replay, record), and the websocket ask this module; none
decides on its own. The words, for an identity ``user_id`` (the id in the signed cookie, or
None for a browser without one) and a match ``snap`` (``app.matches.service.Snapshot``):

- **owner** of a seat: the identity it belongs to: ``SeatInfo.user_id`` while a person plays
  it, ``SeatInfo.away_user_id`` while a bot stands in (the host, a vote, the clock) or after
  the player resigned. The owner keeps the host role (if they have it) and makes the seat's
  rejoin links.
- **holder** of a seat: its owner, or an identity the seat was granted to by its rejoin link
  (``SeatInfo.grants``, rows of ``seat_grants``: another device of the same player). A grant is
  for that one seat of that one match.
- **player** of a seat: the holder that plays it now: the last device to take it
  (``SeatInfo.player_id``, None: the owner), only while a person (not a bot) plays the seat.
  A holder that is not the player sees "Continued on another device" and may take the seat
  ("Play here").
- **host**: ``Match.host_id`` (never moved by a grant).
- **participant**: the host or a holder of any seat (also an away or resigned one): sees a
  private match and writes the table chat.
- **spectator**: anyone else who may see the match: it is public, or they hold its invite or
  spectator link (compared in constant time).

A private match that an identity may not see answers exactly like a match that does not exist
(no existence oracle): the same ``ServiceError('not_found', NOT_FOUND, 404)`` as a missing id
on every HTTP route, and the same close ``WS_NOT_FOUND`` on the socket.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the service imports this module
    from app.matches.service import SeatInfo, ServiceError, Snapshot

#: The one answer for "no such match" and "a private match you may not see" (HTTP 404 body
#: and page text; the socket's close reason).
NOT_FOUND = "No such match."
#: The socket's close for both: ``(code, reason)``.
WS_NOT_FOUND = (4404, NOT_FOUND)


def not_found() -> "ServiceError":
    """The error every route raises for a missing or hidden match: ``ServiceError`` with
    code ``not_found``, status 404 and message ``NOT_FOUND``."""
    from app.matches.service import ServiceError  # the service imports this module
    return ServiceError("not_found", NOT_FOUND, 404)


# ----- tokens ------------------------------------------------------------------------------
def token_hash(token: str) -> str:
    """SHA-256 (64 hex characters) of a link token: what the database stores of a rejoin link
    (a copy of the database grants no seat)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_token(given: str | None, stored: str | None) -> bool:
    """Whether a presented token (or hash) equals a stored one, in constant time; a missing
    one on either side never matches."""
    if not given or not stored:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               stored.encode("utf-8", "surrogatepass"))


# ----- seats -------------------------------------------------------------------------------
def owner(info: "SeatInfo") -> str | None:
    """The identity a seat belongs to (its person, or the one a bot stands in for), or None
    for an empty seat or a bot's own seat."""
    return info.user_id or info.away_user_id


def holds(info: "SeatInfo", user_id: str | None) -> bool:
    """Whether ``user_id`` is the seat's owner or was granted the seat by its rejoin link."""
    return user_id is not None and (owner(info) == user_id or user_id in info.grants)


def player(info: "SeatInfo") -> str | None:
    """The identity playing the seat now (the last holder to take it), or None while a bot
    plays it or it is empty."""
    if info.user_id is None:
        return None
    return info.player_id or info.user_id


def seat_of(snap: "Snapshot", user_id: str | None) -> int | None:
    """The seat ``user_id`` plays now (acts for, and sees as), or None: a spectator's view."""
    if user_id is None:
        return None
    for info in snap.seats:
        if player(info) == user_id:
            return info.seat
    return None


def may_act(snap: "Snapshot", seat: int, user_id: str | None) -> bool:
    """Whether ``user_id`` may send actions (moves, undo, resign, votes) for ``seat`` now."""
    return (user_id is not None and 0 <= seat < len(snap.seats)
            and player(snap.seats[seat]) == user_id)


def elsewhere(snap: "Snapshot", user_id: str | None) -> int | None:
    """A seat ``user_id`` holds that another device of the player plays now ("Continued on
    another device"; ``take_seat_here`` may take it), or None."""
    if user_id is None or seat_of(snap, user_id) is not None:
        return None
    return next((i.seat for i in snap.seats
                 if i.user_id is not None and holds(i, user_id) and player(i) != user_id), None)


def away_seat(snap: "Snapshot", user_id: str | None) -> int | None:
    """A seat ``user_id`` holds that a bot plays for them and that they may take back (not
    resigned, the match running), or None ("Take my seat back")."""
    if user_id is None or snap.match.status != "active":
        return None
    return next((i.seat for i in snap.seats if i.user_id is None and i.away_user_id
                 and i.resigned_at is None and holds(i, user_id)), None)


def is_host(snap: "Snapshot", user_id: str | None) -> bool:
    """Whether ``user_id`` is the match's host (host powers stay with the host's identity)."""
    return user_id is not None and snap.match.host_id == user_id


def participant(snap: "Snapshot", user_id: str | None) -> bool:
    """The host or a holder of any seat (also one a bot plays for them, or resigned): sees a
    private match and belongs to the table chat."""
    return is_host(snap, user_id) or any(holds(i, user_id) for i in snap.seats)


# ----- seeing ------------------------------------------------------------------------------
def has_link(snap: "Snapshot", token: str | None) -> bool:
    """Whether ``token`` is the match's current invite or spectator link token."""
    m = snap.match
    # both compared, always: the time taken does not tell which one matched
    invite, watch = same_token(token, m.invite_token), same_token(token, m.watch_token)
    return invite or watch


def may_see(snap: "Snapshot", user_id: str | None, token: str | None = None) -> bool:
    """Whether a visitor may see the match at all (page, table socket, replay, record): it is
    public, or they are a participant, or ``token`` is its invite or spectator link token.
    Private matches stay private after the end too."""
    return snap.match.public or participant(snap, user_id) or has_link(snap, token)


def may_join(snap: "Snapshot", user_id: str | None, invite: str | None) -> bool:
    """Whether a visitor may take an empty seat of an open match: it is public, they are a
    participant, or ``invite`` is its invite link token."""
    return (snap.match.public or participant(snap, user_id)
            or same_token(invite, snap.match.invite_token))


def require_visible(snap: "Snapshot", user_id: str | None, token: str | None = None
                    ) -> "Snapshot":
    """``snap`` if :func:`may_see`, else raise :func:`not_found` (exactly what a missing match
    raises)."""
    if not may_see(snap, user_id, token):
        raise not_found()
    return snap


async def visible(service, match_id: str, user_id: str | None, token: str | None = None
                  ) -> "Snapshot":
    """Load a match for a visitor: its snapshot, or ``ServiceError('not_found')`` alike for a
    missing match and for one the visitor may not see (``service``: ``MatchService``)."""
    return require_visible(await service.snapshot(match_id), user_id, token)
