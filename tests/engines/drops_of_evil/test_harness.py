"""Contract tests (docs/design.md "Tests every game must pass") for every player count and side."""
from engines.drops_of_evil import ENGINE
from tests.engines.harness import engine_suite

TestContract = engine_suite(
    ENGINE, configs=[(2, {"side": "A"}), (2, {"side": "B"}), (3, {}), (4, {})],
    games=2, leak_games=2, leak_every=23, max_actions=20000)
