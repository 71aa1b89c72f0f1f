"""Air-gapped transfer: `mirror export DIR`, then `mirror sync --from DIR` on another data folder."""

from __future__ import annotations

import hashlib

import orjson
from click.testing import CliRunner

from mirror import Store, status
from mirror.cli import cli
from mirror.sync import SAMPLE_DIR


def run(*args):
    r = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def test_export_then_sync_from_bundle(tmp_path):
    a, b, bundle = tmp_path / "a", tmp_path / "b", tmp_path / "bundle"
    assert run("sync", "--sample", "--data-dir", str(a), "--quiet")[0] == 0
    code, out, err = run("export", str(bundle), "--data-dir", str(a))
    assert code == 0, err
    meta = orjson.loads((bundle / "bundle.json").read_bytes())
    assert (bundle / "NOTICE").read_text().count("GMDN Agency") == 1 and "CC0" in (bundle / "NOTICE").read_text()
    for f in meta["files"]:
        data = (bundle / f["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == f["sha256"] and len(data) == f["bytes"]
        assert {"endpoint", "export_date", "records"} <= set(f)
    code, out, err = run("sync", "--from", str(bundle), "--data-dir", str(b), "--quiet")
    assert code == 0, err
    sa, sb = status(Store(a)), status(Store(b))
    for name, d in sa["endpoints"].items():
        assert sb["endpoints"][name]["records"] == d["records"]
        assert sb["endpoints"][name]["export_date"] == d["export_date"]
    assert sb["gudid"]["records"] == sa["gudid"]["records"]


def test_damaged_bundle_is_refused_before_anything_loads(tmp_path):
    a, b, bundle = tmp_path / "a", tmp_path / "b", tmp_path / "bundle"
    run("sync", "--sample", "--only", "event,pma", "--data-dir", str(a), "--quiet")
    run("export", str(bundle), "--data-dir", str(a))
    victim = bundle / "device/pma/device-pma-0001-of-0001.json.zip"
    raw = bytearray(victim.read_bytes())
    raw[-30] ^= 0xFF
    victim.write_bytes(bytes(raw))
    code, out, err = run("sync", "--from", str(bundle), "--data-dir", str(b), "--quiet")
    assert code == 1
    assert str(victim) in err and "checksum" in err and err.strip().count("\n") == 0
    assert not (b / "db").exists() or not list((b / "db").glob("*.duckdb"))


def test_bundle_with_only(tmp_path):
    a, bundle = tmp_path / "a", tmp_path / "bundle"
    run("sync", "--sample", "--data-dir", str(a), "--quiet", "--only", "510k,pma")
    code, out, err = run("export", str(bundle), "--only", "pma", "--data-dir", str(a))
    assert code == 0
    man = orjson.loads((bundle / "download.json").read_bytes())
    assert list(man["results"]["device"]) == ["pma"]
    orig = orjson.loads((SAMPLE_DIR / "download.json").read_bytes())["results"]["device"]["pma"]
    assert man["results"]["device"]["pma"]["total_records"] == orig["total_records"]
    assert man["results"]["device"]["pma"]["partitions"][0]["file"] == orig["partitions"][0]["file"]


def test_settings_come_from_the_environment(tmp_path):
    data = tmp_path / "from-env"
    r = CliRunner().invoke(cli, ["sync", "--sample", "--only", "pma", "--quiet"], env={"FDAX_DATA_DIR": str(data)})
    assert r.exit_code == 0, r.stderr
    assert (data / "db" / "device_pma.duckdb").is_file()
    r = CliRunner().invoke(cli, ["status", "--json"], env={"FDAX_DATA_DIR": str(data), "FDAX_STALE_DAYS": "100000"})
    st = orjson.loads(r.stdout)
    assert st["database"] == str(data / "db") and st["endpoints"]["pma"]["stale"] is False
    r = CliRunner().invoke(cli, ["status"], env={"FDAX_DATA_DIR": str(data), "FDAX_STALE_DAYS": "1"})
    assert "STALE" in r.stdout
    r = CliRunner().invoke(cli, ["status"], env={"FDAX_DATA_DIR": str(data), "FDAX_STALE_DAYS": "zero"})
    assert r.exit_code == 1 and "FDAX_STALE_DAYS" in r.stderr and r.stderr.count("\n") == 1
