"""What each sync changed: a key -> digest snapshot of every published dataset, kept in its own DuckDB file
(`<data folder>/surveil/changes.duckdb`), diffed after each publish into the keys added, changed and removed.

`record_changes(store)` is called once after a sync publishes. For each dataset whose partitions (the digest of
each partition's records, from `_sync_state`; the export date and sha256 of its file when no digest was taken)
differ from the previous snapshot, it computes md5(record JSON) per key,
compares with the previous digests and stores the differences under a new sync id, all in one transaction (a crash
leaves the previous snapshot whole). A dataset seen for the first time is a baseline: its keys are stored, no change
rows are written (a first sync would otherwise list every record as new). Keys are the dataset spec's key columns
joined with '|' (GUDID: PrimaryDI, digest of the whole gudid_device row); a record without its key (some enforcement
reports have no recall_number) is keyed by its digest, so an edit to it shows as one removal and one addition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from ..errors import MirrorError, first_line
from ..schema.datasets import DATASETS
from ..store.files import Connection, Store
from ..store.rows import one

__all__ = ["record_changes", "snapshot_path", "open_snapshot", "ChangeDigest", "SyncRecord", "key_sql", "key_parts"]

_DDL = """
CREATE TABLE IF NOT EXISTS digests (dataset VARCHAR, key VARCHAR, digest VARCHAR);
CREATE TABLE IF NOT EXISTS fingerprints (dataset VARCHAR PRIMARY KEY, fingerprint VARCHAR);
CREATE TABLE IF NOT EXISTS syncs (sync_id INTEGER PRIMARY KEY, recorded_at TIMESTAMP);
CREATE TABLE IF NOT EXISTS sync_datasets (sync_id INTEGER, dataset VARCHAR, as_of VARCHAR, status VARCHAR,
    added BIGINT, changed BIGINT, removed BIGINT);
