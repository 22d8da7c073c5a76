"""The games Lair hosts, by id (DESIGN.md, "The engine contract").

``ENGINES[game_id]`` is the game's :class:`engines.base.Engine` instance; ``bots(game_id)`` the
bot functions a host may seat (``{"random": fn, ...}``; every game has at least ``random``).
"""
from __future__ import annotations

from engines.base import BotFn, Engine, random_bot

ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine to the registry (called once per game below). Returns it."""
    ENGINES[engine.id] = engine
    return engine


def get(game_id: str) -> Engine:
    """The engine for ``game_id``. Raises ``KeyError`` for an unknown game."""
    return ENGINES[game_id]


def bots(game_id: str) -> dict[str, BotFn]:
    """Bots available for a game: ``random`` always, plus what the game's ``bots`` attribute adds."""
    engine = get(game_id)
    return {"random": random_bot, **getattr(engine, "bots", {})}


#: Game packages hosted by Lair; each exposes ``ENGINE`` in its ``__init__``.
GAME_PACKAGES: tuple[str, ...] = ("drops_of_evil", "evil_corp", "covil")


def _load() -> None:
    import importlib

    for name in GAME_PACKAGES:
        register(importlib.import_module(f"engines.{name}").ENGINE)


_load()
