"""Player-readable ability texts built from the card data (for views and labels)."""
from __future__ import annotations

from functools import lru_cache

from .data import card, relic


def _where(w) -> str:
    if w == "all":
        return "all your troops"
    if w == "fortress":
        return "your troops in your fortress zone"
    return "your troops in " + " or ".join(w) + " zones"


# Complex on purpose: one phrase per effect type of the minion cards.
@lru_cache(maxsize=None)  # static card data: the same text every time
def minion_text(cid: str) -> str:  # noqa: C901
    """E.g. "Reinforcement: +1 defense for your troops in Town or Water zones"."""
    c = card(cid)
    e, t = c["effect"], c["type"]
    if t == "none":
        return ""
    if t == "reinforcement":
        parts = []
        if "stat" in e:
            parts.append(f"+{e['amount']} {e['stat']} for {_where(e['where'])}")
        if "move" in e:
            parts.append(f"your troops may move +1 zone when leaving {' or '.join(e['where'])}")
        if "repair" in e:
            parts.append(f"your Repair action repairs {e['repair']}")
        if "shield" in e:
            parts.append(f"your fortress takes {e['shield']} less damage per attack")
        return "Reinforcement: " + "; ".join(parts)
    if t == "aftershock":
        when = {"always": "", "target_fortress": " if the target zone holds an enemy fortress",
                "target_lying": " if the target troop is lying down",
                "own_two": " if you have 2+ troops in the target zone",
                "target_terrain": f" if the target is in a {e.get('terrain')} zone"}
        if "bonus" in e:
            return f"Aftershock: +{e['bonus']}{when[e['when']]}"
        if e.get("remove_standing"):
            return "Aftershock: a standing loser is removed instead of retreating"
        if "steal_gold" in e:
            return "Aftershock: if you win, take 1 gold from the defender"
        if e.get("no_relics"):
            return "Aftershock: the defender may not activate Power Relics"
        if e.get("no_minion"):
            return "Aftershock: the defender may not exhaust a Minion"
        if "range" in e:
            return f"Aftershock: ranged attack up to {e['range']} zones away"
        if "fortress_damage" in e:
            return f"Aftershock: +{e['fortress_damage']} damage if it damages a fortress"
    if t == "influence":
        if "discount" in e:
            return f"Influence: {e['family']}s cost you {e['discount']} gold less"
        if "vp_per_henchman" in e:
            return "Influence: +1 VP per Henchman at the end"
        if "vp_per_relic" in e:
            return "Influence: +1 VP per Power Relic in hand at the end"
        if "raid_extra" in e:
            return "Influence: raiding the town draws 1 extra Power Relic"
        if "fee_bonus" in e:
            return "Influence: +1 gold when you collect protection fees"
        if "relic_price" in e:
            return f"Influence: Power Relics cost you {e['relic_price']} gold"
        if "treasury_cap" in e:
            return f"Influence: your Treasury holds up to {e['treasury_cap']} gold"
    if t == "command":
        return "Command: " + {
            "move_own": f"move one of your troops (standing or lying) up to {e.get('distance', 1)} zone(s)",
            "move_enemy": "move one standing enemy troop to an adjacent zone",
            "rest_other": "rest one of your other Minions once",
            "repair": "repair 1 hit point of your fortress",
            "rebel": "add or remove 1 Rebel in the town"}[e["do"]]
    return t


@lru_cache(maxsize=None)
def relic_text(rid: str) -> str:
    """E.g. "free attack; +1 melee"."""
    r = relic(rid)
    inst = r["instant"]
    words = {"gain_gold": f"gain {inst.get('amount', 1)} gold", "repair": "repair 1 hit point",
             "remove_rebel": "remove 1 Rebel", "add_rebel": "add 1 Rebel",
             "rest": "rest one of your Minions", "free_attack": "free attack",
             "move_own": f"move one of your troops up to {inst.get('distance', 1)} zone(s)"}
    bonus = ", ".join(f"+{v} {k}" for k, v in r["bonus"].items())
    return f"{words[inst['do']]}; {bonus}"
