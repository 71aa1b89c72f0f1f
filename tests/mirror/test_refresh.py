"""The weekly refresh: a re-export whose partitions hold the same records keeps them without loading them again.

SYNTHETIC event sites (copies of real sample records, tests/mirror/synth.py): export 2025-01-01, then a re-export
2025-02-01 of the same records except one revised record in 2021q3."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest

from mirror import Store, status, verify
from mirror.settings import Settings
from mirror.sync import SyncOptions, sync
from tests.conftest import FileServer, serve_manifest
from tests.mirror.synth import write_event_site

QUARTERS = ["2021q1", "2021q2", "2021q3", "2021q4"]
CHANGED = "2021q3"
PER_FILE = 400
TABLES = ["device_event", "device_event_device", "device_event_text", "device_event_patient"]


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("refresh-sites")
    write_event_site(root / "v1", QUARTERS, PER_FILE, "2025-01-01", revised=False)
    write_event_site(root / "v2", QUARTERS, PER_FILE, "2025-02-01", revised=False, changed=(CHANGED,))
    return root


def _settings(tmp_path: Path, name: str) -> Settings:
    return Settings(data_dir=tmp_path / name, backoff=0.01, retries=2, timeout=10)


def _sync(settings: Settings, site: Path):
    report = sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True))
    assert report.ok, report.errors
    return report.datasets["event"]


def _tables(data: Path) -> list[str]:
    with duckdb.connect(str(data / "db" / "device_event.duckdb"), read_only=True) as con:
        have = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    return [t for t in TABLES if t in have]


def _same_data(a: Path, b: Path) -> None:
    """Every row of the data tables (record JSON, typed columns, child rows), both ways, with multiplicity."""
    con = duckdb.connect()
    con.execute(f"ATTACH '{a / 'db' / 'device_event.duckdb'}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{b / 'db' / 'device_event.duckdb'}' AS b (READ_ONLY)")
    tables = _tables(a)
    assert tables == _tables(b) and "device_event_device" in tables
    for t in tables:
        cast = "* REPLACE (record::VARCHAR AS record)" if t == "device_event" else "*"
        for x, y in (("a", "b"), ("b", "a")):
            (n,) = con.execute(
                f"SELECT count(*) FROM (SELECT {cast} FROM {x}.main.{t} EXCEPT ALL SELECT {cast} FROM {y}.main.{t})"
            ).fetchone()
            assert n == 0, (t, x, y)
    digests = [dict(con.execute(f"SELECT partition, digest FROM {x}.main._sync_state").fetchall()) for x in "ab"]
    assert digests[0] == digests[1] and all(d.startswith("sha256:") for d in digests[0].values())


def _rowids(data: Path, quarter: str) -> list[tuple]:
    with duckdb.connect(str(data / "db" / "device_event.duckdb"), read_only=True) as con:
        return con.execute(
            "SELECT rowid, mdr_report_key FROM device_event WHERE _partition LIKE ? ORDER BY rowid", [f"%/{quarter}/%"]
        ).fetchall()


def test_a_re_export_loads_only_the_changed_partition(sites, tmp_path):
    s = _settings(tmp_path, "data")
    first = _sync(s, sites / "v1")
    assert first.files_unchanged == 0 and first.files_to_fetch == len(QUARTERS)
    kept = _rowids(s.data_dir, "2021q1")
    refresh = _sync(s, sites / "v2")
    assert refresh.status == "updated" and refresh.export_date == "2025-02-01"
    assert refresh.files_to_fetch == len(QUARTERS) and refresh.files_unchanged == len(QUARTERS) - 1
    assert _rowids(s.data_dir, "2021q1") == kept  # kept rows were not deleted and inserted again
    st = status(Store(s.data_dir))["endpoints"]["event"]
    assert st["export_date"] == "2025-02-01" and st["records"] == PER_FILE * len(QUARTERS)
    with duckdb.connect(str(s.data_dir / "db" / "device_event.duckdb"), read_only=True) as con:
        assert {d for (d,) in con.execute("SELECT DISTINCT export_date FROM _sync_state").fetchall()} == {"2025-02-01"}
        assert all("2025-02-01" not in u for (u,) in con.execute("SELECT url FROM _sync_state").fetchall())
    assert verify(Store(s.data_dir))["ok"]
    fresh = _settings(tmp_path, "fresh")
    _sync(fresh, sites / "v2")
    _same_data(s.data_dir, fresh.data_dir)
    # the change records mirror/surveil keeps: the one revised record, nothing from the kept partitions
    with duckdb.connect(str(s.data_dir / "surveil" / "changes.duckdb"), read_only=True) as con:
        changes = con.execute("SELECT key, change FROM changes WHERE sync_id = 2").fetchall()
    revised = _rowids(fresh.data_dir, CHANGED)
    first_key = min(k for _, k in revised)
    assert changes == [(first_key, "changed")]
    # the same export again: nothing to do
    again = _sync(s, sites / "v2")
    assert again.status == "up-to-date" and again.files_to_fetch == 0


def test_the_indexes_agree_after_a_refresh(sites, tmp_path):
    """Word and row indexes are rebuilt when a partition loads: they point at the records they name."""
    from mirror.schema.datasets import DATASETS
    from mirror.sync.indexes import index_problems

    s = _settings(tmp_path, "data")
    _sync(s, sites / "v1")
    _sync(s, sites / "v2")
    with duckdb.connect(str(s.data_dir / "db" / "device_event.duckdb"), read_only=True) as con:
        assert index_problems(con, DATASETS["event"]) == []
        tables = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    assert any(t.startswith("device_event_") and t not in TABLES for t in tables)  # there are indexes to check


def test_a_re_export_with_nothing_changed_loads_nothing(sites, tmp_path):
    s = _settings(tmp_path, "data")
    _sync(s, sites / "v1")
    same = tmp_path / "v3"
    write_event_site(same, QUARTERS, PER_FILE, "2025-03-01", revised=False)
    before = {q: _rowids(s.data_dir, q) for q in QUARTERS}
    r = _sync(s, same)
    assert r.status == "updated" and r.files_unchanged == len(QUARTERS)
    assert {q: _rowids(s.data_dir, q) for q in QUARTERS} == before
    assert status(Store(s.data_dir))["endpoints"]["event"]["export_date"] == "2025-03-01"
    assert verify(Store(s.data_dir))["ok"]


def test_a_mirror_without_digests_loads_every_partition_once_then_keeps_them(sites, tmp_path):
    """A mirror synced before digests were recorded: the first refresh loads all, the next one keeps them."""
    s = _settings(tmp_path, "data")
    _sync(s, sites / "v1")
    with duckdb.connect(str(s.data_dir / "db" / "device_event.duckdb")) as con:
        con.execute("ALTER TABLE _sync_state DROP COLUMN digest")
    r = _sync(s, sites / "v2")
    assert r.files_unchanged == 0
    same = tmp_path / "v3"
    write_event_site(same, QUARTERS, PER_FILE, "2025-03-01", revised=False)  # CHANGED's record reverts
    r = _sync(s, same)
    assert r.files_unchanged == len(QUARTERS) - 1


def test_a_refresh_killed_midway_leaves_the_old_export_then_finishes(sites, tmp_path):
    """SIGKILL after kept partitions were committed to staging: the old export stays published; the rerun
    finishes and equals a fresh sync."""
    data = tmp_path / "data"
    _sync(_settings(tmp_path, "data"), sites / "v1")
    srv = FileServer(sites / "v2")
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        serve_manifest(sites / "v2", srv.url)
        srv.throttle[f"device/event/{CHANGED}/device-event-0001-of-0001.json.zip"] = 0.5
        env = dict(os.environ, FDAX_RETRIES="2", FDAX_BACKOFF="0.01", FDAX_CONCURRENCY="2")
        cmd = [
            sys.executable,
            "-m",
            "mirror",
            "sync",
            "--manifest",
            f"{srv.url}/download.local.json",
            "--only",
            "event",
            "--data-dir",
            str(data),
        ]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert p.stderr is not None
        for line in p.stderr:
            if line.startswith("unchanged"):
                break
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
        assert (data / "db" / "device_event.staging.duckdb").exists()
        st = status(Store(data))["endpoints"]["event"]
        assert st["export_date"] == "2025-01-01" and verify(Store(data))["ok"]
        srv.throttle.clear()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
    finally:
        srv.shutdown()
        srv.server_close()
    assert status(Store(data))["endpoints"]["event"]["export_date"] == "2025-02-01"
    fresh = _settings(tmp_path, "fresh")
    _sync(fresh, sites / "v2")
    _same_data(data, fresh.data_dir)
