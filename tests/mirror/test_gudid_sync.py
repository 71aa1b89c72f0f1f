"""AccessGUDID through `mirror sync`: discovery from a listing page over HTTP, full release, then a delta."""

from __future__ import annotations

from mirror import Store, status
from mirror.sync import SyncOptions, sync
from tests.mirror.test_gudid import NEW_KEY, delta_zip, device_xml

FULL = "AccessGUDID_Delimited_Full_Release_20251001.zip"


def test_listing_full_release_then_delta_then_nothing(http_source, sample_copy, settings):
    srv, manifest = http_source
    listing = f"{srv.url}/gudid/index.html"
    report = sync(settings, SyncOptions(manifest=manifest, only=["gudid"], gudid=listing, quiet=True))
    assert report.ok, report.errors
    st = status(Store(settings.data_dir))["gudid"]
    assert st["records"] == 5 and st["export_date"] == "2025-10-01"
    # a new daily update appears in the listing (SYNTHETIC device built from the XML structure fixture)
    delta_zip(
        sample_copy / "gudid" / "gudid_daily_update_20251002.zip",
        device_xml(NEW_KEY, "New", 1, "00844588018923", "Synthetic brand"),
    )
    # ... in an RSS feed of daily updates (absolute links), read beside the delimited listing page
    (sample_copy / "gudid" / "daily.rss").write_text(
        '<?xml version="1.0"?><rss version="2.0"><channel><title>AccessGUDID daily</title><item>'
        f"<title>gudid_daily_update_20251002.zip</title><link>{srv.url}/gudid/gudid_daily_update_20251002.zip</link>"
        "</item></channel></rss>"
    )
    listing = f"{listing} {srv.url}/gudid/daily.rss"
    srv.requests.clear()
    report = sync(settings, SyncOptions(manifest=manifest, only=["gudid"], gudid=listing, quiet=True))
    assert report.ok, report.errors
    assert [p for p, _ in srv.requests if p.endswith(".zip")] == ["gudid/gudid_daily_update_20251002.zip"]
    st = status(Store(settings.data_dir))["gudid"]
    assert st["records"] == 6 and st["export_date"] == "2025-10-02"
    con = Store(settings.data_dir).connect()
    assert con.execute(
        'SELECT "brandName" FROM gudid_device WHERE "publicDeviceRecordKey" = ?', [NEW_KEY]
    ).fetchone() == ("Synthetic brand",)
    srv.requests.clear()
    report = sync(settings, SyncOptions(manifest=manifest, only=["gudid"], gudid=listing, quiet=True))
    assert report.datasets["gudid"].status == "up-to-date"
    assert not [p for p, _ in srv.requests if p.endswith(".zip")]


def test_gudid_release_zip_given_directly(sample_copy, settings):
    report = sync(
        settings,
        SyncOptions(source_dir=sample_copy, only=["gudid"], gudid=str(sample_copy / "gudid" / FULL), quiet=True),
    )
    assert report.ok, report.errors
    con = Store(settings.data_dir).connect()
    tables = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    assert {"gudid_device", "gudid_identifiers", "gudid_product_codes", "gudid_gmdn_terms"} <= tables
    (n,) = con.execute("SELECT count(*) FROM gudid_product_codes p JOIN gudid_device d USING (PrimaryDI)").fetchone()
    assert n > 0
