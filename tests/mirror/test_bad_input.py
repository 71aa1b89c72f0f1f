"""Bad input: one clear line naming the file and the next step, exit 1, the previous mirror untouched."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from mirror import Store, status
from mirror.cli import cli

EVENT_2023 = "device/event/2023q1/device-event-0001-of-0001.json.zip"
PMA = "device/pma/device-pma-0001-of-0001.json.zip"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def baseline(source: Path, data: Path) -> dict:
    code, out, err = run(
        "sync", "--from", str(source), "--only", "event,pma,recall", "--data-dir", str(data), "--quiet"
    )
    assert code == 0, err
    return status(Store(data))


def bump(source: Path, endpoint: str) -> None:
    """A new export of `endpoint` in the source manifest, so the next sync refetches it."""
    path = source / "download.json"
    doc = orjson.loads(path.read_bytes())
    doc["results"]["device"][endpoint]["export_date"] = "2026-01-01"
    path.write_bytes(orjson.dumps(doc))


def rewrite_zip(path: Path, member: str, content: bytes, extra: dict[str, bytes] | None = None) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, content)
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    path.write_bytes(buf.getvalue())


def member_of(path: Path) -> tuple[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        name = zf.namelist()[0]
        return name, zf.read(name)


def assert_failed_cleanly(source: Path, data: Path, before: dict, names: str, endpoint: str = "event") -> str:
    code, out, err = run(
        "sync", "--from", str(source), "--only", "event,pma,recall", "--data-dir", str(data), "--quiet"
    )
    assert code == 3  # partial: the other datasets updated
    lines = [ln for ln in err.splitlines() if ln.startswith("Error:")]
    assert lines, err
    assert names in lines[0]
    after = status(Store(data))
    assert after["endpoints"][endpoint]["records"] == before["endpoints"][endpoint]["records"]
    assert after["endpoints"][endpoint]["export_date"] == before["endpoints"][endpoint]["export_date"]
    con = Store(data).connect()
    count = con.execute(f"SELECT count(*) FROM device_{endpoint}").fetchone()[0]
    assert count == before["endpoints"][endpoint]["records"]
    return lines[0]


def _truncate(z: Path) -> None:
    z.write_bytes(z.read_bytes()[: z.stat().st_size // 2])


def _break_crc(z: Path) -> None:
    name, content = member_of(z)
    with zipfile.ZipFile(z, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr(name, content)
    raw = bytearray(z.read_bytes())
    i = raw.index(b'"mdr_report_key"')
    raw[i + 1] = ord("M")  # flip one byte inside the stored data: the CRC no longer matches
    z.write_bytes(bytes(raw))


def _add_member(z: Path) -> None:
    name, content = member_of(z)
    rewrite_zip(z, name, content, {"evil.sh": b"echo hi"})


def _break_json(z: Path) -> None:
    name, content = member_of(z)
    broken = content.replace(b'"event_type": ', b'"event_type" ', 1)
    assert broken != content
    rewrite_zip(z, name, broken)


DAMAGE = [
    ("truncated zip", _truncate, ("run `mirror sync` again", "zip")),
    ("corrupt data, CRC", _break_crc, ("CRC",)),
    ("unexpected member", _add_member, ("evil.sh",)),
    ("invalid JSON", _break_json, ("invalid JSON",)),
]


@pytest.mark.parametrize("damage,expect", [d[1:] for d in DAMAGE], ids=[d[0] for d in DAMAGE])
def test_damaged_file(sample_copy, tmp_path, damage, expect):
    data = tmp_path / "data"
    before = baseline(sample_copy, data)
    bump(sample_copy, "event")
    damage(sample_copy / EVENT_2023)
    line = assert_failed_cleanly(sample_copy, data, before, "device-event-0001-of-0001.json.zip")
    for text in expect:
        assert text in line


def test_record_count_mismatch(sample_copy, tmp_path):
    data = tmp_path / "data"
    before = baseline(sample_copy, data)
    path = sample_copy / "download.json"
    doc = orjson.loads(path.read_bytes())
    ev = doc["results"]["device"]["event"]
    ev["export_date"] = "2026-01-01"
    ev["partitions"][-1]["records"] += 1
    ev["total_records"] += 1  # consistent totals: the file itself holds one record fewer
    path.write_bytes(orjson.dumps(doc))
    line = assert_failed_cleanly(sample_copy, data, before, "device-event-0001-of-0001.json.zip")
    assert "records" in line and "manifest" in line


def test_other_endpoints_still_update_when_one_fails(sample_copy, tmp_path):
    data = tmp_path / "data"
    before = baseline(sample_copy, data)
    bump(sample_copy, "event")
    bump(sample_copy, "pma")
    z = sample_copy / EVENT_2023
    z.write_bytes(b"not a zip at all")
    assert_failed_cleanly(sample_copy, data, before, "device-event-0001-of-0001.json.zip")
    assert status(Store(data))["endpoints"]["pma"]["export_date"] == "2026-01-01"


def test_manifest_without_device_section(tmp_path):
    m = tmp_path / "download.json"
    m.write_bytes(orjson.dumps({"meta": {}, "results": {"drug": {}}}))
    code, out, err = run("sync", "--manifest", str(m), "--data-dir", str(tmp_path / "d"), "--only", "event")
    assert code == 1
    assert err.strip().count("\n") == 0 and str(m) in err and "device section" in err


def test_manifest_not_json(tmp_path):
    m = tmp_path / "download.json"
    m.write_text("<html>Service Unavailable</html>")
    code, out, err = run("sync", "--manifest", str(m), "--data-dir", str(tmp_path / "d"))
    assert code == 1 and str(m) in err and "not valid JSON" in err


def test_unreachable_url(tmp_path, sample_copy):
    data = tmp_path / "data"
    before = baseline(sample_copy, data)
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens on this port now
    url = f"http://127.0.0.1:{port}/download.json"
    env = {"FDAX_RETRIES": "1", "FDAX_BACKOFF": "0.01"}
    r = CliRunner().invoke(cli, ["sync", "--manifest", url, "--data-dir", str(data), "--only", "event"], env=env)
    assert r.exit_code == 1
    assert url in r.stderr and "unreachable" in r.stderr and r.stderr.count("\n") == 1
    assert status(Store(data))["endpoints"]["event"]["records"] == before["endpoints"]["event"]["records"]


def test_unknown_dataset_name(tmp_path):
    code, out, err = run("sync", "--only", "events", "--data-dir", str(tmp_path))
    assert code == 2 and "events" in err and "--only" in err


def test_status_on_empty_folder(tmp_path):
    code, out, err = run("status", "--data-dir", str(tmp_path / "none"))
    assert code == 1 and "mirror sync" in err and str(tmp_path / "none") in err


def test_disk_full_keeps_previous_data(tmp_path, sample_copy):
    """A real full disk: the data folder on a 3 MB tmpfs."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mnt)], check=True)
    try:
        data = mnt / "data"
        code, out, err = run("sync", "--from", str(sample_copy), "--only", "pma", "--data-dir", str(data), "--quiet")
        assert code == 0, err
        before = status(Store(data))
        filler = mnt / "filler"
        free = __import__("shutil").disk_usage(mnt).free
        filler.write_bytes(b"\0" * max(0, free - 64 * 1024))
        bump(sample_copy, "pma")
        code, out, err = run("sync", "--from", str(sample_copy), "--only", "pma", "--data-dir", str(data), "--quiet")
        assert code == 1
        assert "disk full" in err.lower() or "No space" in err
        filler.unlink()
        after = status(Store(data))
        age = {"age_days": after["endpoints"]["pma"]["age_days"]}
        assert after["endpoints"]["pma"] == before["endpoints"]["pma"] | age
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_out_of_memory_keeps_the_download(sample_copy, tmp_path):
    data = tmp_path / "data"
    r = CliRunner().invoke(
        cli,
        ["sync", "--from", str(sample_copy), "--only", "classification", "--data-dir", str(data), "--quiet"],
        env={"FDAX_DUCKDB_MEMORY_LIMIT": "3MB"},
    )
    assert r.exit_code == 1
    assert "out of memory" in r.stderr and "FDAX_DUCKDB_MEMORY_LIMIT" in r.stderr
    kept = list((data / "downloads").rglob("device-classification-0001-of-0001.json.zip"))
    assert kept, "a good download must not be deleted for a memory problem"
    r = CliRunner().invoke(
        cli, ["sync", "--from", str(sample_copy), "--only", "classification", "--data-dir", str(data), "--quiet"]
    )
    assert r.exit_code == 0 and status(Store(data))["endpoints"]["classification"]["records"] == 6530


def test_a_second_sync_while_one_runs_is_refused_in_one_line(tmp_path):
    """The sync lock is held across processes: a second `mirror sync` on the same folder exits 1, naming it."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time; from mirror.store.files import Store; "
                "s = Store(__import__('pathlib').Path(sys.argv[1]))\n"
                "with s.sync_lock():\n    print('locked', flush=True); time.sleep(30)"
            ),
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        out = subprocess.run(
            [sys.executable, "-m", "mirror", "sync", "--sample", "--data-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 1 and "another `mirror sync` is running" in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
    finally:
        holder.kill()
        holder.wait()
    with Store(tmp_path).sync_lock():  # released with its holder
        pass
