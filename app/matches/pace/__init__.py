"""Match pace (issue 7, "Pace"): live or turn-based play, clocks, resignation, replacement
votes, and seats out of time handed to bots.

- ``rules`` — the pure rules (settings, clocks, deadlines, resignation ranks); re-exported
  here, so ``from app.matches import pace`` then ``pace.settings_of(...)`` reads them.
- ``clocks`` — what those rules write into a match's row when it changes (the service side).
- ``seats`` — the operations: set the pace, resign, vote a bot in, expire seats out of time.
- ``timer`` — the task that expires seats at their deadlines.
"""
from app.matches.pace.rules import (GRACE_SECONDS, PaceSettings, advance, allowance,  # noqa: I001
                                    deadlines, describe, last_side, literal_private_host,
                                    next_deadline, public, rank_resigned_last, reseat,
                                    resigned_result, settings_of, sides, start_clocks, stored,
                                    votes_needed)

__all__ = ["GRACE_SECONDS", "PaceSettings", "advance", "allowance", "deadlines", "describe",
           "last_side", "literal_private_host", "next_deadline", "public",
           "rank_resigned_last", "reseat", "resigned_result", "settings_of", "sides",
           "start_clocks", "stored", "votes_needed"]
