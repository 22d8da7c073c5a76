"""Readable contrast (issue 7 "Table experience", item 7): the text/background pairs of the
site's colours (the custom properties in static/css/lair.css, and the seat colours under
the renderers' white or dark name chips) meet WCAG 2.x AA, 4.5:1 for body text
(https://www.w3.org/TR/WCAG21/#contrast-minimum; relative luminance as defined there)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[3] / "static" / "css" / "lair.css"


def css_vars() -> dict[str, str]:
    """The ``--name: #rrggbb`` custom properties of lair.css's ``:root`` block."""
    root = re.search(r":root\s*{(.*?)}", CSS.read_text(), re.S).group(1)
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\b", root))


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of an sRGB ``#rrggbb`` colour."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1–21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


V = css_vars()
SURFACES = ["bg", "surface", "surface-2", "surface-3"]
#: (text colour, background, minimum): every pair the stylesheet draws text with.
PAIRS = (
    [("text", s, 7.0) for s in SURFACES]            # body text: AAA, as lair.css promises
    + [("muted", s, 4.5) for s in SURFACES]
    + [("link", s, 4.5) for s in SURFACES]
    + [("highlight", s, 4.5) for s in SURFACES]     # "Your move", host badge
    + [("ok", s, 4.5) for s in SURFACES]            # "active" badge
    + [("danger-border", s, 4.5) for s in ("bg", "surface")]  # field errors
    + [("accent-text", "accent", 4.5), ("accent-text", "accent-hover", 4.5),
       ("text", "danger-bg", 4.5), ("text", "warn-bg", 4.5)]
)
#: Literal colours in lair.css used for text: (text, background, minimum).
LITERALS = [
    ("#17120a", V["highlight"], 4.5),   # the "Your turn" flag
    ("#140f18", V["text"], 4.5),        # the "you" badge
    ("#9fd6f5", V["surface-2"], 4.5),   # bot badge, log tags
    ("#8f849e", "#0d0b10", 4.5),        # input placeholders on the input background
    (V["text"], "#3d3452", 4.5),        # a hovered button
    (V["text"], "#142230", 4.5),        # a private log entry
    (V["text"], "#10202c", 4.5),        # an info toast
    ("#1b1424", "#f0c419", 4.5),        # the turn badge
    ("#2b2118", "#efe6d2", 7.0),        # a seat's player board (.seat-board)
    ("#2b2118", "#fbf7ee", 7.0),        # its counts
    ("#4a3d2c", "#efe6d2", 4.5),        # its lines of words
    ("#fbf7ee", "#2b2118", 4.5),        # its tags ("passed")
    ("#2b2118", "#f0c93e", 4.5),        # a count that just changed (flash)
]


def test_the_root_block_defines_the_colours():
    for name in ("bg", "surface", "text", "muted", "link", "accent", "accent-text", "highlight",
                 "seat-0", "seat-1", "seat-2", "seat-3"):
        assert name in V, name


@pytest.mark.parametrize("fg,bg,minimum", PAIRS, ids=[f"{f}-on-{b}" for f, b, _ in PAIRS])
def test_variable_pairs_meet_aa(fg, bg, minimum):
    ratio = contrast(V[fg], V[bg])
    assert ratio >= minimum, f"--{fg} on --{bg}: {ratio:.2f}:1 < {minimum}:1"


@pytest.mark.parametrize("fg,bg,minimum", LITERALS, ids=[f"{f}-on-{b}" for f, b, _ in LITERALS])
def test_literal_pairs_meet_aa(fg, bg, minimum):
    ratio = contrast(fg, bg)
    assert ratio >= minimum, f"{fg} on {bg}: {ratio:.2f}:1 < {minimum}:1"


def chip_text(seat_colour: str) -> str:
    """The name-chip text colour the renderers pick for a seat colour (white unless dark text
    reads better), mirrored from static/games/evil_corp/renderer.js ``chipText``."""
    return "#ffffff" if contrast("#ffffff", seat_colour) >= contrast("#111111", seat_colour) \
        else "#111111"


@pytest.mark.parametrize("seat", range(4))
def test_seat_name_chips_are_readable(seat):
    colour = V[f"seat-{seat}"]
    assert contrast(chip_text(colour), colour) >= 4.5
