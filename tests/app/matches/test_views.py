"""The service's additions to engine views (app/matches/views.py)."""
from app.matches.views import name_players


def test_player_references_become_display_names():
    names = ["Morgana", "Baltazar <b>"]
    assert name_players("Player 1 hires Player 2's assistant", names) == \
        "Morgana hires Baltazar <b>'s assistant"  # escaping is the client's job (textContent)
    assert name_players("Player 3 and Player 12", names) == "Player 3 and Player 12"
    assert name_players("Player 2", [None, None]) == "Player 2"


def _snapshot(game: str, players: int, state: dict):
    from app.matches.service import SeatInfo, Snapshot
    from app.models import Match

    match = Match(id="m", game=game, players=players, status="active", state=state,
                  version=0, host_id="u0", spectator_chat_open=False)
    seats = [SeatInfo(seat=i, user_id=f"u{i}", name=f"P{i}", bot=None)
             for i in range(players)]
    return Snapshot(match=match, seats=seats)


def test_the_other_seats_wording_of_a_private_event_is_marked_others():
    """Evil Corp. 2p: "You drew …" goes to the drawer and "Player 1 drew 5 tile(s)" to the
    other seat, which is one seat: the view marks it ``others`` so the table does not tag it
    "only you" (new-user trial, session 3); the private line stays unmarked."""
    from app.matches.views import build_views
    from engines import registry

    engine = registry.get("evil_corp")
    state = engine.setup(2, engine.options().model_dump(), 7)
    views = build_views(engine, _snapshot("evil_corp", 2, state), state, 0, [0, 1, None])
    for seat in (0, 1):
        log = views[seat]["log"]
        mine = [e for e in log if e["to"] == [seat]]
        assert sorted(e["text"].startswith("You drew") for e in mine) == [False, True]
        for e in mine:  # the drawer's own line is private, the other's draw is not
            assert bool(e.get("others")) == (not e["text"].startswith("You drew"))
    # Spectators read the public wording too (issue 14 item 11; rules version 2), never the
    # private line.
    seen = views[None]["log"]
    assert not any(e["text"].startswith("You drew") for e in seen)
    assert sum(1 for e in seen if e.get("others")) == 2


def test_others_wordings_follow_the_engines_conventions():
    """Before or after the private line (Covil logs the public wording first); two private
    lines for different seats (Covil's set-up relics) are both private."""
    from app.matches.views import _others_wordings

    def ev(text, to):
        return {"text": text, "to": to}

    covil = [ev("Covil on board A.", "all"), ev("Player 1 draws 2 Power Relic(s).", [1, 2]),
             ev("You draw P01, P02.", [0]), ev("You receive Power Relics P03.", [1]),
             ev("You receive Power Relics P04.", [2]), ev("Player 3 passes.", "all")]
    assert _others_wordings(covil, 0, 3) == {id(covil[1])}
    assert _others_wordings(covil, 2, 3) == set()  # only from ``start`` on
    setup = [ev("You receive Power Relics P18.", [0]), ev("You receive Power Relics P10.", [1])]
    assert _others_wordings(setup, 0, 2) == set()


def test_counts_read_as_words_in_views_while_stored_texts_keep_their_form():
    """The engines write counts "5 tile(s)"; viewers read "5 tiles", "1 tile". A seat's or a
    team's number is not a count ("Player 1 own(s) …" keeps its verb), nor is a digit at the
    end of a seat's name (counts are resolved before the names are put in)."""
    from app.matches.views import name_players, plurals

    assert plurals("Player 1 drew 5 tile(s).") == "Player 1 drew 5 tiles."
    assert plurals("Player 2 draws 1 Power Relic(s) (start).") == \
        "Player 2 draws 1 Power Relic (start)."
    assert plurals("with 2 player(s) and 1 dummy player(s).") == \
        "with 2 players and 1 dummy player."
    assert plurals("Team 1 own(s) 2 victory tokens.") == "Team 1 own(s) 2 victory tokens."
    assert name_players("Player 1 own(s) 2 victory tokens.", ["Agent 7"]) == \
        "Agent 7 own(s) 2 victory tokens."
    assert name_players("Player 1 repairs 1 hit point(s).", ["Bot 1"]) == \
        "Bot 1 repairs 1 hit point."


