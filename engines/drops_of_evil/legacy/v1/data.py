"""Component data of Drops of Evil, loaded once from ``data/*.yaml`` and derived geometry.

Nothing here changes during a game. Ids (strings, also used by the view and the actions):
Gathering space ``g-<col>-<row>``, Cat space ``k-<n>``, Toad space ``t-<col>-<row>`` (the top-left
of its 4 targets), Snake space ``s-<col>``, Assistant space ``a-<n>``; Brewer cell
``b-<col>-<row>``; Distiller vial ``d-<level>``; Bonus slots ``bc-<col>-e|s`` and
``ds-<level>-e|s``.
"""
from __future__ import annotations

from pathlib import Path

import yaml

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict:
    with open(_DIR / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


COMPONENTS = _load("components.yaml")
TOXICITY = _load("toxicity.yaml")
ALCHILAB = _load("alchilab.yaml")
BONUS = _load("bonus_tokens.yaml")
FOREST = _load("forest.yaml")
RECIPES: dict[str, dict] = _load("recipes.yaml")["recipes"]
_ASS = _load("assistants.yaml")
ASSISTANTS: dict[str, dict] = _ASS["assistants"]
ALTERNATIVES: list[str] = _ASS["alternatives"]

NAMES: dict[str, str] = COMPONENTS["names"]
BAG_TYPES: list[str] = COMPONENTS["bag_types"]
INGREDIENTS: list[str] = COMPONENTS["ingredients"]
PAWNS: list[str] = COMPONENTS["pawns"]
FAMILIARS: list[str] = COMPONENTS["familiar_order"]
TOX_TYPES: list[str] = TOXICITY["types"]
TOX_MAX: int = TOXICITY["max"]
ROUNDS: int = COMPONENTS["rounds"]
POOL_TYPES: list[str] = ["owl", "bat", "salamander", "scorpion", "spider", "worm", "mushroom"]


# ----- Brewer ---------------------------------------------------------------------------------
def cell_id(col: int, row: int) -> str:
    return f"b-{col}-{row}"


_B = ALCHILAB["brewer"]
B_COLS: int = _B["cols"]
B_ROWS: int = _B["rows"]
CELL_VIAL: dict[str, str] = {}
VIAL_CELLS: dict[str, list[str]] = {}
CELL_POS: dict[str, tuple[int, int]] = {}
for _r, _line in enumerate(_B["grid"], start=1):
    for _c, _v in enumerate(_line, start=1):
        _id = cell_id(_c, _r)
        CELL_VIAL[_id] = _v
        CELL_POS[_id] = (_c, _r)
        VIAL_CELLS.setdefault(_v, []).append(_id)
CELLS: list[str] = list(CELL_POS)
L_VIALS: set[str] = set(_B["l_shaped"])
EDGE_CELLS: set[str] = {c for c, (x, y) in CELL_POS.items()
                        if x in (1, B_COLS) or y in (1, B_ROWS)}
COLUMN_CELLS: dict[int, list[str]] = {c: [cell_id(c, r) for r in range(1, B_ROWS + 1)]
                                      for c in range(1, B_COLS + 1)}
CONNECTIONS: list[tuple[str, str]] = [(cell_id(*a), cell_id(*b)) for a, b in _B["connections"]]
COLUMN_SLOTS: dict[int, list[str]] = {
    c: [f"bc-{c}-e"] + ([f"bc-{c}-s"] if c in _B["scroll_columns"] else [])
    for c in range(1, B_COLS + 1)}

# ----- Distiller ------------------------------------------------------------------------------
_D = ALCHILAB["distiller"]
D_SIZES: list[int] = _D["sizes"]
D_LEVELS: int = len(D_SIZES)
D_SLOTS: dict[int, list[str]] = {
    k: [f"ds-{k}-e"] + ([f"ds-{k}-s"] if k in _D["scroll_levels"] else [])
    for k in range(1, D_LEVELS + 1)}
ALL_D_SLOTS: list[str] = [s for k in range(1, D_LEVELS + 1) for s in D_SLOTS[k]]
#: mushrooms needed to fill levels 1..k
D_CUM: list[int] = [sum(D_SIZES[:k]) for k in range(1, D_LEVELS + 1)]
D_BELOW_TOP: int = D_CUM[-2]

E_SLOTS: list[str] = [s for c in COLUMN_SLOTS for s in COLUMN_SLOTS[c] if s.endswith("-e")] + \
    [s for k in D_SLOTS for s in D_SLOTS[k] if s.endswith("-e")]
B_SCROLL_SLOTS: list[str] = [s for c in COLUMN_SLOTS for s in COLUMN_SLOTS[c] if s.endswith("-s")]
D_SCROLL_SLOTS: list[str] = [s for k in D_SLOTS for s in D_SLOTS[k] if s.endswith("-s")]
EXTRA_TOKENS: list[str] = [t for t, n in BONUS["extra_resources"].items() for _ in range(n)]
assert len(EXTRA_TOKENS) == len(E_SLOTS) == 14, "14 Extra Resources fill the 14 round spaces"
assert len(B_SCROLL_SLOTS) == len(BONUS["scrolls"]["brewer"]) - 1
assert len(D_SCROLL_SLOTS) == len(BONUS["scrolls"]["distiller"]) - 1


def distiller_level(n: int) -> int:
    """The Distiller vial (1-based) holding the ``n``-th Mushroom (``n`` >= 1)."""
    for k, cum in enumerate(D_CUM, start=1):
        if n <= cum:
            return k
    return D_LEVELS


# ----- Forest ---------------------------------------------------------------------------------
def gid(col: int, row: int) -> str:
    return f"g-{col}-{row}"


def _build_board(name: str) -> dict:
    """Board geometry: spaces, targets, clearing, drawing coordinates (see VIEW.md)."""
    b = FOREST["boards"][name]
    cols, rows = b["cols"], b["rows"]
    if "clearing" in b:
        cl = b["clearing"]
        clearing = {gid(c, r) for c in range(cl["cols"][0], cl["cols"][1] + 1)
                    for r in range(cl["rows"][0], cl["rows"][1] + 1)}
    else:
        clearing = {gid(c, r) for c, r in b["clearing_spaces"]}
    gathering = [{"id": gid(c, r), "col": c, "row": r, "x": c, "y": r,
                  "clearing": gid(c, r) in clearing}
                 for r in range(1, rows + 1) for c in range(1, cols + 1)]
    spaces = []
    for n, (a, b2) in enumerate(b["cats"], start=1):
        spaces.append({"id": f"k-{n}", "pawn": "cat", "x": (a[0] + b2[0]) / 2,
                       "y": (a[1] + b2[1]) / 2, "targets": [gid(*a), gid(*b2)]})
    for c, r in b["toads"]:
        spaces.append({"id": f"t-{c}-{r}", "pawn": "toad", "x": c + 0.5, "y": r + 0.5,
                       "targets": [gid(c, r), gid(c + 1, r), gid(c, r + 1), gid(c + 1, r + 1)]})
    for c in range(1, cols + 1):
        spaces.append({"id": f"s-{c}", "pawn": "snake", "x": c, "y": 0,
                       "targets": [gid(c, r) for r in range(1, rows + 1)]})
    ids = {g["id"] for g in gathering}
    # lists in board order, never set order: legal_actions must not depend on string hashing
    crow_spaces = [g["id"] for g in gathering if g["clearing"]]
    targets: dict[str, list[str]] = {g: [g] for g in crow_spaces}
    kind: dict[str, str] = {g: "crow" for g in crow_spaces}
    for s in spaces:
        assert set(s["targets"]) <= ids, (name, s)
        targets[s["id"]] = s["targets"]
        kind[s["id"]] = s["pawn"]
    for pawn in ("cat", "toad", "snake"):
        seen: set[str] = set()
        for s in spaces:
            if s["pawn"] == pawn:
                assert not seen & set(s["targets"]), f"{name}: two {pawn} spaces share a target"
                seen |= set(s["targets"])
    assistants = [{"id": f"a-{i + 1}", "index": i} for i in range(b["assistants"])]
    for a in assistants:
        kind[a["id"]] = "coin"
    return {"name": name, "cols": cols, "rows": rows, "gathering": gathering,
            "action_spaces": spaces, "assistant_spaces": assistants,
            "gathering_ids": [g["id"] for g in gathering], "clearing": clearing,
            "targets": targets, "kind": kind,
            "by_pawn": {p: [s for s, k in kind.items() if k == p] for p in PAWNS},
            "snake_col": {f"s-{c}": c for c in range(1, cols + 1)}}


BOARDS: dict[str, dict] = {name: _build_board(name) for name in FOREST["boards"]}


def board_name(players: int, side: str) -> str:
    """Rulebook Setup: 4p large 4-player side, 3p large 3-player side, 2p small board side A/B."""
    if players == 2:
        return FOREST["by_side"][side]
    return FOREST["by_players"][players]


def geometry(name: str) -> dict:
    """The state-independent geometry put in ``view["game"]["geometry"]`` (VIEW.md (a))."""
    return _GEOMETRY[name]


def _geometry(name: str) -> dict:
    b = BOARDS[name]
    return {
        "board": name,
        "forest": {"cols": b["cols"], "rows": b["rows"], "gathering": b["gathering"],
                   "action_spaces": b["action_spaces"],
                   "assistant_spaces": b["assistant_spaces"]},
        "brewer": {
            "cols": B_COLS, "rows": B_ROWS,
            "cells": [{"id": c, "col": x, "row": y, "vial": CELL_VIAL[c],
                       "l_shape": CELL_VIAL[c] in L_VIALS, "edge": c in EDGE_CELLS}
                      for c, (x, y) in CELL_POS.items()],
            "vials": [{"id": v, "cells": cells, "l_shape": v in L_VIALS}
                      for v, cells in sorted(VIAL_CELLS.items())],
            "connections": [list(p) for p in CONNECTIONS],
            "columns": [{"col": c, "slots": COLUMN_SLOTS[c], "flames": len(COLUMN_SLOTS[c])}
                        for c in COLUMN_SLOTS]},
        "distiller": {"vials": [{"id": f"d-{k}", "level": k, "size": D_SIZES[k - 1],
                                 "slots": D_SLOTS[k]} for k in range(1, D_LEVELS + 1)],
                      "top": f"d-{D_LEVELS}"},
        "toxicity": {"types": TOX_TYPES, "min": TOXICITY["min"], "max": TOX_MAX,
                     "start": TOXICITY["start"]},
        "names": NAMES,
    }


_GEOMETRY = {name: _geometry(name) for name in BOARDS}
