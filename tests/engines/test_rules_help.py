"""Rules help (issue 7, item 5) for every game: the rules summaries, the prompts' ``rule`` links
and the rulebook-worded reasons of refused actions (``illegal_reason``)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from engines import registry
from engines.base import IllegalAction, Rng, random_bot
from engines.covil import core as covil_core
from engines.drops_of_evil.data import BOARDS as DROPS_BOARDS
from engines.evil_corp import data as corp_data
from engines.evil_corp.state import side_of
from tests.engines.covil import helpers as ch
from tests.engines.drops_of_evil import helpers as dh
from tests.engines.evil_corp import helpers as eh

ROOT = Path(__file__).resolve().parents[2]
GAMES = registry.GAME_PACKAGES
#: (game, players, options) played out to collect prompts: every player count and variant.
CONFIGS = [("drops_of_evil", 2, {"side": "A"}), ("drops_of_evil", 2, {"side": "B"}),
           ("drops_of_evil", 3, {}), ("drops_of_evil", 4, {}),
           ("evil_corp", 2, {}), ("evil_corp", 3, {}), ("evil_corp", 4, {}),
           ("covil", 1, {}), ("covil", 1, {"dummies": 2}), ("covil", 2, {}),
           ("covil", 3, {"board": "B"}), ("covil", 4, {})]
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def summary(game: str) -> dict:
    """The game's rules data, read from the file itself (what /rules/<game> shows)."""
    path = ROOT / "engines" / game / "data" / "rules_help.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def section_ids(game: str) -> set[str]:
    return {s["id"] for s in summary(game)["sections"]}


def refused(game: str, state: dict, seat: int, action) -> str:
    """Apply an illegal action through the public ``apply``; return the reason it gives."""
    engine = registry.get(game)
    with pytest.raises(IllegalAction) as exc:
        engine.apply(state, seat, action)
    assert isinstance(exc.value.reason, str) and exc.value.reason
    return exc.value.reason


# ----- the rules data ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_rules_data_is_well_formed(game):
    """Every section has a unique slug id, a title and text; setup, scoring/end of game and the
    provisional components are covered."""
    data = summary(game)
    ids = [s["id"] for s in data["sections"]]
    assert len(ids) == len(set(ids))
    for s in data["sections"]:
        assert SLUG.match(s["id"]), s["id"]
        assert s["title"].strip() and len(s["text"].strip()) > 40, s["id"]
    assert "setup" in ids and "overview" in ids
    assert {"end-of-game", "victory-conditions", "final-scoring"} & set(ids)
    assert len(data["provisional"]["items"]) >= 3


@pytest.mark.parametrize("game,phases", [
    ("drops_of_evil", ["placement-phase", "gathering-phase", "brewing-phase", "income-phase",
                       "end-of-round", "end-of-game"]),
    ("evil_corp", ["day-phase", "put-into-play", "activate", "hire", "pass", "night-phase",
                   "check-boards", "discarding-monsters", "victory-conditions"]),
    ("covil", ["morning", "afternoon", "acquire-minion", "free-actions", "troop-actions",
               "attack", "combat", "night", "protection-fee", "raid-the-town", "final-scoring"]),
])
def test_every_phase_has_a_section(game, phases):
    assert set(phases) <= section_ids(game)


# ----- prompts link to a section ----------------------------------------------------------------
@pytest.mark.parametrize("game,players,options", CONFIGS,
                         ids=[f"{g}-{n}-{'-'.join(map(str, o.values())) or 'default'}"
                              for g, n, o in CONFIGS])
def test_every_prompt_names_an_existing_section(game, players, options):
    """Random playouts: every prompt of every state carries a ``rule`` that the game's rules
    data has."""
    engine = registry.get(game)
    ids = section_ids(game)
    seen: set[str] = set()
    for seed in range(2):
        state = engine.setup(players, options, seed)
        rng = Rng(seed + 100)
        for _ in range(1500):
            prompts = engine.prompts(state)
            if not prompts:
                break
            for seat, prompt in prompts.items():
                assert prompt.get("rule") in ids, (seat, prompt)
                seen.add(prompt["kind"])
            seat = min(s for s in prompts if engine.legal_actions(state, s))
            state, _ = engine.apply(state, seat, random_bot(engine, state, seat, rng))
    assert seen  # the playout did reach prompts


