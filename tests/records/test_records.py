"""Golden records (docs/design.md): every stored match replays to its stored final-state hash, on
the rules version it was recorded with (docs/versioning.md).

``tests/records/<game>/*.json`` are the live version's records; ``tests/records/<game>/v<N>/``
keep the records of version N, frozen with its rules under ``engines/<game>/legacy/v<N>/``.
A failure means a rules change altered how an old action log replays: bump the game's
``version`` on purpose (``python -m tests.records.freeze_version <game>``, then bump) and
re-record with ``python -m tests.records.make_records <game>``.
"""
from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from engines import registry
from engines.records import replay_record, state_hash

HERE = Path(__file__).resolve().parent
RECORDS = sorted(HERE.glob("*/*.json")) + sorted(HERE.glob("*/v*/*.json"))


def test_there_are_records_for_every_hosted_game_and_version():
    for game in registry.GAME_PACKAGES:
        assert list((HERE / game).glob("*.json")), f"no records of live {game}"
        for version in registry.versions(game)[:-1]:
            assert list((HERE / game / f"v{version}").glob("*.json")), \
                f"no records of {game} version {version}"


@pytest.mark.parametrize("path", RECORDS, ids=[str(p.relative_to(HERE).with_suffix(""))
                                               for p in RECORDS])
def test_record_replays_to_its_final_hash(path: Path):
    record = orjson.loads(path.read_bytes())
    live = registry.get(record["game"])
    folder = path.parent.name
    expected = int(folder[1:]) if folder != record["game"] else live.version
    if record["version"] != expected:
        pytest.fail(f"{path.name} was recorded with version {record['version']}; "
                    f"it is kept as version {expected}: regenerate the records on purpose")
    engine = registry.get(record["game"], record["version"])
    assert engine.version == record["version"]
    final = replay_record(record)
    assert state_hash(final) == record["final_hash"]
    assert engine.result(final) == record["result"]
