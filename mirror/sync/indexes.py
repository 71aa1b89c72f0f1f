"""Bring a dataset file up to the current layout: listed columns (`product_code_list`) and their summaries, key,
row and word indexes.

A file published by an older version lacks the listed columns. The API answers it anyway (it falls back to
the child tables and the record JSON), and `mirror sync` upgrades it: the staging file is built from the
published one with the columns added, rows in the same order (the default result order), then published
as any sync is. The indexes are made on every build before it is published (`finish`).

The summaries (`device_event_product_code_list_counts`: term, n; `..._days`: term, day, n) answer a count by
product code over all records, and a count by date_received of the records of one product code, without a scan.

The row indexes (`device_event_product_code_list_rows`: term, rowid, date_received, event_type; the same on udi and
registrationlisting with their `cover` columns) hold one row per record and distinct listed value, sorted by value
then rowid: the records of one product code are a few row groups away, with the columns most searches filter and
sort on beside them, so such a search never reads the whole table.

The word index of event narratives (`device_event_text_terms`: term, rowid, date_received) holds each word of the
texts and each two words in a row, split as the API splits them, with the records whose text holds them;
but not the common words (in more than 1% of the records, listed apart in `device_event_text_common`) nor
two common words in a row. A search for one word or a two-word phrase that holds a rare word is answered
from it exactly (the same tokens, so the same records); other text searches scan the texts as before. Which words
are common is read from a sample of the texts: any set gives the same answers (a common word is searched by scan).
A refresh that replaces a few partitions of a copied file updates the word index in place (`_words_in_place`).

Both kinds of index name records by the main table's rowid. `finish` checkpoints first (so that rows deleted
for dropped partitions are vacuumed before any rowid is written down) and records the table's row count and
highest rowid (`rowid_stamp` in `_sync_meta`); the API uses the indexes only while the table still matches
it, and `mirror verify` checks that they point at records holding their values (`index_problems`). An index
of an older layout (a table lacking a covered column, or the word index keyed by mdr_report_key) is rebuilt
by the next `mirror sync`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..schema.datasets import Dataset
from ..schema.indexes import indexes as layout
from ..store.files import Connection, Store
from ..store.rows import one
from ..store.state import rowid_stamp, set_meta
from .load import ensure_tables
from .loadsql import listed_sql, rows_sql, summary_sql, words_sql

__all__ = ["outdated", "copy_upgraded", "finish", "index_problems", "Refresh", "MAX_WORD_RUNS"]

# A refresh adds the terms of the partitions it loaded to the word index as one more run sorted by term (a term's
# rows are then in a few row groups, one per run); after this many runs the index is built again as one run.
MAX_WORD_RUNS = 8


@dataclass(frozen=True)
class Refresh:
    """What a build that started as a copy of the published file changed: the partitions it loaded anew, and those
    whose rows it removed (loaded anew, or no longer in the export)."""

    published: Path
    loaded: tuple[str, ...]
    gone: tuple[str, ...]


def outdated(store: Store, path: Path, ds: Dataset, indexes: bool = True) -> list[str]:
    """What the file at `path` lacks of the current layout: listed columns and (unless not asked: a build in
    progress has none yet) the key index, by name; [] when it has them all, or holds no table of the dataset."""
    if not (ds.listed or ds.key_index or ds.words) or not path.exists():  # (summaries come with listed)
        return []
    con = store.open_file(path)
    try:
        have = {
            c
            for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE table_name = ?", [ds.table]
            ).fetchall()
        }
        found = {
            i
            for (i,) in con.execute(
                "SELECT index_name FROM duckdb_indexes() WHERE table_name = ? UNION "
                "SELECT table_name FROM duckdb_tables()",
                [ds.table],
            ).fetchall()
        }
        for ix in layout(ds).by_rowid:  # an index of an older layout (fewer columns): rebuilt
            cols = {
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM duckdb_columns() WHERE table_name = ?", [ix.table]
                ).fetchall()
            }
            if not ix.columns <= cols:
                found.discard(ix.table)
    finally:
        con.close()
    if not have:
        return []
    lacks = [name for name in ds.listed if name not in have]
    if indexes:
        lacks += [
            name for name in ([_index_name(ds)] if ds.key_index else []) + list(layout(ds).tables) if name not in found
        ]
    return lacks


def copy_upgraded(con: Connection, source: Path, ds: Dataset) -> None:
    """Fill the (new, empty) staging file behind `con` from the published file `source`, adding the listed
    columns it lacks, computed from each record's JSON; one transaction, rows kept in their order."""
    src = "_upgrade_src"
    con.execute(f"ATTACH '{str(source).replace(chr(39), chr(39) * 2)}' AS {src} (READ_ONLY)")
    try:
        con.execute("SET enable_progress_bar=false")
        with _ordered_transaction(con):
            ensure_tables(con, ds)
            have = {
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM duckdb_columns() WHERE database_name = ? AND table_name = ?",
                    [src, ds.table],
                ).fetchall()
            }
            listed = "".join(
                f', {listed_sql(ds, name, "record")} AS "{name}"' for name in ds.listed if name not in have
            )
            con.execute(f'INSERT INTO "{ds.table}" BY NAME SELECT *{listed} FROM {src}.main."{ds.table}"')
            for ch in ds.children:
                table = f"{ds.table}_{ch.suffix}"
                con.execute(f'INSERT INTO "{table}" BY NAME SELECT * FROM {src}.main."{table}"')
            for table in ("_sync_meta", "_sync_state"):
                con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM {src}.main.{table}")  # older: no digest
    finally:
        con.execute(f"DETACH {src}")


