"""A tiny two-phase game used only by the platform tests (never registered in the product).

Phase "bid": both seats secretly and simultaneously bid 1-3 (hidden until both bid). Phase
"take": from a pile of 7, seats alternate taking 1-2 counters, the higher bidder first (seat 0 on
a tie); whoever takes the last counter wins. Small, but it has what the service must handle: a
simultaneous secret choice, turns, hidden information, an end.
"""
from __future__ import annotations

from engines.base import Engine, Rng, event, seed_state


class ToyEngine(Engine):
    id = "toy"
    title = "Toy Nim"
    min_players = 2
    max_players = 2
    version = 1

    def _setup(self, players, options, seed):
        return {"rng": seed_state(seed), "log": [event("The toy match begins.")], "phase": "bid",
                "round": 1, "bids": [None, None], "pile": 7, "turn": None, "winner": None}

    def prompts(self, state):
        if state["winner"] is not None:
            return {}
        if state["phase"] == "bid":
            return {s: {"kind": "bid", "text": "Bid 1-3 in secret"}
                    for s in range(2) if state["bids"][s] is None}
        return {state["turn"]: {"kind": "take", "text": "Take 1 or 2"}}

    def legal_actions(self, state, seat):
        if seat not in self.prompts(state):
            return []
        if state["phase"] == "bid":
            return [{"type": "bid", "n": n} for n in (1, 2, 3)]
        return [{"type": "take", "n": n} for n in (1, 2) if n <= state["pile"]]

    def _apply(self, state, seat, action):
        if action["type"] == "bid":
            state["bids"][seat] = action["n"]
            state["log"].append(event(f"You bid {action['n']}.", to=[seat]))
            state["log"].append(event(f"Seat {seat} bid.", to=[1 - seat]))
            if None not in state["bids"]:
                state["phase"] = "take"
                state["turn"] = 1 if state["bids"][1] > state["bids"][0] else 0
                state["log"].append(event(f"Bids revealed: {state['bids']}.", irreversible=True))
        else:
            state["pile"] -= action["n"]
            state["log"].append(event(f"Seat {seat} takes {action['n']}."))
            if state["pile"] == 0:
                state["winner"] = seat
            else:
                state["turn"] = 1 - seat

    def result(self, state):
        if state["winner"] is None:
            return None
        w = state["winner"]
        return {"ranks": [[w], [1 - w]], "scores": {str(w): 1, str(1 - w): 0},
                "tiebreak": "", "breakdown": {str(w): {"last counter": 1}}}

    def _game_view(self, state, viewer, reveal):
        bids = state["bids"]
        shown = [b if (reveal or state["phase"] == "take" or viewer == s) else (b is not None)
                 for s, b in enumerate(bids)]
        return {"pile": state["pile"], "bids": shown, "turn": state["turn"]}

    def determinize(self, state, viewer, rng: Rng):
        new = super().determinize(state, viewer, rng)
        if new["phase"] == "bid":
            for s in range(2):
                if s != viewer and new["bids"][s] is not None:
                    new["bids"][s] = rng.choice([1, 2, 3])
        return new

    def describe(self, state, action):
        return f"{action['type'].title()} {action['n']}"


TOY = ToyEngine()
