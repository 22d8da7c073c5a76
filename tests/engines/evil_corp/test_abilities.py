"""Monster Abilities, Demon Abilities and Ability Symbols: one test per listed ability.

Docstrings name the rulebook list entry ("Monster Abilities > Blue monsters #3") and the matching
"Ability Symbols" entry. Tile ids (B03...) are the provisional tile list of data/monsters.yaml.
"""
import pytest

from engines.evil_corp import ENGINE, data
from engines.evil_corp.state import marker

from .helpers import act, fresh, give, kinds, put, queue_put, slot, turn


def play(s, seat, type_id, board=0, cell="raid-1"):
    t = give(s, seat, type_id)
    return act(s, seat, {"type": "play", "tile": t, "board": board, "cell": cell}), t


def activate(s, seat, board, cell):
    assert not s["stack"]
    turn(s, seat)
    return act(s, seat, {"type": "activate", "board": board, "cell": cell})


def ss_of(s):
    assert kinds(s) == "summon"
    return s["stack"][-1]["ss"]


# ----- Blue monsters ---------------------------------------------------------------------------
@pytest.mark.parametrize("type_id,ss", [("B01", 2), ("B03", 3), ("B12", 2)])
def test_blue_summoning_strength_passive(type_id, ss):
    """Monster Abilities > Blue monsters #1 and #3 (Passive: +1 / +2 to the summoning strength);
    Ability Symbols > Passive abilities: "Add +X to the summoning strength"."""
    s = fresh()
    s, _ = play(s, 0, type_id, 0, "portal")
    assert ss_of(s) == ss
    assert ENGINE.view(s, 0)["game"]["pending"]["level"] == (2 if ss == 3 else 1)


@pytest.mark.parametrize("type_id", ["B02", "B06"])
def test_blue_spawn_flip_opponent_tile(type_id):
    """Monster Abilities > Blue monsters #2 and #6 (Spawn: flip 1 of your opponent's monster
    tiles); Ability Symbols: "Flip 1 of the opponent's monster tiles of your choice"."""
    s = fresh()
    put(s, 1, "R11", 1, "raid-1")
    put(s, 1, "SR1", 1, "raid-2")
    assert marker(s, 1) == -(3 + 2)
    s, _ = play(s, 0, type_id, 0, "port-1")
    opts = ENGINE.legal_actions(s, 0)
    assert {"type": "flip", "board": 1, "half": 1, "cell": "raid-1"} in opts
    assert all(o["half"] == 1 for o in opts)   # only the opponent's tiles
    s = act(s, 0, {"type": "flip", "board": 1, "half": 1, "cell": "raid-1"})
    assert slot(s, 1, 1, "raid-1")["up"] is False
    assert marker(s, 1) == -(2 + 1)          # the +1 red passive is gone


def test_blue_spawn_flip_demon():
    """Monster Abilities > Blue monsters #4 (Passive +1, Spawn: flip 1 demon tile); Ability
    Symbols: "Flip 1 demon tile of your choice" (an inactive demon becomes summonable: Summoning a
    Demon > Note)."""
    s = fresh()
    s["demons"] = [True, False, True]
    s, _ = play(s, 0, "B04", 0, "portal")
    assert kinds(s) == "flip_demon"
    s = act(s, 0, {"type": "flip_demon", "demon": 1})
    assert s["demons"] == [True, True, True]
    assert ss_of(s) == 2 and {"type": "summon", "demon": 1} in ENGINE.legal_actions(s, 0)


def test_blue_7_flip_demon_and_plus_two():
    """Monster Abilities > Blue monsters #7 (Passive +2, Spawn: flip 1 demon tile)."""
    s = fresh()
    s, _ = play(s, 0, "B07", 0, "raid-1")
    s = act(s, 0, {"type": "flip_demon", "demon": 2})
    assert s["demons"] == [True, True, False] and not s["stack"]


