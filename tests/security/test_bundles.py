"""D9 and D12: a bundle verifies or is refused; bundle.json of the wrong shape is one line, never a traceback.

A bundle (a folder written by `mirror export`) must list, with a sha256, every file the sync plans to read from it;
a folder marked as an export without its bundle.json is an interrupted export; export fsyncs and writes
bundle.json last. Every refusal: one line, exit 1, and the previous mirror answering as before.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import orjson
import pytest

from mirror import Store, export

from .sync_helpers import (  # noqa: F401
    K510,
    PMA,
    assert_intact,
    base_mirror,
    error_line,
    files_under,
    load_manifest,
    mirror_copy,
    records,
    run,
    save_manifest,
)

NEW = "2026-01-01"
SHA = "0" * 64


@pytest.fixture(scope="module")
def base_bundle(base_mirror: Path, tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("bundle") / "bundle"
    export(Store(base_mirror), dest)
    return dest


@pytest.fixture
def bundle(base_bundle: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "bundle"
    shutil.copytree(base_bundle, dest, symlinks=True)
    return dest


def _sync(bundle: Path, data: Path, *extra: str) -> tuple[int, str, str]:
    return run("sync", "--from", str(bundle), "--only", "510k,pma", "--data-dir", str(data), "--quiet", *extra)


def _set_bundle(bundle: Path, doc) -> None:
    (bundle / "bundle.json").write_bytes(orjson.dumps(doc))


def _files(bundle: Path) -> list[dict]:
    return orjson.loads((bundle / "bundle.json").read_bytes())["files"]


def _with_files(files) -> dict:
    return {"format": "fda-explorer-bundle/1", "exported_at": "2026-01-01T00:00:00+00:00", "files": files}


def _entry(**changes) -> list[dict]:
    return [dict({"path": PMA, "bytes": 10, "sha256": SHA}, **changes)]


MALFORMED = {
    "null": None,
    "a string": "str",
    "a list": [1, 2],
    "an empty list": [],
    "an empty object": {},
    "files a string": {"files": "x"},
    "no format": {"files": []},
    "files a string, format ok": _with_files("x"),
    "entry a number": _with_files([5]),
    "path a number": _with_files(_entry(path=5)),
    "path null": _with_files(_entry(path=None)),
    "sha256 null": _with_files(_entry(sha256=None)),
    "sha256 short": _with_files(_entry(sha256="abc")),
    "bytes a string": _with_files(_entry(bytes="10")),
    "bytes negative": _with_files(_entry(bytes=-1)),
    "bytes true": _with_files(_entry(bytes=True)),
    "path climbs": _with_files(_entry(path="../../../victim/important.txt")),
    "path absolute": _with_files(_entry(path="/etc/shadow")),
    "path backslash": _with_files(_entry(path="device\\..\\..\\x")),
    "path listed twice": _with_files(_entry() + _entry()),
}


@pytest.mark.parametrize("doc", list(MALFORMED.values()), ids=list(MALFORMED))
def test_malformed_bundle_json_is_refused_in_one_line(doc, bundle, mirror_copy, tmp_path):
    data, before = mirror_copy
    _set_bundle(bundle, doc)
    code, out, err = _sync(bundle, data)
    assert code == 1
    line = error_line(err)
    assert "bundle.json" in line and ("export" in line or "refused" in line), line
    assert_intact(data, before)
    fresh = tmp_path / "fresh"
    code, out, err = _sync(bundle, fresh)
    assert code == 1 and not list(fresh.rglob("*.duckdb")), "nothing may load from a bad bundle"


@pytest.mark.parametrize("raw", [b"not json", b"", b'{"files": [', b"\xff\xfe"], ids=["text", "empty", "cut", "binary"])
def test_bundle_json_that_is_not_json_is_refused(raw, bundle, mirror_copy):
    data, before = mirror_copy
    (bundle / "bundle.json").write_bytes(raw)
    code, out, err = _sync(bundle, data)
    assert code == 1 and "not valid JSON" in error_line(err)
    assert_intact(data, before)


def _tamper(zip_path: Path) -> None:
    """Rewrite a 510(k) zip: the same records, each applicant changed."""
    with zipfile.ZipFile(zip_path) as zf:
        name = zf.namelist()[0]
        doc = orjson.loads(zf.read(name))
    for r in doc["results"]:
        r["applicant"] = "TAMPERED BY ATTACKER"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    zip_path.write_bytes(buf.getvalue())


def _bump(bundle: Path, endpoint: str) -> None:
    doc = load_manifest(bundle / "download.json")
    doc["results"]["device"][endpoint]["export_date"] = NEW
    save_manifest(bundle / "download.json", doc)


def test_tampered_zip_whose_entry_was_removed_from_bundle_json_is_refused(bundle, mirror_copy):
    data, before = mirror_copy
    _tamper(bundle / K510)
    _set_bundle(bundle, _with_files([f for f in _files(bundle) if f["path"] != K510]))
    _bump(bundle, "510k")
    code, out, err = _sync(bundle, data)
    assert code == 1
    line = error_line(err)
    assert str(bundle / K510) in line and "not listed in bundle.json" in line
    assert_intact(data, before)
    con = Store(data).connect()
    assert con.execute("SELECT count(*) FROM device_510k WHERE applicant = 'TAMPERED BY ATTACKER'").fetchone()[0] == 0


def test_tampered_zip_with_its_entry_kept_is_refused(bundle, mirror_copy):
    data, before = mirror_copy
    _tamper(bundle / K510)
    _bump(bundle, "510k")
    code, out, err = _sync(bundle, data)
    assert code == 1 and "checksum does not match" in error_line(err)
    assert_intact(data, before)


def test_planned_file_missing_from_bundle_json_is_refused_before_anything_loads(bundle, tmp_path):
    _set_bundle(bundle, _with_files([f for f in _files(bundle) if f["path"] != PMA]))
    fresh = tmp_path / "fresh"
    code, out, err = _sync(bundle, fresh)
    assert code == 1
    line = error_line(err)
    assert str(bundle / PMA) in line and "not listed in bundle.json" in line
    assert not list(fresh.rglob("*.duckdb"))


def test_bundle_without_its_bundle_json_is_an_incomplete_export(bundle, mirror_copy):
    data, before = mirror_copy
    (bundle / "bundle.json").unlink()
    _tamper(bundle / K510)
    _bump(bundle, "510k")
    code, out, err = _sync(bundle, data)
    assert code == 1
    line = error_line(err)
    assert "incomplete export" in line and "mirror export" in line and str(bundle) in line
    assert_intact(data, before)


_DIE_BEFORE_BUNDLE_JSON = """
import os, sys
from pathlib import Path
from mirror import Store, export
real = os.replace
def replace(src, dst, *a, **kw):
    if Path(dst).name == "bundle.json":
        os._exit(9)              # the process dies as bundle.json is about to land (kill -9, pulled USB stick)
    return real(src, dst, *a, **kw)
