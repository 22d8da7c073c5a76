"""Rules fidelity, issue 15 items 2, 4 and 5 (rules version 2; README "Rule interpretations"
quotes both sides where the text allows two readings)."""
from __future__ import annotations

from engines.covil import ENGINE

from .helpers import act, legal, placed, set_hall, set_hand, set_troops, take_card, types


def _pool(s, *cids):
    for c in cids:
        take_card(s, c)
        s["pool"].append(c)


# ----- item 2: change only for a returned Minion -------------------------------------------------
def test_a_relic_worth_more_than_the_price_gives_no_change():
    """2.1 Acquire a Minion: "If the Minion that you replaced at the pool in order to buy a new
    one is worth more gold than the one that you are acquiring, you may get the difference as
    gold back". Change comes from a returned Minion, not from a Power Relic: a 3-gold relic
    spent on a 2-gold Minion returns nothing (version 1 returned 1 gold, turning relics into
    gold)."""
    s = placed(2)
    set_hall(s, 0, ["O1", "H1.0"])
    _pool(s, "G1")                                          # 2 gold
    set_hand(s, 0, ["P05"])                                 # worth 3
    s["own"][0]["gold"] = 0
    s = act(s, 0, {"type": "acquire", "card": "G1"})
    s = act(s, 0, {"type": "pay_relic", "relic": "P05"})
    s = act(s, 0, {"type": "confirm"})
    assert s["own"][0]["gold"] == 0 and s["own"][0]["hall"][-1]["id"] == "G1"
    assert "gets" not in s["log"][-1]["text"]


def test_a_returned_minion_still_gives_change_up_to_the_cap():
    """2.1 (as above): a returned Berserker (6) for a 2-gold Minion gives 4 back; "You may never
    have more than 5 gold in your Treasury": what is above the cap is lost."""
    s = placed(2)
    set_hall(s, 0, ["O1", "W6", "H1.0"])
    _pool(s, "G1")
    s["own"][0]["gold"] = 3
    s = act(s, 0, {"type": "acquire", "card": "G1"})
    s = act(s, 0, {"type": "pay_minion", "slot": 1})
    s = act(s, 0, {"type": "confirm"})
    assert s["own"][0]["gold"] == 5 and "gets 4 gold back" in s["log"][-1]["text"]


# ----- item 4: lying down never forces a move ------------------------------------------------------
def test_gain_1_gold_is_offered_at_the_cap_and_the_gold_is_lost():
    """2.3: "You may never have more than 5 gold in your Treasury, so it is highly recommended to
    acquire new Minions…" With 5 gold, full hit points and every Minion ready, a troop may still
    lie down to Gain 1 gold (lost: the log says so) instead of having to move out of its zone
    (version 1 offered only Move). Repair and Rest stay unavailable when they would do nothing."""
    s = placed(2)
    set_hall(s, 0, ["O1", "H1.0"])                          # every Minion ready
    assert s["own"][0]["gold"] == 5
    assert types(s, 0) & {"move", "rest", "repair", "gold"} == {"move", "gold"}
    s = act(s, 0, {"type": "gold", "from": "H"})
    assert s["own"][0]["gold"] == 5
    assert s["log"][-1]["text"].endswith("the Treasury is full, so the gold is lost.")


# ----- item 5: every refusal's reason is true -------------------------------------------------------
def test_no_power_relic_left_is_said_only_when_none_is_left():
    """Power Relics > Buy Power Relics: a refused purchase never claims the deck is empty while
    relics remain in the deck or the discard pile."""
    s = placed(2)
    s["own"][1]["gold"] = 3
    odd = {"type": "buy_relic", "n": 2}                     # not an action the game offers
    assert {"type": "buy_relic"} in legal(s, 1)
    assert "no Power Relic left" not in ENGINE.illegal_reason(s, 1, odd)
    s["rdiscard"], s["rdeck"] = s["rdeck"] + s["rdiscard"], []
    assert "no Power Relic left" not in ENGINE.illegal_reason(s, 1, odd)
    s["rdiscard"] = []
    assert ENGINE.illegal_reason(s, 1, {"type": "buy_relic"}) == \
        "There is no Power Relic left to draw."


