"""Rules summary pages: ``GET /rules/{game_id}`` (HTML, anchors per section) and the data behind it.

Each game keeps its summary as data in ``engines/<game>/data/rules_help.yaml``::

    {title, rulebook, intro, sections: [{id, title, text}], provisional: {intro, items: [str]}}

``text`` is plain text: paragraphs separated by blank lines, lines starting with ``"- "`` form a
bulleted list. Nothing in it is HTML: the template escapes everything. The prompts of the engines
name a section id (``prompt["rule"]``), which the table links to as ``/rules/<game>#<id>``.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from app.web.deps import Page
from engines import registry

router = APIRouter()

RULES_FILE = "rules_help.yaml"


def blocks(text: str) -> list[dict[str, Any]]:
    """Split a section's plain text into ``[{"kind": "p", "text"} | {"kind": "ul", "items"}]``.

    Blank lines end a block; inside a chunk, runs of ``"- "`` lines become one list and other
    lines are joined into one paragraph (so "intro:\\n- a\\n- b" gives a paragraph then a list).
    """
    out: list[dict[str, Any]] = []
    for chunk in text.strip().split("\n\n"):
        for line in chunk.strip().splitlines():
            line = line.strip()
            if not line:
                continue
            if line.startswith("- "):
                if out and out[-1]["kind"] == "ul" and not out[-1].get("closed"):
                    out[-1]["items"].append(line[2:])
                else:
                    out.append({"kind": "ul", "items": [line[2:]]})
            elif out and out[-1]["kind"] == "p" and not out[-1].get("closed"):
                out[-1]["text"] += " " + line
            else:
                out.append({"kind": "p", "text": line})
        if out:
            out[-1]["closed"] = True  # the next chunk starts a new block
    for b in out:
        b.pop("closed", None)
    return out


def rules_path(game_id: str) -> Path | None:
    """The summary file of a hosted game (``None`` for an unknown game or a game without one).

    Only ids of the registry are looked up, so a request can never name another path."""
    engine = registry.ENGINES.get(game_id)
    if engine is None:
        return None
    package = sys.modules[type(engine).__module__].__file__
    if package is None:  # a namespace package: no folder of its own to look in
        return None
    path = Path(package).resolve().parent / "data" / RULES_FILE
    return path if path.is_file() else None


@lru_cache(maxsize=None)
def rules_summary(game_id: str) -> dict[str, Any] | None:
    """The parsed summary of ``game_id`` with each section's ``blocks`` (cached: data files
    change only with a deploy). ``None`` if the game has no summary. Raises ``yaml.YAMLError``
    or ``KeyError`` for a malformed file (a bug caught by the tests)."""
    path = rules_path(game_id)
    if path is None:
        return None
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    sections = [{"id": s["id"], "title": s["title"], "blocks": blocks(s["text"])}
                for s in raw["sections"]]
    prov = raw.get("provisional") or {}
    return {"game": game_id, "title": raw.get("title") or registry.ENGINES[game_id].title,
            "intro": raw.get("intro", ""), "rulebook": raw.get("rulebook", ""),
            "sections": sections,
            "provisional": {"intro": prov.get("intro", ""), "items": list(prov.get("items", []))}}


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules_page(game_id: str, page: Page) -> Response:
    """The rules summary of one game; 404 (plain message page) for an unknown game. Static
    content: no database access, no cookie needed."""
    summary = rules_summary(game_id)
    if summary is None:
        return page.message("Not found", "There is no rules summary for that game.", 404)
    others = [{"id": e.id, "title": e.title} for e in registry.ENGINES.values()
              if e.id != game_id and rules_path(e.id) is not None]
    return page.render("rules.html", rules=summary, others=others, user=None)
