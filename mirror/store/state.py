"""Sync state kept inside each dataset file: `_sync_meta` (key/value) and `_sync_state` (one row per partition)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from .files import Connection, Store
from .rows import one

__all__ = ["DatasetState", "dataset_state", "read_state", "set_meta", "record_loaded"]


@dataclass
class DatasetState:
    path: Path
    meta: dict[str, str]
    partitions: dict[str, int] = field(default_factory=dict)  # partition path -> records
    rows: list[dict] = field(default_factory=list)

    @property
    def export_date(self) -> str:
        return self.meta.get("export_date", "")

    @property
    def complete(self) -> bool:
        return self.meta.get("status") == "complete"


def read_state(con: Connection, path: Path) -> DatasetState:
    meta = dict(con.execute("SELECT key, value FROM _sync_meta").fetchall())
    cur = con.execute("SELECT * FROM _sync_state ORDER BY partition")
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r)) for r in cur.fetchall()]
    return DatasetState(path, meta, {r["partition"]: r["records"] for r in rows}, rows)


def dataset_state(store: Store, path: Path, writable: bool = False) -> DatasetState | None:
    """The state recorded in a dataset file, or None if the file is missing or unreadable."""
    if not path.exists():
        return None
    try:
        con = store.open_file(path, read_only=not writable)
    except duckdb.Error:
        return None
    try:
        return read_state(con, path)
    except duckdb.Error:
        return None
    finally:
        con.close()


def set_meta(con: Connection, **values: object) -> None:
    """Store each value as text under its name in `_sync_meta`."""
    for k, v in values.items():
        con.execute("INSERT OR REPLACE INTO _sync_meta VALUES (?, ?)", [k, str(v)])


def rowid_stamp(con: Connection, table: str) -> str:
    """A main table's row count and highest rowid (`table`: quoted SQL, maybe qualified): written to `_sync_meta`
    when its rowid indexes are built, compared when the API attaches the file (rowids that moved since: the API
    answers without those indexes)."""
    n, top = one(con.execute(f"SELECT count(*), coalesce(max(rowid), -1) FROM {table}"))
    return f"{n}:{top}"


def record_loaded(
    con: Connection,
    partition: str,
    url: str,
    export_date: str,
    records: int,
    nbytes: int,
    sha256: str,
    digest: str | None = None,
) -> None:
    """The `_sync_state` row of a loaded partition or release (inside the caller's transaction); `digest`: of its
    records (`chunks.records_digest`), which tells a re-export of the same records from a changed partition."""
    con.execute(
        "INSERT OR REPLACE INTO _sync_state (partition, url, export_date, records, bytes, sha256, loaded_at, "
        "digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [partition, url, export_date, records, nbytes, sha256, datetime.now(timezone.utc).replace(tzinfo=None), digest],
    )
