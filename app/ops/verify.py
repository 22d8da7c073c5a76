"""Re-check stored matches against the engines (``lair verify``; backup restore tests).

For every started match: replay its action log from its seed on the rules version the match
was played with (``Match.engine_version``: the live engine, or one frozen under
``engines/<game>/legacy/``; ``engines.records.replay_log``, undo included) and compare with the
stored state snapshot. A difference means a rules change that was not marked by bumping the
game's ``version`` (or a damaged database): the golden-record tests should have caught it
before the deploy.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.models import ActionRow, Match
from engines import registry
from engines.records import replay_log, state_hash


@dataclass
class Verdict:
    """One match's check: ``ok`` unless ``problem`` says why; ``note`` is informational
    (e.g. it was played on an earlier rules version than the live one, and replays on it)."""

    match_id: str
    game: str
    status: str
    version: int
    ok: bool
    problem: str = ""
    note: str = ""
    state_hash: str = ""


def verify_match(match: Match, actions: list[tuple[int, dict]]) -> Verdict:
    """Replay ``actions`` from ``match``'s seed on its own rules version; compare with
    ``match.state``."""
    verdict = Verdict(match.id, match.game, match.status, match.version, ok=False)
    try:
        live = registry.get(match.game)
        registry.get(match.game, match.engine_version)
    except registry.UnknownVersion:
        verdict.problem = f"no rules version {match.engine_version} of {match.game!r} here"
        return verdict
    except KeyError:
        verdict.problem = f"unknown game {match.game!r}"
        return verdict
    if match.engine_version != live.version:
        verdict.note = (f"played on rules version {match.engine_version} "
                        f"(live: {live.version})")
    if len(actions) != match.version:
        verdict.problem = f"{len(actions)} logged actions for version {match.version}"
        return verdict
    try:
        state, _ = replay_log(match.game, match.players, match.options, match.seed, actions,
                              match.engine_version)
    except Exception as exc:  # noqa: BLE001 - any engine refusal is a failed verification
        verdict.problem = f"replay failed at some action: {type(exc).__name__}"
        return verdict
    verdict.state_hash = state_hash(state)
    if match.state is None or verdict.state_hash != state_hash(match.state):
        verdict.problem = "replay gives a different state than the stored one"
        return verdict
    verdict.ok = True
    return verdict


async def verify_all(sm: async_sessionmaker, match_id: str | None = None) -> list[Verdict]:
    """Verify every started match (or just ``match_id``), oldest first."""
    async with sm() as s:
        q = select(Match).where(Match.state.is_not(None)).order_by(Match.created_at, Match.id)
        if match_id is not None:
            q = q.where(Match.id == match_id)
        # A match never started (open, or cancelled in the waiting room) has no state, but the
        # JSON column stores Python's None as JSON null, which SQL's IS NOT NULL lets through.
        matches = [m for m in (await s.execute(q)).scalars().all() if m.state is not None]
        verdicts = []
        for m in matches:
            rows = (await s.execute(select(ActionRow.seat, ActionRow.action)
                                    .where(ActionRow.match_id == m.id)
                                    .order_by(ActionRow.seq))).all()
            verdicts.append(verify_match(m, [(seat, action) for seat, action in rows]))
    return verdicts
