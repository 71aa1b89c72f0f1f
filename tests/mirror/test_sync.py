"""mirror sync end to end: real DuckDB files, the sample source over a folder and over real HTTP."""

from __future__ import annotations

import time
import zipfile

import orjson

from mirror import Store, status
from mirror.sync import SAMPLE_DIR, SyncOptions, sync
from mirror.sync.plan import ENDPOINTS, parse_manifest

DEVICE = list(ENDPOINTS)  # the openFDA device endpoints a sync plans, in its order


def _manifest(path=SAMPLE_DIR / "download.json"):
    return parse_manifest(path.read_bytes())


def _zip_records(path, member):
    with zipfile.ZipFile(path) as zf:
        return orjson.loads(zf.read(member))["results"]


def test_sample_folder_sync_loads_every_record(settings):
    report = sync(settings, SyncOptions(source_dir=SAMPLE_DIR, quiet=True))
    assert report.ok, report.errors
    man = _manifest()
    st = status(Store(settings.data_dir))
    for name in DEVICE:
        assert st["endpoints"][name]["records"] == man.endpoints[name].total_records
        assert st["endpoints"][name]["export_date"] == man.endpoints[name].export_date
    assert st["endpoints"]["classification"]["records"] == 6530
    assert st["gudid"]["records"] == 5


def test_records_come_back_with_the_same_keys_and_values(settings):
    sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=DEVICE, quiet=True))
    con = Store(settings.data_dir).connect()
    man = _manifest()
    for name in DEVICE:
        originals = []
        for p in man.endpoints[name].partitions:
            originals += _zip_records(SAMPLE_DIR / p.path, p.member)
        got = [orjson.loads(r) for (r,) in con.execute(f"SELECT record FROM device_{name}").fetchall()]
        key = lambda r: orjson.dumps(r, option=orjson.OPT_SORT_KEYS)  # noqa: E731
        assert sorted(map(key, got)) == sorted(map(key, originals)), name
        # key order too
        assert {tuple(r) for r in got} == {tuple(r) for r in originals}, name


def test_typed_columns_and_child_tables(settings):
    sync(
        settings,
        SyncOptions(
            source_dir=SAMPLE_DIR, only=["event", "udi", "registrationlisting", "510k", "covid19serology"], quiet=True
        ),
    )
    con = Store(settings.data_dir).connect()
    # dates parsed per endpoint format
    (n_bad,) = con.execute("SELECT count(*) FROM device_event WHERE date_received IS NULL").fetchone()
    assert n_bad == 0
    d = con.execute("SELECT date_received::VARCHAR, record->>'date_received' FROM device_event LIMIT 1").fetchone()
    assert d[0].replace("-", "") == d[1]
    d = con.execute("SELECT decision_date::VARCHAR, record->>'decision_date' FROM device_510k LIMIT 1").fetchone()
    assert d[0] == d[1]
    month, day, year, raw = con.execute(
        "SELECT month(date_performed), day(date_performed), year(date_performed), "
        "record->>'date_performed' FROM device_covid19serology LIMIT 1"
    ).fetchone()
    assert [int(x) for x in raw.split("/")] == [month, day, year]
    # event devices: one row per device element, with product codes
    (devices,) = con.execute("SELECT sum(json_array_length(record->'device')) FROM device_event").fetchone()
    (rows,) = con.execute("SELECT count(*) FROM device_event_device").fetchone()
    assert rows == devices and rows > 0
    codes = {c for (c,) in con.execute("SELECT device_report_product_code FROM device_event_device").fetchall()}
    assert all(len(c) == 3 for c in codes)
    (texts,) = con.execute("SELECT count(*) FROM device_event_text WHERE length(text) > 0").fetchone()
    assert texts > 0
    # udi identifiers and product codes
    (prim,) = con.execute("SELECT count(*) FROM device_udi_identifier WHERE type = 'Primary'").fetchone()
    assert prim >= 5
    (pc,) = con.execute("SELECT count(*) FROM device_udi_product_code").fetchone()
    assert (
        pc
        == con.execute(
            "SELECT sum(coalesce(json_array_length(record->'product_codes'), 0)) FROM device_udi"
        ).fetchone()[0]
    )
    (prods,) = con.execute("SELECT count(*) FROM device_registrationlisting_product").fetchone()
    assert (
        prods
        == con.execute("SELECT sum(json_array_length(record->'products')) FROM device_registrationlisting").fetchone()[
            0
        ]
    )


def test_second_sync_fetches_nothing(settings, http_source):
    srv, manifest = http_source
    first = sync(settings, SyncOptions(manifest=manifest, only=DEVICE, quiet=True))
    assert first.ok, first.errors
    zips_before = sum(1 for p, _ in srv.requests if p.endswith(".zip"))
    assert zips_before == sum(len(e.partitions) for e in _manifest().endpoints.values())
    t = time.monotonic()
    second = sync(settings, SyncOptions(manifest=manifest, only=DEVICE, quiet=True))
    assert time.monotonic() - t < 5
    assert {r.status for r in second.datasets.values()} == {"up-to-date"}
    assert sum(1 for p, _ in srv.requests if p.endswith(".zip")) == zips_before


def test_changed_export_date_refetches_that_endpoint_only(settings, http_source, sample_copy):
    srv, manifest = http_source
    assert sync(settings, SyncOptions(manifest=manifest, only=DEVICE, quiet=True)).ok
    path = sample_copy / "download.local.json"
    doc = orjson.loads(path.read_bytes())
    doc["results"]["device"]["pma"]["export_date"] = "2025-12-01"
    path.write_bytes(orjson.dumps(doc))
    srv.requests.clear()
    report = sync(settings, SyncOptions(manifest=manifest, only=DEVICE, quiet=True))
    assert report.ok
    assert report.datasets["pma"].status == "updated"
    assert [p for p, _ in srv.requests if p.endswith(".zip")] == ["device/pma/device-pma-0001-of-0001.json.zip"]
    st = status(Store(settings.data_dir))
    assert st["endpoints"]["pma"]["export_date"] == "2025-12-01"
    assert st["endpoints"]["pma"]["records"] == 6


