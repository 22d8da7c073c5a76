"""Covil against the shared engine contract (tests/engines/harness.py)."""
from engines.covil import ENGINE
from tests.engines.harness import engine_suite

CONFIGS = [
    (1, {"dummies": 1}),
    (1, {"dummies": 2}),
    (1, {"dummies": 1, "dummy_next_to_you": True}),
    (2, {"board": "A"}),
    (2, {"board": "B"}),
    (3, {"board": "A"}),
    (3, {"board": "B"}),
    (4, {"board": "A"}),
]

TestCovilContract = engine_suite(ENGINE, configs=CONFIGS, games=8, leak_games=3, leak_every=5)
