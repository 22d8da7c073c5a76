"""A game's stylesheet is linked in the head of its table and replay pages (issue 14, Look):
the first drawing is styled. Drops of Evil's renderer injected drops.css from its module, and a
busy machine drew the Forest unstyled until it arrived (CI measured the Forest 338 px wide in a
338 px frame, with every scroll cue shown)."""
from __future__ import annotations

from app.web.templating import renderer_styles, renderer_url, templates


def test_the_stylesheets_beside_a_renderer_are_its_pages_styles():
    assert renderer_styles(renderer_url("drops_of_evil")) == ["/static/games/drops_of_evil/drops.css"]
    assert renderer_styles(renderer_url("covil")) == []  # (Covil's renderer carries its CSS inline)
    assert renderer_styles("/static/js/fallback-renderer.js") == []


def test_the_table_and_replay_templates_link_them_in_the_head():
    for name in ("table.html", "replay.html"):
        source = templates.env.loader.get_source(templates.env, name)[0]
        head = source.split("{% block head %}", 1)[1].split("{% endblock %}", 1)[0]
        assert "renderer_url|renderer_styles" in head, name


def test_a_games_stylesheets_are_listed_once_per_process(monkeypatch):
    """Every table and replay page asks for them: the folder is read once, not per page."""
    from pathlib import Path

    from app.web import templating
    templating._game_styles.cache_clear()
    globs = []
    real_glob = Path.glob

    def counting_glob(self, pattern):
        globs.append(self)
        return real_glob(self, pattern)

    monkeypatch.setattr(Path, "glob", counting_glob)
    url = renderer_url("drops_of_evil")
    for _ in range(3):
        assert renderer_styles(url) == ["/static/games/drops_of_evil/drops.css"]
    assert len(globs) == 1
    renderer_styles(url).append("/mutated.css")  # a caller's list is its own
    assert renderer_styles(url) == ["/static/games/drops_of_evil/drops.css"]
