"""Determinism across processes: legal_actions must not depend on string hash order
(docs/design.md "Determinism": same seed + same actions -> identical state)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = """
import hashlib, orjson
from engines.base import Rng
from engines.drops_of_evil import ENGINE as E
s = E.setup(4, {}, 9); rng = Rng(9)
for _ in range(150):
    if E.result(s) is not None:
        break
    seat = rng.choice([x for x in sorted(E.prompts(s)) if E.legal_actions(s, x)])
    s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
print(hashlib.sha256(orjson.dumps(s, option=orjson.OPT_SORT_KEYS)).hexdigest())
"""


def test_same_playout_under_different_hash_seeds():
    outs = set()
    for hs in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hs, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT,
                             capture_output=True, text=True, check=True)
        outs.add(out.stdout.strip())
    assert len(outs) == 1