CREATE TABLE IF NOT EXISTS changes (sync_id INTEGER, dataset VARCHAR, key VARCHAR, change VARCHAR);
"""


def snapshot_path(store: Store) -> Path:
    return store.data_dir / "surveil" / "changes.duckdb"


def key_sql(dataset: str, t: str = "t") -> str:
    """SQL of a record's key in `dataset`'s main table (alias `t`), always VARCHAR (key columns may be numbers)."""
    if dataset == "gudid":
        return f'CAST({t}."PrimaryDI" AS VARCHAR)'
    cols = DATASETS[dataset].key
    quoted = [f'CAST({t}."{c}" AS VARCHAR)' for c in cols]
    key = " || '|' || ".join(f"coalesce({c}, '')" for c in quoted)
    missing = " AND ".join(f"{c} IS NULL" for c in quoted)
    return f"CASE WHEN {missing} THEN md5({t}.record::VARCHAR) ELSE {key} END"


def key_parts(dataset: str, t: str = "t") -> tuple[str, str, str]:
    """`key_sql` in its two cases, for joins that must stay hash joins on a plain column: (the key of a record
    that has one, SQL true when it has none, the digest key of such a record)."""
    cols = DATASETS[dataset].key
    quoted = [f'CAST({t}."{c}" AS VARCHAR)' for c in cols]
    return (
        " || '|' || ".join(f"coalesce({c}, '')" for c in quoted),
        " AND ".join(f"{c} IS NULL" for c in quoted),
        f"md5({t}.record::VARCHAR)",
    )


def _table(dataset: str) -> str:
    return "gudid_device" if dataset == "gudid" else DATASETS[dataset].table


def _digest_sql(dataset: str, alias: str) -> str:
    src = f'{alias}.main."{_table(dataset)}"'
    digest = "md5(CAST(t AS VARCHAR))" if dataset == "gudid" else "md5(t.record::VARCHAR)"
    # A key held by one record (nearly all) is digested as that record; only keys held by several records keep an
    # ordered aggregate. One aggregate over every key kept an ordered state per key, outside DuckDB's memory limit:
    # 2.7 GiB at a third of today's MAUDE, and growing with it.
    return (
        f"WITH x AS MATERIALIZED (SELECT {key_sql(dataset)} AS key, {digest} AS d FROM {src} t), "
        "dup AS (SELECT key FROM x GROUP BY key HAVING count(*) > 1) "
        "SELECT key, d AS digest FROM x ANTI JOIN dup USING (key) UNION ALL "
        "SELECT key, md5(string_agg(d, ',' ORDER BY d)) FROM x SEMI JOIN dup USING (key) GROUP BY key"
    )


@dataclass(frozen=True)
class SyncRecord:
    dataset: str
    as_of: str
    status: str  # baseline | diffed | unchanged
    added: int = 0
    changed: int = 0
    removed: int = 0


@dataclass
class ChangeDigest:
    sync_id: int
    recorded_at: datetime
    datasets: list[SyncRecord] = field(default_factory=list)


def open_snapshot(store: Store, read_only: bool) -> Connection:
    path = snapshot_path(store)
    if read_only and not path.exists():
        raise MirrorError(
            f"{path}: no change history yet; it starts with the next `mirror sync` "
            "(or run `fda-explorer changes --record` now)"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = store.open_file(path, read_only=read_only)
    except Exception as e:  # DuckDB's lock error: another process is recording
        raise MirrorError(f"{path}: busy ({first_line(e, 120)}); try again when the sync has finished") from None
    if not read_only:
        con.execute(_DDL)
    return con


def record_changes(store: Store) -> ChangeDigest:
    """Diff every published dataset against the previous snapshot and store the differences as a new sync."""
    files = {d: p for d, p in store.require_published().items() if d == "gudid" or d in DATASETS}
    con = open_snapshot(store, read_only=False)
    con.execute(f"SET memory_limit='{store.memory_limit}'")  # the digests spill to disk beyond it
    con.execute(f"SET temp_directory='{str(store.tmp_dir).replace(chr(39), chr(39) * 2)}'")
    aliases = {d: "snap_" + "".join(ch for ch in d if ch.isalnum()) for d in files}
    try:
        for dataset, path in files.items():
            con.execute(f"ATTACH '{str(path).replace(chr(39), chr(39) * 2)}' AS {aliases[dataset]} (READ_ONLY)")
        con.execute("BEGIN")
        try:
            sync_id = one(con.execute("SELECT coalesce(max(sync_id), 0) + 1 FROM syncs"))[0]
            now = datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0)
            con.execute("INSERT INTO syncs VALUES (?, ?)", [sync_id, now])
            out = ChangeDigest(sync_id, now)
            for dataset in files:
                out.datasets.append(_record_one(con, sync_id, dataset, aliases[dataset]))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    finally:
        con.close()
    _warm_tables(store, set(files))
    return out


def _warm_tables(store: Store, datasets: set[str]) -> None:
    """Build the per-version tables of `aggregates` now, once per sync, rather than at the first signal query or
    inventory check: the event counts, and recall and enforcement text and tokens."""
    from .aggregates import AGGREGATES, SOURCE, build_aggregates

    names = tuple(n for n in AGGREGATES if SOURCE[n] in datasets)
    try:
        if names:
            build_aggregates(store, names=names)
    except (duckdb.Error, OSError):  # not needed for the changes: the first query that reads them builds them
        pass


def _record_one(con: Connection, sync_id: int, dataset: str, alias: str) -> SyncRecord:
    as_of = one(con.execute(f"SELECT max(value) FROM {alias}.main._sync_meta WHERE key = 'export_date'"))[0] or ""
    fp = _fingerprint(con, alias, as_of)
    prev = con.execute("SELECT fingerprint FROM fingerprints WHERE dataset = ?", [dataset]).fetchone()
    if prev and prev[0] == fp:
        rec = SyncRecord(dataset, as_of, "unchanged")
    else:
        con.execute(f"CREATE OR REPLACE TEMP TABLE cur AS {_digest_sql(dataset, alias)}")
        rec = _diff(con, sync_id, dataset, as_of, baseline=prev is None)
        con.execute("INSERT OR REPLACE INTO fingerprints VALUES (?, ?)", [dataset, fp])
    con.execute(
        "INSERT INTO sync_datasets VALUES (?, ?, ?, ?, ?, ?, ?)",
        [sync_id, dataset, rec.as_of, rec.status, rec.added, rec.changed, rec.removed],
    )
    return rec


def _fingerprint(con: Connection, alias: str, as_of: str) -> str:
    """What the dataset's records are, per partition: the digest of its records when the sync took one (a
    re-export of the same records keeps it, whatever its export date and zip), else the zip's sha256 and the
    export date (a file without partition rows: its export date). An equal fingerprint means the same records: the
    dataset is not digested again."""
    cols = {r[0] for r in con.execute(f"DESCRIBE {alias}.main._sync_state").fetchall()}
    part = (
        "coalesce(digest, ? || '/' || coalesce(sha256, ''))" if "digest" in cols else "? || '/' || coalesce(sha256, '')"
    )
    return one(
        con.execute(
            f"SELECT CASE WHEN count(*) = 0 THEN ? ELSE 'records:' || string_agg(partition || '=' || {part}, ',' "
            f"ORDER BY partition) END FROM {alias}.main._sync_state",
            [as_of + ":", as_of],
        )
    )[0]


def _diff(con: Connection, sync_id: int, dataset: str, as_of: str, baseline: bool) -> SyncRecord:
    counts = {"added": 0, "changed": 0, "removed": 0}
    if not baseline:
        con.execute(
            """
            INSERT INTO changes
            SELECT ?, ?, coalesce(c.key, p.key),
                   CASE WHEN p.key IS NULL THEN 'added' WHEN c.key IS NULL THEN 'removed' ELSE 'changed' END
            FROM cur c FULL OUTER JOIN (SELECT key, digest FROM digests WHERE dataset = ?) p ON c.key = p.key
            WHERE p.key IS NULL OR c.key IS NULL OR c.digest <> p.digest""",
            [sync_id, dataset, dataset],
        )
        counts |= dict(
            con.execute(
                "SELECT change, count(*) FROM changes WHERE sync_id = ? AND dataset = ? GROUP BY change",
                [sync_id, dataset],
            ).fetchall()
        )
    con.execute("DELETE FROM digests WHERE dataset = ?", [dataset])
    con.execute("INSERT INTO digests SELECT ?, key, digest FROM cur", [dataset])
    return SyncRecord(dataset, as_of, "baseline" if baseline else "diffed", **counts)
