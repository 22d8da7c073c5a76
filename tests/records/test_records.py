"""Golden records (DESIGN.md): every stored match replays to its stored final-state hash.

A failure means a rules change altered how an old action log replays: bump the game's
``version`` on purpose and regenerate with ``python -m tests.records.make_records <game>``.
"""
from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from engines import registry
from engines.records import replay_record, state_hash

RECORDS = sorted(Path(__file__).resolve().parent.glob("*/*.json"))


def test_there_are_records_for_every_hosted_game():
    games = {p.parent.name for p in RECORDS}
    assert set(registry.GAME_PACKAGES) <= games


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}/{p.stem}" for p in RECORDS])
def test_record_replays_to_its_final_hash(path: Path):
    record = orjson.loads(path.read_bytes())
    engine = registry.get(record["game"])
    if record["version"] != engine.version:
        pytest.fail(f"{path.name} was recorded with version {record['version']}; "
                    f"the engine is {engine.version}: regenerate the records on purpose")
    final = replay_record(record)
    assert state_hash(final) == record["final_hash"]
    assert engine.result(final) == record["result"]
