"""A. Day Phase: turns, Put a Monster into Play (Raid, Demon Portal, Fortress, Port), Activate,
Hire, Pass; the rulebook's examples of Marina and Dima."""
from engines.evil_corp import ENGINE
from engines.evil_corp.state import marker

from .helpers import act, fresh, give, kinds, put, queue_put, slot, turn


def test_raid_example_marina():
    """Raid > Example (Marina): a red monster of fear strength 1 in a raid cell moves the marker
    1 step toward the opponent; she is first with a red monster there: loot of 1 coin, loot token
    removed."""
    s = fresh()
    t = give(s, 0, "SR1")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    assert marker(s, 0) == 1
    assert s["sides"][0]["gold"] == 1
    assert s["boards"][0]["loot"] is False
    # a second red raider on that board gets no loot this round
    turn(s, 0)
    t2 = give(s, 0, "SR1")
    s = act(s, 0, {"type": "play", "tile": t2, "board": 0, "cell": "raid-2"})
    assert s["sides"][0]["gold"] == 1 and marker(s, 0) == 2


def test_raid_loot_uses_printed_fear_and_opponent_pushes_back():
    """Raid > Loot: printed fear strength in gold (no modifiers); the opponent's raid moves the
    marker back toward the middle."""
    s = fresh()
    put(s, 0, "R07", 0, "raid-2")   # +1 to yellow only: the red loot is unmodified
    t = give(s, 1, "R15")
    turn(s, 1)
    s = act(s, 1, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    assert s["sides"][1]["gold"] == 3
    assert marker(s, 0) == 2 - 3


def test_raid_power_stone():
    """Raid > Power stone: the first blue monster in a raid cell of a board takes its stone."""
    s = fresh()
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 1, "cell": "raid-3"})
    assert s["boards"][1]["stone"] == 0
    turn(s, 1)
    t = give(s, 1, "SB")
    s = act(s, 1, {"type": "play", "tile": t, "board": 1, "cell": "raid-1"})
    assert s["boards"][1]["stone"] == 0  # once a round


def test_put_into_play_only_free_cells_of_own_half():
    """Put a Monster into Play: not a cell that holds a monster, not the opponent's half."""
    s = fresh()
    put(s, 0, "SY2", 0, "raid-1")
    t = give(s, 0, "SR1")
    acts = ENGINE.legal_actions(s, 0)
    plays = [a for a in acts if a["type"] == "play" and a["tile"] == t]
    assert {"type": "play", "tile": t, "board": 0, "cell": "raid-1"} not in plays
    assert len(plays) == 2 * 6 - 1 - 2   # 2 boards x 6 cells, minus occupied, minus 2 portals
    assert all(a["cell"] != "portal" for a in plays)


def test_demon_portal_example_marina():
    """Demon Portal > Summoning a Demon > Example (Marina): blue fear 1, no passive, summoning
    strength 1: the weak ability of the left demon, paying 2 gold; the demon turns inactive; no
    fear moves."""
    s = fresh()
    s["sides"][0]["gold"] = 2
    victim = put(s, 1, "SR1", 0, "raid-1")
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "portal"})
    assert marker(s, 0) == -1  # only the opponent's raider counts
    assert kinds(s) == "summon" and s["stack"][-1]["ss"] == 1
    s = act(s, 0, {"type": "summon", "demon": 0})
    assert s["sides"][0]["gold"] == 0
    assert s["demons"] == [False, True, True]
    assert kinds(s) == "send"
    s = act(s, 0, {"type": "send", "board": 0, "half": 1, "cell": "raid-1"})
    assert victim in s["sides"][1]["discard"] and marker(s, 0) == 0


def test_demon_portal_summon_optional_and_unaffordable():
    """Demon Portal: 'you may summon'; an inactive demon cannot be summoned; D1 at strength 1 needs
    2 gold."""
    s = fresh()
    s["demons"] = [True, False, True]
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "portal"})
    opts = ENGINE.legal_actions(s, 0)
    assert {"type": "summon", "demon": 0} not in opts  # no gold
    assert {"type": "summon", "demon": 1} not in opts  # inactive
    assert {"type": "summon", "demon": 2} in opts and {"type": "skip"} in opts
    s = act(s, 0, {"type": "skip"})
    assert s["demons"] == [True, False, True] and not s["stack"]


