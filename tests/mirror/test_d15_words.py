"""The word index's rare terms, built from the rare words' positions, are the pairs the plain definition gives:
every rare word, and every two words in a row of which one is rare (SYNTHETIC records: copies of real ones)."""

from __future__ import annotations

import duckdb

from mirror.schema.datasets import DATASETS
from mirror.sync import SyncOptions, sync
from mirror.sync.loadsql import WORD, words_sql
from tests.mirror.synth import write_event_site


def _definition(common: str) -> str:
    """The (term, key) pairs by the definition: form every word and two-word term, keep those holding a rare word."""
    w = WORD.replace("'", "''")
    bigrams = "list_filter(list_transform(ws, lambda x, i: x || ' ' || ws[i + 1]), lambda x: x IS NOT NULL)"
    rare = lambda part: f"split_part(term, ' ', {part}) NOT IN (SELECT word FROM {common})"  # noqa: E731
    return (
        f"SELECT DISTINCT term, key FROM (SELECT key, unnest(list_concat(ws, {bigrams})) AS term FROM "
        f"(SELECT mdr_report_key AS key, regexp_extract_all(lower(text), '{w}') AS ws FROM device_event_text)) "
        f"WHERE {rare(1)} OR (contains(term, ' ') AND {rare(2)})"
    )


def test_rare_terms_equal_the_definition(tmp_path, settings):
    site = tmp_path / "site"
    write_event_site(site, ["2022q1", "2022q2"], 300)
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    path = settings.data_dir / "db" / "device_event.duckdb"
    ds = DATASETS["event"]
    words, common = ds.words_tables
    with duckdb.connect(str(path)) as con:
        # rare words: a few made-up tokens per text, at its start, middle and end, some shared by two texts
        con.execute(
            "UPDATE device_event_text SET text = 'zq' || (rowid % 97) || ' ' || text || ' Lot-X' || "
            "(rowid // 2) || ' end. qv' || (rowid % 13) WHERE rowid % 3 <> 0"
        )
        con.execute("CHECKPOINT")
        rows = con.execute("SELECT max(rowid) + 1 FROM device_event_text").fetchone()[0]
        for sql in words_sql(ds, rows, batch=250):  # several batches
            if sql == "DROP TABLE _terms":
                got = set(con.execute("SELECT term, key FROM _terms").fetchall())
            con.execute(sql)
        want = set(con.execute(_definition(common)).fetchall())
        n_words = con.execute(f"SELECT count(*) FROM {words}").fetchone()[0]
    assert got == want
    assert any(" " in t for t, _ in want) and any(" " not in t for t, _ in want) and n_words >= len(want) // 2
