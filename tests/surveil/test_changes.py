"""The change snapshot: a second publish changes, removes and adds records, and the digest says exactly which
(SYNTHETIC event and recall datasets published through the real Store, as a sync publishes them)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from mirror.errors import MirrorError
from mirror.store.files import Store
from mirror.store.state import record_loaded
from mirror.surveil.changes import record_changes, snapshot_path
from mirror.surveil.digest import changes_since
from mirror.surveil.scope import Scope

from .synthetic import event_rows, publish_events


def publish_recalls(store: Store, recalls: dict[str, dict], export_date: str) -> None:
    con = store.open_staging("recall")
    con.execute(
        "CREATE TABLE device_recall (product_res_number VARCHAR, res_event_number VARCHAR, "
        "recalling_firm VARCHAR, product_code VARCHAR, event_date_initiated DATE, recall_status VARCHAR, "
        "record JSON)"
    )
    for key, r in recalls.items():
        con.execute(
            "INSERT INTO device_recall VALUES (?, ?, ?, ?, ?, ?, ?)",
            [key, r["event"], r["firm"], r["code"], r["date"], r["status"], json.dumps(r)],
        )
    con.execute("INSERT OR REPLACE INTO _sync_meta VALUES ('export_date', ?)", [export_date])
    record_loaded(con, "device/recall/all.zip", "http://127.0.0.1/x", export_date, len(recalls), 1, export_date)
    con.execute("INSERT INTO _sync_meta VALUES ('status', 'complete')")
    store.publish("recall", con)


def recall(code: str, status: str = "Ongoing", firm: str = "FIRM A") -> dict:
    return {"event": "E1", "firm": firm, "code": code, "date": "2024-02-01", "status": status}


def changed(r: tuple) -> tuple:
    """The same report (a death), now an injury (the digest reads the record JSON)."""
    rec = json.loads(r[6]) | {"event_type": "Injury"}
    return (r[0], "Injury") + r[2:6] + (json.dumps(rec),) + r[7:]


@pytest.fixture
def data(tmp_path):
    return tmp_path / "data"


def test_second_sync_digest_is_exact(data):
    v1 = event_rows()  # keys 1..120
    store = publish_events(data, v1, export_date="2024-01-01")
    publish_recalls(store, {f"Z-{i}": recall("AAA" if i < 5 else "BBB") for i in range(10)}, "2024-01-01")
    first = record_changes(store)
    assert {r.dataset: r.status for r in first.datasets} == {"event": "baseline", "recall": "baseline"}
    # second sync: events 1-3 (deaths) become injuries, 4-5 removed, 3 new ones;
    # recalls Z-0 changed, Z-9 removed, Z-10 added
    v2 = [changed(r) if r[0] in ("1", "2", "3") else r for r in v1 if r[0] not in ("4", "5")]
    v2 += event_rows([("AAA", 2024, "Death", ["Fire"], 2), ("BBB", 2024, "Injury", [], 1)], start=500)
    publish_events(data, v2, export_date="2024-02-01")
    recalls = {f"Z-{i}": recall("AAA" if i < 5 else "BBB") for i in range(9)}
    recalls["Z-0"] = recall("AAA", status="Terminated")
    recalls["Z-10"] = recall("AAA")
    publish_recalls(store, recalls, "2024-02-01")
    second = record_changes(store)
    got = {r.dataset: (r.status, r.added, r.changed, r.removed) for r in second.datasets}
    assert got == {"event": ("diffed", 3, 3, 2), "recall": ("diffed", 1, 1, 1)}
    con = store.open_file(snapshot_path(store))
    try:
        rows = con.execute(
            "SELECT dataset, change, list_sort(list(key)) FROM changes WHERE sync_id = 2 GROUP BY ALL ORDER BY ALL"
        ).fetchall()
        assert rows == [
            ("event", "added", ["500", "501", "502"]),
            ("event", "changed", ["1", "2", "3"]),
            ("event", "removed", ["4", "5"]),
            ("recall", "added", ["Z-10"]),
            ("recall", "changed", ["Z-0"]),
            ("recall", "removed", ["Z-9"]),
        ]
        assert con.execute("SELECT count(*) FROM digests WHERE dataset = 'event'").fetchone()[0] == len(v2)
    finally:
        con.close()
    # a third record with nothing new: unchanged, no change rows
    third = record_changes(store)
    assert {r.status for r in third.datasets} == {"unchanged"}

    # the watchlist view: AAA only, deaths first, removed keys counted
    report = changes_since(store, Scope(codes=("AAA",)), sync_id=2)
    ev = next(d for d in report.datasets if d.dataset == "event")
    assert (ev.added, ev.changed, ev.removed) == (2, 3, 2)
    assert [r["report"] for r in ev.rows[:2]] in (["500", "501"], ["501", "500"])
    assert [r["event_type"] for r in ev.rows] == ["Death", "Death", "Injury", "Injury", "Injury"]
    assert ev.as_of == "2024-02-01"
    rc = next(d for d in report.datasets if d.dataset == "recall")
    assert sorted((r["change"], r["recall"]) for r in rc.rows) == [("added", "Z-10"), ("changed", "Z-0")]
    # by date: every sync recorded today (the baseline has no change rows)
    assert len(changes_since(store, since=date.today()).syncs) == 3


def test_changes_before_any_record_says_what_to_do(data):
    store = publish_events(data, event_rows())
    with pytest.raises(MirrorError, match="no change history yet"):
        changes_since(store)


def test_sample_mirror_baseline(mirror_copy):
    store = Store(mirror_copy)
    con = store.open_file(snapshot_path(store), read_only=True)
    try:  # `mirror sync --sample` took the baseline of every dataset it published
        first = con.execute("SELECT sync_id, dataset, status, added + changed + removed FROM sync_datasets").fetchall()
        listed = con.execute("SELECT count(*) FROM changes").fetchone()
    finally:
        con.close()
    assert {d for _, d, _, _ in first} == set(store.require_published()) and listed == (0,)
    assert {(s, status, n) for s, _, status, n in first} == {(1, "baseline", 0)}
    rec = record_changes(store)  # nothing differs since
    assert rec.sync_id == 2 and {r.dataset for r in rec.datasets} >= {"event", "recall", "udi", "gudid", "510k", "pma"}
    assert all(r.status == "unchanged" for r in rec.datasets), [(r.dataset, r.status) for r in rec.datasets]
