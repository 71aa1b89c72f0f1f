"""Mirror size per dataset: the published file (storage version, the `record` column's compression, free blocks,
the size of each table) and compacting copies at DuckDB's default storage (v1.0.0+) and at the mirror's
(STORAGE_VERSION, ZSTD for the record JSON), in bytes per record, beside the zipped download (figures, not a test).

Usage (from the repository root):

    .venv/bin/python bench/storage_size.py --data-dir D            # a synced mirror
    .venv/bin/python bench/storage_size.py --from DIR [--json]     # sync DIR (download-site layout) into a tmp folder
    .venv/bin/python bench/storage_size.py --data-dir D --skip-old --tables --work W   # large mirrors
    .venv/bin/python bench/storage_size.py --data-dir D --skip-old --extrapolate      # + full and today's size
    .venv/bin/python bench/storage_size.py --data-dir D --zstd event:device_event_text.text   # what if ZSTD

Each published file is copied table by table (COPY FROM DATABASE, rows in order, checkpointed) into a new file at
each storage version, so both columns are measured the same way; the copy at STORAGE_VERSION is also what a
compaction of the published file would give, and it is timed. The `record` column's compression is read from
pragma_storage_info of the main table, the free blocks from pragma_database_size. A table's size is the blocks its
segments use (pragma_storage_info; a block shared by several tables is split evenly between them). "zip" is the sum
of the downloaded files' bytes recorded in `_sync_state`.

--extrapolate multiplies each dataset's bytes per record by its records in the real 2023-07 manifest
(tests/data/fixtures/openfda/download.json) and, for today, adds --event-growth events (MAUDE grows by about 2M
reports a year); linear per record and per dataset.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import orjson

if importlib.util.find_spec("mirror") is None:  # PYTHONPATH or the installed package first (a frozen worktree)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mirror  # noqa: E402
from mirror.schema.datasets import DATASETS  # noqa: E402
from mirror.schema.indexes import INDEXES  # noqa: E402
from mirror.settings import Settings  # noqa: E402
from mirror.store.files import STORAGE_VERSION, Store, storage_version  # noqa: E402
from mirror.sync import SyncOptions, sync  # noqa: E402

OLD = "v1.0.0"
MANIFEST = Path(__file__).resolve().parent.parent / "tests" / "data" / "fixtures" / "openfda" / "download.json"
EVENT_GROWTH = 6_800_000  # 2023-07 to 2026-11 at about 2M reports a year


def _rewrite(src: Path, dest: Path, version: str, main: str) -> tuple[int, str, float]:
    """Copy `src` into a new file at `version`; its size, the record column's compression and the seconds taken."""
    t0 = time.perf_counter()
    con = duckdb.connect()
    try:
        con.execute("SET preserve_insertion_order=true")
        con.execute(f"ATTACH '{src}' AS s (READ_ONLY)")
        con.execute(f"ATTACH '{dest}' AS d (STORAGE_VERSION '{version}')")
        con.execute("COPY FROM DATABASE s TO d")
        con.execute("CHECKPOINT d")
        seconds = time.perf_counter() - t0
        kinds = con.execute(
            f"SELECT string_agg(DISTINCT compression, '+') FROM pragma_storage_info('d.{main}') "
            "WHERE column_name = 'record' AND compression <> 'Constant'"
        ).fetchone()[0]
    finally:
        con.close()
    size = dest.stat().st_size
    dest.unlink()  # measured; the next copy needs the disk
    return size, kinds or "-", round(seconds, 1)


def _kind(name: str, table: str, main: str) -> str:
    """main | child | index | state: what a table of a dataset's file is."""
    if table == main:
        return "main"
    if table.startswith("_"):
        return "state"
    ix = INDEXES.get(name)
    if ix is not None and table in ix.tables:
        return "index"
    return "child"


