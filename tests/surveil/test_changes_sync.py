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
    doc = {"meta": {"last_updated": export_date, "_synthetic": "test copies of real records",
                    "results": {"skip": 0, "limit": len(records), "total": len(records)}}, "results": records}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, json.dumps(doc) + "\n")
    part = {"display_name": "2024q1 (all)", "file": f"{DL}/device/event/2024q1/{name}.zip",
            "size_mb": "0.01", "records": len(records)}
    manifest = {"meta": {"last_updated": export_date},
                "results": {"device": {"event": {"export_date": export_date, "total_records": len(records),
                                                 "partitions": [part]}}}}
    (root / "download.json").write_bytes(orjson.dumps(manifest))


def records(keys: list[int], death: set[int] = frozenset()) -> list[dict]:
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
    assert [r.status for r in record_changes(store).datasets] == ["baseline"]

    write_site(site, records([1, 2, 3, 4, 10, 11], death={4}), "2025-02-01")
    report = sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True))
    assert report.ok, report.errors
    rec = record_changes(store).datasets[0]
    assert (rec.dataset, rec.status, rec.added, rec.changed, rec.removed, rec.as_of) == \
        ("event", "diffed", 2, 1, 2, "2025-02-01")
    con = store.open_file(store.data_dir / "surveil" / "changes.duckdb")
    try:
        got = dict(con.execute("SELECT change, list_sort(list(key)) FROM changes WHERE sync_id = 2 GROUP BY 1")
                   .fetchall())
    finally:
        con.close()
    assert got == {"added": ["10", "11"], "changed": ["4"], "removed": ["5", "6"]}
    ev = changes_since(store).datasets[0]
    assert ev.rows[0]["report"] == "4" and ev.rows[0]["event_type"] == "Death"      # deaths first
    codes = {c for r in ev.rows for c in r["product_codes"].split(",") if c}
    scoped = changes_since(store, Scope(codes=tuple(sorted(codes))[:1])).datasets[0]
    assert 0 < scoped.added + scoped.changed <= 3
