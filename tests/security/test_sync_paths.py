"""D1: a manifest, a download-site copy or a bundle cannot delete, read or plant files outside the data folder.

Every attack runs through the three entry points (`--from DIR`, `--manifest PATH` with partitions on a local HTTP
server, `--manifest http://127.0.0.1:PORT/...`) against a real mirror, with a victim file outside it. Each must end
in one line naming the entry, exit 1, the victim untouched, nothing new outside the data folder, and the previous
mirror answering `mirror status` and a query as before.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mirror.sync import SAMPLE_DIR

from .sync_helpers import (  # noqa: F401
    DL,
    K510,
    PMA,
    assert_intact,
    base_mirror,
    error_line,
    errors,
    files_under,
    load_manifest,
    mirror_copy,
    run,
    save_manifest,
    server,
)

ENTRIES = ["from", "manifest-path", "manifest-http"]
NEW = "2026-01-01"
CLIMB = "../" * 40


def _home_rel(home: Path) -> str:
    return str(home).lstrip("/")


def _export_date_climbs(e, base, home, source):
    e["export_date"] = CLIMB + _home_rel(home)


def _export_date_absolute(e, base, home, source):
    e["export_date"] = str(home)


def _url_dotdot(e, base, home, source):
    e["partitions"][0]["file"] = f"{base}/{CLIMB}{_home_rel(home)}/{K510}"


def _url_encoded_dots(e, base, home, source):
    e["partitions"][0]["file"] = f"{base}/{'%2e%2e/' * 40}{_home_rel(home)}/{K510}"


def _url_encoded_dots_upper(e, base, home, source):
    e["partitions"][0]["file"] = f"{base}/{'%2E%2E/' * 40}{_home_rel(home)}/{K510}"


def _url_encoded_slashes(e, base, home, source):
    e["partitions"][0]["file"] = f"{base}/device{'%2f..' * 40}%2f{_home_rel(home)}/{K510}"


def _url_backslashes(e, base, home, source):
    e["partitions"][0]["file"] = f"{base}/{'..' + chr(92) * 1}" * 40 + f"{_home_rel(home)}/{K510}"


def _url_empty_segment(e, base, home, source):
    e["partitions"][0]["file"] = f"{base}/{home}/{K510}"  # http://host//tmp/...: an absolute path


def _url_dot_segment(e, base, home, source):
    e["partitions"][0]["file"] = f"{base}/./{CLIMB}{_home_rel(home)}/{K510}"


def _absolute_file(e, base, home, source):
    e["partitions"][0]["file"] = str(home / K510)


def _file_url(e, base, home, source):
    e["partitions"][0]["file"] = f"file://{home / K510}"


def _plant(e, base, home, source):
    """The review's plant: export_date climbs to /, partition 1 missing, partition 2 the payload's path."""
    payload = source / _home_rel(home) / "planted.sh"
    payload.parent.mkdir(parents=True, exist_ok=True)
    payload.write_text("#!/bin/sh\necho attacker code\n")
    p0 = e["partitions"][0]
    e["export_date"] = CLIMB
    e["partitions"] = [
        dict(p0, file=f"{base}/device/510k/missing.json.zip"),
        dict(p0, file=f"{base}/{_home_rel(home)}/planted.sh"),
    ]


def _plant_safe_date(e, base, home, source):
    """The same payload with a sound export date: its path climbs instead."""
    _plant(e, base, home, source)
    e["export_date"] = NEW
    e["partitions"][1]["file"] = f"{base}/{CLIMB}{_home_rel(home)}/planted.sh"


ATTACKS = {
    "export_date climbs": (_export_date_climbs, "export_date"),
    "export_date absolute": (_export_date_absolute, "export_date"),
    "url ..": (_url_dotdot, "'..' segment"),
    "url %2e%2e": (_url_encoded_dots, "percent-encoding"),
    "url %2E%2E": (_url_encoded_dots_upper, "percent-encoding"),
    "url %2f": (_url_encoded_slashes, "percent-encoding"),
    "url backslash": (_url_backslashes, "backslash"),
    "url //absolute": (_url_empty_segment, "absolute"),
    "url /./": (_url_dot_segment, "'.'"),
    "absolute file": (_absolute_file, "not an http(s) URL"),
    "file:// url": (_file_url, "not an http(s) URL"),
    "plant, export_date to /": (_plant, "export_date"),
    "plant, url climbs": (_plant_safe_date, "'..' segment"),
}


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A user's folder outside the mirror holding a file named like a partition, and another file."""
    home = tmp_path / "home"
    (home / K510).parent.mkdir(parents=True)
    (home / K510).write_bytes(b"user's file")
    (home / "important.txt").write_text("keep me")
    return home


