"""Phase 3: Night -- 3.1 to 3.5, Rebels Retaliate, the Evil Scepter; Phase 1: Morning."""
from engines.covil import ENGINE, phases

from .helpers import act, placed, set_hall, set_hand, set_troops

Y, G, R = 0, 1, 2


def test_protection_fee_dominance_example():
    """3.3 Collect Protection Fee (example, board A): water tied 1-1-1 (zone D tied, Rebels
    don't count in E) -> nobody; desert -> Yellow; mountain -> Yellow; forest -> Green."""
    s = placed(3, "A", forts=("H", "K", "M"))
    set_troops(s, Y, [("A", False), ("D", False), ("C", False)])
    set_troops(s, G, [("D", False), ("E", False), ("B", False), ("G", False)])
    set_troops(s, R, [("F", False)])
    s["rebels"] = 4  # Rebels in town (E) do not count towards majority
    for o in (Y, G, R):
        set_hall(s, o, [s["own"][o]["hall"][0]["id"]])
        s["own"][o]["gold"] = 0
    assert phases.dominance(s) == {"Water": None, "Desert": Y, "Mountain": Y, "Forest": G}
    got = phases.collect_fees(s)
    assert got == {Y: 4, G: 2}
    assert [s["own"][o]["gold"] for o in (Y, G, R)] == [4, 2, 0]


def test_protection_fee_racketeer_bonus():
    """3.3 with the Racketeer's Influence: +1 gold when collecting at least one fee."""
    s = placed(2, "A")
    set_troops(s, 0, [("C", False)])
    set_troops(s, 1, [])
    set_hall(s, 0, ["O1", "X2"])
    s["own"][0]["gold"] = 0
    phases.collect_fees(s)
    assert s["own"][0]["gold"] == 3


def test_raid_the_town_example():
    """3.4 Raid the town (example): Green with 2 troops in E draws 2 relics, Red with 1 draws 1;
    3 more Rebels go to the town."""
    s = placed(3, "A", forts=("H", "K", "M"))
    set_troops(s, Y, [])
    set_troops(s, G, [("E", False), ("E", False)])
    set_troops(s, R, [("E", False)])
    for o in (Y, G, R):
        set_hall(s, o, ["O1" if o == G else ("O2" if o == R else "O3")])
    hands = [len(p["hand"]) for p in s["own"]]
    phases.raid(s)
    assert [len(p["hand"]) for p in s["own"]] == [hands[0], hands[1] + 2, hands[2] + 1]
    assert s["rebels"] == 4 and not s["riot"]
    ENGINE.check_invariants(s)


def test_raid_plague_lord_draws_an_extra_relic_without_rebel():
    """3.4 with the Plague Lord's Influence: one extra relic when raiding, no extra Rebel."""
    s = placed(2, "A")
    set_troops(s, 0, [("E", False)])
    set_hall(s, 0, ["O5"])
    n = len(s["own"][0]["hand"])
    phases.raid(s)
    assert len(s["own"][0]["hand"]) == n + 2 and s["rebels"] == 2


def _night_from(s, step):
    for p in s["own"]:
        for t in p["troops"]:
            t["up"] = False
    s["phase"] = "night"
    s["nstep"] = phases.NIGHT_STEPS.index(step)
    s["stack"] = []
    s["cur"] = None


def test_rebels_retaliate_at_five():
    """Rebels Retaliate: with 5 Rebels in town every troop in town, then every standing
    fortress, receives a strength-3 attack (defended as usual; an unguarded fortress takes 3);
    then all Rebels leave the town."""
    s = placed(2, "A")
    set_hall(s, 0, ["O1"])
    set_hall(s, 1, ["O2"])
    set_hand(s, 0, [])
    set_hand(s, 1, [])
    s["own"][0]["gold"] = 0
    s["own"][1]["gold"] = 0
    set_troops(s, 0, [("E", False)])
    set_troops(s, 1, [("K", False)])
    s["rebels"] = 4
    _night_from(s, "raid")
    ENGINE._run_automatic(s)
    # Player 1 drew a relic in the raid, so may respond to the Rebels' attack
    assert list(ENGINE.prompts(s)) == [0] and ENGINE.prompts(s)[0]["kind"] == "combat"
    f = s["stack"][-1]
    assert f["att"] is None and f["dz"] == "E"
    s = act(s, 0, {"type": "done"})
    assert all(t["z"] == "H" for t in s["own"][0]["troops"])  # 3 vs 1: the E troop removed
    assert s["own"][0]["hp"] == 2                # unguarded fortress: 3 damage
    assert s["own"][1]["hp"] == 3                # guarded: 3 - 1
    assert s["rebels"] == 0
    assert s["day"] == 2


def test_rest_all_minions_once_and_renew_pool_and_scepter_passes():
    """3.2 Renew the Mercenary Pool, 3.5 Rest all Minions once, then the player to the left
    takes the Evil Scepter and Phase 1 follows."""
    s = placed(2, "A")
    set_hall(s, 0, ["O1", "H1.0", "H2.0"], ex=[2, 1, 0])
    old_pool = list(s["pool"])
    _night_from(s, "discard")
    ENGINE._run_automatic(s)
    assert [m["ex"] for m in s["own"][0]["hall"]] == [1, 0, 0]
    assert set(old_pool) <= set(s["mdiscard"]) and len(s["pool"]) == 6
    assert s["first"] == 1 and s["day"] == 2 and s["phase"] == "afternoon"
    assert ENGINE.prompts(s).keys() == {1}


def test_morning_stand_up_and_summon_to_day_count_also_at_destroyed_fortress():
    """Phase 1: Morning: stand up all troops; summon at the fortress up to 2/3/4/5 troops on
    days 1-4 (summoned troops stand); a destroyed fortress still summons."""
    s = placed(2, "A")
    set_troops(s, 0, [("C", False)])
    set_troops(s, 1, [("F", False), ("F", False), ("E", False), ("B", False)])
    s["own"][0]["hp"] = 0
    s["own"][0]["dead"] = True
    s["day"] = 3
    s["phase"] = "morning"
    s["stack"] = []
    ENGINE._run_automatic(s)
    t0 = s["own"][0]["troops"]
    assert len(t0) == 4 and all(t["up"] for t in t0) and sum(t["z"] == "H" for t in t0) == 3
    assert len(s["own"][1]["troops"]) == 4  # already 4: no summon


def test_final_night_ends_the_game():
    """Final Scoring: at the end of the 4th night phase the game ends."""
    s = placed(2, "A")
    s["day"] = 4
    _night_from(s, "discard")
    ENGINE._run_automatic(s)
    assert ENGINE.result(s) is not None and ENGINE.prompts(s) == {}
    assert ENGINE.legal_actions(s, 0) == []