def test_blue_5_discard_pile_to_bag():
    """Monster Abilities > Blue monsters #5 (Activated: add 2 monster tiles from your discard pile
    to your bag); Ability Symbols: "Return 1 monster tile from your discard pile to your bag"."""
    s = fresh()
    sd = s["sides"][0]
    sd["discard"], sd["bag"] = sd["bag"][:3], sd["bag"][3:]
    put(s, 0, "B05", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    for _ in range(2):
        assert kinds(s) == "return_to_bag"
        s = act(s, 0, ENGINE.legal_actions(s, 0)[0])
    assert len(s["sides"][0]["discard"]) == 1 and len(s["sides"][0]["bag"]) == 7
    assert slot(s, 0, 0, "raid-1")["up"] is False


def test_blue_8_draw_to_screen():
    """Monster Abilities > Blue monsters #8 (Activated: draw 1 tile from your bag behind your
    screen; any number of tiles may be there); Ability Symbols: "Draw 1 monster tile"."""
    s = fresh()
    s["seats"][0]["supply"] = [s["sides"][0]["bag"].pop() for _ in range(5)]
    put(s, 0, "B08", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    assert len(s["seats"][0]["supply"]) == 6
    mine = [e for e in s["log"] if e["to"] == [0]]
    theirs = [e for e in s["log"] if e["to"] == [1]]
    assert mine[-1]["text"].startswith("You drew") and mine[-1]["irreversible"]
    assert "drew 1 tile" in theirs[-1]["text"]


def test_blue_9_draw_two_discard_two():
    """Monster Abilities > Blue monsters #9 (Activated: draw 2, then discard 2 from your supply)."""
    s = fresh()
    put(s, 0, "B09", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    assert len(s["seats"][0]["supply"]) == 2
    for _ in range(2):
        assert kinds(s) == "discard_supply"
        s = act(s, 0, ENGINE.legal_actions(s, 0)[0])
    assert s["seats"][0]["supply"] == [] and len(s["sides"][0]["discard"]) == 2


def test_blue_10_activated_flip_opponent_tile():
    """Monster Abilities > Blue monsters #10 (Passive +1, Activated: flip 1 of your opponent's
    monster tiles)."""
    s = fresh()
    put(s, 1, "Y04", 1, "port-1")
    put(s, 0, "B10", 1, "raid-1")
    s = activate(s, 0, 1, "raid-1")
    s = act(s, 0, {"type": "flip", "board": 1, "half": 1, "cell": "port-1"})
    assert slot(s, 1, 1, "port-1")["up"] is False


# ----- Red monsters ----------------------------------------------------------------------------
def test_red_1_opponent_reveals_five():
    """Monster Abilities > Red monsters #1 (Spawn: choose an opponent; he reveals 5 tiles of his
    choice, in front of his screen until the end of the round); Ability Symbols: "Choose an
    opponent; he must reveal..." (he may still use them)."""
    s = fresh(3)
    s["seats"][2]["supply"] = [s["sides"][2]["bag"].pop() for _ in range(7)]
    s, _ = play(s, 0, "R01", 0, "raid-1")
    assert kinds(s) == "choose_opponent"
    assert ENGINE.legal_actions(s, 0) == [{"type": "opponent", "seat": 1},
                                          {"type": "opponent", "seat": 2}]
    s = act(s, 0, {"type": "opponent", "seat": 2})
    assert ENGINE.prompts(s).keys() == {2} and kinds(s) == "reveal"
    for _ in range(5):
        s = act(s, 2, ENGINE.legal_actions(s, 2)[0])
    assert len(s["seats"][2]["shown"]) == 5 and not s["stack"]
    v1 = ENGINE.view(s, 1)
    assert len(v1["game"]["screens"][2]["shown"]) == 5 and v1["game"]["screens"][2]["supply"] is None
    assert any("reveals" in e["text"] for e in v1["log"])
    # still usable by its owner
    shown = s["seats"][2]["shown"][0]
    turn(s, 2)
    assert any(a.get("tile") == shown for a in ENGINE.legal_actions(s, 2))


def test_red_1_reveal_all_when_fewer():
    """Monster Abilities > Red monsters #1: an opponent with 5 tiles or fewer reveals them all."""
    s = fresh()
    s["seats"][1]["supply"] = [s["sides"][1]["bag"].pop() for _ in range(3)]
    s, _ = play(s, 0, "R01", 0, "raid-1")
    assert not s["stack"] and sorted(s["seats"][1]["shown"]) == sorted(s["seats"][1]["supply"])


def test_revealed_tiles_hidden_again_after_round():
    """Ability Symbols (reveal): revealed tiles stay visible until the end of the round."""
    s = fresh()
    s["seats"][1]["supply"] = [s["sides"][1]["bag"].pop() for _ in range(2)]
    s, _ = play(s, 0, "R01", 0, "raid-1")
    assert len(ENGINE.view(s, 0)["game"]["screens"][1]["shown"]) == 2
    s = act(s, 1, {"type": "pass"})
    s = act(s, 0, {"type": "pass"})
    assert s["round"] == 2 and ENGINE.view(s, 0)["game"]["screens"][1]["shown"] == []


def test_red_2_opponent_discards_his_choice():
    """Monster Abilities > Red monsters #2 (Activated: choose an opponent; he must discard 1 of his
    tiles, his choice); Ability Symbols: "Choose an opponent; he must discard 1 monster tile"."""
    s = fresh()
    s["seats"][1]["supply"] = [s["sides"][1]["bag"].pop() for _ in range(4)]
    put(s, 0, "R02", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    assert ENGINE.prompts(s).keys() == {1} and kinds(s) == "opp_discard"
    choice = ENGINE.legal_actions(s, 1)[-1]
    s = act(s, 1, choice)
    assert choice["tile"] in s["sides"][1]["discard"] and len(s["seats"][1]["supply"]) == 3
    assert ENGINE.prompts(s).keys() == {1}   # the turn goes on normally


def test_red_3_discard_self_then_send():
    """Monster Abilities > Red monsters #3 (Activated: discard this monster, then send 1 monster of
    fear strength 3 or less on an available board to its owner's discard pile); Ability Symbols:
    "Discard this tile"."""
    s = fresh()
    me = put(s, 0, "R03", 0, "raid-1")
    v = put(s, 1, "R15", 1, "fortress")
    put(s, 1, "R10", 1, "raid-1")   # fear 4: not a target
    s = activate(s, 0, 0, "raid-1")
    assert me in s["sides"][0]["discard"] and slot(s, 0, 0, "raid-1") is None
    opts = ENGINE.legal_actions(s, 0)
    assert {"type": "send", "board": 1, "half": 1, "cell": "raid-1"} not in opts
    s = act(s, 0, {"type": "send", "board": 1, "half": 1, "cell": "fortress"})
    assert v in s["sides"][1]["discard"]


@pytest.mark.parametrize("type_id,limit", [("R04", 2), ("R09", 3)])
def test_red_send_to_discard(type_id, limit):
    """Monster Abilities > Red monsters #4 (fear 2 or less) and #9 (fear 3 or less); Ability
    Symbols: "Choose on any available settlement board 1 monster tile with fear strength X or less
    and place it in its owner's discard pile" (the marker moves back)."""
    s = fresh()
    put(s, 1, "SR2", 1, "raid-1")
    put(s, 1, "R15", 1, "raid-2")
    put(s, 0, type_id, 0, "port-1")
    s = activate(s, 0, 0, "port-1")
    opts = ENGINE.legal_actions(s, 0)
    assert ({"type": "send", "board": 1, "half": 1, "cell": "raid-2"} in opts) == (limit >= 3)
    s = act(s, 0, {"type": "send", "board": 1, "half": 1, "cell": "raid-1"})
    assert marker(s, 1) == -3


def test_red_5_opponent_reveals_three():
    """Monster Abilities > Red monsters #5 (Activated: choose an opponent; he reveals 3 tiles)."""
    s = fresh()
    s["seats"][1]["supply"] = [s["sides"][1]["bag"].pop() for _ in range(5)]
    put(s, 0, "R05", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    for _ in range(3):
        s = act(s, 1, ENGINE.legal_actions(s, 1)[0])
    assert len(s["seats"][1]["shown"]) == 3 and not s["stack"]


def test_red_6_only_raider_counts_three():
    """Monster Abilities > Red monsters #6 and Ability Symbols > Passive: "The fear strength of this
    tile is 3 if it is the only one in the raid cells on your half"."""
    s = fresh()
    put(s, 0, "R06", 0, "raid-1")
    put(s, 1, "SR1", 0, "raid-1")     # the opponent's half does not matter
    assert marker(s, 0) == 3 - 1
    put(s, 0, "SY2", 0, "raid-2")
    assert marker(s, 0) == 1 + 1 - 1


@pytest.mark.parametrize("booster,colour_type", [("R07", "SY2"), ("Y10", "SY2"),
                                                 ("B11", "SB"), ("R11", "SR1")])
def test_colour_boost(booster, colour_type):
    """Monster Abilities > Red monsters #7 (+1 to all yellow monsters in raid cells); Ability
    Symbols > Passive: "+1 to each of your blue monsters in raid cells; applies to this monster too;
    similar for red and yellow"."""
    s = fresh()
    b = put(s, 0, booster, 0, "fortress")
    put(s, 0, colour_type, 0, "raid-1")
    put(s, 1, colour_type, 0, "raid-1")   # the opponent's monsters are not boosted
    fear_b = data.TILES[b]["fear"]
    assert marker(s, 0) == fear_b + 2 - 1
    if data.TILES[b]["colour"] == data.TILES[s["boards"][0]["cells"][0]["raid-1"]["t"]]["colour"]:
        # itself too when it is in a raid cell
        s["boards"][0]["cells"][0]["raid-2"] = s["boards"][0]["cells"][0]["fortress"]
        s["boards"][0]["cells"][0]["fortress"] = None
        assert marker(s, 0) == (fear_b + 1) + 2 - 1


def test_red_8_no_fortress_and_pay_two():
    """Monster Abilities > Red monsters #8 (cannot be placed in the fortress; Spawn: pay 2 gold, if
    you cannot pay the tile cannot be put into play); Ability Symbols > Passive: "This tile cannot
    be placed in the fortress"; Spawn: "Pay 1 gold coin"."""
    s = fresh()
    t = give(s, 0, "R08")
    s["sides"][0]["gold"] = 1
    assert not any(a.get("tile") == t for a in ENGINE.legal_actions(s, 0))
    s["sides"][0]["gold"] = 2
    cells = {a["cell"] for a in ENGINE.legal_actions(s, 0) if a.get("tile") == t}
    assert "fortress" not in cells and "raid-1" in cells
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    assert s["sides"][0]["gold"] == 3   # paid 2, then loot 3


def test_pay_one_gold_spawn():
    """Ability Symbols: "Pay 1 gold coin" (R13; cannot be put into play without the coin)."""
    s = fresh()
    t = give(s, 0, "R13")
    assert not any(a.get("tile") == t for a in ENGINE.legal_actions(s, 0))
    s["sides"][0]["magic"] = 1
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "fortress"})
    assert s["sides"][0]["magic"] == 0


def test_red_10_opponent_draws():
    """Monster Abilities > Red monsters #10 (no fortress; Spawn: choose an opponent; he draws 1 tile
    from his bag behind his screen); Ability Symbols: "Choose an opponent; he must draw 1 tile"."""
    s = fresh()
    s, _ = play(s, 0, "R10", 0, "raid-1")
    assert len(s["seats"][1]["supply"]) == 1 and len(s["sides"][1]["bag"]) == 7
    assert any(e["to"] == [1] and e["text"].startswith("You drew") for e in s["log"])


def test_protect_raid_passive():
    """Ability Symbols > Passive: "Your monsters in raid cells cannot be the target of opponents'
    abilities on the settlement board where this monster is located" (R12)."""
    s = fresh()
    put(s, 1, "R12", 1, "raid-1")
    put(s, 1, "SR1", 1, "raid-2")
    put(s, 1, "SR2", 1, "port-1")
    put(s, 1, "SR1", 0, "raid-1")       # other board: not protected
    put(s, 0, "R09", 0, "fortress")
    s = activate(s, 0, 0, "fortress")
    opts = ENGINE.legal_actions(s, 0)
    assert {"type": "send", "board": 1, "half": 1, "cell": "raid-2"} not in opts
    assert {"type": "send", "board": 1, "half": 1, "cell": "raid-1"} not in opts
    assert {"type": "send", "board": 1, "half": 1, "cell": "port-1"} in opts
    assert {"type": "send", "board": 0, "half": 1, "cell": "raid-1"} in opts


# ----- Yellow monsters -------------------------------------------------------------------------
@pytest.mark.parametrize("type_id,gold", [("Y01", 1), ("Y06", 3), ("Y14", 2)])
def test_yellow_receive_gold(type_id, gold):
    """Monster Abilities > Yellow monsters #1 and #6 (Spawn: receive 1 / 3 gold coins); Ability
    Symbols: "Receive 1 gold coin" (a number is a multiplier)."""
    s = fresh()
    s, _ = play(s, 0, type_id, 0, "fortress")
    assert s["sides"][0]["gold"] == gold


def test_yellow_2_move_this_tile():
    """Monster Abilities > Yellow monsters #2 (Spawn +1 gold; Activated: move this tile to any free
    cell of any available board, except the demon portal); Ability Symbols: "Move this tile"; Port:
    the port effect applies to a moved tile."""
    s = fresh()
    s, t = play(s, 0, "Y02", 0, "raid-1")
    assert s["sides"][0]["gold"] == 1 and marker(s, 0) == 1
    s = activate(s, 0, 0, "raid-1")
    cells = {(a["board"], a["cell"]) for a in ENGINE.legal_actions(s, 0)}
    assert (1, "portal") not in cells and (0, "raid-1") not in cells
    s = act(s, 0, {"type": "move", "board": 1, "half": 0, "cell": "port-1"})
    assert marker(s, 0) == 0 and slot(s, 0, 1, "port-1")["t"] == t
    assert s["sides"][0]["gold"] == 1 + 2


def test_yellow_3_remove_from_game():
    """Monster Abilities > Yellow monsters #3 (Spawn +1 coin; Activated: remove 1 of your tiles,
    behind the screen, in the discard pile or on the board, from the game); Ability Symbols:
    "Choose 1 of your monster tiles ... remove it from the game"."""
    s = fresh()
    a = give(s, 0, "SR1")
    s["sides"][0]["discard"].append(s["sides"][0]["bag"].pop())
    s, me = play(s, 0, "Y03", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    opts = ENGINE.legal_actions(s, 0)
    assert {"type": "remove", "tile": a} in opts and {"type": "remove", "tile": me} in opts
    assert {"type": "remove", "tile": s["sides"][0]["discard"][0]} in opts
    assert {"type": "skip"} not in opts
    s = act(s, 0, {"type": "remove", "tile": a})
    assert a in s["box"] and a not in s["seats"][0]["supply"]


def test_yellow_4_move_two_tiles():
    """Monster Abilities > Yellow monsters #4 (Activated: in turn, move 2 of your monster tiles;
    only blue monsters may be moved to the demon portal); Ability Symbols: "Move 1 of your monster
    tiles to any free cell"."""
    s = fresh()
    put(s, 0, "Y04", 0, "port-1")
    b = put(s, 0, "SB", 0, "raid-1")
    r = put(s, 0, "SR1", 0, "raid-2")
    s = activate(s, 0, 0, "port-1")
    s = act(s, 0, {"type": "pick", "board": 0, "half": 0, "cell": "raid-1"})
    assert {"type": "move", "board": 1, "half": 0, "cell": "portal"} in ENGINE.legal_actions(s, 0)
    s = act(s, 0, {"type": "move", "board": 1, "half": 0, "cell": "portal"})
    s = act(s, 0, {"type": "pick", "board": 0, "half": 0, "cell": "raid-2"})
    assert {"type": "move", "board": 0, "half": 0, "cell": "portal"} not in ENGINE.legal_actions(s, 0)
    s = act(s, 0, {"type": "move", "board": 1, "half": 0, "cell": "raid-3"})
    assert slot(s, 0, 1, "portal")["t"] == b and slot(s, 0, 1, "raid-3")["t"] == r
    assert s["demons"] == [True, True, True]           # no summon when moved (Demon Portal)
    assert s["boards"][1]["loot"]                      # no loot when moved (README)
    assert marker(s, 0) == 0 and marker(s, 1) == 1


def test_yellow_5_gain_two_move_one():
    """Monster Abilities > Yellow monsters #5 (Spawn: 2 gold; Activated: move 1 of your tiles)."""
    s = fresh()
    s, me = play(s, 0, "Y05", 0, "port-1")
    assert s["sides"][0]["gold"] == 2 + 2
    s = activate(s, 0, 0, "port-1")
    s = act(s, 0, {"type": "pick", "board": 0, "half": 0, "cell": "port-1"})
    s = act(s, 0, {"type": "move", "board": 0, "half": 0, "cell": "raid-2"})
    assert marker(s, 0) == 1 and not s["stack"]


def test_yellow_7_free_keep_two_and_gain_two():
    """Monster Abilities > Yellow monsters #7 (Passive: keep up to 2 monsters in the fortress for
    free; Spawn: 2 coins); Ability Symbols > Passive: "leave up to 2 ... for free"."""
    s = fresh()
    s, _ = play(s, 0, "Y07", 0, "raid-1")
    assert s["sides"][0]["gold"] == 2
    put(s, 0, "R15", 0, "fortress")
    put(s, 0, "SR2", 1, "fortress")
    s["sides"][0]["gold"] = 0
    s = act(s, 1, {"type": "pass"})
    s = act(s, 0, {"type": "pass"})
    assert {"type": "keep", "board": 0, "pay": False} in ENGINE.legal_actions(s, 0)
    s = act(s, 0, {"type": "keep", "board": 0, "pay": False})
    s = act(s, 0, {"type": "keep", "board": 1, "pay": False})
    assert slot(s, 0, 0, "fortress") and slot(s, 0, 1, "fortress")
    assert marker(s, 0) == 3 and marker(s, 1) == 2


def test_yellow_9_free_keep_one():
    """Monster Abilities > Yellow monsters #9 and Ability Symbols > Passive: "leave 1 of your
    monster tiles in the fortress for free"."""
    s = fresh()
    put(s, 0, "Y09", 0, "port-1")
    put(s, 0, "R15", 0, "fortress")
    put(s, 0, "SR2", 1, "fortress")
    s = act(s, 0, {"type": "pass"})
    s = act(s, 1, {"type": "pass"})
    s = act(s, 0, {"type": "keep", "board": 0, "pay": False})
    assert s["round"] == 2       # the second cannot be kept (no gold): discarded
    assert slot(s, 0, 0, "fortress") and slot(s, 0, 1, "fortress") is None


def test_yellow_8_remove_from_game_itself():
    """Monster Abilities > Yellow monsters #8 (Activated: remove 1 of your tiles from the game, the
    monster itself included)."""
    s = fresh()
    me = put(s, 0, "Y08", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    s = act(s, 0, {"type": "remove", "tile": me})
    assert me in s["box"] and marker(s, 0) == 0


# ----- Ability symbols only on provisional tiles -----------------------------------------------
def test_symbol_discard_from_supply_spawn():
    """Ability Symbols: "Discard 1 monster tile from your supply" (R14: not playable from an
    otherwise empty supply)."""
    s = fresh()
    t = give(s, 0, "R14")
    assert not any(a.get("tile") == t for a in ENGINE.legal_actions(s, 0))
    o = give(s, 0, "SY2")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    s = act(s, 0, {"type": "discard", "tile": o})
    assert o in s["sides"][0]["discard"]


def test_symbol_draw_then_discard():
    """Ability Symbols: "Draw 1 monster tile ..., then discard any 1 of your tiles from your supply"
    (B14 spawn)."""
    s = fresh()
    s, _ = play(s, 0, "B14", 0, "raid-1")
    assert kinds(s) == "discard_supply" and len(s["seats"][0]["supply"]) == 1
    s = act(s, 0, ENGINE.legal_actions(s, 0)[0])
    assert s["seats"][0]["supply"] == []


def test_symbol_return_one_to_bag_spawn():
    """Ability Symbols: "Return 1 monster tile from your discard pile to your bag" (Y13 spawn)."""
    s = fresh()
    d = s["sides"][0]["bag"].pop()
    s["sides"][0]["discard"].append(d)
    s, _ = play(s, 0, "Y13", 0, "raid-1")
    s = act(s, 0, {"type": "return", "tile": d})
    assert d in s["sides"][0]["bag"]


def test_symbol_hire_to_bag():
    """Ability Symbols: "Hire 1 monster from the applicant queue, paying its hire cost. Put the tile
    into your bag" (Y11; the surcharge applies; optional)."""
    s = fresh()
    h = queue_put(s, 3, "R15")
    put(s, 0, "Y11", 0, "raid-1")
    s["sides"][0]["gold"] = 3
    s = activate(s, 0, 0, "raid-1")
    assert {"type": "skip"} in ENGINE.legal_actions(s, 0)
    s = act(s, 0, {"type": "hire", "slot": 3})
    assert h in s["sides"][0]["bag"] and s["sides"][0]["gold"] == 0


def test_symbol_hire_to_screen():
    """Ability Symbols: "Hire 1 monster ... Put the tile behind your screen (not into your bag)":
    usable this round; every player saw which tile it is."""
    s = fresh()
    h = queue_put(s, 4, "Y06")
    put(s, 0, "Y12", 0, "raid-1")
    s["sides"][0]["gold"] = 3
    s = activate(s, 0, 0, "raid-1")
    s = act(s, 0, {"type": "hire", "slot": 4})
    assert h in s["seats"][0]["supply"]
    assert ENGINE.view(s, 1)["game"]["screens"][0]["shown"] == [{"id": h, "type": "Y06"}]
    turn(s, 0)
    assert any(a.get("tile") == h for a in ENGINE.legal_actions(s, 0))


def test_symbol_apply_queue_ability():
    """Ability Symbols: "Apply, at your choice, the activated ability of 1 of the monsters in the
    applicant queue" (B13; the queue monster stays in the queue)."""
    s = fresh()
    for k in range(5):
        queue_put(s, k, "SY2")
    q = queue_put(s, 2, "B08")
    put(s, 0, "B13", 0, "raid-1")
    s = activate(s, 0, 0, "raid-1")
    assert ENGINE.legal_actions(s, 0) == [{"type": "use", "slot": 2}, {"type": "skip"}]
    s = act(s, 0, {"type": "use", "slot": 2})
    assert len(s["seats"][0]["supply"]) == 1 and s["queue"][2] == q


# ----- Demon abilities -------------------------------------------------------------------------
def summon(s, type_id, demon, gold=0):
    s["sides"][0]["gold"] = gold
    s, _ = play(s, 0, type_id, 0, "portal")
    return act(s, 0, {"type": "summon", "demon": demon})


def test_demon_1_levels():
    """Demon Abilities #1: send 1 monster of fear strength 1 or 2 to its owner's discard; pay 2
    gold if the summoning strength is 1 (the same tile at every level: rules version 2,
    test_fidelity.py)."""
    s = fresh()
    put(s, 1, "SR2", 0, "raid-1")
    put(s, 1, "SR1", 0, "raid-2")
    s1 = summon(fresh(), "B01", 0)        # strength 2: level 1 without paying
    assert s1["demons"][0] is False
    s3 = summon(s, "B03", 0)              # strength 3: level 2
    opts = ENGINE.legal_actions(s3, 0)
    assert {"type": "send", "board": 0, "half": 1, "cell": "raid-1"} in opts
    s = fresh()
    put(s, 1, "SR2", 0, "raid-1")
    put(s, 1, "SR1", 0, "raid-2")
    s["sides"][0]["gold"] = 0
    s, _ = play(s, 0, "B07", 0, "portal")
    s = act(s, 0, {"type": "flip_demon", "demon": 1})
    s = act(s, 0, {"type": "summon", "demon": 0})      # strength 4: level 3
    s = act(s, 0, {"type": "send", "board": 0, "half": 1, "cell": "raid-1"})
    assert not s["stack"]                                # one tile, as at every level
    assert marker(s, 0) == -1 and len(s["sides"][1]["discard"]) == 1


@pytest.mark.parametrize("type_id,n", [("SB", 1), ("B03", 2), ("B10", 3)])
def test_demon_2_remove_up_to_n(type_id, n):
    """Demon Abilities #2: depending on the strength, choose 1, 2 or 3 of your monster tiles
    (screen, discard pile and/or board) and remove them from the game."""
    s = fresh()
    s["seats"][0]["supply"] = [s["sides"][0]["bag"].pop() for _ in range(4)]
    s = summon(s, type_id, 1)
    removed = 0
    while kinds(s) == "remove":
        a = [x for x in ENGINE.legal_actions(s, 0) if x["type"] == "remove"][0]
        s = act(s, 0, a)
        removed += 1
    assert removed == n and len(s["box"]) == n


@pytest.mark.parametrize("type_id,n", [("SB", 1), ("B03", 2), ("B10", 3)])
def test_demon_3_draw_then_discard_n(type_id, n):
    """Demon Abilities #3: depending on the strength, draw 1, 2 or 3 tiles from your bag behind
    your screen, then discard the same number from your supply."""
    s = fresh()
    s = summon(s, type_id, 2)
    assert len(s["seats"][0]["supply"]) == n
    for _ in range(n):
        s = act(s, 0, ENGINE.legal_actions(s, 0)[0])
    assert s["seats"][0]["supply"] == [] and not s["stack"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_net_fear_is_the_sum_of_each_tiles_fear(players):
    """The fear track's balance (``net_fear``, one pass per half, as the search bots evaluate
    it) is exactly half 0's minus half 1's fear of their raid and fortress cells, each tile's
    counted by ``fear_of`` (printed fear, solo raider, boosts: the Passive abilities) — over
    every position of seeded random matches."""
    from engines.base import Rng
    from engines.evil_corp.state import fear_of, kind, net_fear
    checked = 0
    for seed in range(3):
        state, rng = ENGINE.setup(players, {}, seed), Rng(seed)
        while ENGINE.result(state) is None:
            for b, bd in enumerate(state["boards"]):
                want = sum(sign * fear_of(state, b, h, c)
                           for h, sign in ((0, 1), (1, -1))
                           for c, s in bd["cells"][h].items()
                           if s and kind(c) in ("raid", "fortress"))
                assert net_fear(state, b) == want
                checked += 1
            seat = min(s for s in ENGINE.prompts(state) if ENGINE.legal_actions(state, s))
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    assert checked > 100
