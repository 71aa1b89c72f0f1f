"""The shipped offline sample source (mirror/sample) is reproducible and built only from real fixture records."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "mirror" / "sample"
FIXTURES = ROOT / "tests" / "data" / "fixtures"
DL = "https://download.open.fda.gov/"
ENDPOINTS = {
    "event",
    "510k",
    "pma",
    "classification",
    "udi",
    "recall",
    "enforcement",
    "registrationlisting",
    "covid19serology",
}


def files_under(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def manifest() -> dict:
    return json.loads((SAMPLE / "download.json").read_text(encoding="utf-8"))


def partitions() -> list[tuple[str, dict]]:
    return [(ep, p) for ep, e in manifest()["results"]["device"].items() for p in e["partitions"]]


def zip_path(part: dict) -> Path:
    assert part["file"].startswith(DL)
    return SAMPLE / part["file"][len(DL) :]


def zip_doc(path: Path) -> dict:
    with zipfile.ZipFile(path) as zf:
        return json.loads(zf.read(zf.namelist()[0]))


def sample_records(ep: str) -> list[dict]:
    return [r for e, p in partitions() if e == ep for r in zip_doc(zip_path(p))["results"]]


def fixture_records() -> set[str]:
    """Every record found in any fixture JSON (results lists and bare records), as order-preserving JSON."""
    found = set()
    for path in (FIXTURES / "openfda").rglob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        recs = doc["results"] if isinstance(doc, dict) and isinstance(doc.get("results"), list) else [doc]
        found.update(json.dumps(r) for r in recs if isinstance(r, dict))
    return found


def test_rebuild_is_byte_identical(tmp_path):
    out = tmp_path / "sample"
    subprocess.run(
        [sys.executable, str(ROOT / "tests" / "data" / "build_sample.py"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    built, shipped = files_under(out), files_under(SAMPLE)
    assert sorted(built) == sorted(shipped)
    assert [name for name in built if built[name] != shipped[name]] == []


def test_manifest_counts_match_zips():
    doc = manifest()
    assert set(doc["meta"]) >= {"disclaimer", "terms", "license", "last_updated", "_sample_note"}
    device = doc["results"]["device"]
    assert set(device) == ENDPOINTS
    for ep, entry in device.items():
        counts = []
        for part in entry["partitions"]:
            body = zip_doc(zip_path(part))
            assert part["records"] == len(body["results"])
            assert body["meta"]["last_updated"] == entry["export_date"]
            assert isinstance(part["size_mb"], str)
            counts.append(part["records"])
        assert entry["total_records"] == sum(counts), ep
    assert [p["file"].rsplit("/", 1)[1] for e, p in partitions() if e == "udi"] == [
        "device-udi-0001-of-0002.json.zip",
        "device-udi-0002-of-0002.json.zip",
    ]


def test_classification_from_foiclass():
    recs = sample_records("classification")
    assert len(recs) == 6530
    assert len({r["product_code"] for r in recs}) == 6530
    brw = next(r for r in recs if r["product_code"] == "BRW")
    assert (brw["device_name"], brw["device_class"], brw["regulation_number"]) == ("Protector, Dental", "1", "868.5820")
    assert brw["medical_specialty_description"] == "Anesthesiology"
    assert all(isinstance(v, str) for r in recs for v in r.values())


@pytest.mark.parametrize(
    "ep", ["event", "510k", "pma", "udi", "recall", "enforcement", "registrationlisting", "covid19serology"]
)
def test_records_are_real(ep):
    real = fixture_records()
    recs = sample_records(ep)
    assert recs
    assert [r for r in recs if json.dumps(r) not in real] == []
    assert not any("_synthetic" in r for r in recs)


def test_each_zip_has_one_member_named_like_the_zip():
    zips = sorted(SAMPLE.joinpath("device").rglob("*.zip"))
    assert {zip_path(p) for _, p in partitions()} == set(zips)
    for path in zips:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
        assert [i.filename for i in infos] == [path.name.removesuffix(".zip")]
        assert infos[0].compress_type == zipfile.ZIP_DEFLATED


def test_gudid_release_is_listed_and_joinable():
    html = (SAMPLE / "gudid" / "index.html").read_text(encoding="utf-8")
    assert 'href="AccessGUDID_Delimited_Full_Release_20251001.zip"' in html
    with zipfile.ZipFile(SAMPLE / "gudid" / "AccessGUDID_Delimited_Full_Release_20251001.zip") as zf:
        tables = {n: zf.read(n).decode("utf-8").split("\r\n")[:-1] for n in zf.namelist()}
    assert tables["device.txt"][0].startswith("PrimaryDI|publicDeviceRecordKey|")
    dis = {line.split("|")[0] for line in tables["device.txt"][1:]}
    udi_keys = {r.get("public_device_record_key") for r in sample_records("udi")}
    assert {line.split("|")[1] for line in tables["device.txt"][1:]} <= udi_keys
    for name, lines in tables.items():
        width = lines[0].count("|")
        assert all(line.count("|") == width for line in lines), name
        assert {line.split("|")[0] for line in lines[1:]} <= dis, name
