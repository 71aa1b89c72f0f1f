"""D18: a disk that fills while a dataset loads leaves no staging file or WAL behind, and the message says so."""

from __future__ import annotations

import subprocess

import pytest

from mirror.sync import SAMPLE_DIR

from .sync_helpers import errors, records, run


@pytest.fixture
def small_disk(tmp_path):
    """A real 8 MB tmpfs (the sample's classification needs more to load)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mnt)], check=True)
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_disk_full_while_loading_removes_the_staging_file_and_its_wal(small_disk):
    data = small_disk / "data"
    code, out, err = run("sync", "--from", str(SAMPLE_DIR), "--only", "pma", "--data-dir", str(data), "--quiet")
    assert code == 0, err
    code, out, err = run(
        "sync", "--from", str(SAMPLE_DIR), "--only", "classification", "--data-dir", str(data), "--quiet"
    )
    assert code == 1
    lines = errors(err)
    assert len(lines) == 1 and "disk full" in lines[0]
    assert "device_classification.staging.duckdb and its .wal were deleted" in lines[0]
    assert not [p.name for p in (data / "db").iterdir() if "staging" in p.name]
    assert not [p for p in (data / "tmp").rglob("*") if p.is_file()]
    assert records(data, "pma") == 6
    code, out, err = run("status", "--data-dir", str(data))
    assert code == 0 and "unfinished" not in out
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    code, out, err = run(
        "sync", "--from", str(SAMPLE_DIR), "--only", "classification", "--data-dir", str(data), "--quiet"
    )
    assert code == 0, err
    assert records(data, "classification") == 6530
