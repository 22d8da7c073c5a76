"""Components: counts from the rulebook's component list, board sanity, every Reinforcement card."""
import pytest

from engines.covil import core, data

from .helpers import placed, set_hall


def test_components_counts():
    """Components: 6 Dark Overlords, 20 Henchmen (5 per colour), 40 Mercenaries, 24 Power
    Relics; classes Melee/Ranged/Defense; Mercenary costs 2-10 (10-gold cards exist)."""
    assert len(data.OVERLORDS) == 6 and len(data.HENCHMEN) * 4 == 20
    assert len(data.MERCENARIES) == 40 and len(data.RELIC_IDS) == 24
    assert {c["class"] for c in data.CARDS.values()} == {"Melee", "Ranged", "Defense"}
    costs = sorted({data.card(m)["cost"] for m in data.MERCENARIES})
    assert costs == [2, 4, 6, 8, 10]
    fams = {data.card(m)["family"] for m in data.MERCENARIES}
    assert fams == {"Warrior", "Assassin", "Guardian", "Saboteur", "Sorcerer"}
    assert data.card("H2.3")["name"] == "Squire" and data.card("S3")["name"] == "Donnish Druid"


@pytest.mark.parametrize("board", ["A", "B"])
def test_boards_symmetric_connected_with_enough_spirals(board):
    """Game board: adjacency is symmetric, every zone reachable, one town, spirals for the
    largest player count (A: 4, B: 3 incl. solo with 2 dummies)."""
    zs = data.zones(board)
    for z, d in zs.items():
        for n in d["adj"]:
            assert z in zs[n]["adj"]
    assert all(len(v) == len(zs) for v in data.distances(board).values())
    assert sum("Town" in d["terrain"] for d in zs.values()) == 1
    assert sum(d["spiral"] for d in zs.values()) >= data.BOARDS[board]["max_players"]
    for t in data.FEE_TERRAINS:
        assert any(t in d["terrain"] for d in zs.values())


REINFORCEMENTS = [
    # card, stat, zone on board A, expected bonus
    ("W3", "melee", "B", 1), ("W3", "melee", "C", 0), ("W7", "melee", "C", 1),
    ("G2", "defense", "E", 1), ("G4", "defense", "E", 2), ("G4", "defense", "A", 1),
    ("G6", "defense", "A", 1), ("G7", "defense", "H", 1), ("G7", "defense", "A", 0),
    ("G8", "defense", "C", 1), ("S4", "ranged", "E", 2), ("S7", "ranged", "M", 1),
    ("O3", "defense", "H", 1),
]


@pytest.mark.parametrize("cid,stat,zone,bonus", REINFORCEMENTS)
def test_passive_reinforcement_cards(cid, stat, zone, bonus):
    """Passive Abilities > Reinforcements: each card's bonus where the troop resides."""
    s = placed(2)
    set_hall(s, 0, ["O1", cid] if not cid.startswith("O") else [cid])
    assert core.reinforcement(s, 0, stat, zone) == bonus


@pytest.mark.parametrize("cid,zone,reach", [("A3", "B", 2), ("A3", "C", 1), ("A3", "A", 2),
                                            ("S5", "D", 2), ("X6", "E", 2), ("X6", "B", 1)])
def test_move_based_reinforcement_cards(cid, zone, reach):
    """2.3 Move this troop: move-based Reinforcements give +1 zone from their terrain."""
    s = placed(2)
    set_hall(s, 0, ["O1", cid])
    assert core.move_reach(s, 0, zone) == reach


def test_every_data_file_marks_invented_values_provisional():
    """helper rules: every invented value carries provisional: true."""
    import yaml
    for name in ("boards.yaml", "minions.yaml", "relics.yaml"):
        with open(data._DIR / name, encoding="utf-8") as fh:
            assert yaml.safe_load(fh)["provisional"] is True
