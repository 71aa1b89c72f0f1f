"""`mirror status` and `mirror verify`: what the mirror holds, how fresh it is, and whether it is intact."""

from __future__ import annotations

from datetime import date, datetime, timezone
from pathlib import Path

import duckdb

from ..errors import first_line
from ..schema.datasets import DATASETS
from ..store.files import STORAGE_VERSION, Store, older_storage, storage_version
from ..store.rows import one
from ..store.state import read_state
from ..sync.guard import shrank
from ..sync.indexes import index_problems

__all__ = ["status", "verify"]


def _age_days(export_date: str, today: date) -> int | None:
    try:
        return (today - date.fromisoformat(export_date)).days
    except ValueError:
        return None


def _tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [
        t
        for (t,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE NOT starts_with(table_name, '_') ORDER BY table_name"
        ).fetchall()
    ]


def _dataset_status(store: Store, name: str, path: Path, stale_days: int, today: date) -> dict:
    con = store.open_file(path)
    try:
        st = read_state(con, path)
        tables = {t: one(con.execute(f'SELECT count(*) FROM "{t}"'))[0] for t in _tables(con)}
        version = storage_version(con)
    finally:
        con.close()
    main = "gudid_device" if name == "gudid" else DATASETS[name].table if name in DATASETS else None
    age = _age_days(st.export_date, today)
    out = {
        "records": tables.get(main, 0) if main else 0,
        "export_date": st.export_date,
        "synced_at": st.meta.get("synced_at", ""),
        "files": len(st.rows),
        "bytes_on_disk": path.stat().st_size,
        "file": str(path),
        "storage_version": version,
        "storage_current": not older_storage(version),
        "age_days": age,
        "stale": age is not None and age > stale_days,
        "tables": tables,
    }
    if st.meta.get("status") != "complete":
        out["warning"] = "incomplete dataset file"
    return out


def status(store: Store, stale_days: int = 14, today: date | None = None) -> dict:
    """Per dataset: records, export date, sync time, size and staleness."""
    today = today or datetime.now(timezone.utc).date()
    files = store.require_published()
    endpoints = {n: _dataset_status(store, n, p, stale_days, today) for n, p in files.items() if n != "gudid"}
    out = {
        "data_dir": str(store.data_dir),
        "database": str(store.db_dir),
        "open_sql": str(store.data_dir / "open.sql"),
        "endpoints": endpoints,
        "stale_days": stale_days,
        "storage_version": STORAGE_VERSION,
    }
    if "gudid" in files:
        out["gudid"] = _dataset_status(store, "gudid", files["gudid"], stale_days, today)
    out["bytes_on_disk"] = sum(p.stat().st_size for p in files.values())
    staging = sorted(str(p) for p in store.db_dir.glob("*.staging.duckdb"))
    if staging:
        out["unfinished_sync"] = staging
    return out


def _shrink_check(st, problems: list[str], notes: list[str]) -> None:
    """The records now against what the dataset held before its last sync (`previous_records` in `_sync_meta`)."""
    previous, total = st.meta.get("previous_records", ""), sum(st.partitions.values())
    if not previous.isdigit() or not shrank(int(previous), total):
        return
    text = f"{total:,} records where the dataset held {int(previous):,} before its last sync (shrank by more than half)"
    if st.meta.get("shrink_allowed") == "true":
        notes.append(text + "; allowed with --allow-shrink")
    else:
        problems.append(text)


def _verify_dataset(store: Store, name: str, path: Path, notes: list[str]) -> list[str]:
    problems = []
    con = store.open_file(path)
    try:
        st = read_state(con, path)
        if not st.complete:
            problems.append("dataset file is marked incomplete")
        _shrink_check(st, problems, notes)
        if name in DATASETS:
            ds = DATASETS[name]
            got = dict(con.execute(f'SELECT _partition, count(*) FROM "{ds.table}" GROUP BY 1').fetchall())
            for part, records in st.partitions.items():
                if got.get(part, 0) != records:
                    problems.append(f"{part}: {got.get(part, 0)} rows, manifest says {records}")
            for part in set(got) - set(st.partitions):
                problems.append(f"{part}: rows with no sync state")
            total = sum(st.partitions.values())
            meta = st.meta
            expected = meta.get("manifest_total_records") if not meta.get("since") else meta.get("planned_records")
            if expected and int(expected) != total:
                problems.append(f"{total} records loaded, the manifest says {expected}")
            problems += index_problems(con, ds)
        for t in _tables(con):  # reads every block: DuckDB checks block checksums as it reads
            con.execute(f'SELECT count(*), sum(hash(COLUMNS(*))) FROM "{t}"').fetchall()
    except duckdb.Error as e:
        problems.append(f"database error: {first_line(e)}")
    finally:
        con.close()
    return problems


def verify(store: Store) -> dict:
    """Re-check recorded counts (and against the count before the last sync) and read every table; `ok` is False
    on any mismatch or on a shrink of more than half that --allow-shrink did not allow (an allowed one is a note)."""
    files = store.require_published()
    notes: dict[str, list[str]] = {n: [] for n in files}
    results = {n: _verify_dataset(store, n, p, notes[n]) for n, p in files.items()}
    return {
        "ok": not any(results.values()),
        "datasets": {
            n: {
                "ok": not p,
                "problems": p,
                "notes": notes[n],
                "file": str(files[n]),
                "repair": "" if not p else f"delete {files[n]} and run `mirror sync --only {n}`",
            }
            for n, p in results.items()
        },
    }
