"""Component data of Evil Corp., loaded once at import from ``data/*.yaml``.

Exposes plain constants the rules read (no card values live in rules code):

- ``TILES``: list indexed by tile instance id (0..68) of tile-type dicts (see monsters.yaml);
  ids 0..44 are the 45 hired monsters (the "Evil Corp." bag), 45..68 the 24 starting monsters.
- ``TYPES``: tile-type id ("B07", "SR1") -> type dict.
- ``STARTING_IDS``: type id -> list of instance ids of that starting type.
- ``DEMONS``, ``LEVELS``: demons.yaml. ``BOARD``: boards.yaml.
"""
from __future__ import annotations

from pathlib import Path

import yaml

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict:
    with open(_DIR / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


_MONSTERS = _load("monsters.yaml")
_DEMONS = _load("demons.yaml")
BOARD: dict = _load("boards.yaml")


def _norm(t: dict, starting: bool) -> dict:
    t = dict(t)
    t.setdefault("passive", [])
    t.setdefault("spawn", [])
    t.setdefault("activated", [])
    t.setdefault("requires", {})
    t["starting"] = starting
    return t


TYPES: dict[str, dict] = {}
TILES: list[dict] = []
STARTING_IDS: dict[str, list[int]] = {}
for _t in _MONSTERS["hired"]:
    TYPES[_t["id"]] = _norm(_t, False)
    TILES.append(TYPES[_t["id"]])
HIRED_COUNT = len(TILES)
for _t in _MONSTERS["starting"]:
    TYPES[_t["id"]] = _norm(_t, True)
    STARTING_IDS[_t["id"]] = []
    for _ in range(_t["copies"]):
        STARTING_IDS[_t["id"]].append(len(TILES))
        TILES.append(TYPES[_t["id"]])
TILE_COUNT = len(TILES)

assert HIRED_COUNT == 45 and TILE_COUNT == 69, "rulebook: 45 monster tiles + 24 starting tiles"

DEMONS: list[dict] = _DEMONS["demons"]
LEVELS: list[dict] = _DEMONS["levels"]
SIDES: dict[str, dict] = {k: BOARD["sides"][k] for k in ("A", "B")}
SURCHARGE: list[int] = BOARD["queue"]["surcharge"]
CONQUEST_STEPS: int = BOARD["conquest"]["steps"]
MAGIC_COINS: int = BOARD["magic_coins"]
MAGIC_PER_SYMBOL: int = BOARD["magic_per_symbol"]
VICTORY_TO_WIN: int = BOARD["victory_to_win"]
VICTORY_TOKENS: int = BOARD["victory_tokens"]
SUPPLY_SIZE: dict[int, int] = {int(k): v for k, v in BOARD["supply_size"].items()}
BALANCE_GOLD: int = BOARD["balance_of_power_gold"]
STARTING_BAGS: dict[int, dict[str, int]] = {
    int(k): {t: n for t, n in v.items() if t != "provisional"}
    for k, v in BOARD["starting_bags"].items()}


def passive(tile_type: dict, kind: str) -> dict | None:
    """The tile type's passive ability of ``kind`` (``None`` if it has none)."""
    for p in tile_type["passive"]:
        if p["kind"] == kind:
            return p
    return None


def label(tile_id: int) -> str:
    """Player-readable name of a tile instance, e.g. ``"red R03 (fear 2)"``."""
    t = TILES[tile_id]
    return f"{t['colour']} {t['id']} (fear {t['fear']})"
