"""Shared plumbing of the games' rules help (each game's ``rules_help.py`` holds the wording).

A game's rules help is a module with ``PROMPT_RULES`` (prompt kind → section id of its rules
summary, ``data/rules_help.yaml``, served at ``/rules/<game>``) and ``illegal_reason(engine,
state, seat, action) -> str``; :class:`engines.base.Engine` uses it through ``rules_help``.
"""
from __future__ import annotations

from typing import Any, Callable

#: The answer for an action the game's wording has nothing specific to say about.
GENERIC = "That action is not allowed now."

Reason = Callable[[Any, dict, int, Any], "str | None"]


def section_ids(summary: dict, prompt_rules: dict[str, str]) -> list[str]:
    """The section ids of a rules summary (``{title, intro, sections: [{id, title, text}]}``).

    Raises ``ValueError`` if a prompt kind of ``prompt_rules`` names a section the summary does
    not have (a prompt must never link to nowhere); checked when the game is imported.
    """
    ids = [sec["id"] for sec in summary["sections"]]
    missing = set(prompt_rules.values()) - set(ids)
    if missing:
        raise ValueError(f"prompts link to sections the rules summary lacks: {sorted(missing)}")
    return ids


def never_raises(reason: Reason) -> Callable[[Any, dict, int, Any], str]:
    """Wrap a game's ``_reason(engine, state, seat, action) -> str | None`` into
    ``illegal_reason``: ``None`` or an action of an unexpected shape (missing keys, wrong types,
    unknown ids, which the wording code may trip on) get :data:`GENERIC`. Never raises."""

    def illegal_reason(engine: Any, state: dict, seat: int, action: Any) -> str:
        """Why ``action`` is not legal for ``seat`` now, in the rulebook's words."""
        try:
            return reason(engine, state, seat, action) or GENERIC
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return GENERIC

    illegal_reason.__module__ = reason.__module__
    return illegal_reason