def test_summoning_strength_adds_passive():
    """Summoning a Demon: summoning strength = fear strength + passive bonus (B07: 2 + 2 = 4,
    level 3)."""
    s = fresh()
    t = give(s, 0, "B07")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "portal"})
    assert kinds(s) == "flip_demon"       # spawn first
    s = act(s, 0, {"type": "flip_demon", "demon": 0})
    assert s["demons"][0] is False
    assert kinds(s) == "summon" and s["stack"][-1]["ss"] == 4
    assert ENGINE.view(s, 0)["game"]["pending"]["level"] == 3


def test_fortress_fear_no_loot_no_stone():
    """Fortress: fear moves like a raid; no loot or power stone; some monsters cannot go there."""
    s = fresh()
    t = give(s, 0, "R15")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "fortress"})
    assert marker(s, 0) == 3 and s["boards"][0]["loot"] and s["sides"][0]["gold"] == 0
    turn(s, 0)
    t = give(s, 0, "R10")  # "This tile cannot be placed in the fortress"
    assert all(a.get("cell") != "fortress" for a in ENGINE.legal_actions(s, 0)
               if a.get("tile") == t)


def test_port_example_dima():
    """Port > Example (Dima): a yellow monster with 'receive 1 coin' spawn in the port: 1 coin, then
    the 2 coins of the yellow cargo cell; the yellow cargo is empty for the round; no fear."""
    s = fresh()
    t = give(s, 0, "SY1")
    s = act(s, 0, {"type": "play", "tile": t, "board": 1, "cell": "port-1"})
    assert s["sides"][0]["gold"] == 3
    assert s["boards"][1]["cargo"] == {"yellow": 0, "redblue": 2}
    assert marker(s, 1) == 0
    assert "receives 1 gold" in " ".join(e["text"] for e in s["log"][:3])


def test_port_red_blue_cargo():
    """Port: a red or blue monster takes the red/blue cargo cell."""
    s = fresh()
    t = give(s, 0, "SB")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "port-1"})
    assert s["sides"][0]["gold"] == 2 and s["boards"][0]["cargo"]["redblue"] == 0


def test_activate_flips_keeps_fear_loses_passive():
    """2. Activate a Monster: apply, turn inactive; the inactive side keeps fear strength in raid
    cells but loses passives (the marker moves accordingly)."""
    s = fresh()
    put(s, 0, "Y10", 0, "raid-1")  # +1 to yellow raiders, itself included
    put(s, 0, "Y08", 0, "raid-2")
    assert marker(s, 0) == 3 + 3
    # Y10 has no activated ability: not activatable
    acts = ENGINE.legal_actions(s, 0)
    assert {"type": "activate", "board": 0, "cell": "raid-1"} not in acts
    s = act(s, 0, {"type": "activate", "board": 0, "cell": "raid-2"})
    assert slot(s, 0, 0, "raid-2")["up"] is False
    assert kinds(s) == "remove"  # Y08: remove 1 of your monster tiles
    s = act(s, 0, {"type": "remove", "tile": slot(s, 0, 0, "raid-2")["t"]})
    assert marker(s, 0) == 3       # Y08 left the board: the marker moves back
    # flipping Y10 (inactive) would drop its bonus: check via an opponent's flip
    turn(s, 1)
    s["stack"] = []
    t = give(s, 1, "B02")
    s = act(s, 1, {"type": "play", "tile": t, "board": 1, "cell": "port-1"})
    s = act(s, 1, {"type": "flip", "board": 0, "half": 0, "cell": "raid-1"})
    assert marker(s, 0) == 2      # Y10 inactive: back to its printed 2


def test_hire_example_dima():
    """3. Hire a Monster > Example (Dima): a red monster of cost 2 from a cell without raise: pay 2,
    tile into the bag, tiles above shift down, a new tile in the top cell."""
    s = fresh()
    s["sides"][0]["gold"] = 2
    r = queue_put(s, 2, "R01")
    above = s["queue"][:2]
    bag = len(s["corp_bag"])
    s = act(s, 0, {"type": "hire", "slot": 2})
    assert s["sides"][0]["gold"] == 0
    assert r in s["sides"][0]["bag"]
    assert s["queue"][1:3] == above
    assert s["queue"][0] is not None and len(s["corp_bag"]) == bag - 1


