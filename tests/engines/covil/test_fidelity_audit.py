"""Issue 15 audit: rules that were right but had no dedicated test (rules version 2). Each test
names its rulebook section and quotes it."""
from __future__ import annotations

from engines.covil import phases

from .helpers import act, legal, placed, set_hall, set_hand, set_troops, take_card
from .test_combat import pos
from .test_solo import RED, _solo


def test_the_dummy_buys_a_relic_on_every_morning_not_only_the_first():
    """Evil Prevails > Dummy Player A.I. > "Morning phase: Buy Relics. On each morning phase, if
    possible, the dummy player will spend 3 gold to buy one Power Relic. Keep it facedown next
    to its dummy player mat for final scoring." The morning of day 2 buys one too; with less
    than 3 gold ("if possible") it buys none."""
    s = _solo()
    s["phase"], s["day"], s["cur"] = "morning", 2, None
    hand = len(s["own"][RED]["hand"])
    s["own"][RED]["gold"] = 3
    phases._step_morning(s)
    assert s["phase"] == "afternoon"
    assert len(s["own"][RED]["hand"]) == hand + 1 and s["own"][RED]["gold"] == 0
    assert s["own"][RED]["active"] == []                    # kept face down, never activated

    s["phase"], s["day"] = "morning", 3
    s["own"][RED]["gold"] = 2
    phases._step_morning(s)
    assert len(s["own"][RED]["hand"]) == hand + 1 and s["own"][RED]["gold"] == 2


def test_a_standing_loser_in_its_fortress_zone_lies_down_retreats_and_damages_the_fortress():
    """The Outcome B: "The defender loses (defender troop was standing up) ... The defender
    lies down their troop and also retreats the troop by moving it into any adjacent zone";
    "Also check if the target troop was in the same zone as its player's fortress. In that
    case, first resolve the outcome and then proceed to the "Fortress gets damaged" section";
    The fortress gets damaged: "deal the remaining damage to the fortress itself". The
    retreat goes to an adjacent zone, the troop lying down, and the fortress loses hit points."""
    s = pos([("K", True)], [("K", True)], hall1=("O2", "S5"))
    s["own"][0]["gold"] = 0
    hp = s["own"][1]["hp"]
    s = act(s, 0, {"type": "attack", "from": "K", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "K", "up": True})
    from engines.covil import ENGINE
    while any(f["kind"] == "combat" for f in s["stack"]):
        s = act(s, next(iter(ENGINE.prompts(s))), {"type": "done"})
    assert ENGINE.prompts(s)[1]["kind"] == "retreat"
    retreat = [a for a in ENGINE.legal_actions(s, 1) if a["type"] == "retreat"]
    assert retreat and all(a.get("to") != "K" for a in retreat)
    s = act(s, 1, retreat[0])
    troop = s["own"][1]["troops"][0]
    assert troop["z"] != "K" and troop["up"] is False
    assert s["own"][1]["hp"] < hp


def test_several_returned_minions_give_their_printed_costs_minus_the_influenced_price():
    """2.1 Acquire a Minion: "If the Minion that you replaced at the pool in order to buy a new
    one is worth more gold than the one that you are acquiring, you may get the difference as
    gold back"; "paying its cost with any combination of ... placing one or more unexhausted
    Minions from your player mat back to the pool"; "Influence effects always apply before the resolution of hiring a Minion"
    (issue 15 item 2, README 2). The Warrior discount (W5, -2) makes an 8-gold Warrior cost 6;
    two returned Minions printed 4 + 4 give 8 - 6 = 2 gold back; once the price is covered no
    further Minion or relic may be added."""
    s = placed(2)
    set_hall(s, 0, ["O1", "W5", "G3", "W3", "H1.0"])
    take_card(s, "W7")
    s["pool"].append("W7")
    s["own"][0]["gold"] = 0
    s = act(s, 0, {"type": "acquire", "card": "W7"})
    s = act(s, 0, {"type": "pay_minion", "slot": 2})        # G3, printed 4: not covered yet
    s = act(s, 0, {"type": "pay_minion", "slot": 3})        # W3, printed 4: covered
    assert {a["type"] for a in legal(s, 0)} == {"confirm", "cancel"}
    s = act(s, 0, {"type": "confirm"})
    assert s["own"][0]["gold"] == 2
    assert [m["id"] for m in s["own"][0]["hall"]] == ["O1", "W5", "H1.0", "W7"]
    assert s["log"][-1]["text"].endswith("and gets 2 gold back.")
    assert {"G3", "W3"} <= set(s["pool"])


def test_rebels_retaliate_when_a_relic_brought_the_fifth_and_nobody_raided():
    """3.4 Raid the town: "If there are 5 Rebel meeples at the town the Rebels will
    Retaliate!" counts the Rebels in town, whoever brought them. Four Rebels; in the afternoon
    the Rabble Bell's Instant Ability (P24, add a Rebel) brings the fifth; at night no troop is
    in town (no Rebel joins by the raid), and still every living fortress is attacked."""
    from engines.covil import core

    s = placed(2)
    assert not any(t["z"] in core.town_zones(s) for p in s["own"] for t in p["troops"])
    set_hand(s, 0, ["P24"])
    s["rebels"] = 4
    s = act(s, 0, {"type": "activate", "relic": "P24"})
    s = act(s, 0, {"type": "effect", "rebel": 1})
    assert s["rebels"] == 5 and s["log"][-1]["text"] == "Player 1 adds a Rebel (5 in town)."
    s["phase"], s["nstep"] = "night", phases.NIGHT_STEPS.index("raid")
    phases._step_night(s)
    assert s["riot"] and s["log"][-1]["text"] == "The Rebels Retaliate!"
    first = s["first"]
    assert s["queue"] == [{"o": first, "t": "fort"}, {"o": 1 - first, "t": "fort"}]


