"""Rules help: which rules-summary section each prompt comes from, and why an action is refused.

The section ids are those of ``data/rules_help.yaml`` (the ``/rules/covil`` page). Reasons quote
the rulebook and speak only of what the acting seat may know: its own hand of Power Relics, its
own Champions Hall and the public board (never another hand or the decks).
"""
from __future__ import annotations

from typing import Any

from engines.rules_help import never_raises, section_ids

from . import core
from .data import RULES, _load, card

#: The rules summary (``{title, intro, sections: [{id, title, text}], provisional}``).
SUMMARY: dict = _load("rules_help.yaml")

#: prompt (frame) kind -> rules-summary section id.
PROMPT_RULES: dict[str, str] = {
    "place": "starting-zones",
    "turn": "afternoon",
    "pay": "acquire-minion",
    "aim": "attack",
    "free_attack": "free-actions",
    "effect": "free-actions",
    "combat": "combat",
    "retreat": "outcome",
}
SECTION_IDS: list[str] = section_ids(SUMMARY, PROMPT_RULES)

TROOP_ACTIONS = {"move", "rest", "repair", "gold", "attack"}
ONE_TROOP = "You may not lie down more than one troop each turn."
NOT_READY = ("A Minion being exhausted or tired means that you cannot exhaust it to attack or "
             "to perform command abilities, and you cannot use it as gold.")
NOT_IN_HAND = "That Power Relic is not in your hand."
ADJACENT = "Lie down one troop in order to move the same troop into one adjacent zone."
RANGE = ("Melee attacks may only target troops within the same zone as your attacking troop; "
         "ranged attacks also troops in adjacent zones.")


# Complex on purpose: one explanation per rule a refused action can break, in the rulebook's order.
def _reason(engine: Any, state: dict, seat: int, action: Any) -> str | None:  # noqa: C901
    if engine.result(state) is not None:
        return "The game is over: it ends at the end of the 4th night phase."
    if not 0 <= seat < state["players"]:
        return None
    t = action.get("type") if isinstance(action, dict) else None
    own = state["own"][seat]
    if t == "buy_relic":
        price = core.relic_price(state, seat)
        if own["gold"] < price:
            return (f"Buy Power Relics: spend {price} gold from your Treasury to draw one Power "
                    f"Relic; you have {own['gold']} gold.")
        if not core.relics_left(state):
            return "There is no Power Relic left to draw."
        return None
    prompts = engine.prompts(state)
    if seat not in prompts:
        return _not_prompted(state)
    if not isinstance(action, dict):
        return None
    f = state["stack"][-1]
    k = f["kind"]
    o = f.get("owner", seat)
    if k == "turn":
        return _turn(state, f, o, action)
    if k == "pay":
        return _pay(state, f, action)
    if k == "place" and t == "place":
        return "Choose one of the free spirals marked on the game board for your fortress."
    if k == "aim" and t == "target":
        return RANGE
    if k == "retreat" and t == "retreat":
        return ("The losing troop retreats by moving into any adjacent zone (move-based "
                "Reinforcements may also be applied).")
    if k == "combat":
        if t == "defend":
            return ("The defender may exhaust one ready Defense Minion to add its base stat, "
                    "once per combat.")
        if t == "activate":
            return _relic(state, seat, action) or ("You cannot activate Power Relics in this "
                                                   "combat now.")
        return "Respond to the attack (exhaust a defensive Minion, activate Power Relics) or pass."
    text = prompts[seat]["text"]
    kinds = {x["type"] for x in engine.legal_actions(state, seat)}
    if t in kinds:
        return f"That choice is not possible now. {text}."
    return f"First finish this step: {text[0].lower()}{text[1:]}."
    return None


def _not_prompted(state: dict) -> str:
    f = state["stack"][-1] if state["stack"] else None
    if f is not None and f["kind"] == "combat":
        return "Another player is responding to an attack: wait for the combat to be resolved."
    if f is not None and f["kind"] == "place":
        return ("It is not your turn: the starting player places their fortress first, then the "
                "other players choose clockwise.")
    return ("It is not your turn: the afternoon proceeds clockwise until all troops are lying "
            "down. Out of turn you may only buy a Power Relic.")


def _relic(state: dict, seat: int, a: dict) -> str | None:
    if a.get("relic") not in state["own"][seat]["hand"]:
        return NOT_IN_HAND
    return None