@pytest.mark.parametrize("game", GAMES)
def test_the_view_carries_the_rule(game):
    engine = registry.get(game)
    state = engine.setup(2, {}, 0)
    seat = next(iter(engine.prompts(state)))
    assert engine.view(state, seat)["prompt"]["rule"] in section_ids(game)


# ----- illegal_reason never fails, whatever is sent ----------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_reasons_never_raise_on_odd_or_foreign_actions(game):
    """Other seats' actions, mutated actions and junk all get a non-empty reason."""
    engine = registry.get(game)
    junk = [None, {}, {"type": "nonsense"}, {"type": "place"}, {"type": "brew", "res": [1]},
            {"type": "play", "tile": "x", "board": -1, "cell": None}, [], "pass"]
    state = engine.setup(2, {}, 3)
    rng = Rng(5)
    for _ in range(60):
        prompts = engine.prompts(state)
        if not prompts:
            break
        others = [a for s in range(2) for a in engine.legal_actions(state, s)]
        for seat in range(2):
            legal = engine.legal_actions(state, seat)
            for action in junk + [a for a in others if a not in legal][:5]:
                assert engine.illegal_reason(state, seat, action)
        seat = min(s for s in prompts if engine.legal_actions(state, s))
        state, _ = engine.apply(state, seat, random_bot(engine, state, seat, rng))


# ----- Drops of Evil -----------------------------------------------------------------------------
def test_drops_not_your_turn():
    """Placement Phase: players take turns in the order shown on the Turn Order track."""
    s = dh.new_game(2)
    other = 1 - s["order"][0]
    assert "not your turn" in refused("drops_of_evil", s, other,
                                      {"type": "place", "pawn": "crow", "space": "g-2-2"})


def test_drops_wrong_space_for_a_pawn():
    """Placing Action Pawns > Crows / Cats / Coin Pouches: each pawn on its own type of space."""
    s = dh.new_game(2)
    seat = s["order"][0]
    board = DROPS_BOARDS[s["board"]]
    underbrush = next(g for g in board["gathering_ids"] if g not in board["clearing"])
    why = refused("drops_of_evil", s, seat, {"type": "place", "pawn": "crow", "space": underbrush})
    assert "Crows can only be placed on Gathering spaces in the clearing" in why
    toad_space = board["by_pawn"]["toad"][0]
    assert refused("drops_of_evil", s, seat, {"type": "place", "pawn": "cat",
                                              "space": toad_space}) == \
        "Cats can only be placed on double-arrow spaces."
    assert "Coin Pouches can only be placed on Assistants" in refused(
        "drops_of_evil", s, seat, {"type": "place", "pawn": "coin", "space": toad_space})


def test_drops_occupied_space_and_pawn_already_placed():
    """Placing Action Pawns: never in a space already occupied by another Action pawn."""
    s = dh.new_game(2)
    first, second = s["order"]
    space = DROPS_BOARDS[s["board"]]["by_pawn"]["crow"][0]
    s = dh.act(s, first, {"type": "place", "pawn": "crow", "space": space})
    assert "already occupied by another Action pawn" in refused(
        "drops_of_evil", s, second, {"type": "place", "pawn": "crow", "space": space})
    s = dh.act(s, second, {"type": "place", "pawn": "crow",
                           "space": DROPS_BOARDS[s["board"]]["by_pawn"]["crow"][1]})
    assert refused("drops_of_evil", s, first, {"type": "place", "pawn": "crow", "space": "g-9-9"}) \
        == "Your Crow is already on the Forest board this round."


