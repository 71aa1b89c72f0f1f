"""The word index splits each distinct text once: records that share a narrative (the same text on many records,
twice in one record, in several batches and partitions) still get every term of it, as the definition gives them
(SYNTHETIC records: copies of real ones)."""

from __future__ import annotations

import duckdb

from mirror.schema.datasets import DATASETS
from mirror.sync import SyncOptions, sync
from mirror.sync.loadsql import words_sql
from tests.mirror.synth import write_event_site
from tests.mirror.test_d15_words import _definition


def test_a_text_shared_by_many_records_gives_each_of_them_its_terms(tmp_path, settings):
    site = tmp_path / "site"
    write_event_site(site, ["2022q1", "2022q2"], 300)
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    path = settings.data_dir / "db" / "device_event.duckdb"
    ds = DATASETS["event"]
    with duckdb.connect(str(path)) as con:
        # pairs of rows (often one record's two texts) take one of eight shared narratives, each with its own rare
        # words: one narrative on a few records, in several batches
        con.execute(
            "UPDATE device_event_text SET text = 'Shared narrative ' || (rowid // 60 % 8) || ': pump zq' || "
            "(rowid // 60 % 8) || ' alarmed, lot XK' || (rowid // 60 % 8) || '.' WHERE rowid % 60 IN (0, 1)"
        )
        con.execute("CHECKPOINT")
        shared = con.execute(
            "SELECT count(*) FROM (SELECT text FROM device_event_text GROUP BY text HAVING count(DISTINCT "
            "mdr_report_key) > 1)"
        ).fetchone()[0]
        twice = con.execute(
            "SELECT count(*) FROM (SELECT mdr_report_key FROM device_event_text GROUP BY mdr_report_key, text "
            "HAVING count(*) > 1)"
        ).fetchone()[0]
        rows = con.execute("SELECT max(rowid) + 1 FROM device_event_text").fetchone()[0]
        for sql in words_sql(ds, rows, batch=170):  # several batches, so a shared text is met in each
            if sql == "DROP TABLE _terms":
                got = con.execute("SELECT term, key FROM _terms").fetchall()
            con.execute(sql)
        want = set(con.execute(_definition(ds.words_tables[1])).fetchall())
        keys_zq0 = {k for t, k in want if t == "zq0"}
        common = {w for (w,) in con.execute(f"SELECT word FROM {ds.words_tables[1]}").fetchall()}
    assert shared >= 3 and twice >= 1, (shared, twice)
    assert len(got) == len(set(got)), "a (term, record) pair twice in one batch"
    assert set(got) == want
    assert "zq0" not in common and len(keys_zq0) >= 3 and {k for t, k in got if t == "zq0"} == keys_zq0
