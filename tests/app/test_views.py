"""The service's additions to engine views (app/matches/views.py)."""
from app.matches.views import name_players


def test_player_references_become_display_names():
    names = ["Morgana", "Baltazar <b>"]
    assert name_players("Player 1 hires Player 2's assistant", names) == \
        "Morgana hires Baltazar <b>'s assistant"  # escaping is the client's job (textContent)
    assert name_players("Player 3 and Player 12", names) == "Player 3 and Player 12"
    assert name_players("Player 2", [None, None]) == "Player 2"
