"""Freeze a game's live rules before a version bump: ``python -m tests.records.freeze_version
<game> [...]`` (docs/versioning.md, step 1).

For a game whose live engine is version N it

- copies the package ``engines/<game>/`` (its code and ``data/``; not ``legacy/``, caches or the
  Markdown docs) to ``engines/<game>/legacy/v<N>/``, with a README saying what it is;
- checks that the copy imports only itself and the shared contract (:func:`foreign_imports`),
  so later edits to the live package cannot change the frozen rules;
- moves the golden records of version N from ``tests/records/<game>/*.json`` to
  ``tests/records/<game>/v<N>/``, where they keep checking the frozen copy.

Then bump ``version`` in the live engine, change the rules, write the changelog line in the
game's README and re-record: ``python -m tests.records.make_records <game>``.
"""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

from engines import registry

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).resolve().parent

#: Modules outside its own package a frozen copy may import: the engine contract and the rules
#: help plumbing every version shares (they are checked by every version's golden records), and
#: the hard bots' game-agnostic search (a frozen ``bots.py`` passes it its own ``SearchSpec``;
#: a bot only chooses among the legal actions, so the search changes no stored replay).
SHARED = ("engines.base", "engines.rules_help", "engines.search")


def foreign_imports(package: Path) -> list[str]:
    """``"file:line: import"`` for every import in ``package``'s Python files that reaches
    another part of ``engines`` than :data:`SHARED` (a live game package above all), or climbs
    out of the package with ``..``. Empty when the package is self-contained."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                bad = node.level > 1 or (node.level == 0 and _foreign(node.module or ""))
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
                bad = any(_foreign(n) for n in names)
            else:
                continue
            if bad:
                found.append(f"{path.relative_to(package)}:{node.lineno}: "
                             f"{'.' * getattr(node, 'level', 0)}{', '.join(names)}")
    return found


def _foreign(module: str) -> bool:
    return (module == "engines" or module.startswith("engines.")) and module not in SHARED


def freeze(game: str) -> Path:
    """Freeze ``game``'s live version; returns the new package's folder. Raises
    ``FileExistsError`` if that version is frozen already, ``ValueError`` if the copy would
    import the live package."""
    version = registry.get(game).version
    source = ROOT / "engines" / game
    legacy = source / "legacy"
    target = legacy / f"v{version}"
    if target.exists():
        raise FileExistsError(f"{target} exists: bump the live version before freezing again")
    problems = foreign_imports(source)
    if problems:
        raise ValueError("the live package must import itself relatively (from .x import y) "
                         "before it can be frozen:\n" + "\n".join(problems))
    if not (legacy / "__init__.py").exists():
        legacy.mkdir(exist_ok=True)
        (legacy / "__init__.py").write_text(
            f'"""Earlier rules versions of {game}, frozen: ``v<N>/`` is version N '
            '(docs/versioning.md).\n\nNever edit them: stored matches, replays and record '
            'files of that version run on them.\n"""\n')
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(
        "legacy", "__pycache__", "*.pyc", "*.md"))
    (target / "README.md").write_text(
        f"# {game}, rules version {version} (frozen)\n\n"
        f"A copy of `engines/{game}/` as it was at version {version}, kept so that matches, "
        "replays and record files made with that version run on the rules they were made "
        "with (docs/versioning.md). Never edit it: its golden records, "
        f"`tests/records/{game}/v{version}/`, check it replays exactly as before.\n")
    golden = RECORDS / game
    kept = golden / f"v{version}"
    kept.mkdir(parents=True, exist_ok=True)
    for path in sorted(golden.glob("*.json")):
        path.rename(kept / path.name)
    return target


def main(games: list[str]) -> None:
    for game in games:
        target = freeze(game)
        print(f"{game}: froze version {registry.get(game).version} as "
              f"{target.relative_to(ROOT)}; now bump `version` in engines/{game}/engine.py, "
              f"change the rules, add the changelog entry and re-record "
              f"(python -m tests.records.make_records {game})")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