os.replace = replace
export(Store(Path(sys.argv[1])), Path(sys.argv[2]))
"""


def test_export_killed_before_bundle_json_leaves_a_folder_sync_refuses(base_mirror, bundle, mirror_copy):
    """A real process dies during `mirror export` over an older bundle: the folder is refused, not loaded."""
    data, before = mirror_copy
    done = subprocess.run(
        [sys.executable, "-c", _DIE_BEFORE_BUNDLE_JSON, str(base_mirror), str(bundle)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 9, done.stderr
    assert not (bundle / "bundle.json").exists() and (bundle / "download.json").exists()
    code, out, err = _sync(bundle, data)
    assert code == 1 and "incomplete export" in error_line(err)
    assert_intact(data, before)


def test_export_fsyncs_every_file_and_renames_bundle_json_last(base_mirror, tmp_path, monkeypatch):
    opened: dict[int, str] = {}
    synced: list[str] = []
    replaced: list[str] = []
    real_open, real_fsync, real_replace = os.open, os.fsync, os.replace

    def open_(path, flags, *a, **kw):
        fd = real_open(path, flags, *a, **kw)
        opened[fd] = str(path)
        return fd

    def fsync(fd):
        synced.append(opened.get(fd, f"fd {fd}"))
        return real_fsync(fd)

    def replace(src, dst, *a, **kw):
        replaced.append(str(dst))
        return real_replace(src, dst, *a, **kw)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    dest = tmp_path / "bundle"
    export(Store(base_mirror), dest)
    monkeypatch.undo()
    listed = [f["path"] for f in _files(dest)]
    assert listed and set(listed) == {K510, PMA}
    for rel in listed:
        assert str(dest / rel) in synced or str(dest / rel) + ".part" in synced, rel
        assert str((dest / rel).parent) in synced, rel
    for name in ("download.json", "NOTICE", "bundle.json"):
        assert str(dest / name) + ".tmp" in synced, name
    assert str(dest) in synced
    assert replaced[-1] == str(dest / "bundle.json")
    assert not list(dest.rglob("*.tmp")) and not list(dest.rglob("*.part"))


def test_bundle_json_linking_out_of_the_folder_is_refused(bundle, mirror_copy, tmp_path):
    data, before = mirror_copy
    outside = tmp_path / "elsewhere.json"
    shutil.move(bundle / "bundle.json", outside)
    (bundle / "bundle.json").symlink_to(outside)
    code, out, err = _sync(bundle, data)
    assert code == 1 and "symbolic link" in error_line(err)
    assert_intact(data, before)


def test_bundle_zip_linking_to_a_valid_zip_outside_is_refused(bundle, mirror_copy, tmp_path):
    """The file is listed with its right checksum, but lives outside the folder: not read."""
    data, before = mirror_copy
    outside = tmp_path / "outside.zip"
    shutil.move(bundle / K510, outside)
    (bundle / K510).symlink_to(outside)
    _bump(bundle, "510k")
    snapshot = files_under(tmp_path, skip=(data,))
    code, out, err = _sync(bundle, data)
    assert code == 1
    line = error_line(err)
    assert "symbolic link" in line and str(bundle / K510) in line
    assert files_under(tmp_path, skip=(data,)) == snapshot
    assert_intact(data, before)


def test_unlisted_gudid_release_in_a_bundle_is_refused(sample_dir, tmp_path):
    """A GUDID release added to a bundle's gudid folder (a newer one, so the sync would load it) is not listed."""
    bundle = tmp_path / "bundle"
    export(Store(sample_dir), bundle, ["pma", "gudid"])
    release = next((bundle / "gudid").glob("*.zip"))
    added = bundle / "gudid" / "AccessGUDID_Delimited_Full_Release_20251101.zip"
    shutil.copy(release, added)
    fresh = tmp_path / "fresh"
    code, out, err = run("sync", "--from", str(bundle), "--data-dir", str(fresh), "--quiet")
    assert code == 1
    line = error_line(err)
    assert str(added) in line and "not listed in bundle.json" in line
    assert not list(fresh.rglob("*.duckdb"))
    added.unlink()
    code, out, err = run("sync", "--from", str(bundle), "--data-dir", str(fresh), "--quiet")
    assert code == 0, err
    assert records(fresh, "pma") == 6
