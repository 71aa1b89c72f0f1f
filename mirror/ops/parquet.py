"""`mirror export --format parquet DIR`: each dataset as Parquet files a warehouse engine reads, with a manifest.

Layout of DIR (one folder per dataset, one per table; event's main table partitioned by year of `date_received`):
  manifest.json                                    format, exported_at, per dataset: as-of date, tables, rows
  event/device_event/year=2019/data_0.parquet      typed columns, `record` (the original JSON), `_partition`
  event/device_event_device/data_0.parquet         child tables as in the mirror
  510k/device_510k/data_0.parquet ...
  gudid/gudid_device/data_0.parquet ...
A dataset is written to `.<dataset>.part` and renamed into place when complete; manifest.json is written last, so
it lists only datasets whose files are complete. The derived index tables are not exported (a `mirror sync`
rebuilds them from these tables).
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import orjson

from ..errors import MirrorError
from ..schema.datasets import DATASETS
from ..store.files import Connection, Store
from ..store.rows import one
from ..store.state import dataset_state
from ..sync.plan import ENDPOINTS

__all__ = ["export_parquet", "FORMAT", "PARTITIONED"]

FORMAT = "fda-explorer-parquet/1"
PARTITIONED = {"event": ("date_received", "year")}  # dataset -> (date column, partition column)


def _tables(con: Connection, dataset: str) -> list[str]:
    """The tables of a dataset worth exporting: the main table and its child tables (GUDID: its release tables)."""
    if dataset == "gudid":
        return [
            t
            for (t,) in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = 'ds_gudid' "
                "AND NOT starts_with(table_name, '_') ORDER BY table_name"
            ).fetchall()
        ]
    ds = DATASETS[dataset]
    return [ds.table, *(f"{ds.table}_{ch.suffix}" for ch in ds.children)]


def _q(s: str) -> str:
    return s.replace("'", "''")


def _write_table(con: Connection, dataset: str, table: str, folder: Path) -> dict:
    """One table into `folder` (ZSTD Parquet, rows in table order); its row count and partitioning."""
    source = f'ds_{dataset}.main."{table}"'
    part = None
    if dataset in PARTITIONED and table == DATASETS[dataset].table:
        column, name = PARTITIONED[dataset]
        part = name
        query = f'SELECT *, year("{column}") AS {name} FROM {source}'
        options = f"FORMAT parquet, COMPRESSION zstd, PARTITION_BY ({name})"
    else:
        query = f"SELECT * FROM {source}"
        options = "FORMAT parquet, COMPRESSION zstd"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder if part else folder / "data_0.parquet"
    con.execute(f"COPY ({query}) TO '{_q(str(target))}' ({options})")
    rows = one(con.execute(f"SELECT count(*) FROM {source}"))[0]
    return {
        "path": f"{dataset}/{table}",
        "rows": rows,
        "partitioned_by": part,
        "read": f"read_parquet('{dataset}/{table}/**/*.parquet'{', hive_partitioning = true' if part else ''})",
    }


def _dataset(store: Store, con: Connection, dataset: str, dest: Path) -> dict:
    state = dataset_state(store, store.current(dataset))
    if state is None or not state.complete:
        raise MirrorError(
            f"{store.current(dataset)}: dataset {dataset} is not completely synced; run "
            f"`mirror sync --only {dataset}` first"
        )
    work = dest / f".{dataset}.part"
    shutil.rmtree(work, ignore_errors=True)
    tables = {t: _write_table(con, dataset, t, work / t) for t in _tables(con, dataset)}
    final = dest / dataset
    shutil.rmtree(final, ignore_errors=True)
    os.replace(work, final)
    main = "gudid_device" if dataset == "gudid" else DATASETS[dataset].table
    return {
        "export_date": state.export_date,
        "synced_at": state.meta.get("synced_at", ""),
        "records": tables[main]["rows"] if main in tables else 0,
        "tables": tables,
    }


def export_parquet(store: Store, dest: Path, only: list[str] | None = None) -> dict:
    """Write every published dataset (or `only` those) as Parquet under `dest`, then `dest/manifest.json`."""
    published = store.require_published()
    names = [n for n in (only or [*ENDPOINTS, "gudid"]) if n in published]
    dest = Path(dest).expanduser()
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "manifest.json").unlink(missing_ok=True)  # present only when the export is complete
    con = store.connect()
    try:
        con.execute("SET preserve_insertion_order=true")
        datasets = {n: _dataset(store, con, n, dest) for n in names}
    finally:
        con.close()
    manifest = {
        "format": FORMAT,
        "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "source": "openFDA device endpoints and AccessGUDID, mirrored by FDA Explorer Offline",
        "datasets": datasets,
    }
    tmp = dest / "manifest.json.tmp"
    tmp.write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    os.replace(tmp, dest / "manifest.json")
    return {
        "dir": str(dest),
        "datasets": names,
        "records": sum(d["records"] for d in datasets.values()),
        "bytes": sum(p.stat().st_size for p in dest.rglob("*.parquet")),
    }
