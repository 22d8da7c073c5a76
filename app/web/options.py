"""A game's options as form fields: the lobby's create-match form and the waiting room's list.

The fields come from the game's pydantic options model (``Engine.options``), so a game adds an
option by adding a field there; nothing here names a game.
"""
from __future__ import annotations

from typing import Any, Literal, get_args, get_origin

from engines.base import Engine


def option_fields(engine: Engine) -> list[dict[str, Any]]:
    """The create-match form fields of a game's options model.

    ``[{name, label, kind: "select"|"bool"|"int"|"seat", choices, default, help}]`` derived from
    the pydantic fields (``Literal`` -> select, ``bool`` -> checkbox, ``int`` -> number,
    ``int | None`` bounded by ``ge``/``le`` -> a select of seats with "none", values 0-based).
    """
    fields = []
    for name, info in engine.options.model_fields.items():
        ann = info.annotation
        args = get_args(ann)
        if set(args) == {int, type(None)}:
            bounds = {type(m).__name__: m for m in info.metadata}
            low = getattr(bounds.get("Ge"), "ge", 0)
            high = getattr(bounds.get("Le"), "le", engine.max_players - 1)
            fields.append({"name": name, "label": info.title or name.replace("_", " ").capitalize(),
                           "default": info.default, "help": info.description or "",
                           "kind": "seat", "choices": list(range(low, high + 1)),
                           **_player_marks(info)})
            continue
        field: dict[str, Any] = {"name": name, "label": info.title or name.replace("_", " ")
                                 .capitalize(), "default": info.default,
                                 "help": info.description or "", **_player_marks(info)}
        if get_origin(ann) is Literal:
            field.update(kind="select", choices=list(get_args(ann)))
        elif ann is bool:
            field.update(kind="bool")
        elif ann is int:
            field.update(kind="int")
        else:
            continue
        fields.append(field)
    return fields


def _player_marks(info) -> dict[str, Any]:
    """What a game's options model says about the player counts a field applies to:
    ``solo_only`` (a setting of solo games only: its title ends with "(solo)", or
    ``json_schema_extra`` ``{"solo": "only"}``), ``solo_value`` (the value a solo game always
    plays with, ``json_schema_extra`` ``{"solo_value": ...}``), ``players`` (the player
    counts it is a setting of, ``json_schema_extra`` ``{"players": [2]}``; absent: all),
    ``none`` (a seat option's words for no seat, ``{"none": "nobody"}``; absent: "—") and
    ``names`` (a select's words for its values, ``{"names": {"A": "Water Town"}}``: the lobby's
    choices and the waiting room's list show them; absent: the values)."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    title = (info.title or "").strip().lower()
    marks: dict[str, Any] = {"solo_only": extra.get("solo") == "only" or title.endswith("(solo)")}
    if "players" in extra:  # a setting of these player counts only
        marks["players"] = list(extra["players"])
    if "none" in extra:  # a seat option's words for "no seat chosen"
        marks["none"] = str(extra["none"])
    if "solo_value" in extra:
        marks["solo_value"] = extra["solo_value"]
    if "names" in extra:  # a select's words for its values (Covil's boards by their names)
        marks["names"] = {str(k): str(v) for k, v in extra["names"].items()}
    return marks


def options_from_form(engine: Engine, form) -> dict[str, Any]:
    """The options the lobby's create form chose for ``engine`` (fields ``opt_<game>_<name>``;
    ``form``: the posted form, a mapping). An empty number field keeps the option's default
    (e.g. solo-only settings in a 2-player game). Raises ``ValueError`` with the words to show
    for a number field that is not a whole number."""
    options: dict[str, Any] = {}
    for field in option_fields(engine):
        key = f"opt_{engine.id}_{field['name']}"
        if field["kind"] == "bool":
            options[field["name"]] = key in form
        elif field["kind"] == "seat":
            value = str(form.get(key) or "")
            options[field["name"]] = int(value) if value.isdigit() else None
        elif field["kind"] == "int":
            value = str(form.get(key) or "").strip()
            if value:
                try:
                    options[field["name"]] = int(value)
                except ValueError:
                    raise ValueError(f"{field['label']}: a whole number, please.") from None
        elif key in form:
            options[field["name"]] = form[key]
    return options


def describe_options(engine: Engine, options: dict[str, Any],
                     players: int | None = None) -> list[tuple[str, str]]:
    """``[(label, value)]`` of a match's options as the create form showed them: a solo match
    (``players`` 1) shows the values solo play forces and its solo settings; a multiplayer
    match leaves the solo settings out."""
    out = []
    for field in option_fields(engine):
        if field["solo_only"] and players is not None and players > 1:
            continue
        if "players" in field and players is not None and players not in field["players"]:
            continue
        value = options.get(field["name"], field["default"])
        if players == 1 and "solo_value" in field:
            value = field["solo_value"]
        if field["kind"] == "seat":
            shown = field.get("none", "—") if value is None else f"Seat {value + 1}"
        elif field["kind"] == "bool":
            shown = "yes" if value else "no"
        else:
            shown = field.get("names", {}).get(str(value), str(value))
        out.append((field["label"], shown))
    return out
