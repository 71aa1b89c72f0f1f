"""Bring a dataset file up to the current layout: listed columns (`product_code_list`) and their summaries, key
and word indexes.

A file published by an older version lacks the listed columns. The API answers it anyway (it falls back to
the child tables and the record JSON), and `mirror sync` upgrades it: the staging file is built from the
published one with the columns added, rows in the same order (the default result order), then published
as any sync is. The indexes are made on every build before it is published (`finish`).

The summaries (`device_event_product_code_list_counts`: term, n; `..._days`: term, day, n) answer a count by
product code over all records, and a count by date_received of the records of one product code, without a scan.

The word index of event narratives (`device_event_text_words`: term, mdr_report_key) holds each word of the
texts and each two words in a row, split as the API splits them, with the records whose text holds them;
but not the common words (in more than 1% of the records, listed apart in `device_event_text_common`) nor
two common words in a row. A search for one word or a two-word phrase that holds a rare word is answered
from it exactly (the same tokens, so the same records); other text searches scan the texts as before.
"""

from __future__ import annotations

from pathlib import Path

from .datasets import Dataset
from .load import ensure_tables
from .loadsql import listed_sql, summary_sql, words_sql
from .store import Connection, Store

__all__ = ["outdated", "copy_upgraded", "finish"]


def outdated(store: Store, path: Path, ds: Dataset, indexes: bool = True) -> list[str]:
    """What the file at `path` lacks of the current layout: listed columns and (unless not asked: a build in
    progress has none yet) the key index, by name; [] when it has them all, or holds no table of the dataset."""
    if not (ds.listed or ds.key_index or ds.words) or not path.exists():   # (summaries come with listed)
        return []
    con = store.open_file(path)
    try:
        have = {c for (c,) in con.execute("SELECT column_name FROM duckdb_columns() WHERE table_name = ?",
                                          [ds.table]).fetchall()}
        found = {i for (i,) in con.execute("SELECT index_name FROM duckdb_indexes() WHERE table_name = ? UNION "
                                           "SELECT table_name FROM duckdb_tables()", [ds.table]).fetchall()}
    finally:
        con.close()
    if not have:
        return []
    lacks = [name for name in ds.listed if name not in have]
    if indexes:
        lacks += [name for name in ([_index_name(ds)] if ds.key_index else []) + list(ds.words_tables or ())
                  + list(ds.summaries) if name not in found]
    return lacks


def copy_upgraded(con: Connection, source: Path, ds: Dataset) -> None:
    """Fill the (new, empty) staging file behind `con` from the published file `source`, adding the listed
    columns it lacks, computed from each record's JSON; one transaction, rows kept in their order."""
    src = "_upgrade_src"
    con.execute(f"ATTACH '{str(source).replace(chr(39), chr(39) * 2)}' AS {src} (READ_ONLY)")
    try:
        con.execute("SET enable_progress_bar=false")
        con.execute("SET preserve_insertion_order=true")
        con.execute("BEGIN TRANSACTION")
        ensure_tables(con, ds)
        have = {c for (c,) in con.execute("SELECT column_name FROM duckdb_columns() WHERE database_name = ? "
                                          "AND table_name = ?", [src, ds.table]).fetchall()}
        listed = "".join(f', {listed_sql(ds, name, "record")} AS "{name}"' for name in ds.listed if name not in have)
        con.execute(f'INSERT INTO "{ds.table}" BY NAME SELECT *{listed} FROM {src}.main."{ds.table}"')
        for ch in ds.children:
            table = f"{ds.table}_{ch.suffix}"
            con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM {src}.main."{table}"')
        for table in ("_sync_meta", "_sync_state"):
            con.execute(f"INSERT INTO {table} SELECT * FROM {src}.main.{table}")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.execute("SET preserve_insertion_order=false")
        con.execute(f"DETACH {src}")


def finish(con: Connection, ds: Dataset, only: set[str] | None = None) -> None:
    """The indexes and summaries of a complete build: the key index, the listed columns' summaries and the word
    index (read in rowid batches). `only`: just these of them (what an unchanged file lacks), else all."""
    con.execute("SET enable_progress_bar=false")   # long statements: DuckDB would draw a bar on stdout
    if only is None or set(ds.summaries) & only:
        for sql in summary_sql(ds):
            con.execute(sql)
    if ds.key_index:
        con.execute(f'CREATE INDEX IF NOT EXISTS "{_index_name(ds)}" ON "{ds.table}" ("{ds.key[0]}")')
    if ds.words and (only is None or set(ds.words_tables) & only):
        rows = con.execute(f'SELECT coalesce(max(rowid) + 1, 0) FROM "{ds.table}_{ds.words}"').fetchone()[0]
        for sql in words_sql(ds, rows):
            con.execute(sql)


def _index_name(ds: Dataset) -> str:
    return f"{ds.table}_key"
