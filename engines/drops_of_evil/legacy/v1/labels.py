"""Player-readable names of spaces and cells, in the rulebook's words (log and describe())."""
from __future__ import annotations

from .data import CELL_POS, CELL_VIAL


def space_label(space: str) -> str:
    """``g-3-2`` -> "Gathering space (3,2)", ``k-1`` -> "double-arrow space 1", ..."""
    kind, *nums = space.split("-")
    if kind == "g":
        return f"Gathering space ({nums[0]},{nums[1]})"
    if kind == "k":
        return f"double-arrow space {nums[0]}"
    if kind == "t":
        return f"four-arrow space ({nums[0]},{nums[1]})"
    if kind == "s":
        return f"down-arrow space of column {nums[0]}"
    return f"Assistant space {nums[0]}"


def cell_label(cell: str) -> str:
    """``b-3-2`` -> "Vial A (3,2)", ``d-3`` -> "Distiller Vial 3"."""
    if cell.startswith("d-"):
        return f"Distiller Vial {cell[2:]}"
    c, r = CELL_POS[cell]
    return f"Vial {CELL_VIAL[cell]} ({c},{r})"
