"""Exact legality: the engines compare actions with ``==``, which JSON from a client can fool
(``{"n": 1.0}`` or ``{"n": true}`` equal ``{"n": 1}``). The server and the record import both
require a legal action of the very same JSON types (issue 6, hostile input)."""
from __future__ import annotations

from typing import Any

import orjson

from engines.base import Engine, IllegalAction


def _loose_scalars(action: Any) -> bool:
    """True if ``action`` holds a bool, a float or a 0/1 int anywhere: the values Python's
    ``==`` confuses (``1.0 == 1 == True``). Iterative: client JSON may be nested 1,000 deep."""
    todo = [action]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            todo.extend(x.values())
        elif isinstance(x, list):
            todo.extend(x)
        elif isinstance(x, (bool, float)) or (isinstance(x, int) and x in (0, 1)):
            return True
    return False


def require_exact(engine: Engine, state: dict, seat: int, action: Any) -> None:
    """The engines check legality with ``==``, which takes ``{"tile": 2.0}`` or ``{"n": true}``
    for ``{"tile": 2}``/``{"n": 1}``: the state would then hold a float (a crash later) or a
    bool. Require a legal action of the very same JSON types. Raises ``IllegalAction``."""
    if not _loose_scalars(action):
        return
    try:
        key = orjson.dumps(action, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:  # nested deeper than any action is
        raise IllegalAction("That is not one of your legal actions.") from None
    if not any(orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == key
               for a in engine.legal_actions(state, seat)):
        raise IllegalAction("That is not one of your legal actions.")
