"""Stored log lines in words (issue 14, item 3 "Names, not codes"; docs/renderer-contract.md
`logText`): lines whose stored text is a rules-version matter read as the board and the rulebook
say, through the renderers' `logText`, in the live table and the replay alike. A new user read
"takes 2 gold from the redblue port cargo" (Evil Corp.) and "Income: +1 icon, -0 Free Rats
(0 -> 1)" (Drops of Evil)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

LINES = {
    "evil_corp": [
        ("Player 2 takes 2 gold from the redblue port cargo of board 1.",
         "Player 2 takes 2 gold from the red-or-blue port cargo of board 1."),
        ("Player 1 takes 1 gold from the yellow port cargo of board 3.",
         "Player 1 takes 1 gold from the yellow port cargo of board 3."),
    ],
    "covil": [
        # Night, 3.5 "Rebels Retaliate": the stored line counts with "(s)"; the verb agrees too
        # (a new user read "1 Rebel join the town"), and "defense" is the rulebook's spelling
        ("1 Rebel(s) join the town (2 there).", "1 Rebel joins the town (2 there)."),
        ("1 Rebel join the town (2 there).", "1 Rebel joins the town (2 there)."),
        ("2 Rebel(s) join the town (5 there).", "2 Rebels join the town (5 there)."),
        ("Combat in E: attack 3 against defence 2.", "Combat in E: attack 3 against defense 2."),
        # the board by its name, as the lobby and the waiting room say it (not "board A")
        ("Covil on board A (Water Town) with 2 players.", "Covil on the Water Town board with 2 players."),
    ],
    "drops_of_evil": [
        # Income Phase: "you gain 1 Poison Point for each Income icon you have revealed on your
        # Alchilab. However, you lose 1 Poison Point for each Rat you have in your Free Rats space."
        ("Player 1 Income: +1 icons, -0 Free Rats (0 -> 1)",
         "Player 1 Income: 1 Income icon: 0 \u2192 1 Poison Point"),
        ("Player 3 Income: +3 icons, -1 Free Rats (4 -> 6)",
         "Player 3 Income: 3 Income icons, 1 Free Rat: 4 \u2192 6 Poison Points"),
        ("Player 2 Income: +0 icons, -2 Free Rats (1 -> 0)",
         "Player 2 Income: 0 Income icons, 2 Free Rats: 1 \u2192 0 Poison Points"),
        # a Scroll by its Resource's name, as the board labels it (new-user trial: "rat Scroll")
        ("Player 1 completes column 2: Owl Claw, rat Scroll (+1 Toxicity)",
         "Player 1 completes column 2: Owl Claw, Rat Scroll (+1 Toxicity)"),
        ("Player 2 takes Distiller Bonus scorpion Scroll (+2 Toxicity)",
         "Player 2 takes Distiller Bonus Scorpion Tail Scroll (+2 Toxicity)"),
        ("Player 2 gains a Scroll", "Player 2 gains a Scroll"),
    ],
}

#: What of a view the lines need: Drops of Evil names each Resource as its board does.
VIEWS = {"drops_of_evil": {"game": {"geometry": {"names": {
    "owl": "Owl Claw", "rat": "Rat", "scorpion": "Scorpion Tail"}}}}}


@pytest.mark.parametrize("game", sorted(LINES))
def test_stored_lines_read_in_the_rulebooks_words(lair_server, browser, game):
    page = browser.new_page()
    try:
        page.goto(lair_server + "/rules/" + game)
        got = page.evaluate(
            """async ([url, lines, view]) => {
                 const r = await import(url);
                 return lines.map((t) => r.logText(t, view));
               }""",
            [f"/static/games/{game}/renderer.js", [stored for stored, _ in LINES[game]],
             VIEWS.get(game, {"game": {}})])
        assert got == [shown for _, shown in LINES[game]]
    finally:
        page.close()