@contextmanager
def _ordered_transaction(con: Connection) -> Iterator[None]:
    """One transaction in which inserted rows keep their order (rowids follow it); committed, or rolled back on
    any error; the connection's usual unordered inserts restored after."""
    con.execute("SET preserve_insertion_order=true")
    con.execute("BEGIN TRANSACTION")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.execute("SET preserve_insertion_order=false")


def finish(con: Connection, ds: Dataset, only: set[str] | None = None, refresh: Refresh | None = None) -> None:
    """The indexes and summaries of a complete build: the key index, the listed columns' summaries and the word
    index (read in rowid batches). `only`: just these of them (what an unchanged file lacks), else all. `refresh`:
    the build is a copy of the published file with some partitions replaced; the word index is then brought up to
    date in place (`_words_in_place`) when the kept records' rowids did not move, else built again."""
    con.execute("SET enable_progress_bar=false")  # long statements: DuckDB would draw a bar on stdout
    con.execute("CHECKPOINT")  # deleted rows (dropped partitions) are vacuumed now, before rowids are written down
    for table in _LEGACY.get(ds.endpoint, ()):
        con.execute(f'DROP TABLE IF EXISTS "{table}"')
    ix = layout(ds)
    if only is None or {s.table for s in ix.summaries} & only:
        for sql in summary_sql(ds):
            con.execute(sql)
    if ds.key_index:
        con.execute(f'CREATE INDEX IF NOT EXISTS "{_index_name(ds)}" ON "{ds.table}" ("{ds.key[0]}")')
    if ix.words and (only is None or {ix.words.table, ix.words.common} & only):
        rows = one(con.execute(f'SELECT coalesce(max(rowid) + 1, 0) FROM "{ds.table}_{ds.words}"'))[0]
        if refresh is None or only is not None or not _words_in_place(con, ds, refresh, rows):
            for sql in words_sql(ds, rows):
                con.execute(sql)
            set_meta(con, word_runs=1)
    if ix.rows and (only is None or {r.table for r in ix.rows} & only):
        for sql in rows_sql(ds):
            con.execute(sql)
    if ix.by_rowid:
        set_meta(con, rowid_stamp=rowid_stamp(con, f'"{ds.table}"'))