def test_hire_raise_to_the_salary():
    """3. Hire a Monster: add 1 or 2 gold in the upper cells (provisional +2, +1)."""
    s = fresh()
    queue_put(s, 0, "R01")
    queue_put(s, 1, "R13")
    s["sides"][0]["gold"] = 3
    acts = ENGINE.legal_actions(s, 0)
    assert {"type": "hire", "slot": 0} not in acts     # 2 + 2
    assert {"type": "hire", "slot": 1} in acts         # 2 + 1
    s["sides"][0]["magic"] = 1                         # magic coins spend like gold
    assert {"type": "hire", "slot": 0} in ENGINE.legal_actions(s, 0)
    s = act(s, 0, {"type": "hire", "slot": 0})
    assert s["sides"][0]["gold"] == 0 and s["sides"][0]["magic"] == 0


def test_turns_two_players_alternate_and_pass():
    """Day Phase / 4. Pass: one action per turn; a passed player acts no more; the others go on;
    when all have passed the night begins."""
    s = fresh()
    s = act(s, 0, {"type": "pass"})
    assert ENGINE.prompts(s).keys() == {1}
    t = give(s, 1, "SY2")
    s = act(s, 1, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    assert ENGINE.prompts(s).keys() == {1}   # seat 0 has passed
    assert ENGINE.legal_actions(s, 0) == []
    r0 = s["round"]
    s = act(s, 1, {"type": "pass"})
    assert s["round"] == r0 + 1 and s["phase"] == "day"


def test_turns_three_players_clockwise():
    """Day Phase: in a 3-player game players act one at a time, clockwise."""
    s = fresh(3)
    order = []
    for _ in range(3):
        (seat,) = ENGINE.prompts(s)
        order.append(seat)
        t = give(s, seat, "SY2")
        s = act(s, seat, {"type": "play", "tile": t, "board": [b for b in range(3)
                          if seat in s["boards"][b]["halves"]][0], "cell": "raid-1"})
    assert order == [0, 1, 2]


def test_turns_four_players_team_order():
    """Day Phase (4 players): each member of a team performs one action, in any order, then the
    other team; a passed partner does not stop the other."""
    s = fresh(4)
    assert ENGINE.prompts(s).keys() == {0, 2}
    s = act(s, 2, {"type": "pass"})
    assert ENGINE.prompts(s).keys() == {0}
    t = give(s, 0, "SY2")
    s = act(s, 0, {"type": "play", "tile": t, "board": 1, "cell": "raid-1"})
    assert ENGINE.prompts(s).keys() == {1, 3}
    s = act(s, 3, {"type": "pass"})
    s = act(s, 1, {"type": "pass"})
    assert ENGINE.prompts(s).keys() == {0}           # seat 2 passed, seat 0 goes on alone
    s = act(s, 0, {"type": "pass"})
    assert s["round"] == 2


def test_four_players_partner_activates_team_monster():
    """Clarifications > About the 4-Player Game: the partner may activate a monster his partner put
    on the team's half of the central board, and spend the gold his partner received."""
    s = fresh(4)
    t = give(s, 0, "Y05")
    s = act(s, 0, {"type": "play", "tile": t, "board": 1, "cell": "raid-1"})
    assert s["sides"][0]["gold"] == 2
    assert {"type": "activate", "board": 1, "cell": "raid-1"} in ENGINE.legal_actions(s, 2)
    queue_put(s, 3, "Y01")
    assert {"type": "hire", "slot": 3} in ENGINE.legal_actions(s, 2)


def test_refill_supply_reshuffles_discard():
    """3. Refresh the Player's Supply > Draw new monsters: draw 5; if the bag runs short, draw what
    is there, then put the discard pile into the bag and draw the rest."""
    s = fresh()
    sd = s["sides"][0]
    sd["discard"], sd["bag"] = sd["bag"][2:], sd["bag"][:2]
    first = list(sd["bag"])
    s = act(s, 0, {"type": "pass"})
    s = act(s, 1, {"type": "pass"})
    sup = s["seats"][0]["supply"]
    assert len(sup) == 5 and set(first) <= set(sup)
    assert len(s["sides"][0]["bag"]) == 3 and s["sides"][0]["discard"] == []
