"""The games Lair hosts, by id and rules version (docs/design.md, "The engine contract").

``get(game_id)`` is the game's live :class:`engines.base.Engine` (the rules new matches are
played with); ``get(game_id, version)`` the engine of an earlier ``version`` of its rules, so a
match, a replay or a record file made before a version bump still runs on the rules it was made
with (issue 15 §0). ``ENGINES[game_id]`` holds the live engines only. ``bots(game_id, version)``
gives the bots a host may seat (``{"easy": fn, "normal": fn, "hard": fn, ...}``: engines.levels).

Earlier versions are frozen copies of a game's package, ``engines/<game>/legacy/v<N>/`` (see
``docs/versioning.md``), imported on first use: a server that never meets an old match never
loads its rules.
"""
from __future__ import annotations

import importlib
import pkgutil
import threading
from typing import Mapping

from engines.base import BotFn, Engine

#: The live engine of every game (the newest registered version).
ENGINES: dict[str, Engine] = {}
#: Every version loaded so far (the live ones included): ``{(game_id, version): engine}``.
_VERSIONS: dict[tuple[str, int], Engine] = {}
_lock = threading.Lock()


class UnknownVersion(KeyError):
    """``get(game, version)`` for a version of a hosted game that this code does not have
    (neither live nor frozen under ``engines/<game>/legacy/``)."""

    def __init__(self, game_id: str, version: object):
        super().__init__(f"{game_id} has no rules version {version!r}")
        self.game_id, self.version = game_id, version


def register(engine: Engine) -> Engine:
    """Add an engine to the registry; it becomes its game's live engine unless a newer version
    of that game is registered already. Returns it."""
    with _lock:
        _VERSIONS[(engine.id, engine.version)] = engine
        live = ENGINES.get(engine.id)
        if live is None or engine.version >= live.version:
            ENGINES[engine.id] = engine
    return engine


def get(game_id: str, version: int | None = None) -> Engine:
    """The engine for ``game_id`` at rules ``version`` (``None``: the live one).

    Raises ``KeyError`` for an unknown game, :class:`UnknownVersion` (a ``KeyError``) for a
    version this code does not have.
    """
    live = ENGINES[game_id]
    if version is None:
        return live
    if type(version) is not int:  # not 1.0 or True, which would equal 1 as a dict key
        raise UnknownVersion(game_id, version)
    if version == live.version:
        return live
    found = _VERSIONS.get((game_id, version))
    if found is not None:
        return found
    if not 0 < version < live.version or game_id not in GAME_PACKAGES:
        raise UnknownVersion(game_id, version)
    module = f"engines.{game_id}.legacy.v{version}"
    try:
        engine = importlib.import_module(module).ENGINE
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            raise UnknownVersion(game_id, version) from None
        raise
    if (engine.id, engine.version) != (game_id, version):
        raise RuntimeError(f"{module} holds {engine.id} version {engine.version}")
    with _lock:
        return _VERSIONS.setdefault((game_id, version), engine)


def versions(game_id: str) -> list[int]:
    """Every rules version of ``game_id`` this code can run, oldest first (the live one last).
    Raises ``KeyError`` for an unknown game."""
    live = ENGINES[game_id]
    found = {v for (g, v) in _VERSIONS if g == game_id}
    if game_id in GAME_PACKAGES:
        try:
            legacy = importlib.import_module(f"engines.{game_id}.legacy")
        except ModuleNotFoundError:
            legacy = None
        if legacy is not None:
            found |= {int(m.name[1:]) for m in pkgutil.iter_modules(legacy.__path__)
                      if m.name[:1] == "v" and m.name[1:].isdigit()}
    return sorted(v for v in found if v <= live.version)


def bots(game_id: str, version: int | None = None) -> Mapping[str, BotFn]:
    """Bots a host may seat in a game at a rules version (``None``: the live one), by name: the
    levels ``easy``, ``normal``, ``hard`` and the game's own bots that are not levels
    (:func:`engines.levels.bots`; stored names ``random`` and ``greedy`` resolve through
    :func:`engines.levels.canonical`). Built once per game and version, then the same read-only
    mapping. Raises like :func:`get`."""
    from engines import levels
    return levels.bots(get(game_id, version))


#: Game packages hosted by Lair; each exposes ``ENGINE`` in its ``__init__``.
GAME_PACKAGES: tuple[str, ...] = ("drops_of_evil", "evil_corp", "covil")


def _load() -> None:
    for name in GAME_PACKAGES:
        register(importlib.import_module(f"engines.{name}").ENGINE)


_load()
