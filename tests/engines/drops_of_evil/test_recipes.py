"""Recipes Reference: every worked example with its stated points, plus "Recipes and Spiders"."""
from engines.drops_of_evil.alchilab import completed_vials, vial_content
from engines.drops_of_evil.data import CELL_VIAL, CELLS, EDGE_CELLS, L_VIALS, VIAL_CELLS
from engines.drops_of_evil.recipes import recipe_count, recipe_points


def b(*cells, res="owl", base=None):
    """Brewer with ``res`` on the given (col, row) cells (over an optional base Brewer)."""
    out = dict(base or {})
    out.update({f"b-{c}-{r}": res for c, r in cells})
    return out


def test_toxic_layers_example_8_points():
    """Recipes Reference > 1. Toxic Layers: 2 groups of 4 in a row = 8 PP."""
    brewer = b(*[(c, 2) for c in range(1, 9)])          # 8 in a row: two disjoint groups
    brewer.update(b((1, 4), (2, 4), (3, 4), res="bat"))  # other type does not count
    assert recipe_points("R1", brewer, "owl") == 8
    # 7 in a row is still one group: the second group would reuse tokens
    assert recipe_count("R1", b(*[(c, 3) for c in range(1, 8)]), "owl") == 1
    # vertical lines and different rows do not form groups
    assert recipe_count("R1", b((1, 1), (2, 1), (3, 2), (4, 2)), "owl") == 0


def test_wicked_sediment_example_8_points():
    """Recipes Reference > 2. Wicked Sediment: 4 groups of 3 from the bottom = 8 PP."""
    brewer = b(*[(c, r) for c in (1, 3, 5, 9) for r in (2, 3, 4)])
    brewer.update(b((7, 1), (7, 2), (7, 3)))             # 3 vertical, not touching the bottom
    assert recipe_points("R2", brewer, "owl") == 8
    # a full column of 4 still contains one group only
    assert recipe_count("R2", b(*[(2, r) for r in range(1, 5)]), "owl") == 1


def test_oozing_mass_example_7_points():
    """Recipes Reference > 3. Oozing Mass: largest group of 14 = 7 PP."""
    group = [(c, 1) for c in range(1, 8)] + [(c, 2) for c in range(1, 8)]   # 14 connected
    brewer = b(*group, (9, 4), (9, 3), (8, 4))                              # a separate 3
    assert recipe_points("R3", brewer, "owl") == 7
    # diagonal contact does not connect
    assert recipe_points("R3", b((1, 1), (2, 2), (3, 3), (4, 4)), "owl") == 0


def test_spreading_blight_example_9_points():
    """Recipes Reference > 4. Spreading Blight: 9 columns = 9 PP."""
    brewer = b(*[(c, 1 + c % 4) for c in range(1, 10)], (1, 1), (1, 4))
    assert recipe_points("R4", brewer, "owl") == 9


def test_tainted_patina_example_7_points():
    """Recipes Reference > 5. Tainted Patina: 15 on edge spaces = 7 PP (inner ones ignored)."""
    edges = sorted(EDGE_CELLS)[:15]
    brewer = {c: "owl" for c in edges}
    brewer.update(b((3, 2), (4, 3)))                      # inner spaces: not edges
    assert len(EDGE_CELLS) == 22
    assert recipe_points("R5", brewer, "owl") == 7


def test_cursed_clumps_example_9_points():
    """Recipes Reference > 6. Cursed Clumps: 3 squares 2x2 = 9 PP."""
    brewer = b((1, 1), (2, 1), (1, 2), (2, 2), (4, 2), (5, 2), (4, 3), (5, 3),
               (7, 3), (8, 3), (7, 4), (8, 4))
    assert recipe_points("R6", brewer, "owl") == 9


def test_cursed_clumps_counts_the_maximum_disjoint_squares():
    """Recipes > "each token may be counted only once": 3x3 block holds 1 disjoint square per
    2 columns; a 2x4 strip holds 2 (not 3 overlapping); a 4x4 block holds 4."""
    assert recipe_count("R6", b(*[(c, r) for c in (1, 2, 3) for r in (1, 2, 3)]), "owl") == 1
    assert recipe_count("R6", b(*[(c, r) for c in (1, 2, 3, 4) for r in (1, 2)]), "owl") == 2
    assert recipe_count("R6", b(*[(c, r) for c in (1, 2, 3, 4) for r in (1, 2, 3, 4)]),
                        "owl") == 4
    # an arrangement where a greedy left-to-right, top-first choice fails:
    # squares at rows 2-3 (cols 1-2), rows 1-2 (cols 2-3) and rows 3-4 (cols 2-3):
    # taking the first one found (rows 1-2) would still allow rows 3-4, but the optimum keeps
    # two disjoint squares out of the three overlapping ones.
    cells = {(1, 2), (2, 2), (1, 3), (2, 3), (3, 1), (3, 2), (2, 1), (3, 3), (2, 4), (3, 4)}
    assert recipe_count("R6", b(*cells), "owl") == 2


def test_corrupted_bonds_example_14_points():
    """Recipes Reference > 7. Corrupted Bonds: 7 pairs across connections = 14 PP."""
    pairs = [((2, 1), (2, 2)), ((3, 2), (4, 2)), ((4, 3), (5, 3)), ((5, 2), (6, 2)),
             ((7, 1), (7, 2)), ((8, 2), (9, 2)), ((1, 3), (2, 3))]
    brewer = b(*[c for p in pairs for c in p])
    for (c1, c2) in pairs:
        assert CELL_VIAL["b-%d-%d" % c1] != CELL_VIAL["b-%d-%d" % c2]
    assert recipe_points("R7", brewer, "owl") == 14


def test_corrupted_bonds_each_token_once():
    """Recipes > each token once: (5,4)-(6,4)-(7,4) share (6,4): one pair, not two; and
    two adjacent cells of the same Vial are not a connection."""
    assert recipe_count("R7", b((5, 4), (6, 4), (7, 4)), "owl") == 1
    assert recipe_count("R7", b((1, 1), (2, 1)), "owl") == 0


def test_winding_venom_example_8_points():
    """Recipes Reference > 8. Winding Venom: 16 in L-shaped Vials = 8 PP."""
    l_cells = [c for c in CELLS if CELL_VIAL[c] in L_VIALS]
    assert len(l_cells) == 24
    brewer = {c: "owl" for c in l_cells[:16]}
    brewer.update({c: "owl" for c in VIAL_CELLS["B"]})     # straight Vial: not counted
    assert recipe_points("R8", brewer, "owl") == 8


def test_recipes_and_spiders_example():
    """Recipes > Recipes and Spiders: only the 2 disjoint Bat Wing squares count (the third,
    overlapping pattern does not); the top-right Spider counts as Salamander Eye for its Vial
    and as Bat Wing for the Recipe, and as Salamander Eye for a second Recipe too."""
    block = [(c, r) for c in (3, 4, 5, 6) for r in (2, 3)]
    brewer = b(*block, res="bat")
    brewer["b-6-2"] = "spider"                             # top right of the block, Vial G
    brewer.update(b((7, 2), (7, 3), res="salamander"))     # the rest of Vial G
    assert CELL_VIAL["b-6-2"] == "G"
    assert recipe_count("R6", brewer, "bat") == 2          # 2 sets, not 3
    assert recipe_points("R6", brewer, "bat") == 6
    assert "G" in completed_vials(brewer)
    assert vial_content(brewer, "G") == "salamander"
    assert recipe_count("R4", brewer, "salamander") == 2   # columns 6 (Spider) and 7
