"""Rules help: which rules-summary section each prompt comes from, and why an action is refused.

The section ids are those of ``data/rules_help.yaml`` (the ``/rules/evil_corp`` page). Reasons
quote the rulebook and speak only of what the acting seat may know: its own supply, public gold
and the boards (never another screen's tiles or a bag's content).
"""
from __future__ import annotations

from typing import Any

from engines.rules_help import never_raises, section_ids

from . import data
from .data import _load
from .effects import hire_price
from .state import available_boards, funds, half_of, kind, side_of

#: The rules summary (``{title, intro, sections: [{id, title, text}], provisional}``).
SUMMARY: dict = _load("rules_help.yaml")

#: prompt kind -> rules-summary section id.
PROMPT_RULES: dict[str, str] = {
    "turn": "day-phase",
    "keep": "discarding-monsters",
    "summon": "demon-portal",
    "hire_fx": "abilities",
    "queue_ability": "abilities",
    "flip_tile": "abilities",
    "flip_demon": "abilities",
    "discard_supply": "abilities",
    "opp_discard": "abilities",
    "return_to_bag": "abilities",
    "remove": "abilities",
    "move_pick": "abilities",
    "move_dest": "abilities",
    "send": "abilities",
    "choose_opponent": "abilities",
    "reveal": "abilities",
}
SECTION_IDS: list[str] = section_ids(SUMMARY, PROMPT_RULES)

DAY_ACTIONS = {"play", "activate", "hire", "pass"}
OCCUPIED = "You cannot place a monster tile in a cell where another monster already lies."
OPPONENT_HALF = "You cannot place a monster tile in a cell on your opponent's half."
NOT_AVAILABLE = "You always interact with only the 2 settlement boards available to you."
PORTAL = "Only a blue monster tile can be placed in the demon portal."
NO_FORTRESS = "This tile cannot be placed in the fortress."
PASSED = ("As soon as you have announced that you are passing, you can no longer take any "
          "actions in the day phase of the current round.")


# Complex on purpose: one explanation per rule a refused action can break, in the rulebook's order.
def _reason(engine: Any, state: dict, seat: int, action: Any) -> str | None:  # noqa: C901
    if engine.result(state) is not None:
        return "The game is over: a player or team owns 2 victory tokens."
    prompts = engine.prompts(state)
    t = action.get("type") if isinstance(action, dict) else None
    if seat not in prompts:
        return _not_prompted(state, seat, t)
    if not isinstance(action, dict):
        return None
    kinds = {a["type"] for a in engine.legal_actions(state, seat)}
    pkind = prompts[seat]["kind"]
    if t in DAY_ACTIONS and pkind != "turn" and t not in kinds:
        return ("First finish the ability being resolved: "
                + prompts[seat]["text"][0].lower() + prompts[seat]["text"][1:] + ".")
    if pkind == "turn":
        if t == "play":
            return _play(state, seat, action)
        if t == "hire":
            return _hire(state, seat, action["slot"])
        if t == "activate":
            return _activate(state, seat, action)
    if pkind == "keep" and t in ("keep", "release"):
        pending = state["stack"][-1]["pending"][side_of(state, seat)]
        if pending and action.get("board") != pending[0][0]:
            return ("Decide about your fortress monsters one at a time: now the one on board "
                    f"{pending[0][0] + 1}.")
    if pkind == "keep" and t == "keep" and action.get("pay"):
        cost = data.SIDES[state["boards"][action["board"]]["face"]]["keep_cost"]
        return (f"Keeping a monster in the fortress costs {cost} gold coins; you have "
                f"{funds(state, side_of(state, seat))}.")
    if pkind == "keep" and t == "keep":
        return "You may keep a fortress monster for free only with a monster that allows it."
    if pkind in ("hire_fx",) and t == "hire":
        return _hire(state, seat, action["slot"])
    if pkind == "summon" and t == "summon":
        d = action["demon"]
        if not state["demons"][d]:
            return ("That demon lies inactive side up: it is no longer available for summoning "
                    "this round.")
        return "You cannot pay the gold coins this demon's ability asks for."
    if pkind == "move_dest" and t == "move":
        return ("Move to a free cell of an available settlement board; only blue monsters may "
                "be moved to the demon portal.")
    if pkind == "flip_tile" and t == "flip":
        return ("Flip 1 of your opponent's monster tiles: an active tile of an opponent on a "
                "settlement board available to you, not protected by its owner's abilities.")
    if pkind == "move_pick" and t == "pick":
        return ("Choose 1 of your monster tiles on your half of an available settlement board "
                "that has a free cell to move to.")
    if pkind == "send" and t == "send":
        return ("Choose a monster tile with a low enough fear strength on an available "
                "settlement board, not protected by its owner's abilities.")
    return None


