"""Game Setup (and "Evil Prevails" solo setup): the initial state."""
from __future__ import annotations

from engines.base import Rng, event, seed_state

from . import data
from .data import RULES, card


def reveal_pool(state: dict, rng: Rng, first: bool) -> None:
    """Reveal up to 6 Mercenaries. At setup (``first``) cards costing 10 gold are shuffled back
    into the deck and replaced (Game Setup F)."""
    need = RULES["pool_size"] - len(state["pool"])
    for _ in range(need):
        if state["mdeck"]:
            state["pool"].append(state["mdeck"].pop())
    while first:
        tens = [c for c in state["pool"] if card(c)["cost"] == RULES["no_first_reveal_cost"]]
        if not tens:
            break
        for c in tens:
            state["pool"].remove(c)
            state["mdeck"].append(c)
        rng.shuffle(state["mdeck"])
        for _ in tens:
            state["pool"].append(state["mdeck"].pop())


def build(players: int, board: str, dummies: int, adjacent: bool, seed: int) -> dict:
    """The state right after Game Setup A-H; starting zones (I) are chosen as the first actions.

    Solo (``players == 1``): ``dummies`` dummy owners follow the seat, each with 2+2+1
    Mercenaries from the 2 / 4-6 / 8-10 gold piles instead of Henchmen and no Power Relics.
    """
    rng = Rng(seed_state(seed))
    solo = players == 1
    n = players + (dummies if solo else 0)
    overlords = rng.shuffled(data.OVERLORDS)
    mercs = list(data.MERCENARIES)
    dummy_halls: list[list[str]] = []
    if solo:
        piles = [rng.shuffled([m for m in mercs if card(m)["cost"] in costs])
                 for costs in RULES["solo_piles"]]
        for _ in range(dummies):
            hall = []
            for pile, k in zip(piles, RULES["solo_pile_counts"]):
                hall += [pile.pop() for _ in range(k)]
            dummy_halls.append(hall)
        mercs = [m for pile in piles for m in pile]
    deck = rng.shuffled(mercs)
    k = RULES["mercenaries_in_game"]
    state: dict = {
        "board": board, "adjacent": adjacent, "day": 1, "round": 1, "phase": "place",
        "first": 0, "cur": None, "nstep": 0, "queue": [], "riot": False, "flips": [], "rebels": RULES["rebels_at_start"],
        "pool": [], "mdeck": deck[:k], "mdiscard": [], "mbox": deck[k:],
        "obox": overlords[n:], "rdeck": rng.shuffled(data.RELIC_IDS), "rdiscard": [],
        "stack": [], "own": [], "log": [], "result": None, "players": players,
    }
    for o in range(n):
        dummy = o >= players
        hall = [{"id": overlords[o], "ex": 2}]
        ids = dummy_halls[o - players] if dummy else data.henchmen_of(o)
        hall += [{"id": c, "ex": 0} for c in ids]
        hand = [] if dummy else [state["rdeck"].pop() for _ in range(RULES["starting_relics"])]
        state["own"].append({"seat": None if dummy else o, "gold": RULES["start_gold"],
                             "hp": RULES["start_hp"], "fort": None, "dead": False,
                             "troops": [], "hall": hall, "hand": hand, "active": []})
    reveal_pool(state, rng, first=True)
    state["rng"] = rng.state
    state["log"].append(event(f"Covil on board {board} ({data.BOARDS[board]['name']}) with "
                              f"{players} player(s)" + (f" and {dummies} dummy player(s)" if solo
                                                        else "") + ".", irreversible=True))
    for o in range(players):
        state["log"].append(event(f"You receive Power Relics {', '.join(state['own'][o]['hand'])}.",
                                  to=[o], irreversible=True))
    return state
