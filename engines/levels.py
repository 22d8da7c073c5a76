"""Bot levels (issue 17): ``easy``, ``normal``, ``hard``, the names a host picks for a bot seat.

- ``easy``: half its moves greedy, half uniform among the moves that do not undo (a take-back, a
  cancel): beatable, yet not aimless.
- ``normal``: the game's one-ply ``greedy`` bot.
- ``hard``: the search bot (:mod:`engines.search`) with the engine's ``search_spec``.

Names stored before the levels keep working: ``random`` is ``easy``, ``greedy`` is ``normal``
(:data:`ALIASES`). A game may add bots that are not levels (Covil's ``overlord``, its solo
dummy's rules played from a seat); they keep their own names.

Rules versions: each engine class carries its own ``bots`` and ``search_spec`` (set by its
package), so a frozen copy plays with the bots it was frozen with. Version 1's copies have no
search spec, and their ``hard`` plays as their ``normal``: the search needs more than the engine
contract (``determinize``, ``apply_trusted``, ``legal_actions``) -- it needs a *canonical*
``determinize`` (version 1's keeps the real hidden order in the sample: Evil Corp.'s pools, Covil's
relic deck and hands, Drops of Evil's bag, were only sorted in version 2) and an evaluation that
reads that version's state and data; frozen copies are never edited. Copies frozen from version 2
on carry their search spec with them.

Every level ends its turn in a bounded number of actions: none of them undoes (a random bot that
takes back what it just brewed can play Drops of Evil's Brewing forever), and the rules bound the
forward moves.
"""
from __future__ import annotations

import threading
from types import MappingProxyType
from typing import Mapping

from engines.base import Action, BotFn, Engine, Rng, State

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: Bot names stored before the levels existed.
ALIASES: dict[str, str] = {"random": "easy", "greedy": "normal"}
#: Action types that take back an earlier choice: a bot never needs them (and random ones could
#: loop on them).
UNDO_TYPES = frozenset({"take_back", "cancel"})


def forward_actions(actions: list[Action]) -> list[Action]:
    """The actions that undo nothing (all of them if every action undoes)."""
    return [a for a in actions if a.get("type") not in UNDO_TYPES] or actions


def random_forward(engine: Engine, state: State, seat: int, rng: Rng) -> Action:
    """Uniform among the seat's legal actions that undo nothing."""
    return rng.choice(forward_actions(engine.legal_actions(state, seat)))


def _greedy(engine: Engine) -> BotFn:
    return getattr(engine, "bots", {}).get("greedy", random_forward)


def easy_bot(engine: Engine) -> BotFn:
    """The ``easy`` level for ``engine``: a coin flip between greedy and a forward random move."""
    greedy = _greedy(engine)

    def easy(engine: Engine, state: State, seat: int, rng: Rng) -> Action:
        if rng.below(2):
            return greedy(engine, state, seat, rng)
        return random_forward(engine, state, seat, rng)
    return easy


def spec_of(engine: Engine):
    """The game's :class:`engines.search.SearchSpec` (the engine's ``search_spec``, set by its
    package: a frozen rules version has its own copy's, or none), or ``None`` (then ``hard``
    plays as ``normal``)."""
    return getattr(engine, "search_spec", None)


def hard_bot(engine: Engine, budget=None) -> BotFn:
    """The ``hard`` level: the search bot with ``budget`` (default: 1 s of CPU), or ``normal``
    for a game without a search spec."""
    from engines.search import DEFAULT_BUDGET, search_bot
    spec = spec_of(engine)
    if spec is None:
        return _greedy(engine)
    return search_bot(spec, budget or DEFAULT_BUDGET)


#: ``levels.bots`` per engine class and version, built once (a bot move looks its bot up).
_BOTS: dict[tuple[type, str, int], Mapping[str, BotFn]] = {}
_BOTS_LOCK = threading.Lock()


def bots(engine: Engine) -> Mapping[str, BotFn]:
    """The bots a host may seat in ``engine``'s game, by name: the three levels, then the game's
    own bots that are not levels (``overlord``). Built once per engine class and version (the
    same read-only mapping on every call)."""
    key = (type(engine), engine.id, engine.version)
    found = _BOTS.get(key)
    if found is not None:
        return found
    out: dict[str, BotFn] = {"easy": easy_bot(engine), "normal": _greedy(engine),
                             "hard": hard_bot(engine)}
    for name, fn in getattr(engine, "bots", {}).items():
        if name not in ALIASES and name not in out:
            out[name] = fn
    with _BOTS_LOCK:
        return _BOTS.setdefault(key, MappingProxyType(out))


def canonical(name: str) -> str:
    """A stored or requested bot name as offered today (``random`` -> ``easy``,
    ``greedy`` -> ``normal``; other names unchanged)."""
    return ALIASES.get(name, name)


def level_of(name: str | None) -> str | None:
    """The level a bot name plays at (``easy``/``normal``/``hard``), ``None`` for a bot that
    is not a level (``overlord``) or no bot."""
    if name is None:
        return None
    name = canonical(name)
    return name if name in LEVELS else None
