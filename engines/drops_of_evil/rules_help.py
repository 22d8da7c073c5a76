"""Rules help: which rules-summary section each prompt comes from, and why an action is refused.

The section ids are those of ``data/rules_help.yaml`` (the ``/rules/drops_of_evil`` page). Reasons
quote the rulebook; the only hidden information in this game is the bag's order, which no reason
mentions.
"""
from __future__ import annotations

from typing import Any

from engines.rules_help import never_raises, section_ids

from .alchilab import leaves_spider_only, next_mushroom_vial, required, vial_types
from .data import BOARDS, CELL_VIAL, NAMES, POOL_TYPES, _load
from .setup import seat_assistant

#: The rules summary (``{title, intro, sections: [{id, title, text}], provisional}``).
SUMMARY: dict = _load("rules_help.yaml")

#: prompt kind -> rules-summary section id.
PROMPT_RULES: dict[str, str] = {
    "placement": "placement-phase",
    "after_placement": "assistants",
    "seer": "assistants",
    "brewing": "brewing-phase",
    "distiller_bonus": "distiller",
    "rebrew": "assistants",
    "income": "assistants",
}
SECTION_IDS: list[str] = section_ids(SUMMARY, PROMPT_RULES)

_PHASE = {"placement": "the Placement Phase", "brewing": "the Brewing Phase",
          "income": "the Income Phase"}
_BREWING_TYPES = {"brew", "take_back", "bonus", "cheese", "spend_worms", "alternative", "done",
                  "rebrew", "cancel"}

#: Placing Action Pawns: where each pawn may go (rulebook wording).
PAWN_SPACES = {
    "crow": "Crows can only be placed on Gathering spaces in the clearing of the Forest board "
            "(the light green spaces with a solid border), not in the underbrush.",
    "cat": "Cats can only be placed on double-arrow spaces.",
    "toad": "Toads can only be placed on four-arrow spaces.",
    "snake": "Snakes can only be placed on down-arrow spaces.",
    "coin": "Coin Pouches can only be placed on Assistants, to secure their services.",
}
OCCUPIED = "Action pawns can never be placed in a space already occupied by another Action pawn."
ONE_PER_SPACE = "Each space can only have 1 Ingredient token."
ONE_TYPE = ("Each Vial can contain only 1 type of Ingredient in all of its spaces "
            "(with the exception of Spiders).")
SPIDER_ONLY = ("You are not allowed to create Spider-only Vials: there always has to be at least "
               "one non-Spider Ingredient in each Vial.")
MUSHROOMS = ("Mushrooms must be placed in the Vials of your Distiller, always starting with the "
             "lowest available Vial and going up.")
FIXED = ("You cannot move Ingredients you placed in previous rounds, nor Resources that unlocked "
         "a Bonus token.")
PLACE_ALL = "You must place all of your Resources before the end of this phase (if possible)."
#: "Placing Ingredients" (issue 15 item 11): a placement or an arrangement that places fewer.
BLOCKS = ("You must place all of your Ingredients if possible: that space would leave another "
          "of your Ingredients without a space.")
REARRANGE = ("You must place all of your Ingredients if possible: another arrangement of this "
             "phase's Ingredients places more of them. Take one back and place them again.")


# Complex on purpose: one explanation per rule a refused action can break, in the rulebook's order.
def _reason(engine: Any, state: dict, seat: int, action: Any) -> str | None:  # noqa: C901
    if engine.result(state) is not None:
        return "The game is over: it ends at the end of the third round."
    phase = state["phase"]
    prompts = engine.prompts(state)
    if seat not in prompts:
        if phase == "brewing":
            return "You are done with the Brewing Phase: wait for the other players."
        if phase == "placement":
            return ("It is not your turn: players take turns in the order shown on the Turn "
                    "Order track.")
        return "It is not your turn."
    if not isinstance(action, dict):
        return None
    t = action.get("type")
    legal = engine.legal_actions(state, seat)
    kinds = {a["type"] for a in legal}
    a = state["alch"][seat]
    if t not in kinds:
        why = _wrong_step(state, seat, phase, t, prompts[seat]["kind"])
        if why is not None:
            return why
    if t == "place" and phase == "placement":
        return _place(state, a, action)
    if t == "brew" and phase == "brewing":
        return _brew(a, action)
    if t == "take_back" and phase == "brewing":
        cell = action["cell"]
        if cell.startswith("d-"):
            return "Mushrooms that unlocked a Bonus token can no longer be moved."
        if cell not in a["brewer"]:
            return "There is no Resource of yours in that space."
        if cell in a["fresh"] and leaves_spider_only(a["brewer"], cell):
            return SPIDER_ONLY
        return FIXED
    if t == "assistant":
        if action.get("assistant") != seat_assistant(state, seat):
            return "You can only activate the Assistant you hired with your Coin Pouch."
        if "pawn" in action and "space" in action and phase == "placement":
            return _place(state, {"home": [action["pawn"]]}, action)
        return None
    if t == "spend_worms":
        return "You have no Extra Resource token with that many Worm icons to spend."
    if t == "seer_put":
        return "Seer: the drawn Resource goes on a Gathering space of the Forest board."
    if t == "bonus":
        return ("Choose one of the Bonus tokens adjacent to the Vial you filled or any Vial "
                "below it that is still available.")
    if t == "rebrew":
        return f"Re-Brewer: {ONE_PER_SPACE} {ONE_TYPE}"
    return None


