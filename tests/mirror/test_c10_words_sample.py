"""The common words of the word index are counted on a sample of the texts (SAMPLE_ROWS in SAMPLE_BLOCKS blocks
spread over the table). Another sample gives another set of common words, but every text search answers the same:
the API scans the texts for a common word and looks the others up in the index.

SYNTHETIC event sites (copies of real sample records, tests/mirror/synth.py) with made-up rare words per record."""

from __future__ import annotations

import shutil

import duckdb

from mirror import Store, verify
from mirror.schema.datasets import DATASETS
from mirror.sync.loadsql import SAMPLE_BLOCKS, _sample, words_sql
from tests.mirror.test_c6_words_incremental import _answers, _searches, _site, _sync


def _common(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {w for (w,) in con.execute("SELECT word FROM device_event_text_common").fetchall()}


def test_a_smaller_sample_moves_common_words_but_not_one_answer(tmp_path):
    data, small = tmp_path / "data", tmp_path / "small"
    _sync(data, _site(tmp_path / "site", "2025-01-01", "2021q2"))
    shutil.copytree(data, small)
    ds = DATASETS["event"]
    with duckdb.connect(str(small / "db" / "device_event.duckdb")) as con:
        rows = con.execute("SELECT max(rowid) + 1 FROM device_event_text").fetchone()[0]
        full = _common(con)
        for sql in words_sql(ds, rows, sample=50):  # 25 blocks of 2 texts: far fewer than the file holds
            con.execute(sql)
        con.execute("CHECKPOINT")
        sampled = _common(con)
    moved = sorted(full ^ sampled)
    assert rows > 1000 and len(moved) >= 5 and full & sampled  # the two sets differ, and overlap
    mixed = sorted(full - sampled)[:5] + sorted(sampled - full)[:5]
    searches = _searches(data) + [f"mdr_text.text:{w}" for w in mixed]
    searches += [f'mdr_text.text:"{a}+{b}"' for a, b in zip(mixed, sorted(full & sampled)[:5])]
    got, want = _answers(small, searches), _answers(data, searches)
    assert got == want
    assert sum(1 for status, total, _ in want.values() if status == 200 and total > 0) >= 20
    assert verify(Store(small))["ok"]


def test_the_sample_is_spread_over_the_table():
    sql = _sample("t", "k", 1_000_000, 12_800)
    blocks = sql.split(" UNION ALL ")
    bounds = [(int(b.split("BETWEEN ")[1].split(" AND ")[0]), int(b.split(" AND ")[1])) for b in blocks]
    assert SAMPLE_BLOCKS <= len(bounds) <= SAMPLE_BLOCKS + 1
    assert all(hi - lo + 1 == 12_800 // SAMPLE_BLOCKS for lo, hi in bounds)
    assert bounds[0][0] == 0 and bounds[-1][0] > 900_000  # from the first rows to the last
    assert _sample("t", "k", 20_000, 12_800) == 'SELECT "k" AS key, "text" FROM "t"'  # fewer than two samples: all
