"""The change digest across two real `mirror sync` runs (SYNTHETIC event files made from the real sample records):
the second run changes one record, removes two and adds two; record_changes after each publish says exactly that."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import orjson

from mirror import Settings
from mirror.store.files import Store
from mirror.surveil.changes import record_changes
from mirror.surveil.digest import changes_since
from mirror.surveil.scope import Scope
from mirror.sync import SyncOptions, sync
from tests.mirror.synth import DL, real_event_records


def write_site(root: Path, records: list[dict], export_date: str) -> None:
    name = "device-event-0001-of-0001.json"
    path = root / "device" / "event" / "2024q1" / (name + ".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "meta": {
            "last_updated": export_date,
            "_synthetic": "test copies of real records",
            "results": {"skip": 0, "limit": len(records), "total": len(records)},
        },
        "results": records,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, json.dumps(doc) + "\n")
    part = {
        "display_name": "2024q1 (all)",
        "file": f"{DL}/device/event/2024q1/{name}.zip",
        "size_mb": "0.01",
        "records": len(records),
    }
    manifest = {
        "meta": {"last_updated": export_date},
        "results": {
            "device": {"event": {"export_date": export_date, "total_records": len(records), "partitions": [part]}}
        },
    }
    (root / "download.json").write_bytes(orjson.dumps(manifest))


def records(keys: list[int], death: frozenset[int] | set[int] = frozenset()) -> list[dict]:
    base = real_event_records()
    out = []
    for k in keys:
        r = dict(base[k % len(base)], mdr_report_key=str(k), date_received="20240115")
        if k in death:
            r["event_type"] = "Death"
        out.append(r)
    return out


def test_two_real_syncs(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    site = tmp_path / "site"
    write_site(site, records(list(range(1, 7))), "2025-01-01")
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    store = Store(settings.data_dir)
    # mirror sync recorded the snapshot itself: the first sync is a baseline, no record listed as new
    assert _recorded(store) == ([(1, "event", "baseline", 0, 0, 0, "2025-01-01")], [])

    write_site(site, records([1, 2, 3, 4, 10, 11], death={4}), "2025-02-01")
    report = sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True))
    assert report.ok, report.errors
    syncs, changes = _recorded(store)
    assert syncs[1:] == [(2, "event", "diffed", 2, 1, 2, "2025-02-01")]
    assert changes == [(2, "added", ["10", "11"]), (2, "changed", ["4"]), (2, "removed", ["5", "6"])]
    ev = changes_since(store).datasets[0]  # the latest sync: the second
    assert (ev.added, ev.changed, ev.removed) == (2, 1, 2)
    assert ev.rows[0]["report"] == "4" and ev.rows[0]["event_type"] == "Death"  # deaths first
    codes = {c for r in ev.rows for c in r["product_codes"].split(",") if c}
    scoped = changes_since(store, Scope(codes=tuple(sorted(codes))[:1])).datasets[0]
    assert 0 < scoped.added + scoped.changed <= 3

    # a sync with nothing new records nothing; recording by hand then finds the mirror unchanged
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    assert len(_recorded(store)[0]) == 2
    assert record_changes(store).datasets[0].status == "unchanged"


def test_a_sync_whose_recording_fails_still_publishes(tmp_path):
    settings = Settings(data_dir=tmp_path / "data")
    site = tmp_path / "site"
    write_site(site, records(list(range(1, 7))), "2025-01-01")
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    store = Store(settings.data_dir)
    snapshot = store.data_dir / "surveil"
    moved = snapshot.rename(tmp_path / "surveil-kept")
    snapshot.write_text("not a folder")  # the change history cannot be opened

    write_site(site, records([1, 2, 3, 4, 10, 11], death={4}), "2025-02-01")
    report = sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True))
    assert report.datasets["event"].status == "updated"
    assert len(report.errors) == 1 and "list of changed records was not" in report.errors[0], report.errors
    assert "fda-explorer changes --record" in report.errors[0] and "\n" not in report.errors[0]
    con = store.connect()
    try:  # the new data is published and queryable
        keys = sorted(r[0] for r in con.execute("SELECT mdr_report_key FROM device_event").fetchall())
    finally:
        con.close()
    assert keys == ["1", "10", "11", "2", "3", "4"]

    snapshot.unlink()
    moved.rename(snapshot)  # recorded by hand later: the differences are all there
    digest = record_changes(store)
    rec = digest.datasets[0]
    assert (digest.sync_id, rec.status, rec.added, rec.changed, rec.removed) == (2, "diffed", 2, 1, 2)


def _recorded(store: Store) -> tuple[list[tuple], list[tuple]]:
    """(sync_datasets rows, (sync, change, sorted keys) per change) of the change history a sync keeps."""
    con = store.open_file(store.data_dir / "surveil" / "changes.duckdb", read_only=True)
    try:
        syncs = con.execute(
            "SELECT sync_id, dataset, status, added, changed, removed, as_of FROM sync_datasets ORDER BY 1"
        ).fetchall()
        changes = con.execute(
            "SELECT sync_id, change, list_sort(list(key)) FROM changes GROUP BY 1, 2 ORDER BY 1, 2"
        ).fetchall()
    finally:
        con.close()
    return syncs, changes