# Complex on purpose: one explanation per action type offered at another moment of the turn.
def _wrong_step(state: dict, seat: int, phase: str, t: Any, kind: str) -> str | None:  # noqa: C901
    """The action type is not offered now: wrong phase, or the wrong moment of the turn."""
    now = _PHASE.get(phase, "this phase")
    if t == "place":
        if phase == "placement" and state["acted"]:
            return ("You have already placed an Action pawn this turn: activate your "
                    "Assistant or end your turn.")
        if phase == "placement" and kind == "seer":
            return "Seer: first put the drawn Resource on a Gathering space."
        if phase != "placement":
            return f"Action pawns are placed during the Placement Phase; it is now {now}."
    if t == "end_turn" and phase == "placement":
        if kind == "seer":
            return "Seer: first put the drawn Resource on a Gathering space."
        return "During your turn, you must place one of your Action pawns first."
    if t == "done" and phase == "brewing":
        if kind == "distiller_bonus":
            return "First choose the Distiller Bonus token you gain."
        from .brewing import legal as brewing_legal
        a = state["alch"][seat]
        if required(a, "mushroom") or any(
                o["type"] == "brew" and required(a, o["res"])
                for o in brewing_legal(state, seat)):
            return PLACE_ALL
        return REARRANGE
    if t in ("bonus",) and phase == "brewing":
        return "You gain a Distiller Bonus token only when you fill a Distiller Vial."
    if t in _BREWING_TYPES and phase != "brewing":
        return f"Resources are placed in your Alchilab during the Brewing Phase; it is now {now}."
    if t in _BREWING_TYPES and kind == "distiller_bonus":
        return "First choose the Distiller Bonus token you gain."
    if t == "cheese":
        return ("For each Cheese icon you use, move 1 Rat from your Free Rats space to your "
                "Captured Rats space: you need a Cheese and a Free Rat.")
    if t == "assistant":
        aid = seat_assistant(state, seat)
        if aid is None:
            return "Place your Coin Pouch on an Assistant to secure their services first."
        return ("Your Assistant's ability can only be activated during its own phase, and only "
                "once.")
    if t == "alternative":
        return ("Instead of the Assistant's ability you may gain 1 Worm or 1 Cheese, before the "
                "Brewing Phase ends, with a hired Assistant not yet used.")
    return None


def _place(state: dict, a: dict, action: dict) -> str | None:
    pawn, space = action["pawn"], action["space"]
    board = BOARDS[state["board"]]
    if pawn not in PAWN_SPACES:
        return "There are five Action pawns: Crow, Cat, Toad, Snake and Coin Pouch."
    if pawn not in a["home"]:
        return f"Your {NAMES.get(pawn, pawn)} is already on the Forest board this round."
    if space not in board["kind"] and space not in board["gathering_ids"]:
        return "There is no such space on this Forest board."
    if space in state["pawns"]:
        return OCCUPIED
    if board["kind"].get(space) != pawn:
        return PAWN_SPACES[pawn]
    return None


def _brew(a: dict, action: dict) -> str | None:
    res, cell = action["res"], action["cell"]
    if res == "rat":
        return "Rats are placed in your Free Rats space as soon as you gather them."
    if res not in POOL_TYPES:
        return None
    if not a["pool"].get(res):
        return f"You have no {NAMES.get(res, res)} left in your pool."
    if res == "mushroom":
        if cell != next_mushroom_vial(a):
            return MUSHROOMS
        return None
    if not isinstance(cell, str) or cell.startswith("d-"):
        return "Ingredients are always placed in your Brewer; Mushrooms in your Distiller."
    if cell not in CELL_VIAL:
        return "There is no such space in your Brewer."
    if cell in a["brewer"]:
        return ONE_PER_SPACE
    others = [r for r in vial_types(a["brewer"], CELL_VIAL[cell]) if r != "spider"]
    if res == "spider" and not others:
        return SPIDER_ONLY
    if any(r != res for r in others) and res != "spider":
        return ONE_TYPE
    return BLOCKS


#: Why an action is refused, in the rulebook's words; never raises (see ``engines.rules_help``).
illegal_reason = never_raises(_reason)
