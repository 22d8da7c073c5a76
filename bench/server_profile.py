"""Sampling profile of the running server with py-spy (if installed in the venv or on PATH).

``PySpy(tmp).start(pid, seconds)`` starts ``py-spy record --format raw`` (collapsed stacks, idle
samples excluded, so shares are of the server's CPU time); ``finish(handle)`` waits and returns
``{"samples", "self": [{"function", "share"}], "self_by_package": [...], "inclusive_project":
[...]}``: own time per function, own time per package (app, engines, sqlalchemy, asyncpg,
websockets, ...), and time under each project function (app/, engines/) including callees.
Any failure (no permission to attach, no py-spy) returns ``{"error": ...}``.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]



class PySpy:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.root = ROOT  # the served tree (frames under it are named app/..., engines/...)
        venv = Path(sys.executable).parent / "py-spy"
        self.exe = str(venv) if venv.exists() else shutil.which("py-spy")

    def start(self, pid: int, seconds: float):
        if not self.exe:
            return {"error": "py-spy not installed"}
        out = self.tmp / f"pyspy-{pid}.txt"
        proc = subprocess.Popen([self.exe, "record", "-p", str(pid), "-d", str(int(seconds)),
                                 "-r", "97", "-f", "raw", "-o", str(out), "--nonblocking"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return proc, out

    def finish(self, handle, top: int = 15) -> dict:
        if isinstance(handle, dict):
            return handle
        proc, out = handle
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            return {"error": "py-spy timed out"}
        if not out.exists():
            return {"error": (err or b"").decode(errors="replace")[-300:]}
        own, incl, pkg, total = Counter(), Counter(), Counter(), 0
        for line in out.read_text().splitlines():
            stack, _, n = line.rpartition(" ")
            if not stack or not n.isdigit():
                continue
            n = int(n)
            frames = stack.split(";")
            total += n
            own[_short(frames[-1], root=self.root)] += n
            pkg[_package(frames[-1], self.root)] += n
            for f in set(_short(f, lines=False, root=self.root) for f in frames):
                if "(app/" in f or "(engines/" in f:
                    incl[f] += n
        share = lambda c: [{"function": f, "share": round(k / total, 3)}  # noqa: E731
                           for f, k in c.most_common(top)]
        return {"samples": total, "self": share(own), "self_by_package": share(pkg),
                "inclusive_project": share(incl)}


def _package(frame: str, root: Path = ROOT) -> str:
    """The top-level package of a frame: ``app``, ``engines``, ``websockets``, ``asyncio``..."""
    path = _short(frame, lines=False, root=root).rpartition("(")[2].rstrip(")")
    return path.lstrip("./").split("/", 1)[0] or path


def _short(frame: str, lines: bool = True, root: Path = ROOT) -> str:
    """``func (/long/path/site-packages/pkg/mod.py:12)`` -> ``func (pkg/mod.py:12)`` (without
    ``:12`` when ``lines`` is false: one entry per function for inclusive time); ``root``: the
    served tree, cut from its frames."""
    if not lines:
        frame = frame.rsplit(":", 1)[0] + ")" if frame.endswith(")") and ":" in frame else frame
    for cut in ("site-packages/", str(root) + "/", "lib/python3"):
        if cut in frame:
            head, _, tail = frame.partition("(")
            return f"{head}({tail.split(cut, 1)[1]}"
    return frame