def test_since_limits_event_quarters_and_drops_older_ones(settings):
    sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=["event"], quiet=True))
    con = Store(settings.data_dir).connect()
    assert con.execute("SELECT count(*) FROM device_event").fetchone()[0] == 7
    con.close()
    sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=["event"], since=2020, quiet=True))
    con = Store(settings.data_dir).connect()
    years = {y for (y,) in con.execute("SELECT DISTINCT year(date_received) FROM device_event").fetchall()}
    assert min(years) >= 2020
    assert (
        con.execute(
            "SELECT count(*) FROM device_event_device WHERE mdr_report_key NOT IN "
            "(SELECT mdr_report_key FROM device_event)"
        ).fetchone()[0]
        == 0
    )


def test_dry_run_plans_real_manifest_event_quarters(tmp_path, settings):
    real = tmp_path / "download.json"
    real.write_bytes((SAMPLE_DIR.parent.parent / "tests/data/fixtures/openfda/download.json").read_bytes())
    report = sync(settings, SyncOptions(manifest=str(real), only=["event"], since=2020, dry_run=True, quiet=True))
    doc = orjson.loads(real.read_bytes())
    expected = [p for p in doc["results"]["device"]["event"]["partitions"] if int(p["file"].split("/")[-2][:4]) >= 2020]
    r = report.datasets["event"]
    assert r.files == r.files_to_fetch == len(expected) == 82
    assert r.records == sum(p["records"] for p in expected)
    assert not (settings.data_dir / "db").exists() or not any((settings.data_dir / "db").iterdir())
    full = sync(settings, SyncOptions(manifest=str(real), only=["event"], dry_run=True, quiet=True))
    assert full.datasets["event"].files == 253 and full.datasets["event"].records == 16_938_964


def test_unknown_missing_and_empty_fields_do_not_break_a_load(tmp_path, settings):
    """SYNTHETIC records (copies of real ones) with an unknown nested field, empty dates, a missing array."""
    from tests.mirror.synth import write_event_site

    site = tmp_path / "site"
    write_event_site(
        site,
        ["2024q1"],
        5,
        extra={
            "suppl_dates_mfr_received": ["02/20/2023"],
            "brand_new_field": {"nested": [1, 2.5, None, True]},
            "date_of_event": "",
            "mdr_text": None,
            "patient": "",
        },
    )
    report = sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True))
    assert report.ok, report.errors
    con = Store(settings.data_dir).connect()
    rows = con.execute("SELECT record, date_of_event, date_received FROM device_event").fetchall()
    assert len(rows) == 5
    for rec, doe, dr in rows:
        r = orjson.loads(rec)
        assert r["brand_new_field"] == {"nested": [1, 2.5, None, True]}
        assert r["suppl_dates_mfr_received"] == ["02/20/2023"] and r["date_of_event"] == "" and doe is None
        assert dr.year == 2024
    assert con.execute("SELECT count(*) FROM device_event_text").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM device_event_device").fetchone()[0] >= 5


def test_compact_json_layout_goes_through_the_streaming_parser(tmp_path, settings):
    """A file not pretty-printed like openFDA's (compact JSON, meta after results) loads the same records."""
    import json

    from tests.mirror.synth import real_event_records

    recs = real_event_records()
    site = tmp_path / "site"
    path = site / "device/event/2023q1/device-event-0001-of-0001.json.zip"
    path.parent.mkdir(parents=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("device-event-0001-of-0001.json", json.dumps({"results": recs, "meta": {"last_updated": "x"}}))
    man = {
        "results": {
            "device": {
                "event": {
                    "export_date": "2025-01-01",
                    "total_records": len(recs),
                    "partitions": [
                        {
                            "display_name": "x",
                            "file": "https://download.open.fda.gov/device/event/2023q1/device-event-0001-of-0001.json.zip",
                            "size_mb": "0.01",
                            "records": len(recs),
                        }
                    ],
                }
            }
        }
    }
    (site / "download.json").write_bytes(orjson.dumps(man))
    assert sync(settings, SyncOptions(source_dir=site, only=["event"], quiet=True)).ok
    con = Store(settings.data_dir).connect()
    rows = con.execute("SELECT record FROM device_event").fetchall()
    got = sorted(orjson.loads(r)["mdr_report_key"] for (r,) in rows)
    assert got == sorted(r["mdr_report_key"] for r in recs)


def test_verify_finds_a_tampered_dataset(settings, tmp_path):
    import duckdb

    from mirror import verify

    sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=["pma", "510k"], quiet=True))
    assert verify(Store(settings.data_dir))["ok"]
    with duckdb.connect(str(settings.data_dir / "db" / "device_pma.duckdb")) as con:
        con.execute("DELETE FROM device_pma WHERE rowid IN (SELECT min(rowid) FROM device_pma)")
    res = verify(Store(settings.data_dir))
    assert not res["ok"] and res["datasets"]["510k"]["ok"]
    assert any("5 rows, manifest says 6" in p for p in res["datasets"]["pma"]["problems"])
    from click.testing import CliRunner

    from mirror.cli import cli

    r = CliRunner().invoke(cli, ["verify", "--data-dir", str(settings.data_dir)])
    assert r.exit_code == 1 and "FAILED" in r.stdout
    assert "to repair: delete" in r.stdout and "mirror sync --only pma" in r.stdout