def _words_in_place(con: Connection, ds: Dataset, refresh: Refresh, rows: int) -> bool:
    """Bring the copied word index up to date: delete the terms of the records that are gone, move the rowids of the
    kept records that the checkpoint moved (it compacts row groups after deletes; rows keep their order, so each kept
    partition moves as one block), and add the terms of the partitions loaded, with the common words kept. Only when
    the copy's index matched its records, every partition is one block of rowids before and after, and the index
    has fewer than MAX_WORD_RUNS runs; False (nothing changed) otherwise, and the caller builds it again."""
    ix = layout(ds).words
    assert ix is not None
    meta = dict(con.execute("SELECT key, value FROM _sync_meta").fetchall())
    runs = int(meta.get("word_runs") or MAX_WORD_RUNS)
    have = {
        t
        for (t,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
        ).fetchall()
    }
    if runs >= MAX_WORD_RUNS or not {ix.table, ix.common} <= have or not refresh.published.exists():
        return False
    pub = "_published"
    con.execute(f"ATTACH '{str(refresh.published).replace(chr(39), chr(39) * 2)}' AS {pub} (READ_ONLY)")
    try:
        stamp = con.execute(f"SELECT value FROM {pub}.main._sync_meta WHERE key = 'rowid_stamp'").fetchone()
        if stamp is None or stamp[0] != rowid_stamp(con, f'{pub}.main."{ds.table}"'):
            return False
        before, after = _ranges(con, f'{pub}.main."{ds.table}"'), _ranges(con, f'"{ds.table}"')
        gone = set(refresh.gone)
        kept = {p: r for p, r in before.items() if p not in gone}
        moved = _moves(before, after, kept)
        stale = [before[p] for p in gone if p in before]
        if moved is None or not all(_contiguous(r) for r in stale):
            return False
    finally:
        con.execute(f"DETACH {pub}")
    if moved:  # one pass: the stale terms left out, the moved rowids shifted, the order (by term) kept
        shift = " ".join(f"WHEN rowid BETWEEN {lo} AND {hi} THEN rowid + {d}" for lo, hi, d in moved)
        drop = " OR ".join(f"rowid BETWEEN {lo} AND {hi}" for lo, hi, _ in stale) or "FALSE"
        with _ordered_transaction(con):
            con.execute(
                f'CREATE TABLE "_{ix.table}" AS SELECT * REPLACE (CASE {shift} ELSE rowid END AS rowid) '
                f'FROM "{ix.table}" WHERE NOT ({drop})'
            )
            con.execute(f'DROP TABLE "{ix.table}"')
            con.execute(f'ALTER TABLE "_{ix.table}" RENAME TO "{ix.table}"')
    else:
        for lo, hi, _ in stale:
            con.execute(f'DELETE FROM "{ix.table}" WHERE rowid BETWEEN ? AND ?', [lo, hi])
    if refresh.loaded:
        for sql in words_sql(ds, rows, common=False, partitions=list(refresh.loaded)):
            con.execute(sql)
    set_meta(con, word_runs=runs + 1)
    return True


def _ranges(con: Connection, table: str) -> dict[str, tuple[int, int, int]]:
    """Each partition's lowest and highest rowid and row count in `table` (quoted SQL, maybe qualified)."""
    rows = con.execute(f"SELECT _partition, min(rowid), max(rowid), count(*) FROM {table} GROUP BY _partition")
    return {p: (lo, hi, n) for p, lo, hi, n in rows.fetchall()}


