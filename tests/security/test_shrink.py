"""D8: a sync may not empty a dataset or drop it below half its records unless --allow-shrink says so.

The guard compares the records the manifest lists (after --since) with what the published dataset holds in the
same --since slice; `mirror verify` compares a dataset with its count before the last sync.
"""

from __future__ import annotations

import json

import duckdb
import orjson

from mirror import Settings, Store, verify
from mirror.sync import SAMPLE_DIR, SyncOptions, sync
from tests.mirror.synth import write_event_site

from .sync_helpers import assert_intact, base_mirror, errors, mirror_copy, records, run  # noqa: F401

NEW = "2026-01-01"


def _empty_510k(source, total=0) -> None:
    path = source / "download.json"
    doc = json.loads(path.read_text())
    doc["results"]["device"]["510k"].update(export_date=NEW, partitions=[], total_records=total)
    doc["results"]["device"]["pma"]["export_date"] = NEW
    path.write_text(json.dumps(doc))


def _sync(source, data, *extra):
    return run("sync", "--from", str(source), "--only", "510k,pma", "--data-dir", str(data), "--quiet", *extra)


def test_empty_partition_list_leaves_the_dataset_intact(sample_copy, mirror_copy):
    data, before = mirror_copy
    _empty_510k(sample_copy)
    code, out, err = _sync(sample_copy, data)
    assert code == 3  # partial: the other datasets updated
    lines = errors(err)
    assert len(lines) == 1 and "--allow-shrink" in lines[0] and "510k" in lines[0] and "lists 0 records" in lines[0]
    assert "holds 7" in lines[0]
    assert_intact(data, before, endpoints=("510k",))
    assert (
        records(data, "pma") == 6
        and json.loads(run("status", "--json", "--data-dir", str(data))[1])["endpoints"]["pma"]["export_date"] == NEW
    ), "the other datasets still update"
    assert run("verify", "--data-dir", str(data))[0] == 0


def test_allow_shrink_publishes_and_verify_notes_it(sample_copy, mirror_copy):
    data, before = mirror_copy
    _empty_510k(sample_copy)
    code, out, err = _sync(sample_copy, data, "--allow-shrink")
    assert code == 0, err
    assert records(data, "510k") == 0
    code, out, err = run("verify", "--data-dir", str(data))
    assert code == 0 and "note: 0 records where the dataset held 7" in out and "--allow-shrink" in out
    res = json.loads(run("verify", "--json", "--data-dir", str(data))[1])
    assert res["ok"] and res["datasets"]["510k"]["notes"] and not res["datasets"]["pma"]["notes"]


def test_verify_reports_a_shrink_that_was_not_allowed(sample_copy, mirror_copy):
    """A dataset published smaller than half its previous count without --allow-shrink (older program, manual
    edit): verify fails and names it."""
    data, before = mirror_copy
    _empty_510k(sample_copy)
    assert _sync(sample_copy, data, "--allow-shrink")[0] == 0
    with duckdb.connect(str(data / "db" / "device_510k.duckdb")) as con:
        con.execute("UPDATE _sync_meta SET value = 'false' WHERE key = 'shrink_allowed'")
    code, out, err = run("verify", "--data-dir", str(data))
    assert code == 1 and "FAILED" in out and "0 records where the dataset held 7" in out


def _site(root, per_file: list[int], export_date: str):
    root.mkdir(parents=True, exist_ok=True)
    quarters = [f"2024q{i + 1}" for i in range(len(per_file))]
    # one file per quarter; write_event_site takes one size, so build each quarter's file and merge the manifests
    merged = None
    for q, n in zip(quarters, per_file):
        man = write_event_site(root, [q], n, export_date=export_date)
        if merged is None:
            merged = man
        else:
            ev = merged["results"]["device"]["event"]
            ev["partitions"] += man["results"]["device"]["event"]["partitions"]
            ev["total_records"] += n
    (root / "download.json").write_bytes(orjson.dumps(merged))


def test_threshold_is_half_of_the_records_held(tmp_path):
    """10 records held: 4 (below half) are refused, 5 (half) are published."""
    settings = Settings(data_dir=tmp_path / "data")
    _site(tmp_path / "v1", [5, 5], "2025-01-01")
    assert sync(settings, SyncOptions(source_dir=tmp_path / "v1", only=["event"], quiet=True)).ok
    _site(tmp_path / "v2", [4], "2025-02-01")
    report = sync(settings, SyncOptions(source_dir=tmp_path / "v2", only=["event"], quiet=True))
    assert not report.ok and report.datasets["event"].status == "failed" and "--allow-shrink" in report.errors[0]
    assert records(settings.data_dir, "event") == 10
    _site(tmp_path / "v3", [5], "2025-03-01")
    report = sync(settings, SyncOptions(source_dir=tmp_path / "v3", only=["event"], quiet=True))
    assert report.ok, report.errors
    assert records(settings.data_dir, "event") == 5
    assert verify(Store(settings.data_dir))["ok"]
    _site(tmp_path / "v4", [1], "2025-04-01")
    report = sync(settings, SyncOptions(source_dir=tmp_path / "v4", only=["event"], allow_shrink=True, quiet=True))
    assert report.ok and records(settings.data_dir, "event") == 1


def test_since_narrowing_the_slice_is_not_a_shrink(tmp_path):
    """--since is the user's own choice: the guard compares the same slice (2020 on: 5 of the sample's 7 events)."""
    settings = Settings(data_dir=tmp_path / "data")
    assert sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=["event"], quiet=True)).ok
    report = sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=["event"], since=2020, quiet=True))
    assert report.ok, report.errors
    assert records(settings.data_dir, "event") == 5


def test_dry_run_says_a_shrink_would_be_refused(sample_copy, mirror_copy):
    data, before = mirror_copy
    _empty_510k(sample_copy)
    code, out, err = _sync(sample_copy, data, "--dry-run")
    assert code == 1 and "--allow-shrink" in err
    assert_intact(data, before)
