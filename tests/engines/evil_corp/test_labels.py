"""describe(): every legal action has a readable label in the rulebook's words."""
from engines.evil_corp import ENGINE
from tests.engines.harness import playout

WORDS = ("Put", "Activate", "Hire", "Pass", "Skip", "Flip", "Send", "Move", "Summon", "Discard",
         "Return", "Remove", "Reveal", "Choose", "Use", "Keep")


def test_every_legal_action_has_a_label():
    """Engine contract: describe(state, action) for prompt-bar buttons and the log."""
    seen = set()

    def check(state, step):
        for seat in ENGINE.prompts(state):
            for a in ENGINE.legal_actions(state, seat):
                text = ENGINE.describe(state, a)
                assert text.startswith(WORDS), (a, text)
                seen.add(a["type"])

    for players in (2, 3, 4):
        playout(ENGINE, players, {}, 21, on_state=check)
    assert {"play", "activate", "hire", "pass"} <= seen