# Complex on purpose: one explanation per rule of the afternoon turn (rulebook, phase 2), in its
# order.
def _turn(state: dict, f: dict, o: int, a: dict) -> str | None:  # noqa: C901
    """Phase 2: Afternoon, one player's turn."""
    t = a.get("type")
    p = state["own"][o]
    if t in TROOP_ACTIONS:
        if f["lay"]:
            return ONE_TROOP
        z = a["from"]
        if core.troops_in(state, o, z, up=True) == 0:
            if core.troops_in(state, o, z) > 0:
                return "An already lying down troop may only perform free actions."
            return "You have no troop standing in that zone."
        if t == "move":
            return ADJACENT
        if t == "repair":
            if p["dead"]:
                return "A destroyed fortress can never be repaired."
            return f"Your fortress is already at {RULES['max_hp']} hitpoints."
        if t == "gold":  # offered also at the cap (version 2): only a malformed action is here
            return None
        if t == "rest":
            slot = a["slot"]
            if not 0 <= slot < len(p["hall"]):
                return "There is no Minion in that slot of your Champions Hall."
            return "That Minion is already ready: it has no exhaustion token."
        if t == "attack":
            return _attack(state, o, a)
        return None
    if t == "end_turn":
        return ("If you still have troops standing up on the board at your turn, you must lie "
                "down one of them to perform its action.")
    if t == "acquire":
        return _acquire(state, f, o, a["card"])
    if t == "activate":
        return _relic(state, o, a)
    if t == "command":
        slot = a["slot"]
        if not 0 <= slot < len(p["hall"]):
            return "There is no Minion in that slot of your Champions Hall."
        m = p["hall"][slot]
        if card(m["id"])["type"] != "command":
            return "That Minion has no Command ability."
        if m["ex"] != core.READY:
            return "Your Minion must be unexhausted in order to use its ability."
        return "That Command ability has nothing to do now."
    return None


def _attack(state: dict, o: int, a: dict) -> str | None:
    hall = state["own"][o]["hall"]
    slot = a["slot"]
    if not 0 <= slot < len(hall):
        return "There is no Minion in that slot of your Champions Hall."
    if hall[slot]["ex"] != core.READY:
        return ("To perform an attack you need to lie down one troop and also exhaust one of "
                "your ready Minions. " + NOT_READY)
    return "No enemy troop or unguarded fortress is in reach: " + RANGE


def _acquire(state: dict, f: dict, o: int, cid: Any) -> str | None:
    """2.1 Acquire a Minion."""
    if f["acq"]:
        return "You may acquire only one Minion per turn."
    if cid not in state["pool"]:
        return "That Minion is not in the Mercenary pool."
    p = state["own"][o]
    ready = [i for i, m in enumerate(p["hall"]) if i > 0 and m["ex"] == core.READY]
    if len(p["hall"]) - len(ready) > RULES["hall_slots"]:
        return (f"You may never have more than {RULES['hall_slots']} Minions at your Champions "
                "Hall, and only unexhausted Minions can be placed back in the pool.")
    return ("You cannot pay its cost with your gold, the Power Relics in your hand and your "
            "unexhausted Minions.")


def _pay(state: dict, f: dict, a: dict) -> str | None:
    """2.1 Acquire a Minion: the payment step."""
    t = a.get("type")
    p = state["own"][f["owner"]]
    if t == "pay_minion":
        slot = a["slot"]
        if slot == 0:
            return "The Dark Overlord can never be removed from his evil throne."
        if not 0 < slot < len(p["hall"]) or slot in f["minions"]:
            return "Choose another Minion of your Champions Hall."
        if p["hall"][slot]["ex"] != core.READY:
            return NOT_READY
        return "The price is already covered."
    if t == "pay_relic":
        left = list(p["hand"])
        for r in f["relics"]:
            left.remove(r)
        if a.get("relic") not in left:
            return NOT_IN_HAND
        return "The price is already covered."
    if t == "confirm":
        return ("Pay the rest of the price: your gold does not cover it, or your Champions Hall "
                f"would hold more than {RULES['hall_slots']} Minions.")
    if t in TROOP_ACTIONS or t in ("acquire", "command", "activate", "end_turn"):
        return "First confirm or cancel the payment of the Minion you are acquiring."
    return None



#: Why an action is refused, in the rulebook's words; never raises (see ``engines.rules_help``).
illegal_reason = never_raises(_reason)