def _entry_args(entry: str, source: Path, srv) -> tuple[Path, str, list[str]]:
    """(manifest file to edit, partition URL base, sync arguments) for an entry point."""
    if entry == "from":
        return source / "download.json", DL, ["--from", str(source)]
    doc = load_manifest(source / "download.json")
    for e in doc["results"]["device"].values():
        for p in e["partitions"]:
            p["file"] = p["file"].replace(DL, srv.url)
    local = source / "download.local.json"
    save_manifest(local, doc)
    where = str(local) if entry == "manifest-path" else f"{srv.url}/download.local.json"
    return local, srv.url, ["--manifest", where]


def _sync(args: list[str], data: Path) -> tuple[int, str, str]:
    return run(
        "sync",
        *args,
        "--only",
        "510k,pma",
        "--data-dir",
        str(data),
        "--quiet",
        env={"FDAX_RETRIES": "1", "FDAX_BACKOFF": "0.01"},
    )


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_hostile_path_is_refused(entry, attack, sample_copy, server, victim, mirror_copy, tmp_path):
    data, before = mirror_copy
    manifest, base, args = _entry_args(entry, sample_copy, server)
    doc = load_manifest(manifest)
    e = doc["results"]["device"]["510k"]
    e["export_date"] = NEW
    change, why = ATTACKS[attack]
    change(e, base, victim, sample_copy)
    save_manifest(manifest, doc)
    outside = files_under(tmp_path, skip=(data,))
    code, out, err = _sync(args, data)
    assert (victim / K510).read_bytes() == b"user's file"
    assert files_under(tmp_path, skip=(data,)) == outside, "a file outside the data folder was written or deleted"
    assert code == 1
    line = error_line(err)
    assert "510k" in line and why in line, line
    assert not list((data / "downloads").rglob("planted.sh")) if (data / "downloads").exists() else True
    assert_intact(data, before)


def _bump(manifest: Path, *endpoints: str) -> None:
    doc = load_manifest(manifest)
    for ep in endpoints:
        doc["results"]["device"][ep]["export_date"] = NEW
    save_manifest(manifest, doc)


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("link", ["folder", "file"])
def test_download_folder_linked_out_is_refused(entry, link, sample_copy, server, victim, mirror_copy, tmp_path):
    """A symbolic link inside DATA_DIR/downloads, where the next download goes, leading to the user's folder: the
    user's file there is neither taken as "already downloaded" nor deleted as a bad download."""
    data, before = mirror_copy
    manifest, base, args = _entry_args(entry, sample_copy, server)
    _bump(manifest, "510k", "pma")
    dest = data / "downloads" / NEW / K510
    dest.parent.parent.mkdir(parents=True, exist_ok=True)
    if link == "folder":
        dest.parent.symlink_to(victim / "device" / "510k", target_is_directory=True)
    else:
        dest.parent.mkdir()
        dest.symlink_to(victim / K510)
    outside = files_under(tmp_path, skip=(data,))
    code, out, err = _sync(args, data)
    assert (victim / K510).read_bytes() == b"user's file"
    assert files_under(tmp_path, skip=(data,)) == outside
    assert code == 3  # partial: the other datasets updated
    lines = errors(err)
    assert len(lines) == 1 and "symbolic link" in lines[0] and "510k" in lines[0], err
    assert_intact(data, before, endpoints=("510k",))
    assert before["endpoints"]["pma"]["export_date"] != NEW
    code, out, err = run("status", "--json", "--data-dir", str(data))
    assert '"export_date": "2026-01-01"' in out.split('"pma"')[1].split("}")[0], "pma must still update"


