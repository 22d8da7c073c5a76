"""Readable contrast of the Evil Corp. table's own colours (issue 14, "contrast checked"):
the dark ink (#2b2118) of tiles, boards and cards on every fill it is drawn on, and the light
text of the personnel department, meet WCAG AA 4.5:1 (tests/app/web/test_contrast.py's formula).
Each colour must still appear in the renderer or its icons, so the list cannot go stale."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.web.test_contrast import contrast

GAME = Path(__file__).resolve().parents[3] / "static" / "games" / "evil_corp"
SOURCE = (GAME / "renderer.js").read_text() + (GAME / "icons.js").read_text()
INK, PAPER, DEPT = "#2b2118", "#fbf4e2", "#6b4a35"


def over(colour: str, alpha: float, below: str) -> str:
    """``colour`` at ``alpha`` drawn over ``below`` (the CSS #rrggbbaa fills)."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(below[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * alpha + y * (1 - alpha)):02x}" for x, y in zip(a, b))


PAIRS = [
    (INK, "#7cc4ec"), (INK, "#f29a7e"), (INK, "#f3e06a"),   # tile colours (names, numbers)
    (INK, "#a8a0b3"),                                       # an inactive tile
    (INK, "#a9c98a"), (INK, "#e2c58f"),                     # board sides A and B
    (INK, PAPER), (INK, "#d9cdb5"), (INK, "#f7dd8c"),       # fear track cells
    (PAPER, INK),                                           # a team chip
    (PAPER, DEPT),                                          # personnel department
    (PAPER, over("#fbf4e2", 0x1f / 255, DEPT)),             # a queue cell, a demon
    (PAPER, over("#f0c93e", 0x33 / 255, DEPT)),             # "With a raise to the salary"
    ("#5a5048", "#ffffff"),                                 # a card's place line
]


@pytest.mark.parametrize("fg,bg", PAIRS, ids=[f"{f}-on-{b}" for f, b in PAIRS])
def test_evil_corp_text_colours_meet_aa(fg, bg):
    assert contrast(fg, bg) >= 4.5, f"{fg} on {bg}: {contrast(fg, bg):.2f}:1"


def test_the_listed_colours_are_the_ones_drawn():
    for c in (INK, PAPER, DEPT, "#7cc4ec", "#f29a7e", "#f3e06a", "#a8a0b3", "#a9c98a",
              "#e2c58f", "#d9cdb5", "#f7dd8c", "#5a5048"):
        assert c in SOURCE, c
