"""Bot levels (issue 17): ``easy``, ``normal``, ``hard``, the names a host picks for a bot seat.

- ``easy``: half its moves greedy, half uniform among the moves that do not undo (a take-back, a
  cancel): beatable, yet not aimless.
- ``normal``: the game's one-ply ``greedy`` bot.
- ``hard``: the search bot (:mod:`engines.search`) with the game's ``SPEC``.

Names stored before the levels keep working: ``random`` is ``easy``, ``greedy`` is ``normal``
(:data:`ALIASES`). A game may add bots that are not levels (Covil's ``overlord``, its solo
dummy's rules played from a seat); they keep their own names.

Every level ends its turn in a bounded number of actions: none of them undoes (a random bot that
takes back what it just brewed can play Drops of Evil's Brewing forever), and the rules bound the
forward moves.
"""
from __future__ import annotations

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
    """The game's :class:`engines.search.SearchSpec`: the ``SPEC`` of the ``bots`` module beside
    the engine's class (so an earlier rules version's frozen copy uses its own), or ``None``
    (then ``hard`` plays as ``normal``)."""
    import importlib
    package = type(engine).__module__.rpartition(".")[0]
    if not package:  # an engine defined in a top-level module (a test's game): no bots module
        return None
    try:
        return getattr(importlib.import_module(f"{package}.bots"), "SPEC", None)
    except ImportError:
        return None


def hard_bot(engine: Engine, budget=None) -> BotFn:
    """The ``hard`` level: the search bot with ``budget`` (default: 1 s of CPU), or ``normal``
    for a game without a search spec."""
    from engines.search import DEFAULT_BUDGET, search_bot
    spec = spec_of(engine)
    if spec is None:
        return _greedy(engine)
    return search_bot(spec, budget or DEFAULT_BUDGET)


def bots(engine: Engine) -> dict[str, BotFn]:
    """The bots a host may seat in ``engine``'s game, by name: the three levels, then the game's
    own bots that are not levels (``overlord``)."""
    out: dict[str, BotFn] = {"easy": easy_bot(engine), "normal": _greedy(engine),
                             "hard": hard_bot(engine)}
    for name, fn in getattr(engine, "bots", {}).items():
        if name not in ALIASES and name not in out:
            out[name] = fn
    return out


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