# ----- (a): a resolved combat cannot be taken back ---------------------------------------------------
def test_a_move_after_which_a_combat_resolved_cannot_be_taken_back():
    """Undo (docs/design.md "Undo is an action too"; issue 13 item 11): in a solo game, the pass
    after which the dummy's combat resolved could be taken back and the defence played again.
    The outcome is logged as irreversible, so the undo trail refuses."""
    from engines.base import Rng
    from engines.records import UndoTrail

    s, rng = ENGINE.setup(1, {"board": "B", "dummies": 2}, 7), Rng(7)
    for _ in range(3000):
        seat = min(ENGINE.prompts(s))
        new, events = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
        if any(e["text"].startswith("Combat in") for e in events):
            trail = UndoTrail()
            trail.moved(seat, s, events)
            assert not trail.can_undo(seat)
            assert all(e["irreversible"] for e in events if e["text"].startswith("Combat in"))
            return
        s = new
    raise AssertionError("no combat in the playout")


# ----- item 1: a player whose troops all lie down keeps their turns -----------------------------
def test_a_player_with_no_standing_troop_still_takes_turns():
    """2.3: "If you still have troops standing up on the board at your turn, you must lie down
    one of them"; "An already lying down troop may only perform free actions"; the afternoon
    lasts "until all troops are lying down on the board". Player 2, all lying, may still
    acquire a Minion (once) and end the turn while Player 1's troops stand (version 1 skipped
    Player 2 for the rest of the afternoon)."""
    s = placed(2)
    set_troops(s, 1, [("K", False)])
    s = act(s, 0, {"type": "move", "from": "H", "to": "C"})
    s = act(s, 0, {"type": "end_turn"})
    assert ENGINE.prompts(s).keys() == {1}
    kinds = types(s, 1)
    assert "acquire" in kinds and "end_turn" in kinds
    assert not kinds & {"move", "rest", "repair", "gold", "attack"}
    s = act(s, 1, {"type": "end_turn"})
    assert ENGINE.prompts(s).keys() == {0}


# ----- item 3: the night and Power Relics ------------------------------------------------------------
def test_no_power_relic_activated_at_night_stays_active_the_next_day():
    """3.1: "No Power Relic stays in play to the next day ... All players discard their own
    active Power Relics"; a Troop Bonus lasts "until the night phase is started". A relic
    activated against the Rebels (after step 1 discarded the others) is discarded before the
    next day (version 1 kept it active through the next afternoon)."""
    from engines.covil import phases

    s = placed(2)
    s["phase"], s["nstep"] = "night", phases.NIGHT_STEPS.index("rest")
    set_hand(s, 0, [])
    s["own"][0]["active"] = ["P01"]
    phases._step_night(s)
    assert s["own"][0]["active"] == [] and "P01" in s["rdiscard"]


def test_a_relic_activated_at_night_gives_its_bonus_but_no_attack_or_move():
    """Rebels Retaliate: "players may defend themselves as usual": a relic activated in
    defence gives its Troop Bonus; its Instant Ability, when it is an afternoon troop action
    (a free attack, a move), is not used at night."""
    from engines.covil import core, effects

    s = placed(2)
    s["phase"] = "night"
    set_hand(s, 0, ["P05", "P02"])                     # free attack; move
    depth = len(s["stack"])
    effects.activate(s, 0, "P05")
    effects.activate(s, 0, "P02")
    assert len(s["stack"]) == depth and s["own"][0]["active"] == ["P05", "P02"]
    assert core.relic_bonus(s, 0, "melee") == 1 and core.relic_bonus(s, 0, "ranged") == 2


# ----- (b): a defender confirms a response once ---------------------------------------------------
def test_the_defender_is_not_asked_again_after_the_attacker_passes():
    """Raise the stakes: "the attacking player may respond to a defender's response by
    activating one or more Power Relics. Continue raising the stakes until both players pass."
    The defender responds and is done; the attacker passes: the combat resolves (version 1
    asked the defender again with the same prompt; issue 14 item 8)."""
    from .test_combat import pos

    s = pos([("C", True)], [("C", True)])
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    s = act(s, 1, {"type": "defend", "slot": 1})
    s = act(s, 1, {"type": "done"})
    assert ENGINE.prompts(s).keys() == {0}
    s = act(s, 0, {"type": "done"})
    assert not any(f["kind"] == "combat" for f in s["stack"])
    assert any(e["text"].startswith("Combat in C") for e in s["log"][-4:])


# ----- right but untested ------------------------------------------------------------------------
def test_commands_are_refused_out_of_turn():
    """Command: "In your turn, as a free action, you may exhaust it to perform its special
    ability": not in another player's turn."""
    from engines.base import IllegalAction

    s = placed(2)
    set_hall(s, 0, ["O1", "H2.0"])                          # Squire: move a troop
    set_hall(s, 1, ["O5", "H2.1"])
    assert {"type": "command", "slot": 1} in legal(s, 0)   # in turn
    slot = 1
    assert {"type": "command", "slot": slot} not in legal(s, 1)
    try:
        ENGINE.apply(s, 1, {"type": "command", "slot": slot})
    except IllegalAction:
        return
    raise AssertionError("a Command out of turn was accepted")