def _moves(
    before: dict[str, tuple[int, int, int]],
    after: dict[str, tuple[int, int, int]],
    kept: dict[str, tuple[int, int, int]],
) -> list[tuple[int, int, int]] | None:
    """The old rowid ranges of kept partitions that moved, with how far (lo, hi, delta), neighbours that moved
    alike merged; None when a kept partition is not one block of rowids before and after, or changed size."""
    out: list[tuple[int, int, int]] = []
    for p, r in sorted(kept.items(), key=lambda kv: kv[1][0]):
        a = after.get(p)
        if a is None or a[2] != r[2] or not (_contiguous(a) and _contiguous(r)):
            return None
        if a[0] != r[0]:
            if out and out[-1][2] == a[0] - r[0] and not _between(before, kept, out[-1][1], r[0]):
                out[-1] = (out[-1][0], r[1], out[-1][2])
            else:
                out.append((r[0], r[1], a[0] - r[0]))
    return out


def _between(before: dict[str, tuple[int, int, int]], kept: dict, lo: int, hi: int) -> bool:
    """Whether a partition that is not kept had rowids between lo and hi (then two ranges cannot merge)."""
    return any(lo < r[0] < hi for p, r in before.items() if p not in kept)


def _contiguous(r: tuple[int, int, int]) -> bool:
    lo, hi, n = r
    return hi - lo + 1 == n


def index_problems(con: Connection, ds: Dataset) -> list[str]:
    """What is wrong with the file's row and word indexes (they must point at the records they name): [] when
    they agree with the main table, or the file has none (the API then answers without them)."""
    have = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    stamp = con.execute("SELECT value FROM _sync_meta WHERE key = 'rowid_stamp'").fetchone()
    ix = layout(ds)
    built = [i.table for i in ix.by_rowid if i.table in have]
    if not built:
        return []
    if stamp is None or stamp[0] != rowid_stamp(con, f'"{ds.table}"'):
        return [f"{', '.join(built)}: built for other rowids than the table has now"]
    out = []
    for row in ix.rows:
        table, name = row.table, row.keys_on
        if table not in have:
            continue
        same = " AND ".join(f'r."{c}" IS NOT DISTINCT FROM m."{c}"' for c in row.covers) or "TRUE"
        bad = one(
            con.execute(
                f'SELECT count(*) FROM "{table}" r LEFT JOIN "{ds.table}" m ON m.rowid = r.rowid '
                f'WHERE NOT coalesce(list_contains(m."{name}", r.term) AND {same}, FALSE)'
            )
        )[0]
        want = one(
            con.execute(
                f'SELECT coalesce(sum(len(list_distinct(list_filter("{name}", '
                f'lambda v: v IS NOT NULL)))), 0) FROM "{ds.table}"'
            )
        )[0]
        n = one(con.execute(f'SELECT count(*) FROM "{table}"'))[0]
        if bad or n != want:
            out.append(f"{table}: {bad} rows point at a record without their value; {n} rows, {want} expected")
    if ix.words and ix.words.table in have:
        words, key = ix.words.table, ds.key[0]
        same = " OR ".join(f'w."{c}" IS DISTINCT FROM m."{c}"' for c in ix.words.covers) or "FALSE"
        sample = f'(SELECT * FROM "{words}" USING SAMPLE reservoir(20000 ROWS) REPEATABLE (7))'  # it is large
        bad = one(
            con.execute(
                f'SELECT count(*) FROM {sample} w LEFT JOIN "{ds.table}" m ON m.rowid = w.rowid WHERE '
                f'm."{key}" IS NULL OR {same} OR NOT EXISTS (SELECT 1 FROM "{ix.words.child}" c WHERE '
                f'c."{key}" = m."{key}" AND contains(lower(c."text"), split_part(w.term, \' \', 1)))'
            )
        )[0]
        if bad:
            out.append(
                f"{words}: {bad} of 20,000 sampled terms point at a record whose text lacks them (or whose "
                "covered columns differ)"
            )
    return out


# tables an older layout had that the current one replaced (the word index keyed by mdr_report_key)
_LEGACY = {"event": ("device_event_text_words",)}


def _index_name(ds: Dataset) -> str:
    return f"{ds.table}_key"
