"""A 3-4 seat toy game for the pace tests (resign with more seats, teams, votes); never in the
product. Seats take 1 or 2 counters in turn from a pile of 9; whoever takes the last one wins
(with 4 seats: their team, seats 0+2 against 1+3)."""
from __future__ import annotations

from engines.base import Engine, event, seed_state


class Toy3Engine(Engine):
    id = "toy3"
    title = "Toy Pile"
    min_players = 3
    max_players = 4
    teams = {4: [[0, 2], [1, 3]]}

    def _setup(self, players, options, seed):
        return {"rng": seed_state(seed), "log": [event("The pile has 9 counters.")],
                "players": players, "pile": 9, "turn": 0, "winner": None}

    def prompts(self, state):
        if state["winner"] is not None:
            return {}
        return {state["turn"]: {"kind": "take", "text": "Take 1 or 2"}}

    def legal_actions(self, state, seat):
        if seat not in self.prompts(state):
            return []
        return [{"type": "take", "n": n} for n in (1, 2) if n <= state["pile"]]

    def _apply(self, state, seat, action):
        state["pile"] -= action["n"]
        state["log"].append(event(f"Player {seat + 1} takes {action['n']}."))
        if state["pile"] == 0:
            state["winner"] = seat
        else:
            state["turn"] = (seat + 1) % state["players"]

    def result(self, state):
        w = state["winner"]
        if w is None:
            return None
        n = state["players"]
        if n == 4:
            win = sorted([w, (w + 2) % 4])
            return {"ranks": [win, sorted(set(range(4)) - set(win))],
                    "scores": {str(s): int(s in win) for s in range(4)}, "tiebreak": "",
                    "breakdown": None}
        rest = [s for s in range(n) if s != w]
        return {"ranks": [[w], rest], "scores": {str(s): int(s == w) for s in range(n)},
                "tiebreak": "", "breakdown": None}

    def _game_view(self, state, viewer, reveal):
        return {"pile": state["pile"], "turn": state["turn"]}

    def describe(self, state, action):
        return f"Take {action['n']}"


TOY3 = Toy3Engine()
