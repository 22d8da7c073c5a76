"""Hints (issue 17, item 6): "Suggest a move", the hard bot's choice from the asking seat's own
view, with a one-line reason where it can give one.

A hint cannot cheat: it is the search of ``engines.search.decide``, which reads the real state
only through ``legal_actions(state, seat)`` and ``determinize(state, seat, rng)`` (canonical:
equal for states the seat cannot tell apart) and seeds itself from the seat's view and OS
randomness (``search_rng``), never from the match seed or the state's RNG. The reason is made
of the search's own statistics over those samples (:func:`reason`): no hidden information.

What the service does (:meth:`Hints.suggest`): the match runs, the asker holds a seat, the host
left hints on (``PaceSettings.hints``), the rules have a search bot, the asker's view is the
current version and the seat is prompted; then the per-user rate limit (a hint costs up to a
hard decision's CPU), then the decision in the bot pool's worker processes (never on the event
loop; ahead of the bot decisions waiting there, and given up as ``busy`` if no worker came free
within the pool's ``hint_wait``), then the use is recorded (table ``hint_uses``, not the
engine's log) if the match is still at that version, and the table is told (``HintUsed``: every
view lists the uses). The suggested action goes back to the asker only.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Awaitable, Callable

from sqlalchemy import and_, exists, insert, literal, select

from app.matches import pace
from app.matches.botpool import BotPool, PoolBusy
from app.matches.changes import HintUsed
from app.matches.errors import ErrorCode, ServiceError
from app.matches.moves import Moves
from app.matches.snapshot import engine_for
from app.matches.store import Store
from app.models import HintUseRow, Match, utcnow
from engines import levels
from engines.base import Action, Engine

log = logging.getLogger("lair.hints")

#: ``charge()``: counts the hint against the asker's rate limit; raises
#: ``ServiceError('rate_limited')`` when over it; returns ``refund()``, which takes the count
#: back when no search ran after all (the pool stayed busy), or None.
Refund = Callable[[], Awaitable[None]]
Charge = Callable[[], Awaitable[Refund | None]]


@dataclass(frozen=True)
class Hint:
    """A hint for the asker: ``action`` (one of the seat's legal actions at ``version``) and
    ``reason`` (one line, or None)."""

    version: int
    action: Action
    reason: str | None


def available(engine, settings: dict | None) -> bool:
    """Whether players may ask for hints in a match with ``engine`` (its rules version) and
    stored pace ``settings``: the host left them on and the rules have a search bot."""
    return pace.settings_of(settings).hints and levels.spec_of(engine) is not None


def reason(stats: dict) -> str | None:
    """One line saying why, from ``engines.search.decide``'s statistics (counts and mean
    rewards over samples of what the seat may know), or None when there is nothing to say."""
    if stats.get("choices") == 1:
        return "It is the only move here."
    if not stats.get("searched"):
        return "The best next step of this longer move, looking one step ahead."
    score, runner_up = stats.get("score"), stats.get("next_score")
    # (one short line in a player's words: review 8 and new-user trial 6 read "(rated 85, the
    # next best 83; 50 = no better off)" as jargon; the numbers stay in the statistics)
    line = f"Best of {stats['considered']} moves over {stats['iterations']} imagined games"
    # The search picks the move it tried most, not the best mean: a move tried a few times
    # can average more. Compare the two only when the comparison is the chosen move's. A
    # rating is the mean reward (engines.search: rewards spread around 0.5, 0.5 no better off
    # than before the move).
    if score is not None and runner_up is not None and score >= runner_up:
        gap = round(score * 100) - round(runner_up * 100)
        line += (", level with the next best" if gap == 0 else
                 ", a little ahead of the next best" if gap < 5 else ", clearly ahead of the next best")
    if score is not None:
        line += (": it leaves you better off" if score >= 0.55 else
                 ": every move leaves you worse off, this one least" if score <= 0.45 and runner_up is not None
                 else "")
    return line + "."


class Hints:
    """Answer hint requests; record each use. ``budget``: the search's ``engines.search.Budget``
    (None: the pool's ``seconds`` of CPU; tests give a fixed number of iterations)."""

    def __init__(self, store: Store, pool: BotPool, moves: Moves, budget=None):
        self.store = store
        self.pool = pool
        self.moves = moves
        self.budget = budget

    async def suggest(self, match_id: str, user_id: str | None, version: int,
                      charge: Charge | None = None) -> Hint:
        """The hard bot's choice for the seat ``user_id`` plays, at ``version`` (the version of
        the asker's view). Raises ``ServiceError``: ``spectator`` (no seat), ``bad_request``
        (not started), ``finished``, ``hints_off`` (the host's setting, or rules without a
        search bot), ``stale`` (the view is not the current version, or the table moved while
        the hint was searched: nothing recorded; except in a simultaneous frame that still
        stands for the asker, where the hint is for the current version), ``not_your_seat`` (the seat is not prompted),
        ``rate_limited`` (from ``charge``), ``busy`` (503: no search worker came free within
        the pool's ``hint_wait``; nothing recorded, the charge refunded). Nothing of the match's state changes."""
        snap = await self.store.current(match_id)
        m = snap.match
        if m.status in ("finished", "cancelled"):
            raise ServiceError(ErrorCode.FINISHED, "The match is over.")
        if m.status != "active":
            raise ServiceError(ErrorCode.BAD_REQUEST, "The match has not started yet.")
        seat = snap.seat_of(user_id)
        if seat is None:
            raise ServiceError(ErrorCode.SPECTATOR, "Hints are for the players at the table.")
        engine = engine_for(m)
        if not available(engine, m.settings):
            raise ServiceError(ErrorCode.HINTS_OFF, "Hints are off in this match.")
        # In a simultaneous frame (Evil Corp.'s team-mates, a bot among them) the others move
        # while the asker thinks: a view one of their moves made old still holds the asker's
        # position, judged as a late action of that frame is (Moves.late_ok).
        if version != m.version and not self.moves.late_ok(match_id, engine, m, seat, version):
            raise ServiceError(ErrorCode.STALE, "The table changed; ask again on the current "
                                                "position.")
        version = m.version
        state = m.started_state
        if seat not in engine.prompts(state) or not engine.legal_actions(state, seat):
            raise ServiceError(ErrorCode.NOT_YOUR_SEAT, "It is not your turn.")
        refund = await charge() if charge is not None else None
        try:
            action, stats = await self.pool.hint(engine, state, seat, self.budget)
        except PoolBusy:  # the workers stayed busy: ask again (never a weaker level's move)
            if refund is not None:  # no search ran: this request costs no hint
                await refund()
            raise ServiceError(ErrorCode.BUSY, "The bots are thinking hard; ask again in a "
                                               "moment.", 503) from None
        if not await self._record(match_id, seat, version, len(state["log"])):
            version = await self._late(match_id, engine, seat, version, action)
        await self.store.changed(match_id, HintUsed(seat))
        return Hint(version, action, reason(stats))

    async def _late(self, match_id: str, engine: Engine, seat: int, version: int, action: Action
                    ) -> int:
        """The version a hint searched at ``version`` is recorded for when the table moved
        during the search: the current one, if the asker's simultaneous frame still stands
        (others moved, not the asker; its prompt unchanged) and ``action`` is still legal.
        Raises ``ServiceError('stale')`` otherwise (nothing recorded)."""
        m = (await self.store.current(match_id)).match
        if m.status == "active" and self.moves.late_ok(match_id, engine, m, seat, version) \
                and action in engine.legal_actions(m.started_state, seat) \
                and await self._record(match_id, seat, m.version,
                                       len(m.started_state["log"])):
            return m.version
        raise ServiceError(ErrorCode.STALE, "The table changed while the hint was thought "
                                            "over; ask again.")

    async def _record(self, match_id: str, seat: int, version: int, log_at: int) -> bool:
        """Insert the use if the match still runs at ``version`` (one statement: a move
        committed meanwhile, in any process, makes it insert nothing); ``log_at``: the length
        of the match's log at that version (where the use's line goes in the table's log).
        Returns whether it was recorded."""
        current = exists().where(and_(Match.id == match_id, Match.version == version,
                                      Match.status == "active"))
        row = select(literal(match_id), literal(seat), literal(version), literal(log_at),
                     literal(utcnow(), HintUseRow.created_at.type)).where(current)
        async with self.store.sm() as s:
            done = await s.execute(insert(HintUseRow).from_select(
                ["match_id", "seat", "version", "log_at", "created_at"], row))
            await s.commit()
        return bool(done.rowcount)