def _not_prompted(state: dict, seat: int, t: Any) -> str:
    if state["phase"] == "night":
        return "The night phase is resolved for everyone at the same time: wait for it to end."
    if state["phase"] == "day" and state["seats"][seat]["passed"]:
        return PASSED
    if state["players"] == 4 and state["turn"] and seat in state["turn"]["acted"]:
        return ("In a 4-player game each member of a team performs one action, then the turn "
                "passes to the second team.")
    if state["stack"]:
        return "Another player is resolving an ability: wait for their choice."
    return "It is not your turn: players take actions in turn until all of them have passed."


def _play(state: dict, seat: int, a: dict) -> str | None:
    """1. Put a Monster into Play."""
    tile, b, cell = a["tile"], a["board"], a["cell"]
    st = state["seats"][seat]
    if tile not in st["supply"]:
        return "Choose one monster tile lying behind your screen."
    if b not in available_boards(state, seat):
        return NOT_AVAILABLE
    side = side_of(state, seat)
    h = half_of(state, b, side)
    cells = state["boards"][b]["cells"]
    if h is None:
        return OPPONENT_HALF
    if cell not in cells[h]:
        return "There is no such cell on that settlement board."
    if cells[h][cell] is not None:
        return OCCUPIED
    t = data.TILES[tile]
    if kind(cell) == "portal" and t["colour"] != "blue":
        return PORTAL
    if kind(cell) == "fortress" and data.passive(t, "no_fortress"):
        return NO_FORTRESS
    req = t["requires"]
    if funds(state, side) < req.get("gold", 0):
        return (f"This monster's spawn ability makes you pay {req['gold']} gold coins: if you "
                "cannot pay, the tile cannot be put into play.")
    if len(st["supply"]) - 1 < req.get("supply", 0):
        return ("This monster's spawn ability needs another monster tile behind your screen: "
                "otherwise the tile cannot be put into play.")
    return None


def _hire(state: dict, seat: int, slot: Any) -> str | None:
    """3. Hire a Monster (also the hire abilities)."""
    if not isinstance(slot, int) or not 0 <= slot < len(state["queue"]):
        return "Choose a monster tile from among those lying in the applicant queue."
    if state["queue"][slot] is None:
        return "That cell of the applicant queue is empty."
    side = side_of(state, seat)
    price, have = hire_price(state, slot), funds(state, side)
    if price > have:
        extra = data.SURCHARGE[slot]
        raise_note = f" (including the raise to the salary of {extra})" if extra else ""
        return (f"Hiring this monster costs {price} gold coins{raise_note}; you have {have}.")
    return None


def _activate(state: dict, seat: int, a: dict) -> str | None:
    """2. Activate a Monster."""
    b, cell = a["board"], a["cell"]
    if b not in available_boards(state, seat):
        return NOT_AVAILABLE
    h = half_of(state, b, side_of(state, seat))
    slot = state["boards"][b]["cells"][h].get(cell) if h is not None else None
    if slot is None:
        return "Choose a monster tile previously placed on your half of a settlement board."
    if not slot["up"]:
        return "The inactive side of a monster has no abilities."
    if not data.TILES[slot["t"]]["activated"]:
        return "That monster has no activated ability (brown background)."
    return None


#: Why an action is refused, in the rulebook's words; never raises (see ``engines.rules_help``).
illegal_reason = never_raises(_reason)