def layout(name: str, path: Path, main: str) -> dict:
    """The published file as it is: storage version, record compression, blocks used and free, size per table."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        version = storage_version(con)
        _, _, block_size, total, used, free = con.execute(
            "SELECT database_name, database_size, block_size, total_blocks, used_blocks, free_blocks "
            "FROM pragma_database_size() WHERE database_name = current_database()"
        ).fetchone()
        record = con.execute(
            f"SELECT compression, count(*) FROM pragma_storage_info('{main}') "
            "WHERE column_name = 'record' AND segment_type <> 'VALIDITY' GROUP BY ALL ORDER BY 2 DESC"
        ).fetchall()
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY table_name").fetchall()]
        blocks: dict[str, set[int]] = {}
        rows: dict[str, int] = {}
        for t in tables:
            rows[t] = con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
            ids = con.execute(
                f"SELECT block_id, additional_block_ids FROM pragma_storage_info('{t}') "
                "WHERE persistent AND block_id >= 0"
            ).fetchall()
            blocks[t] = {b for b, _ in ids} | {x for _, more in ids for x in (more or [])}
    finally:
        con.close()
    owners: dict[int, int] = {}
    for ids in blocks.values():
        for b in ids:
            owners[b] = owners.get(b, 0) + 1
    per_table = [
        {
            "table": t,
            "kind": _kind(name, t, main),
            "rows": rows[t],
            "bytes": round(sum(block_size / owners[b] for b in blocks[t])),
        }
        for t in tables
    ]
    return {
        "storage_version": version,
        "file_bytes": path.stat().st_size,
        "block_size": block_size,
        "total_blocks": total,
        "used_blocks": used,
        "free_blocks": free,
        "record_compression": "+".join(f"{c} ({n} segments)" for c, n in record) or "-",
        "tables": per_table,
    }


def _dataset(name: str, path: Path, work: Path, old: bool) -> dict:
    main = "gudid_device" if name == "gudid" else DATASETS[name].table
    con = duckdb.connect(str(path), read_only=True)
    try:
        records = con.execute(f'SELECT count(*) FROM "{main}"').fetchone()[0]
        zipped = con.execute("SELECT coalesce(sum(bytes), 0) FROM _sync_state").fetchone()[0]
    finally:
        con.close()
    print(f"{name}: {records:,} records; reading the layout ...", file=sys.stderr, flush=True)
    pub = layout(name, path, main)
    print(f"{name}: compacting copy at {STORAGE_VERSION} ...", file=sys.stderr, flush=True)
    new, new_kind, new_s = _rewrite(path, work / f"{name}.new.duckdb", STORAGE_VERSION, main)
    old_bytes, old_kind, old_s = 0, "", 0.0
    if old:
        print(f"{name}: copy at {OLD} ...", file=sys.stderr, flush=True)
        old_bytes, old_kind, old_s = _rewrite(path, work / f"{name}.old.duckdb", OLD, main)
    per = max(records, 1)
    by_kind = {k: sum(t["bytes"] for t in pub["tables"] if t["kind"] == k) for k in ("main", "child", "index")}
    return {
        "dataset": name,
        "records": records,
        "zip_bytes": zipped,
        "published_bytes": pub["file_bytes"],
        "old_bytes": old_bytes,
        "new_bytes": new,
        "old_record": old_kind,
        "new_record": new_kind,
        "compact_seconds": new_s,
        "old_copy_seconds": old_s,
        "zip_per_record": round(zipped / per, 1),
        "published_per_record": round(pub["file_bytes"] / per, 1),
        "old_per_record": round(old_bytes / per, 1),
        "new_per_record": round(new / per, 1),
        "main_per_record": round(by_kind["main"] / per, 1),
        "child_per_record": round(by_kind["child"] / per, 1),
        "index_per_record": round(by_kind["index"] / per, 1),
        "free_share": round(pub["free_blocks"] / max(pub["total_blocks"], 1), 3),
        "new_over_old": round(new / old_bytes, 3) if old_bytes else None,
        "new_over_zip": round(new / zipped, 2) if zipped else None,
        "published_over_zip": round(pub["file_bytes"] / zipped, 2) if zipped else None,
        "published": pub,
    }


SUMMED = ("records", "zip_bytes", "published_bytes", "old_bytes", "new_bytes", "compact_seconds", "old_copy_seconds")


def measure(data_dir: Path, old: bool = True, only: set[str] | None = None, work: Path | None = None) -> list[dict]:
    files = Store(data_dir).require_published()
    if only:
        files = {k: v for k, v in files.items() if k in only}
    with tempfile.TemporaryDirectory(prefix="storage-size-", dir=work) as tmp:
        rows = [_dataset(name, path, Path(tmp), old) for name, path in files.items()]
    total = {k: sum(r[k] for r in rows) for k in SUMMED}
    per = max(total["records"], 1)
    rows.append(
        {
            "dataset": "total",
            **total,
            "old_record": "",
            "new_record": "",
            "zip_per_record": round(total["zip_bytes"] / per, 1),
            "published_per_record": round(total["published_bytes"] / per, 1),
            "old_per_record": round(total["old_bytes"] / per, 1),
            "new_per_record": round(total["new_bytes"] / per, 1),
            "new_over_old": round(total["new_bytes"] / total["old_bytes"], 3) if total["old_bytes"] else None,
            "new_over_zip": round(total["new_bytes"] / max(total["zip_bytes"], 1), 2),
            "published_over_zip": round(total["published_bytes"] / max(total["zip_bytes"], 1), 2),
        }
    )
    return rows


def _print(rows: list[dict], tables: bool) -> None:
    print(f"mirror code: {Path(mirror.__file__).parent}; duckdb {duckdb.__version__}")
    print(
        f"{'dataset':20} {'records':>10} {'zip B/rec':>9} {'pub. B/rec':>10} {'compact':>8} {'old B/rec':>9} "
        f"{'pub/zip':>7} {'free':>5} {'compact s':>9}  record column (old -> new)"
    )
    for r in rows:
        print(
            f"{r['dataset']:20} {r['records']:>10,} {r['zip_per_record']:>9,.0f} {r['published_per_record']:>10,.0f} "
            f"{r['new_per_record']:>8,.0f} {r['old_per_record']:>9,.0f} {r['published_over_zip'] or 0:>7.2f} "
            f"{r.get('free_share', 0):>5.0%} {r['compact_seconds']:>9.1f}  {r['old_record'] or '(not copied)'} -> "
            f"{r['new_record']}"
        )
    print("\npublished files: storage version, the record column's segments, blocks (used / free), B/rec by kind")
    for r in rows:
        if "published" not in r:
            continue
        p = r["published"]
        print(
            f"  {r['dataset']:20} {p['storage_version']:>8}  record {p['record_compression']}; "
            f"{p['used_blocks']:,} used / {p['free_blocks']:,} free blocks of {p['block_size'] // 1024} KiB; "
            f"main {r['main_per_record']:,.0f}, children {r['child_per_record']:,.0f}, "
            f"indexes {r['index_per_record']:,.0f} B/rec"
        )
    if not tables:
        return
    print("\ntables of the published files (bytes = the blocks their segments use)")
    print(f"  {'dataset':20} {'table':52} {'kind':6} {'rows':>12} {'MiB':>9} {'B/record':>9}")
    for r in rows:
        for t in (r.get("published") or {}).get("tables", []):
            print(
                f"  {r['dataset']:20} {t['table']:52} {t['kind']:6} {t['rows']:>12,} {t['bytes'] / 2**20:>9,.1f} "
                f"{t['bytes'] / max(r['records'], 1):>9,.1f}"
            )


def try_zstd(data_dir: Path, spec: str, work: Path | None = None) -> dict:
    """`dataset:table.column`: the table copied into a new file twice, as it is and with the column declared
    USING COMPRESSION zstd; both sizes (the whole file, at STORAGE_VERSION) and the copy times."""
    dataset, rest = spec.split(":", 1)
    table, column = rest.rsplit(".", 1)
    src = Store(data_dir).require_published()[dataset]
    out: dict = {"dataset": dataset, "table": table, "column": column}
    with tempfile.TemporaryDirectory(prefix="storage-zstd-", dir=work) as tmp:
        for label, zstd in (("as_is", False), ("zstd", True)):
            dest = Path(tmp) / f"{label}.duckdb"
            t0 = time.perf_counter()
            con = duckdb.connect(str(dest), config={"storage_compatibility_version": STORAGE_VERSION})
            try:
                con.execute("SET preserve_insertion_order=true")
                con.execute(f"ATTACH '{src}' AS s (READ_ONLY)")
                cols = con.execute(
                    "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 's' AND table_name = ? "
                    "ORDER BY column_index",
                    [table],
                ).fetchall()
                if column not in {c for c, _ in cols}:
                    raise SystemExit(f"{spec}: {dataset} has no column {column} in {table}; see --tables for the names")
                decl = ", ".join(
                    f'"{c}" {t}' + (" USING COMPRESSION zstd" if zstd and c == column else "") for c, t in cols
                )
                con.execute(f'CREATE TABLE "{table}" ({decl})')
                con.execute(f'INSERT INTO "{table}" SELECT * FROM s."{table}"')
                con.execute("CHECKPOINT")
                kinds = con.execute(
                    f"SELECT string_agg(DISTINCT compression, '+') FROM pragma_storage_info('{table}') "
                    "WHERE column_name = ? AND segment_type <> 'VALIDITY'",
                    [column],
                ).fetchone()[0]
            finally:
                con.close()
            out[label] = {
                "bytes": dest.stat().st_size,
                "compression": kinds,
                "seconds": round(time.perf_counter() - t0, 1),
            }
            dest.unlink()
    out["saved_bytes"] = out["as_is"]["bytes"] - out["zstd"]["bytes"]
    return out


def extrapolate(rows: list[dict], manifest: Path = MANIFEST, event_growth: int = EVENT_GROWTH) -> dict:
    """Bytes per record x records, per dataset: at the 2023 manifest's sizes, and today's (more events)."""
    device = orjson.loads(manifest.read_bytes())["results"]["device"]
    out: dict = {"method": "bytes per record measured per dataset x the records of each; summed", "rows": []}
    for when, extra in (("2023-07 manifest", 0), ("today", event_growth)):
        sums = {"records": 0, "published": 0.0, "compacted": 0.0, "zips": 0.0, "manifest_zips": 0.0}
        for r in rows:
            if r["dataset"] not in device:
                continue
            n = int(device[r["dataset"]]["total_records"]) + (extra if r["dataset"] == "event" else 0)
            sums["records"] += n
            sums["published"] += r["published_per_record"] * n
            sums["compacted"] += r["new_per_record"] * n
            sums["zips"] += r["zip_per_record"] * n
            mb = sum(float(p["size_mb"]) for p in device[r["dataset"]]["partitions"])
            sums["manifest_zips"] += mb * 2**20 * n / int(device[r["dataset"]]["total_records"])
            out["rows"].append(
                {"when": when, "dataset": r["dataset"], "records": n}
                | {k: round(r[f"{k}_per_record"] * n) for k in ("published", "zip")}
                | {"compacted": round(r["new_per_record"] * n)}
            )
        out[when] = {k: round(v) for k, v in sums.items()}
    return out


def _print_extrapolation(ex: dict) -> None:
    print(f"\nEXTRAPOLATED ({ex['method']}); GiB")
    print(f"  {'':18} {'records':>12} {'published':>10} {'compacted':>10} {'zips':>8} {'zips (manifest)':>16}")
    for when in ("2023-07 manifest", "today"):
        t = ex[when]
        print(
            f"  {when:18} {t['records']:>12,} {t['published'] / 2**30:>10.1f} {t['compacted'] / 2**30:>10.1f} "
            f"{t['zips'] / 2**30:>8.1f} {t['manifest_zips'] / 2**30:>16.1f}"
        )
    for r in ex["rows"]:
        if r["dataset"] in ("event", "udi"):
            print(
                f"    {r['when']:16} {r['dataset']:<8} {r['records']:>12,} {r['published'] / 2**30:>10.1f} "
                f"{r['compacted'] / 2**30:>10.1f} {r['zip'] / 2**30:>8.1f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--data-dir", type=Path, help="a synced mirror")
    group.add_argument("--from", dest="source", type=Path, help="a download-site folder to sync first (tmp)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--skip-old", action="store_true", help=f"no copy at {OLD} (slow and large on a big mirror)")
    ap.add_argument("--tables", action="store_true", help="also print the size of every table")
    ap.add_argument("--only", help="comma-separated datasets to measure (default: every published one)")
    ap.add_argument("--work", type=Path, help="folder for the copies (default: the temporary folder)")
    ap.add_argument(
        "--zstd",
        metavar="DATASET:TABLE.COLUMN",
        help="only this: the table copied as it is and with the column declared ZSTD (needs --data-dir)",
    )
    ap.add_argument("--extrapolate", action="store_true", help="also scale to the 2023 manifest and to today")
    ap.add_argument("--event-growth", type=int, default=EVENT_GROWTH, help="events added since 2023-07 (today)")
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else None
    if a.work:
        a.work.mkdir(parents=True, exist_ok=True)  # a new folder named for the copies is made, not refused
    if a.zstd:
        if not a.data_dir or ":" not in a.zstd or "." not in a.zstd:
            ap.error("--zstd DATASET:TABLE.COLUMN goes with --data-dir, e.g. event:device_event_text.text")
        z = try_zstd(a.data_dir, a.zstd, a.work)
        if a.json:
            print(orjson.dumps(z, option=orjson.OPT_INDENT_2).decode())
        else:
            print(
                f"{a.zstd}: as it is {z['as_is']['bytes'] / 2**20:,.1f} MiB ({z['as_is']['compression']}, "
                f"{z['as_is']['seconds']} s); declared ZSTD {z['zstd']['bytes'] / 2**20:,.1f} MiB "
                f"({z['zstd']['compression']}, {z['zstd']['seconds']} s); saved {z['saved_bytes'] / 2**20:,.1f} MiB"
            )
        return
    if a.source:
        with tempfile.TemporaryDirectory(prefix="storage-mirror-", dir=a.work) as tmp:
            report = sync(Settings(data_dir=Path(tmp)), SyncOptions(source_dir=a.source, quiet=True))
            if not report.ok:
                sys.exit(f"sync failed: {report.errors}")
            rows = measure(Path(tmp), not a.skip_old, only, a.work)
    else:
        rows = measure(a.data_dir, not a.skip_old, only, a.work)
    ex = extrapolate(rows, event_growth=a.event_growth) if a.extrapolate else None
    if a.json:
        print(orjson.dumps({"rows": rows, "extrapolated": ex} if ex else rows, option=orjson.OPT_INDENT_2).decode())
    else:
        _print(rows, a.tables)
        if ex:
            _print_extrapolation(ex)


if __name__ == "__main__":
    main()
