"""Mirror size per dataset at DuckDB's default storage (v1.0.0+) against the mirror's (STORAGE_VERSION, ZSTD for the
record JSON), in bytes per record, beside the zipped download (figures, not a test).

Usage (from the repository root):

    .venv/bin/python bench/storage_size.py --data-dir D            # a synced mirror
    .venv/bin/python bench/storage_size.py --from DIR [--json]     # sync DIR (download-site layout) into a tmp folder

Each published file is copied table by table (COPY FROM DATABASE, rows in order, checkpointed) into a new file at
each storage version, so both columns are measured the same way; the `record` column's compression is read from
pragma_storage_info of the main table. "zip" is the sum of the downloaded files' bytes recorded in `_sync_state`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import duckdb
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mirror.schema.datasets import DATASETS  # noqa: E402
from mirror.settings import Settings  # noqa: E402
from mirror.store.files import STORAGE_VERSION, Store  # noqa: E402
from mirror.sync import SyncOptions, sync  # noqa: E402

OLD = "v1.0.0"


def _rewrite(src: Path, dest: Path, version: str, main: str) -> tuple[int, str]:
    """Copy `src` into a new file at `version`; its size and the record column's compression."""
    con = duckdb.connect()
    try:
        con.execute("SET preserve_insertion_order=true")
        con.execute(f"ATTACH '{src}' AS s (READ_ONLY)")
        con.execute(f"ATTACH '{dest}' AS d (STORAGE_VERSION '{version}')")
        con.execute("COPY FROM DATABASE s TO d")
        con.execute("CHECKPOINT d")
        kinds = con.execute(
            f"SELECT string_agg(DISTINCT compression, '+') FROM pragma_storage_info('d.{main}') "
            "WHERE column_name = 'record' AND compression <> 'Constant'"
        ).fetchone()[0]
    finally:
        con.close()
    return dest.stat().st_size, kinds or "-"


def _dataset(name: str, path: Path, work: Path) -> dict:
    main = "gudid_device" if name == "gudid" else DATASETS[name].table
    con = duckdb.connect(str(path), read_only=True)
    try:
        records = con.execute(f'SELECT count(*) FROM "{main}"').fetchone()[0]
        zipped = con.execute("SELECT coalesce(sum(bytes), 0) FROM _sync_state").fetchone()[0]
    finally:
        con.close()
    old, old_kind = _rewrite(path, work / f"{name}.old.duckdb", OLD, main)
    new, new_kind = _rewrite(path, work / f"{name}.new.duckdb", STORAGE_VERSION, main)
    per = max(records, 1)
    return {
        "dataset": name,
        "records": records,
        "zip_bytes": zipped,
        "old_bytes": old,
        "new_bytes": new,
        "old_record": old_kind,
        "new_record": new_kind,
        "zip_per_record": round(zipped / per, 1),
        "old_per_record": round(old / per, 1),
        "new_per_record": round(new / per, 1),
        "new_over_old": round(new / old, 3) if old else None,
        "new_over_zip": round(new / zipped, 2) if zipped else None,
    }


def measure(data_dir: Path) -> list[dict]:
    files = Store(data_dir).require_published()
    with tempfile.TemporaryDirectory(prefix="storage-size-") as tmp:
        rows = [_dataset(name, path, Path(tmp)) for name, path in files.items()]
    total = {k: sum(r[k] for r in rows) for k in ("records", "zip_bytes", "old_bytes", "new_bytes")}
    rows.append(
        {
            "dataset": "total",
            **total,
            "old_record": "",
            "new_record": "",
            "zip_per_record": round(total["zip_bytes"] / max(total["records"], 1), 1),
            "old_per_record": round(total["old_bytes"] / max(total["records"], 1), 1),
            "new_per_record": round(total["new_bytes"] / max(total["records"], 1), 1),
            "new_over_old": round(total["new_bytes"] / total["old_bytes"], 3),
            "new_over_zip": round(total["new_bytes"] / max(total["zip_bytes"], 1), 2),
        }
    )
    return rows


def _print(rows: list[dict]) -> None:
    print(
        f"{'dataset':20} {'records':>9} {'zip B/rec':>9} {'old B/rec':>9} {'new B/rec':>9} {'new/old':>7} "
        f"{'new/zip':>7}  record column (old -> new)"
    )
    for r in rows:
        print(
            f"{r['dataset']:20} {r['records']:>9,} {r['zip_per_record']:>9,.0f} {r['old_per_record']:>9,.0f} "
            f"{r['new_per_record']:>9,.0f} {r['new_over_old'] or 0:>7.2f} {r['new_over_zip'] or 0:>7.1f}  "
            f"{r['old_record']} -> {r['new_record']}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--data-dir", type=Path, help="a synced mirror")
    group.add_argument("--from", dest="source", type=Path, help="a download-site folder to sync first (tmp)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    a = ap.parse_args()
    if a.source:
        with tempfile.TemporaryDirectory(prefix="storage-mirror-") as tmp:
            report = sync(Settings(data_dir=Path(tmp)), SyncOptions(source_dir=a.source, quiet=True))
            if not report.ok:
                sys.exit(f"sync failed: {report.errors}")
            rows = measure(Path(tmp))
    else:
        rows = measure(a.data_dir)
    if a.json:
        print(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode())
    else:
        _print(rows)


if __name__ == "__main__":
    main()