@pytest.mark.parametrize("link", ["file", "folder"])
def test_folder_source_linking_out_is_refused(link, sample_copy, mirror_copy, tmp_path):
    """A download-site copy whose partition file, or dataset folder, is a symbolic link to a (valid) file outside."""
    data, before = mirror_copy
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(sample_copy / "device" / "510k", elsewhere)
    target = sample_copy / K510
    if link == "file":
        target.unlink()
        target.symlink_to(elsewhere / target.name)
    else:
        shutil.rmtree(target.parent)
        target.parent.symlink_to(elsewhere, target_is_directory=True)
    _bump(sample_copy / "download.json", "510k")
    outside = files_under(tmp_path, skip=(data,))
    code, out, err = _sync(["--from", str(sample_copy)], data)
    assert code == 3  # partial: the other datasets updated
    line = error_line(err)
    assert "symbolic link" in line and str(target) in line
    assert files_under(tmp_path, skip=(data,)) == outside
    assert_intact(data, before)


def test_manifest_linking_out_of_the_folder_is_refused(sample_copy, mirror_copy, tmp_path):
    data, before = mirror_copy
    outside_manifest = tmp_path / "download.json"
    shutil.copy(sample_copy / "download.json", outside_manifest)
    (sample_copy / "download.json").unlink()
    (sample_copy / "download.json").symlink_to(outside_manifest)
    code, out, err = _sync(["--from", str(sample_copy)], data)
    assert code == 1
    assert "symbolic link" in error_line(err)
    assert_intact(data, before)


def test_gudid_release_linking_out_is_refused_and_gudid_alone_fails(sample_copy, tmp_path):
    data = tmp_path / "data"
    release = next((sample_copy / "gudid").glob("*.zip"))
    moved = tmp_path / "elsewhere" / release.name
    moved.parent.mkdir()
    shutil.move(release, moved)
    release.symlink_to(moved)
    code, out, err = run("sync", "--from", str(sample_copy), "--only", "pma,gudid", "--data-dir", str(data), "--quiet")
    assert code == 3  # partial: the other datasets updated
    lines = errors(err)
    assert len(lines) == 1 and str(release) in lines[0] and "outside the folder" in lines[0]
    code, out, err = run("status", "--json", "--data-dir", str(data))
    assert code == 0 and '"gudid"' not in out and '"pma"' in out


def test_the_sample_still_syncs_with_relative_and_absolute_gudid_paths(tmp_path, monkeypatch):
    """Containment does not get in the way: `--from` relative or absolute, `--gudid` relative (D5)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_DIR, tmp_path / "src")
    for i, args in enumerate(
        [
            ["--from", "src"],
            ["--from", "./src/"],
            ["--from", str(tmp_path / "src")],
            ["--from", "src", "--gudid", "src/gudid"],
        ]
    ):
        code, out, err = run("sync", *args, "--only", "pma,gudid", "--data-dir", f"d{i}", "--quiet")
        assert code == 0, (args, err)
        code, out, err = run("status", "--data-dir", f"d{i}")
        assert code == 0 and "gudid" in out and "unfinished" not in out


REFUSED = [
    "",
    "/etc/passwd",
    "../x",
    "a/../../x",
    "a/./b",
    "a//b",
    "a/",
    "./a",
    "a\\..\\b",
    "C:/Windows/x",
    "c:x",
    "%2e%2e/x",
    "a%2fb",
    "a\x00b",
    "a\nb",
    "..",
    ".",
]


@pytest.mark.parametrize("rel", REFUSED, ids=[repr(r) for r in REFUSED])
def test_contained_refuses(rel, tmp_path):
    from mirror.errors import BundleError
    from mirror.store.paths import contained

    with pytest.raises(BundleError, match="refused"):
        contained(tmp_path, rel, "entry", BundleError)


def test_contained_accepts_plain_paths_and_links_that_stay_inside(tmp_path):
    from mirror.store.paths import contained, remove

    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f.zip").write_bytes(b"x")
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    assert contained(tmp_path, "alias/f.zip") == tmp_path / "alias" / "f.zip"
    rel = "device/event/2019q4/not-yet.json.zip"
    assert contained(tmp_path, rel) == tmp_path / rel
    outside = tmp_path.parent / (tmp_path.name + "-outside.txt")
    outside.write_text("keep")
    (tmp_path / "link.txt").symlink_to(outside)
    assert not remove(tmp_path, tmp_path / "link.txt") and outside.read_text() == "keep"
    assert not remove(tmp_path / "real", outside) and outside.exists()
    assert remove(tmp_path, tmp_path / "real" / "f.zip") and not (tmp_path / "real" / "f.zip").exists()
    outside.unlink()