def test_views_read_names_where_the_stored_texts_keep_evil_corp_codes():
    """Issue 14 item 3 ("Names, not codes"): the stored log and the action labels keep the
    catalogue ids and cell ids (a rules change otherwise); every view's log, labels, prompt
    and seat summaries read the names of ``Engine.display_names()`` instead."""
    import re

    from app.matches.views import build_views
    from engines import registry
    from engines.evil_corp import data

    engine = registry.get("evil_corp")
    state = engine.setup(2, engine.options().model_dump(), 7)
    seat = next(iter(engine.prompts(state)))
    play = next(a for a in engine.legal_actions(state, seat) if a["type"] == "play"
                and a["cell"].startswith("raid"))
    state, _ = engine.apply(state, seat, play)
    code = re.compile(r"\b(?:[BRY]\d\d|S[BRY]\d?)\b|\b(?:raid|port)-\d\b")
    assert any(code.search(e["text"]) for e in state["log"])  # stored: codes
    views = build_views(engine, _snapshot("evil_corp", 2, state), state, 1, [0, 1, None])
    name = engine.display_names()[data.TILES[play["tile"]]["id"]]  # the monster just played
    for view in views.values():
        texts = [e["text"] for e in view["log"]] + view["labels"] + [
            v for s in view["seats"] for v in s.values() if isinstance(v, str)]
        if view["prompt"]:
            texts.append(view["prompt"]["text"])
        assert not [t for t in texts if code.search(t)]
        assert any(name in t and "raid cell" in t for t in texts)


def test_a_skipped_effect_names_its_choice_in_words():
    """The stored "no possible choice for hire fx" line reads without the frame's code."""
    from app.matches.views import game_namer
    from engines import registry

    named = game_namer(registry.get("evil_corp"))
    assert named("Player 1: no possible choice for hire fx; the effect is skipped.") == \
        "Player 1: no possible choice for a hire; the effect is skipped."
    assert named("Player 2: no possible choice for move dest; the effect is skipped.") == \
        "Player 2: no possible choice for a cell to move to; the effect is skipped."
    # every kind effects.push_choice can skip reads as words (the table review's "no possible
    # choice for return to bag"); a one-word kind only after "choice for"
    import re

    from engines.evil_corp import effects
    kinds = set(re.findall(r'push_choice\(state, \{"kind": "(\w+)"', open(effects.__file__).read()))
    assert len(kinds) >= 12, kinds
    for kind in kinds:
        line = named(f"Player 1: no possible choice for {kind.replace('_', ' ')}; the effect is skipped.")
        assert re.fullmatch(r"Player 1: no possible choice for (a|an|the) [a-z' ]+; the effect is skipped\.",
                            line), (kind, line)
    assert named("Player 1 may remove a monster.") == "Player 1 may remove a monster."


def test_a_game_without_display_names_reads_its_texts_unchanged():
    from app.matches.views import game_namer
    from engines.base import Engine

    class Plain(Engine):
        id = "plain"

    assert game_namer(Plain())("Player 1 plays B07 on raid-1.") == "Player 1 plays B07 on raid-1."


def test_a_frozen_rules_version_reads_the_live_versions_names():
    """Names are presentation: a match on Evil Corp.'s frozen version 1 (made before monsters
    had names) reads the same names as the live version, not its catalogue codes."""
    from app.matches.views import game_namer
    from engines import registry

    old, live = registry.get("evil_corp", 1), registry.get("evil_corp")
    assert old.version < live.version and not old.display_names()
    text = "Player 1 puts B07 into play: raid-1."
    assert game_namer(old)(text) == game_namer(live)(text) != text


def test_action_labels_name_the_seats_they_refer_to(monkeypatch):
    """New-user trial (session 13): Evil Corp.'s "Choose Player 2" and Covil's "Attack Player
    1's standing troop in B" reached the table's buttons and the hint's words; labels now name
    seats as the log does."""
    from app.matches.views import build_views
    from engines import registry

    engine = registry.get("evil_corp")
    state = engine.setup(2, engine.options().model_dump(), 7)
    monkeypatch.setattr(type(engine), "describe",
                        lambda self, state, action: "Attack Player 2's troop; then 2 tile(s)")
    views = build_views(engine, _snapshot("evil_corp", 2, state), state, 0, [0, 1])
    labels = [label for seat in (0, 1) for label in views[seat]["labels"]]
    assert labels and all(label == "Attack P1's troop; then 2 tiles" for label in labels), labels
