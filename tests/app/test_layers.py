"""The arrows between floors run one way (docs/design.md, "Layers"), checked on the source.

Engines know no web; telemetry (logs, events, metrics, the request context) sits below the
match domain, so the service can report through it; operator tools sit above the domain and
the domain never calls up into them. An import inside a function counts the same as one at the
top: a lazy import still draws the arrow.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported(folder: str) -> dict[str, set[str]]:
    """``{file relative to the repository: the absolute module names it imports}``."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize("folder, forbidden", [
    ("engines", ("app",)),
    ("app/telemetry", ("app.matches", "app.ops", "app.web", "app.realtime",
                       "app.main")),
    ("app/matches", ("app.ops", "app.web", "app.realtime",
                     "app.main")),
    # the wire knows the match service, never the pages or the operator tools
    ("app/realtime", ("app.web", "app.ops", "app.main")),
    # the pages know the service; the live tables are reached through app.state, not imports
    ("app/web", ("app.realtime", "app.ops", "app.main")),
])
def test_arrows_run_one_way(folder, forbidden):
    wrong = {f"{path} imports {name}"
             for path, names in imported(folder).items() for name in names
             if any(name == top or name.startswith(top + ".") for top in forbidden)}
    assert not wrong, sorted(wrong)


def test_the_check_sees_imports():
    """The scan itself finds imports (a scan that found nothing would pass every layer)."""
    ops = imported("app/ops")["app/ops/admin.py"]
    assert any(name.startswith("app.matches.") for name in ops)
    assert any("app.telemetry.events" in names for names in imported("app/matches").values())
