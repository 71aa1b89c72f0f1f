"""The per-key digest of the change records: a key held by one record is that record's digest; a key held by
several records is one digest of all of them, whatever their order, and it changes when any of them changes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb

from mirror.schema.datasets import DATASETS
from mirror.surveil.changes import _digest_sql


def _md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


def _digests(path: Path, rows: list[tuple[str, str]]) -> dict[str, str]:
    table, key = DATASETS["recall"].table, DATASETS["recall"].key
    assert len(key) == 1, key
    with duckdb.connect(str(path)) as con:
        con.execute(f'CREATE OR REPLACE TABLE "{table}" ("{key[0]}" VARCHAR, record JSON)')
        con.executemany(f'INSERT INTO "{table}" VALUES (?, ?)', rows)
    with duckdb.connect() as con:
        con.execute(f"ATTACH '{path}' AS snap (READ_ONLY)")
        return dict(con.execute(_digest_sql("recall", "snap")).fetchall())


def test_a_single_record_key_is_its_record_and_a_shared_key_digests_all_its_records(tmp_path: Path) -> None:
    a, b, c = '{"n":1}', '{"n":2}', '{"n":3}'
    got = _digests(tmp_path / "one.duckdb", [("Z-1", a), ("Z-2", b), ("Z-2", c)])
    assert got["Z-1"] == _md5(a)
    assert got["Z-2"] == _md5(",".join(sorted([_md5(b), _md5(c)])))
    # the same records in another order give the same digests
    again = _digests(tmp_path / "two.duckdb", [("Z-2", c), ("Z-1", a), ("Z-2", b)])
    assert again == got
    # one of the shared key's records changes: only that key's digest changes
    changed = _digests(tmp_path / "three.duckdb", [("Z-1", a), ("Z-2", b), ("Z-2", '{"n":4}')])
    assert changed["Z-1"] == got["Z-1"] and changed["Z-2"] != got["Z-2"]