def test_a_relic_activated_against_the_rebels_lasts_the_rest_of_the_retaliation():
    """Rebels Retaliate: "players may defend themselves as usual"; a Troop Bonus lasts "until
    the night phase is started" and 3.1 "No Power Relic stays in play to the next day" (issue
    15 item 3, README "Relics at night"): Hangman's Noose (P21, +1 defense) activated against
    the first of two Rebel attacks on Player 1's troops in town defends the second too
    (defence 1 + 1 both times), and is discarded before the next day."""
    from engines.covil import ENGINE, core

    s = placed(2)
    town = sorted(core.town_zones(s))[0]
    set_troops(s, 0, [(town, True), (town, True)])
    set_hand(s, 0, ["P21"])
    s["stack"], s["phase"], s["nstep"] = [], "night", phases.NIGHT_STEPS.index("retaliate")
    s["queue"], s["riot"], s["rebels"] = [{"o": 0, "t": "troop"}] * 2, True, 5
    ENGINE._run_automatic(s)
    assert ENGINE.prompts(s)[0]["kind"] == "combat"
    s = act(s, 0, {"type": "activate", "relic": "P21"})
    combats = 0
    while s["phase"] == "night":
        kind = ENGINE.prompts(s)[0]["kind"]
        if kind == "combat":
            assert s["own"][0]["active"] == ["P21"]
            combats += 1
            s = act(s, 0, {"type": "done"})
        else:
            s = act(s, 0, next(a for a in legal(s, 0) if a["type"] == "retreat"))
    assert combats == 2
    lines = [e["text"] for e in s["log"] if e["text"].startswith(f"Combat in {town}")]
    assert lines[-2:] == [f"Combat in {town}: attack 3 against defence 2."] * 2
    assert s["day"] == 2 and s["own"][0]["active"] == [] and "P21" in s["rdiscard"]


def test_a_player_with_no_standing_troop_acquires_once_and_may_move_a_lying_troop():
    """Phase 2: Afternoon: "During a player's afternoon turn you may execute these following
    actions once, in any order: 2.1) Acquire a Minion 2.2) Perform any amount of free actions
    2.3) Lie down a troop"; 2.3: "An already lying down troop may only perform free actions"
    (issue 15 item 1). Player 2, all lying, acquires one Minion (then no more),
    uses the Squire's Command to move its lying troop (it stays lying), and ends the turn."""
    from engines.covil import ENGINE

    s = placed(2)
    set_troops(s, 1, [("K", False)])
    set_hall(s, 1, ["O5", "W6", "H2.1"])                    # H2: Squire, move a troop
    s = act(s, 0, {"type": "move", "from": "H", "to": "C"})
    s = act(s, 0, {"type": "end_turn"})
    s = act(s, 1, {"type": "acquire", "card": "W7"})
    s = act(s, 1, {"type": "pay_minion", "slot": 1})        # W6 returned
    s = act(s, 1, {"type": "confirm"})
    kinds = {a["type"] for a in legal(s, 1)}
    assert "acquire" not in kinds and {"command", "end_turn"} <= kinds
    s = act(s, 1, {"type": "command", "slot": 1})
    s = act(s, 1, {"type": "effect", "from": "K", "up": False, "to": "F"})
    assert s["own"][1]["troops"] == [{"z": "F", "up": False}]
    s = act(s, 1, {"type": "end_turn"})
    assert ENGINE.prompts(s).keys() == {0}


def test_the_afternoon_prompt_names_only_the_steps_still_open():
    """Phase 2: Afternoon: "During a player's afternoon turn you may execute these following
    actions once, in any order: 2.1) Acquire a Minion 2.2) Perform any amount of free actions
    2.3) Lie down a troop to perform one troop action". The prompt lists what is left: a
    Minion acquired or a troop laid down drops out, and the turn may then end (the table
    review: it kept "acquire a Minion, free actions, lie down one troop" after both)."""
    from engines.covil import ENGINE

    s = placed(2)
    text = ENGINE.prompts(s)[0]["text"]
    assert text == "Your afternoon turn: acquire a Minion, free actions, lie down one troop"
    s = act(s, 0, {"type": "move", "from": "H", "to": "C"})  # a troop laid down (2.3)
    assert ENGINE.prompts(s)[0]["text"] == \
        "Your afternoon turn: acquire a Minion, free actions, or end your turn"
    pay = next(a for a in legal(s, 0) if a["type"] == "acquire")
    s = act(s, 0, pay)
    while "confirm" not in {a["type"] for a in legal(s, 0)}:
        s = act(s, 0, next(a for a in legal(s, 0) if a["type"] in ("pay_minion", "pay_relic")))
    s = act(s, 0, {"type": "confirm"})
    assert ENGINE.prompts(s)[0]["text"] == "Your afternoon turn: free actions, or end your turn"
