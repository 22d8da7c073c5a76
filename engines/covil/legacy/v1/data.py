"""Covil component data, loaded once at import from ``data/*.yaml``.

Card instance ids: Mercenaries and Overlords use their type id (``"W3"``, ``"O1"``); the 20
Henchmen are ``"H<n>.<colour>"`` (``"H2.0"`` is colour 0's Squire). :func:`card` maps any
instance id to its data dict (``name, class, base, cost, type, effect`` and ``family`` for
Mercenaries, ``kind`` one of overlord/henchman/mercenary).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict:
    with open(_DIR / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


RULES: dict = _load("rules.yaml")
_BOARDS = _load("boards.yaml")
BOARDS: dict = _BOARDS["boards"]
FEE_TERRAINS: list[str] = _BOARDS["fee_terrains"]
_MINIONS = _load("minions.yaml")
RELICS: dict = _load("relics.yaml")["relics"]

CARDS: dict[str, dict] = {}
for _kind, _section in (("overlord", "overlords"), ("henchman", "henchmen"),
                        ("mercenary", "mercenaries")):
    for _id, _c in _MINIONS[_section].items():
        CARDS[_id] = {**_c, "kind": _kind, "family": _c.get("family", "")}

OVERLORDS: list[str] = list(_MINIONS["overlords"])
HENCHMEN: list[str] = list(_MINIONS["henchmen"])
MERCENARIES: list[str] = list(_MINIONS["mercenaries"])
RELIC_IDS: list[str] = list(RELICS)


@lru_cache(maxsize=None)  # hot (hundreds of calls per move); an unknown id is not cached
def card(cid: str) -> dict:
    """Data of a Minion card instance id (``"W3"``, ``"H2.1"``, ``"O4"``). KeyError if unknown."""
    return CARDS[cid.split(".")[0]]


def relic(rid: str) -> dict:
    """Data of a Power Relic id (``"P07"``): ``gold, target, instant, bonus``."""
    return RELICS[rid]


def henchmen_of(colour: int) -> list[str]:
    """The 5 Henchman instance ids of a colour, in Champions hall order."""
    return [f"{h}.{colour}" for h in HENCHMEN]


def zones(board: str) -> dict:
    """``{zone: {terrain, adj, spiral, x, y}}`` of board ``"A"`` or ``"B"``."""
    return BOARDS[board]["zones"]


_DIST: dict[str, dict[str, dict[str, int]]] = {}


def distances(board: str) -> dict[str, dict[str, int]]:
    """All-pairs zone distances (moves) on a board, computed once by BFS."""
    if board not in _DIST:
        zs = zones(board)
        table = {}
        for src in zs:
            dist = {src: 0}
            frontier = [src]
            while frontier:
                nxt = []
                for z in frontier:
                    for n in zs[z]["adj"]:
                        if n not in dist:
                            dist[n] = dist[z] + 1
                            nxt.append(n)
                frontier = nxt
            table[src] = dist
        _DIST[board] = table
    return _DIST[board]
