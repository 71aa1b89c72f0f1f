"""Seeding an empty data folder from a carried snapshot: a mirror's DuckDB files, a bundle, a source folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mirror import BundleError, Settings, Store, export, status
from mirror.ops.snapshot import NOTE, SnapshotError, is_empty, seed, snapshot_kind
from mirror.sync import SAMPLE_DIR


def _records(data_dir: Path) -> dict[str, int]:
    st = status(Store(data_dir))
    rows = {name: d["records"] for name, d in st["endpoints"].items()}
    if "gudid" in st:
        rows["gudid"] = st["gudid"]["records"]
    return rows


@pytest.fixture
def target(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "user-data")


def test_kinds(sample_dir: Path, tmp_path: Path):
    assert snapshot_kind(sample_dir) == "mirror"
    assert snapshot_kind(SAMPLE_DIR) == "source"
    export(Store(sample_dir), tmp_path / "bundle", ["recall"])
    assert snapshot_kind(tmp_path / "bundle") == "bundle"
    with pytest.raises(SnapshotError, match="not a mirror snapshot"):
        snapshot_kind(tmp_path)


def test_seed_from_a_mirror_copies_its_published_files(sample_dir: Path, target: Settings):
    note = seed(target, sample_dir)
    assert note["kind"] == "mirror" and note["snapshot"] == str(sample_dir)
    assert _records(target.data_dir) == _records(sample_dir)
    assert json.loads((target.data_dir / NOTE).read_text())["datasets"] == note["datasets"]
    assert (target.data_dir / "open.sql").is_file()
    assert not list((target.data_dir / "db").glob("*.part"))


def test_seed_from_the_sample_source_syncs_it(sample_dir: Path, target: Settings):
    note = seed(target, SAMPLE_DIR)
    assert note["kind"] == "source"
    assert _records(target.data_dir) == _records(sample_dir)


def test_seed_from_a_bundle_verifies_and_syncs_it(sample_dir: Path, tmp_path: Path, target: Settings):
    export(Store(sample_dir), tmp_path / "bundle", ["recall", "510k"])
    assert seed(target, tmp_path / "bundle")["kind"] == "bundle"
    assert set(_records(target.data_dir)) == {"recall", "510k"}


def test_a_bad_bundle_is_refused_naming_the_fix(sample_dir: Path, tmp_path: Path, target: Settings):
    bundle = tmp_path / "bundle"
    export(Store(sample_dir), bundle, ["recall"])
    victim = next(p for p in bundle.rglob("*.zip"))
    victim.write_bytes(victim.read_bytes()[:-10] + b"0123456789")
    with pytest.raises(BundleError, match="checksum does not match"):
        seed(target, bundle)
    assert not (target.data_dir / NOTE).exists()


def test_a_folder_with_data_is_left_alone(sample_dir: Path, tmp_path: Path, target: Settings):
    seed(target, SAMPLE_DIR)
    before = _records(target.data_dir)
    export(Store(sample_dir), tmp_path / "bundle", ["recall"])
    assert seed(target, tmp_path / "bundle") is None
    assert _records(target.data_dir) == before


def test_an_interrupted_first_sync_is_not_seeded_over(tmp_path: Path, target: Settings):
    part = target.data_dir / "downloads" / "2020-01-01" / "x.zip.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"half")
    assert not is_empty(target.data_dir)
    assert seed(target, SAMPLE_DIR) is None


def test_an_empty_folder_with_sessions_only_counts_as_empty(tmp_path: Path):
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "sessions.sqlite").write_bytes(b"")
    assert is_empty(tmp_path) and is_empty(tmp_path / "missing")


def test_a_seed_killed_halfway_is_finished_by_the_next_start(sample_dir: Path, target: Settings):
    """A copy interrupted after one file (the note says "seeding") is completed, not taken for a mirror."""
    import shutil

    from mirror.ops.snapshot import unfinished

    db = target.data_dir / "db"
    db.mkdir(parents=True)
    first = sorted(Store(sample_dir).published().values())[0]
    shutil.copyfile(first, db / first.name)  # what the killed copy got done
    (target.data_dir / NOTE).write_text(
        json.dumps({"snapshot": str(sample_dir), "kind": "mirror", "status": "seeding"})
    )
    assert not is_empty(target.data_dir) and unfinished(target.data_dir)
    note = seed(target, sample_dir)
    assert note["status"] == "done" and unfinished(target.data_dir) is None
    assert _records(target.data_dir) == _records(sample_dir)
    assert seed(target, sample_dir) is None  # done: never seeded twice
