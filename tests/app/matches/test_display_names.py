"""Issue 14 item 3 ("Names, not codes") for Covil and Drops of Evil: their engines'
display_names() give every catalogue id a name, which the views (app.matches.views.game_namer)
put in place of the ids in stored log texts and labels, whole words only."""
from app.matches.views import game_namer
from engines import registry
from engines.base import Engine


def test_covil_relic_and_minion_ids_become_names():
    ids = game_namer(registry.get("covil"))
    assert ids("Player 2 activates Power Relic P10 (rest one of your Minions; +2 defense).") == \
        "Player 2 activates Power Relic Sphinx Aegis (rest one of your Minions; +2 defense)."
    assert ids("You receive Power Relics P18, P15.") == \
        "You receive Power Relics Owl-Feather Quiver, Granite Heart."
    assert ids("Acquire W3") == "Acquire Axe Warrior"
    # whole words only: a longer word or a zone letter stay as they are
    assert ids("P100 XP10 in K") == "P100 XP10 in K"


def test_every_covil_minion_and_relic_has_a_name():
    names = registry.get("covil").display_names()
    from engines.covil import data
    assert set(names) == set(data.CARDS) | set(data.RELICS)
    assert all(n and n not in data.CARDS and n not in data.RELICS for n in names.values())


def test_drops_assistant_ids_become_names():
    ids = game_namer(registry.get("drops_of_evil"))
    assert ids("AS11 and R3") == "Scribe and Oozing Mass"


def test_an_engine_without_names_keeps_texts():
    assert Engine.display_names(registry.get("covil")) == {}


def test_drops_coordinates_read_as_words():
    """Table review C5: the stored labels' coordinates ("Vial F (2,3)", "four-arrow space (4,3)")
    reach players in words; the stored text keeps them; a Cat's number stays (no
    board-independent wording)."""
    words = game_namer(registry.get("drops_of_evil"))
    assert words("Morgana brews Worm into Vial F (2,3)") == "Morgana brews Worm into Vial F (column 2, row 3)"
    assert words("Vesper places Toad on four-arrow space (4,3)") == \
        "Vesper places Toad on four-arrow space between columns 4-5, rows 3-4"
    assert words("Place Crow on Gathering space (6,5)") == "Place Crow on Gathering space (column 6, row 5)"
    assert words("Place Cat on double-arrow space 1") == "Place Cat on double-arrow space 1"
    assert words("score (3 -> 5) x(2,3)") == "score (3 -> 5) x(2,3)"
