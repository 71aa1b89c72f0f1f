"""Compressed storage: files written at STORAGE_VERSION (record JSON as ZSTD), shown by status, and an older mirror
migrated through staging, also when the migration is interrupted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import orjson
import pytest
from click.testing import CliRunner

from mirror.cli import cli
from mirror.ops.status import status
from mirror.settings import Settings
from mirror.store.files import STORAGE_VERSION, Store, storage_version
from mirror.sync import SAMPLE_DIR, SyncOptions, sync


def _version(path: Path) -> str:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return storage_version(con)
    finally:
        con.close()


def _downgrade(data_dir: Path) -> None:
    """Rewrite every published file at DuckDB's default storage (v1.0.0+), as an older release wrote them."""
    for path in (data_dir / "db").glob("*.duckdb"):
        old = path.with_name("old.duckdb")
        con = duckdb.connect()
        con.execute(f"ATTACH '{path}' AS src (READ_ONLY)")
        con.execute(f"ATTACH '{old}' AS dst (STORAGE_VERSION 'v1.0.0')")
        con.execute("SET preserve_insertion_order=true")
        con.execute("COPY FROM DATABASE src TO dst")
        con.close()
        os.replace(old, path)
        assert _version(path) == "v1.0.0+"


def _record_compression(path: Path, table: str = "device_event", column: str = "record") -> set[str]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            c
            for (c,) in con.execute(
                f"SELECT compression FROM pragma_storage_info('{table}') "
                f"WHERE column_name = '{column}' AND compression <> 'Constant'"
            ).fetchall()
        }
    finally:
        con.close()


def _counts(data_dir: Path) -> dict[str, int]:
    con = Store(data_dir).connect()
    try:
        return {
            t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
            for t in ("device_event", "device_510k", "device_udi", "gudid_device")
        }
    finally:
        con.close()


@pytest.fixture
def old_mirror(sample_dir, tmp_path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(sample_dir, d)
    _downgrade(d)
    return d


def test_a_sync_writes_every_file_at_the_storage_version_with_the_record_json_compressed(sample_dir):
    files = Store(sample_dir).published()
    assert len(files) == 10
    assert {_version(p) for p in files.values()} == {STORAGE_VERSION + "+"}
    assert _record_compression(files["event"]) == {"ZSTD"}
    assert _record_compression(files["event"], "device_event_text", "text") == {"ZSTD"}  # the narratives too


def test_status_shows_each_files_size_and_storage_version(sample_dir):
    runner = CliRunner()
    got = runner.invoke(cli, ["status", "--data-dir", str(sample_dir), "--json"])
    assert got.exit_code == 0, got.output
    st = orjson.loads(got.output)
    assert st["storage_version"] == STORAGE_VERSION
    for d in [*st["endpoints"].values(), st["gudid"]]:
        assert d["storage_version"] == "v1.2.0+" and d["storage_current"] is True
        assert d["bytes_on_disk"] == Path(d["file"]).stat().st_size > 0
    text = runner.invoke(cli, ["status", "--data-dir", str(sample_dir)]).output
    assert "storage v1.2.0+" in text and "older storage" not in text


def test_a_sync_migrates_an_older_mirror_through_staging(old_mirror):
    before = _counts(old_mirror)
    st = status(Store(old_mirror))
    assert st["endpoints"]["event"]["storage_version"] == "v1.0.0+" and not st["gudid"]["storage_current"]
    event = old_mirror / "db" / "device_event.duckdb"
    assert _record_compression(event) == {"Uncompressed"}
    report = sync(Settings(data_dir=old_mirror), SyncOptions(source_dir=SAMPLE_DIR, quiet=True))
    assert report.ok, report.errors
    assert {r.status for r in report.datasets.values()} == {"updated"}
    assert {_version(p) for p in Store(old_mirror).published().values()} == {"v1.2.0+"}
    assert _counts(old_mirror) == before
    assert _record_compression(event) == {"ZSTD"}
    verify = CliRunner().invoke(cli, ["verify", "--data-dir", str(old_mirror)])
    assert verify.exit_code == 0, verify.output
    again = sync(Settings(data_dir=old_mirror), SyncOptions(source_dir=SAMPLE_DIR, quiet=True))
    assert {r.status for r in again.datasets.values()} == {"up-to-date"}


_KILL = """
import os, sys
import mirror.sync.indexes as ix
real = ix.ensure_tables
def killed(con, ds):          # inside the copy's transaction: the process dies with it open
    real(con, ds)
    if ds.endpoint == "event":
        con.execute("INSERT INTO device_event BY NAME SELECT * FROM _upgrade_src.main.device_event")
        os.kill(os.getpid(), 9)
ix.ensure_tables = killed
from mirror.cli import cli
cli(["sync", "--sample", "--data-dir", sys.argv[1], "--quiet", "--only", "event"])
"""


def test_a_migration_killed_mid_copy_leaves_the_old_file_published_and_the_next_sync_finishes(old_mirror, tmp_path):
    event = old_mirror / "db" / "device_event.duckdb"
    before = event.read_bytes()
    run = subprocess.run([sys.executable, "-c", _KILL, str(old_mirror)], capture_output=True)
    assert run.returncode == -9, run.stderr.decode()[-2000:]
    assert event.read_bytes() == before and _version(event) == "v1.0.0+"
    assert (old_mirror / "db" / "device_event.staging.duckdb").exists()
    assert _counts(old_mirror)["device_event"] == 7  # still queryable, as it was
    report = sync(Settings(data_dir=old_mirror), SyncOptions(source_dir=SAMPLE_DIR, only=["event"], quiet=True))
    assert report.ok and report.datasets["event"].status == "updated"
    assert _version(event) == "v1.2.0+" and _counts(old_mirror)["device_event"] == 7
    assert not (old_mirror / "db" / "device_event.staging.duckdb").exists()


def test_a_migration_that_fails_after_the_copy_is_finished_by_the_next_sync(old_mirror, monkeypatch):
    import mirror.sync.run as run

    real = run.finish

    def crash(con, ds, *args, **kwargs):
        if ds.endpoint == "udi":
            raise KeyboardInterrupt  # as a Ctrl-C between the copy and the publish
        real(con, ds, *args, **kwargs)

    monkeypatch.setattr(run, "finish", crash)
    with pytest.raises(KeyboardInterrupt):
        sync(Settings(data_dir=old_mirror), SyncOptions(source_dir=SAMPLE_DIR, only=["udi"], quiet=True))
    udi = old_mirror / "db" / "device_udi.duckdb"
    assert _version(udi) == "v1.0.0+" and _counts(old_mirror)["device_udi"] == 6
    monkeypatch.setattr(run, "finish", real)
    report = sync(Settings(data_dir=old_mirror), SyncOptions(source_dir=SAMPLE_DIR, only=["udi"], quiet=True))
    assert report.ok and report.datasets["udi"].status == "updated"
    assert _version(udi) == "v1.2.0+" and _counts(old_mirror)["device_udi"] == 6
    assert CliRunner().invoke(cli, ["verify", "--data-dir", str(old_mirror)]).exit_code == 0
