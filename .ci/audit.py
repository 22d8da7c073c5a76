#!/usr/bin/env python3
"""Known vulnerabilities in the pinned dependencies (issue 12 §4), run by .ci/run before the tests.

pip-audit (in a venv of its own, so the project's venv holds only the project) checks every
``==`` pin of pyproject.toml (runtime and test extras) against PyPI's advisory data, then OSV's
if PyPI's could not be read. Exit 1 when a pinned version has a known vulnerability. When
neither service can be reached (a machine whose network allows only package downloads),
nothing is audited: the step says so plainly ("NOT AUDITED") and exits 0, so CI still runs the
tests; the lines it prints are the only evidence, so read them.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = "pip-audit==2.10.1"
VENV = Path(tempfile.gettempdir()) / "lair-pip-audit"


def pins() -> list[str]:
    """Every dependency line of pyproject.toml (runtime and test extras)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        deps.extend(extra)
    return deps


def tool() -> Path | None:
    """pip-audit's executable in its own venv, installed if missing; None if it cannot be."""
    exe = VENV / "bin" / "pip-audit"
    if exe.exists():
        return exe
    try:
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", TOOL], check=True,
                       timeout=600, capture_output=True, text=True)
    except subprocess.CalledProcessError as exc:
        print(f"pip-audit: NOT AUDITED: could not install {TOOL}:\n{exc.stderr[-2000:]}")
        return None
    except (subprocess.SubprocessError, OSError) as exc:
        print(f"pip-audit: NOT AUDITED: could not install {TOOL} ({exc})")
        return None
    return exe


def audit(exe: Path, requirements: Path, service: str) -> dict | None:
    """pip-audit's JSON report with ``service``; None when the service could not be used."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        try:
            subprocess.run([str(exe), "-r", str(requirements), "--no-deps", "--disable-pip",
                            "-s", service, "-f", "json", "-o", out.name,
                            "--progress-spinner", "off"],
                           capture_output=True, text=True, timeout=600)
            report = json.loads(Path(out.name).read_text() or "null")
        except (subprocess.SubprocessError, OSError, ValueError):
            return None
    if not isinstance(report, dict):  # it crashed (no network at all): no report written
        return None
    audited = [d for d in report.get("dependencies", []) if "skip_reason" not in d]
    return report if audited else None


def main() -> int:
    deps = pins()
    exe = tool()
    if exe is None:
        return 0
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write("\n".join(deps) + "\n")
    try:
        for service in ("pypi", "osv"):
            report = audit(exe, Path(req.name), service)
            if report is not None:
                break
        else:
            print(f"pip-audit: NOT AUDITED: neither PyPI's vulnerability data nor OSV could be "
                  f"read from this machine ({len(deps)} pinned dependencies unchecked)")
            return 0
    finally:
        Path(req.name).unlink()
    found = [(d["name"], d["version"], v["id"], ", ".join(v.get("fix_versions", [])) or "none")
             for d in report["dependencies"] for v in d.get("vulns", [])]
    skipped = [d["name"] for d in report["dependencies"] if "skip_reason" in d]
    audited = len(report["dependencies"]) - len(skipped)
    print(f"pip-audit ({service}): {audited} pinned dependencies audited"
          + (f", not found: {', '.join(skipped)}" if skipped else ""))
    for name, version, vuln, fixed in found:
        print(f"pip-audit: {name} {version}: {vuln} (fixed in: {fixed})")
    if found:
        print(f"pip-audit: {len(found)} known vulnerabilities: raise the pins in pyproject.toml")
        return 1
    print("pip-audit: no known vulnerabilities in the pinned dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