def test_drops_one_pawn_per_turn():
    """Placement Phase: one Action pawn per turn (then activate your Assistant or end)."""
    s = dh.new_game(2, seed=2)
    first = s["order"][0]
    # with this seed, a-1 holds the Seer (a Placement Assistant that can act at once), so the
    # turn waits for the Assistant or "end turn"
    s = dh.act(s, first, {"type": "place", "pawn": "coin", "space": "a-1"})
    assert registry.get("drops_of_evil").prompts(s)[first]["kind"] == "after_placement"
    why = refused("drops_of_evil", s, first, {"type": "place", "pawn": "cat", "space": "k-1"})
    assert "already placed an Action pawn this turn" in why


def test_drops_wrong_phase():
    """Action pawns are placed in the Placement Phase, not in the Brewing Phase."""
    s = dh.brewing_state({"owl": 1})
    why = refused("drops_of_evil", s, 0, {"type": "place", "pawn": "crow", "space": "g-2-2"})
    assert why == "Action pawns are placed during the Placement Phase; it is now the Brewing Phase."


def test_drops_wrong_vial_and_occupied_cell():
    """Brewing Phase > Placing Ingredients: 1 token per space, 1 Ingredient type per Vial."""
    s = dh.brewing_state({"owl": 1, "bat": 2})
    s = dh.act(s, 0, {"type": "brew", "res": "owl", "cell": "b-1-1"})       # Vial A
    assert "only 1 type of Ingredient" in refused(
        "drops_of_evil", s, 0, {"type": "brew", "res": "bat", "cell": "b-2-1"})
    assert refused("drops_of_evil", s, 0, {"type": "brew", "res": "bat", "cell": "b-1-1"}) == \
        "Each space can only have 1 Ingredient token."


def test_drops_spider_only_vial_and_missing_resource():
    """Spider-Only Vials are not allowed; you can only place what your pool holds."""
    s = dh.brewing_state({"spider": 1})
    assert "Spider-only Vials" in refused("drops_of_evil", s, 0,
                                          {"type": "brew", "res": "spider", "cell": "b-4-1"})
    assert refused("drops_of_evil", s, 0, {"type": "brew", "res": "owl", "cell": "b-4-1"}) == \
        "You have no Owl Claw left in your pool."


def test_drops_mushrooms_go_up_the_distiller():
    """Placing Mushrooms: always starting with the lowest available Vial and going up."""
    s = dh.brewing_state({"mushroom": 1})
    assert "starting with the lowest available Vial" in refused(
        "drops_of_evil", s, 0, {"type": "brew", "res": "mushroom", "cell": "d-3"})
    assert "Ingredients are always placed in your Brewer" in refused(
        "drops_of_evil", dh.brewing_state({"owl": 1}), 0,
        {"type": "brew", "res": "owl", "cell": "d-1"})


def test_drops_place_everything_before_done():
    """Brewing Phase: you must place all of your Resources (if possible) before Done."""
    s = dh.brewing_state({"owl": 1})
    assert "place all of your Resources" in refused("drops_of_evil", s, 0, {"type": "done"})


# ----- Evil Corp. --------------------------------------------------------------------------------
def test_corp_not_enough_gold_to_hire():
    """3. Hire a Monster: pay its hire cost plus the raise to the salary (gold is public)."""
    s = eh.fresh(2)
    eh.queue_put(s, 0, "R01")
    s["sides"][0]["gold"], s["sides"][0]["magic"] = 0, 0
    price = corp_data.TYPES["R01"]["cost"] + corp_data.SURCHARGE[0]
    assert price > 0
    why = refused("evil_corp", s, 0, {"type": "hire", "slot": 0})
    assert why.startswith(f"Hiring this monster costs {price} gold coins")
    assert why.endswith("you have 0.")


def test_corp_occupied_cell_and_portal():
    """1. Put a Monster into Play: never on another monster; Demon Portal: only blue tiles."""
    s = eh.fresh(2)
    eh.put(s, 0, "SY1", 0, "raid-1")
    red = eh.give(s, 0, "SR1")
    assert refused("evil_corp", s, 0, {"type": "play", "tile": red, "board": 0,
                                       "cell": "raid-1"}) == \
        "You cannot place a monster tile in a cell where another monster already lies."
    assert refused("evil_corp", s, 0, {"type": "play", "tile": red, "board": 0,
                                       "cell": "portal"}) == \
        "Only a blue monster tile can be placed in the demon portal."


