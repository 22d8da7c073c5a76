"""Contract tests (tests/engines/harness.py) for every player count and option of Evil Corp."""
from engines.evil_corp import ENGINE
from tests.engines.harness import engine_suite

TestContract = engine_suite(ENGINE, configs=[
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"balance_of_power_seat": 1}),
    (3, {"balance_of_power_seat": 2, "first_player": 0}),
    (4, {"balance_of_power_seat": 3, "first_player": 1}),
], games=6, leak_games=3, leak_every=5)
