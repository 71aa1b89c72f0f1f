"""Surveillance speed (issue 18) on SYNTHETIC mirrors of bench/synth_mirror.py, extrapolated to full size.

Usage (from the repository root):

    .venv/bin/python bench/synth_mirror.py --scale 0.03 --out SITE \
        --only event,recall,enforcement,510k,pma,udi,classification
    .venv/bin/python -m mirror sync --from SITE --data-dir DATA --quiet
    .venv/bin/python bench/surveil_speed.py --data 0.01=DATA1 --data 0.03=DATA2 [--repeat 3] [--json]

Each `--data SCALE=FOLDER` is a synced synthetic mirror of that scale (its change snapshot is written to: a made-up
sync is added and removed again). Per mirror, each timed case is run --repeat times (median kept):

1. digest: `changes_since` of a watchlist of the 10 product codes with the most reports, over a made-up sync in
   which every record received (events), initiated (recalls), reported (enforcement), decided (510(k), PMA) or
   published (UDI) in the data's last quarter is "added" and 1% of the events before it "changed": an upper bound
   of a weekly update (openFDA replaces a quarter at most); and a week's sync: the records of the data's last 7
   days added, nothing else; and a sync that changed nothing (the digest's fixed part);
2. signals for one product code across all years: the most reported code (LZG, 10.7% of reports) and DXY (5.3%),
   the per-version tables warm (as after a sync: all devices' counts, each code's counts, the reports of several
   codes, recall and enforcement text and tokens; `mirror/surveil/aggregates.py`); their build is timed apart
   (once per sync);
3. inventory of 1,000 rows: UDI records of the mirror as GS1 UDI strings ((01) DI (17) expiry (10) lot), brand,
   model and product code, written as a CSV and read back, then `check_inventory`;
4. the quarterly report of that 10-code watchlist for the last full quarter, as PDF, DOCX and Markdown, and its data
   alone (every query, no layout: the part that can grow with the mirror; the layout is bounded by the report's
   row caps).

Extrapolation to scale 1.0 (16.9M event reports), two ways: the straight line through the medians of the two largest
scales (when two are given; never below the larger one's median), and an upper bound: the larger scale's median
times 1/scale, as if all of the time grew with the data, except for the part measured as fixed (the digest over a
sync that changed nothing; a report's layout, i.e. its time less the report data's), which is kept as measured.
Both are printed for wall seconds and for the CPU seconds of the process (all its threads): on a machine shared with
other work the wall time mostly measures the wait for a core, while the CPU time is the work done, which on an idle
machine bounds the wall time from above (less when DuckDB runs a scan on both cores). Goals at full size: digest
< 2 s, signals < 3 s, inventory of 1,000 rows < 30 s, quarterly report < 30 s.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.surveil.inventory import check_inventory, read_inventory  # noqa: E402
from agent.surveil.report import build_report, write_report  # noqa: E402
from agent.surveil.watchlists import Watchlists  # noqa: E402
from mirror.store.files import Store  # noqa: E402
from mirror.surveil.aggregates import AGGREGATES, SOURCE, aggregate_path, build_aggregates  # noqa: E402
from mirror.surveil.changes import key_sql, open_snapshot  # noqa: E402
from mirror.surveil.digest import changes_since  # noqa: E402
from mirror.surveil.scope import Scope  # noqa: E402
from mirror.surveil.signals import signals  # noqa: E402

GOALS = {
    "digest (10 codes)": 2.0,
    "digest of a week's sync (10 codes)": 2.0,
    "signals LZG (all years)": 3.0,
    "signals DXY (all years)": 3.0,
    "inventory (1,000 rows)": 30.0,
    "report PDF": 30.0,
    "report DOCX": 30.0,
    "report Markdown": 30.0,
}
WATCH = "bench-top10"
# dataset -> the date column that says "new in the last quarter"
NEW = {
    "event": "date_received",
    "recall": "event_date_initiated",
    "enforcement": "report_date",
    "510k": "decision_date",
    "pma": "decision_date",
    "udi": "publish_date",
}


def timed(fn, repeat: int) -> tuple[float, object]:
    """Median wall seconds of `repeat` runs (the median CPU seconds of this process, all threads, in LAST_CPU)."""
    times, cpus, out = [], [], None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    LAST_CPU[0] = statistics.median(cpus)
    return statistics.median(times), out


LAST_CPU = [0.0]


def put(out: dict, case: str, seconds: float) -> None:
    out["seconds"][case] = seconds
    out["cpu"][case] = LAST_CPU[0]


def top_codes(store: Store, n: int = 10) -> list[str]:
    con = store.connect()
    try:
        return [
            r[0]
            for r in con.execute(
                "SELECT code FROM (SELECT unnest(product_code_list) AS code FROM "
                "device_event) GROUP BY code ORDER BY count(*) DESC, code LIMIT ?",
                [n],
            ).fetchall()
        ]
    finally:
        con.close()


def last_quarter(store: Store) -> tuple[str, str]:
    """(first day of the data's last full quarter, the period string like 2023Q2)."""
    con = store.connect()
    try:
        top = con.execute("SELECT max(date_received) FROM device_event").fetchone()[0]
    finally:
        con.close()
    q = (top.month - 1) // 3 + 1
    return f"{top.year}-{3 * q - 2:02d}-01", f"{top.year}Q{q}"


def last_week(store: Store) -> str:
    """The first day of the data's last 7 days of received reports."""
    con = store.connect()
    try:
        return str(con.execute("SELECT max(date_received) - INTERVAL 6 DAY FROM device_event").fetchone()[0])[:10]
    finally:
        con.close()


def add_fake_sync(store: Store, since: str, old: bool = True) -> tuple[int, dict[str, int]]:
    """A made-up sync: records new since `since` are 'added', and with `old` 1% of older events 'changed'.
    Returns its id and the change rows per dataset."""
    snap = open_snapshot(store, read_only=False)
    counts = {}
    try:
        for dataset, path in store.published().items():
            if dataset in NEW:
                snap.execute(f"ATTACH '{path}' AS b_{dataset.replace('510k', 'k510')} (READ_ONLY)")
        sync_id = snap.execute("SELECT coalesce(max(sync_id), 0) + 1 FROM syncs").fetchone()[0]
        snap.execute("INSERT INTO syncs VALUES (?, now()::TIMESTAMP)", [sync_id])
        for dataset, col in NEW.items():
            if dataset not in store.published():
                continue
            alias = "b_" + dataset.replace("510k", "k510")
            table = "device_event" if dataset == "event" else f"device_{dataset}"
            older = f" OR (hash(t.rowid) % 100 = 0 AND t.{col} < DATE '{since}')" if old and dataset == "event" else ""
            snap.execute(
                f"""INSERT INTO changes SELECT ?, ?, {key_sql(dataset, "t")},
                             CASE WHEN t.{col} >= DATE '{since}' THEN 'added' ELSE 'changed' END
                             FROM {alias}.main."{table}" t WHERE t.{col} >= DATE '{since}'{older}""",
                [sync_id, dataset],
            )
            counts[dataset] = snap.execute(
                "SELECT count(*) FROM changes WHERE sync_id = ? AND dataset = ?", [sync_id, dataset]
            ).fetchone()[0]
            snap.execute(
                "INSERT INTO sync_datasets VALUES (?, ?, '', 'diffed', ?, 0, 0)", [sync_id, dataset, counts[dataset]]
            )
    finally:
        snap.close()
    return sync_id, counts


def add_empty_sync(store: Store) -> int:
    snap = open_snapshot(store, read_only=False)
    try:
        sync_id = snap.execute("SELECT coalesce(max(sync_id), 0) + 1 FROM syncs").fetchone()[0]
        snap.execute("INSERT INTO syncs VALUES (?, now()::TIMESTAMP)", [sync_id])
    finally:
        snap.close()
    return sync_id


def drop_fake_sync(store: Store, sync_id: int) -> None:
    snap = open_snapshot(store, read_only=False)
    try:
        for table in ("changes", "sync_datasets", "syncs"):
            snap.execute(f"DELETE FROM {table} WHERE sync_id = ?", [sync_id])
    finally:
        snap.close()


def inventory_file(store: Store, folder: Path, n: int = 1000) -> Path:
    con = store.connect()
    try:
        rows = con.execute(
            """SELECT i.id, u.brand_name, u.version_or_model_number, u.product_code_list[1]
                              FROM device_udi u JOIN device_udi_identifier i USING (public_device_record_key)
                              WHERE i.id IS NOT NULL ORDER BY hash(i.id) LIMIT ?""",
            [n],
        ).fetchall()
    finally:
        con.close()
    path = folder / "inventory.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["UDI", "Brand", "Model", "Product code"])
        for k, (di, brand, model, code) in enumerate(rows):
            w.writerow([f"(01){di}(17)261231(10)LOT{k:05d}", brand or "", model or "", code or ""])
    return path


def measure(data: Path, repeat: int) -> dict:
    store = Store(data, "4GB")
    out: dict = {"events": 0, "seconds": {}, "cpu": {}, "notes": {}}
    con = store.connect()
    try:
        out["events"] = con.execute("SELECT count(*) FROM device_event").fetchone()[0]
    finally:
        con.close()
    codes = top_codes(store)
    since, period = last_quarter(store)
    wls = Watchlists(data)
    if WATCH in wls.names():
        wls.delete(WATCH)
    wls.create(WATCH, codes=codes)
    out["notes"]["watchlist"] = ", ".join(codes)
    try:
        sync_id, counts = add_fake_sync(store, since)
        out["notes"]["made-up sync"] = counts
        try:
            t, rep = timed(lambda: changes_since(store, Scope(codes=tuple(codes)), sync_id=sync_id, limit=20), repeat)
            put(out, "digest (10 codes)", t)
            out["notes"]["digest"] = {d.dataset: (d.added, d.changed) for d in rep.datasets}
        finally:
            drop_fake_sync(store, sync_id)
        # a week's sync: the records of the data's last 7 days added, nothing else (what a weekly check sees)
        sync_id, counts = add_fake_sync(store, last_week(store), old=False)
        out["notes"]["week's sync"] = counts
        try:
            t, _ = timed(lambda: changes_since(store, Scope(codes=tuple(codes)), sync_id=sync_id, limit=20), repeat)
            put(out, "digest of a week's sync (10 codes)", t)
        finally:
            drop_fake_sync(store, sync_id)
        # the same digest over a sync that changed nothing: what does not grow with the data (connections, the
        # snapshot, the small queries); the rest is the scans of the changed datasets' key columns
        sync_id = add_empty_sync(store)
        try:
            t, _ = timed(lambda: changes_since(store, Scope(codes=tuple(codes)), sync_id=sync_id, limit=20), repeat)
            put(out, "digest, a sync with no change (fixed part)", t)
        finally:
            drop_fake_sync(store, sync_id)
        names = tuple(n for n in AGGREGATES if SOURCE[n] == "event" or SOURCE[n] in store.published())
        for name in names:
            aggregate_path(store, name).unlink(missing_ok=True)
        t0, c0 = time.perf_counter(), time.process_time()
        build_aggregates(store, names=names)
        LAST_CPU[0] = time.process_time() - c0
        put(out, "surveillance tables (once per sync)", time.perf_counter() - t0)
        out["notes"]["tables"] = ", ".join(f"{n} {aggregate_path(store, n).stat().st_size / 1e6:.2f} MB" for n in names)
        for code in ("LZG", "DXY"):
            t, table = timed(lambda code=code: signals(store, Scope(codes=(code,))), repeat)
            put(out, f"signals {code} (all years)", t)
            out["notes"][f"signals {code}"] = f"{len(table.rows)} rows, {table.reports_in_scope[None]} reports"
        with tempfile.TemporaryDirectory() as tmp:
            inv = inventory_file(store, Path(tmp))
            t, report = timed(lambda: check_inventory(store, read_inventory(inv)), repeat)
            put(out, "inventory (1,000 rows)", t)
            out["notes"]["inventory"] = f"{len(report.rows)} rows, " + ", ".join(
                f"{k}: {v}" for k, v in sorted(_rules(report.rows).items())
            )
            t, _ = timed(lambda: build_report(store, WATCH, period), repeat)
            put(out, "report data (queries, no layout)", t)
            for suffix, name in ((".pdf", "PDF"), (".docx", "DOCX"), (".md", "Markdown")):
                t, path = timed(lambda s=suffix: write_report(store, WATCH, period, Path(tmp) / f"r{s}"), repeat)
                put(out, f"report {name}", t)
                out["notes"][f"report {name}"] = f"{period}, {path.stat().st_size:,} bytes"
    finally:
        wls.delete(WATCH)
    return out


def _rules(rows: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["match"]] = counts.get(r["match"], 0) + 1
    return counts


# case -> the case timing its part that does not grow with the data: the upper bound grows only the rest
FIXED = {
    "digest (10 codes)": "digest, a sync with no change (fixed part)",
    "digest of a week's sync (10 codes)": "digest, a sync with no change (fixed part)",
    "report PDF": "report data (queries, no layout)",
    "report DOCX": "report data (queries, no layout)",
    "report Markdown": "report data (queries, no layout)",
}


def extrapolate(runs: dict[float, dict], key: str = "seconds") -> tuple[dict[str, float], dict[str, float]]:
    """(the line through the two largest scales, the upper bound) of each case at scale 1.0. The upper bound
    multiplies the larger scale's median by 1/scale, as if all of it grew with the data; for the cases of `FIXED`,
    only the part beyond the fixed case is multiplied (the report's layout is bounded by its row caps, so a
    report is its layout as measured plus its data times 1/scale; a digest is its fixed part plus the rest
    times 1/scale)."""
    scales = sorted(runs)
    top = scales[-1]
    line, bound = {}, {}
    secs = runs[top][key]
    for case, t2 in secs.items():
        bound[case] = t2 / top
        if case in FIXED and FIXED[case] in secs:
            grows = secs[FIXED[case]]
            if case.startswith("digest"):  # grows: what is left beyond the fixed part
                grows = max(t2 - secs[FIXED[case]], 0.0)
            bound[case] = t2 - grows + grows / top
        line[case] = bound[case]
        if len(scales) >= 2:
            s1 = scales[-2]
            t1 = runs[s1][key][case]
            line[case] = max(t2, t2 + (t2 - t1) / (top - s1) * (1.0 - top))
    return line, bound


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, help="SCALE=FOLDER of a synced synthetic mirror")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs = {}
    for spec in args.data:
        scale, _, folder = spec.partition("=")
        runs[float(scale)] = measure(Path(folder), args.repeat)
    fits = {key: extrapolate(runs, key) for key in ("seconds", "cpu")}
    if args.json:
        print(json.dumps({"runs": runs, "full": fits}, indent=2, default=str))
        return
    scales = sorted(runs)
    for key, title in (("seconds", "wall seconds"), ("cpu", "CPU seconds of the process (all threads)")):
        line, bound = fits[key]
        print(f"\n{title}\n")
        print(
            "| case | "
            + " | ".join(f"scale {s:g} ({runs[s]['events']:,} events)" for s in scales)
            + " | full size: line | full size: upper bound | goal |"
        )
        print("|---|" + "---|" * (len(scales) + 3))
        for case in runs[scales[-1]][key]:
            goal = GOALS.get(case)
            verdict = (
                ""
                if goal is None
                else (
                    f"< {goal:g} s: line {'met' if line[case] < goal else 'NOT met'}, "
                    f"bound {'met' if bound[case] < goal else 'NOT met'}"
                )
            )
            print(
                f"| {case} | "
                + " | ".join(f"{runs[s][key][case]:.2f} s" for s in scales)
                + f" | {line[case]:.1f} s | {bound[case]:.1f} s | {verdict} |"
            )
    for s in scales:
        print(f"\nscale {s:g}: " + "; ".join(f"{k}: {v}" for k, v in runs[s]["notes"].items()))


if __name__ == "__main__":
    main()