def test_the_relic_deck_reshuffles_its_discard_pile():
    """Power Relics: "If the Power Relics run out during the game, shuffle back their discard
    pile." Buying with an empty deck draws from the reshuffled discard pile."""
    s = placed(2)
    s["rdiscard"], s["rdeck"] = s["rdeck"] + s["rdiscard"], []
    n = len(s["rdiscard"])
    s["own"][1]["gold"] = 3
    s = act(s, 1, {"type": "buy_relic"})
    assert s["rdiscard"] == [] and len(s["rdeck"]) == n - 1
    assert any("shuffled into a new deck" in e["text"] and e["irreversible"] for e in s["log"])



def test_spectators_read_the_public_wording_of_a_relic_draw():
    """Views: "Player 2 draws 1 Power Relic(s)" is read by the other seats and the spectators,
    the relic's name only by its owner (issue 14 item 11)."""
    s = placed(2)
    s["own"][1]["gold"] = 3
    s = act(s, 1, {"type": "buy_relic"})
    public = [e for e in ENGINE.view(s, None)["log"] if "draws 1 Power Relic" in e["text"]]
    assert public and public[-1]["to"] == [0]
    assert not any(e["text"].startswith("You draw") for e in ENGINE.view(s, None)["log"])


def test_rebels_retaliate_clockwise_on_living_fortresses_whoever_brought_the_fifth():
    """3.4 Raid the town: "If there are 5 Rebel meeples at the town the Rebels will Retaliate!"
    (also when the fifth came from elsewhere than the raid: a relic's Instant Ability);
    Rebels Retaliate: "Proceeding clockwise ... All non destroyed fortresses will receive an
    attack with strength 3": from the Evil Scepter holder, a destroyed fortress skipped."""
    from engines.covil import core, phases

    s = placed(3)
    towns = core.town_zones(s)
    assert not any(t["z"] in towns for p in s["own"] for t in p["troops"])
    s["rebels"], s["first"] = 5, 1
    s["own"][2]["dead"] = True
    phases.raid(s)
    assert s["riot"] and s["queue"] == [{"o": 1, "t": "fort"}, {"o": 0, "t": "fort"}]


def test_combat_gold_is_capped_at_5():
    """The Outcome: the winning attacker gains 1 gold; 2.3: "You may never have more than 5 gold
    in your Treasury": at 5 it stays 5."""
    from .test_combat import pos

    s = pos([("C", True)], [("C", True)], hall1=("O2", "S5"))
    s["own"][1]["gold"] = 0
    assert s["own"][0]["gold"] == 5
    s = act(s, 0, {"type": "attack", "from": "C", "kind": "melee", "slot": 1})
    s = act(s, 0, {"type": "target", "owner": 1, "zone": "C", "up": True})
    while any(f["kind"] == "combat" for f in s["stack"]):  # 5 gold: may raise (buy a relic)
        s = act(s, 0, {"type": "done"})
    assert ENGINE.prompts(s)[1]["kind"] == "retreat"      # the attacker won
    assert s["own"][0]["gold"] == 5


def test_ten_gold_mercenaries_are_not_reshuffled_at_night():
    """Game Setup F: "If there are cards costing 10 gold, shuffle them back into the deck and
    reveal new ones in their place" is a setup step; 3.2 Renew the Mercenary Pool at night
    reveals whatever comes, a 10-gold Mercenary included."""
    from engines.covil import phases

    s = placed(2)
    take_card(s, "W8")
    s["mdeck"].append("W8")                                 # on top of the deck
    s["phase"], s["nstep"] = "night", phases.NIGHT_STEPS.index("renew")
    phases._step_night(s)
    assert "W8" in s["pool"]


def test_protection_fee_gold_is_capped_at_5():
    """3.3 Collect protection fee: "+2 gold" per dominated terrain; 2.3: "You may never have
    more than 5 gold in your Treasury". Player 1 dominates the Mountains here."""
    from engines.covil import phases

    s = placed(2)
    assert phases.dominance(s)["Mountain"] == 0
    s["own"][0]["gold"] = 4
    phases.collect_fees(s)
    assert s["own"][0]["gold"] == 5