def test_corp_board_not_available_with_three_players():
    """Main Rules: you interact with only the 2 settlement boards available to you."""
    s = eh.fresh(3)
    tile = eh.give(s, 0, "SY1")
    assert refused("evil_corp", s, 0, {"type": "play", "tile": tile, "board": 1,
                                       "cell": "raid-1"}) == \
        "You always interact with only the 2 settlement boards available to you."


def test_corp_not_your_turn_and_passed():
    """Day phase: players act in turn; 4. Pass: no more actions this day phase."""
    s = eh.fresh(2)
    assert "not your turn" in refused("evil_corp", s, 1, {"type": "pass"})
    s = registry.get("evil_corp").apply(s, 0, {"type": "pass"})[0]
    assert "you can no longer take any actions in the day phase" in refused(
        "evil_corp", s, 0, {"type": "pass"})


def test_corp_tile_not_behind_your_screen_reveals_nothing():
    """Hidden information: a tile behind another screen and a tile in a bag get the same
    answer."""
    s = eh.fresh(2)
    theirs = eh.give(s, 1, "SR1")
    in_bag = s["sides"][side_of(s, 1)]["bag"][0]
    a = refused("evil_corp", s, 0, {"type": "play", "tile": theirs, "board": 0,
                                    "cell": "raid-1"})
    b = refused("evil_corp", s, 0, {"type": "play", "tile": in_bag, "board": 0,
                                    "cell": "raid-1"})
    assert a == b == "Choose one monster tile lying behind your screen."


# ----- Covil -------------------------------------------------------------------------------------
def test_covil_not_your_turn():
    s = ch.placed(2)
    why = refused("covil", s, 1, {"type": "end_turn"})
    assert "not your turn" in why and "buy a Power Relic" in why


def test_covil_move_to_a_far_zone_and_one_troop_per_turn():
    """2.3 Move this troop: into one adjacent zone; only one troop lies down each turn."""
    s = ch.placed(2)
    far = next(z for z in covil_core.zone_data(s) if covil_core.dist(s, "H", z) > 2)
    assert refused("covil", s, 0, {"type": "move", "from": "H", "to": far}) == \
        "Lie down one troop in order to move the same troop into one adjacent zone."
    s = ch.act(s, 0, {"type": "gold", "from": "H"} if s["own"][0]["gold"] < 5 else
               {"type": "move", "from": "H", "to": covil_core.adjacent(s, "H")[0]})
    assert refused("covil", s, 0, {"type": "move", "from": "H",
                                   "to": covil_core.adjacent(s, "H")[0]}) == \
        "You may not lie down more than one troop each turn."


def test_covil_treasury_cap_and_buying_relics():
    """Gain 1 gold is offered also at the cap (rules version 2: the gold is lost, never a
    refusal); Buy Power Relics: 3 gold."""
    s = ch.placed(2)
    assert s["own"][0]["gold"] == 5
    assert {"type": "gold", "from": "H"} in registry.get("covil").legal_actions(s, 0)
    s["own"][1]["gold"] = 1
    assert refused("covil", s, 1, {"type": "buy_relic"}) == \
        ("Buy Power Relics: spend 3 gold from your Treasury to draw one Power Relic; "
         "you have 1 gold.")


def test_covil_relic_not_in_hand_reveals_nothing():
    """Hidden information: another hand's relic and a deck relic get the same answer."""
    s = ch.placed(2)
    theirs = s["own"][1]["hand"][0]
    deck = s["rdeck"][0]
    a = refused("covil", s, 0, {"type": "activate", "relic": theirs})
    b = refused("covil", s, 0, {"type": "activate", "relic": deck})
    assert a == b == "That Power Relic is not in your hand."


def test_covil_one_minion_per_turn():
    """2.1 Acquire a Minion: once per turn."""
    s = ch.placed(2)
    s["stack"][-1]["acq"] = True
    card = s["pool"][0]
    assert refused("covil", s, 0, {"type": "acquire", "card": card}) == \
        "You may acquire only one Minion per turn."
