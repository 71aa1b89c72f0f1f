"""AccessGUDID: release discovery, delimited full-release load and XML delta application (no network)."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import duckdb
import pytest

from mirror.errors import CorruptFileError, SourceError, UnloadableFileError
from mirror.sync.gudid import delta as gudid_xml
from mirror.sync.gudid import full as gudid
from mirror.sync.gudid.full import GudidRelease, apply_delta, discover, load_full_release, parse_release_name

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "fixtures"
UDI = json.loads((FIXTURES / "openfda/udi/udi.api-2025-10-02.brand_pacemaker.json").read_text("utf-8"))["results"]
XML_FIXTURE = FIXTURES / "gudid/xml/gudid-xml-structure.openfda-test-fixture.EDITED-NOT-REAL.xml"
DL = "https://accessgudid.nlm.nih.gov/release_files/download/"

DEVICE_HEADER = (
    "PrimaryDI|publicDeviceRecordKey|publicVersionStatus|deviceRecordStatus|publicVersionNumber|"
    "publicVersionDate|devicePublishDate|deviceCommDistributionEndDate|deviceCommDistributionStatus|"
    "brandName|versionModelNumber|catalogNumber|dunsNumber|companyName|deviceCount|deviceDescription|"
    "DMExempt|premarketExempt|deviceHCTP|deviceKit|deviceCombinationProduct|singleUse|lotBatch|"
    "serialNumber|manufacturingDate|expirationDate|donationIdNumber|labeledContainsNRL|labeledNoNRL|"
    "MRISafetyStatus|rx|otc|deviceSterile|sterilizationPriorToUse"
).split("|")
IDENTIFIERS_HEADER = (
    "PrimaryDI|deviceId|deviceIdType|deviceIdIssuingAgency|containsDINumber|pkgQuantity|"
    "pkgDiscontinueDate|pkgStatus|pkgType"
).split("|")
GMDN_HEADER = "PrimaryDI|gmdnPTName|gmdnPTDefinition|gmdnCode|gmdnCodeStatus|implantable".split("|")
# Columns deliberately out of the documented order, plus a column the loader has never heard of.
PRODUCT_CODES_HEADER = "productCodeName|PrimaryDI|vendorNote|productCode".split("|")

# The five real openFDA UDI records (pacemaker query) the synthetic releases below are built from.
A, B, C, D, E = UDI
QUOTED = 'Cable, V1-MPC 10" lead – "Phillips" twist lock'  # synthetic: a '"' inside a field
# synthetic: ~3 MB, beyond DuckDB's default 2 MB line limit
LONG = (D["device_description"].replace("\n", " ") + " ") * 4600


def primary_di(rec: dict) -> str:
    return next(i["id"] for i in rec["identifiers"] if i["type"] == "Primary")


def device_values(rec: dict) -> dict[str, str | None]:
    """openFDA UDI field -> delimited device.txt column (synthetic mapping for the test release)."""
    s = rec.get("sterilization", {})
    # Two real descriptions contain '\n'; whether the delimited release keeps, quotes or flattens line
    # breaks is unverified, so the synthetic file flattens them (see test_irregular_lines_are_reported).
    description = " ".join(rec["device_description"].split("\n"))
    return {
        "PrimaryDI": primary_di(rec),
        "publicDeviceRecordKey": rec["public_device_record_key"],
        "publicVersionStatus": rec["public_version_status"],
        "deviceRecordStatus": rec["record_status"],
        "publicVersionNumber": rec["public_version_number"],
        "publicVersionDate": rec["public_version_date"],
        "devicePublishDate": rec["publish_date"],
        "deviceCommDistributionStatus": rec["commercial_distribution_status"],
        "brandName": rec["brand_name"],
        "versionModelNumber": rec["version_or_model_number"],
        "catalogNumber": rec.get("catalog_number"),
        "dunsNumber": rec["labeler_duns_number"],
        "companyName": rec["company_name"],
        "deviceCount": rec["device_count_in_base_package"],
        "deviceDescription": {E["public_device_record_key"]: QUOTED, D["public_device_record_key"]: LONG}.get(
            rec["public_device_record_key"], description
        ),
        "DMExempt": rec["is_direct_marking_exempt"],
        "premarketExempt": rec["is_pm_exempt"],
        "deviceHCTP": rec["is_hct_p"],
        "deviceKit": rec["is_kit"],
        "deviceCombinationProduct": rec["is_combination_product"],
        "singleUse": rec["is_single_use"],
        "lotBatch": rec["has_lot_or_batch_number"],
        "serialNumber": rec["has_serial_number"],
        "manufacturingDate": rec["has_manufacturing_date"],
        "expirationDate": rec["has_expiration_date"],
        "donationIdNumber": rec["has_donation_id_number"],
        "labeledContainsNRL": rec["is_labeled_as_nrl"],
        "labeledNoNRL": rec["is_labeled_as_no_nrl"],
        "MRISafetyStatus": rec["mri_safety"],
        "rx": rec["is_rx"],
        "otc": rec["is_otc"],
        "deviceSterile": s.get("is_sterile"),
        "sterilizationPriorToUse": s.get("is_sterilization_prior_use"),
    }


def delimited(header: list[str], rows: list[dict], eol: str = "\n", bom: bool = False) -> bytes:
    lines = ["|".join(header)]
    for row in rows:
        values = [row.get(c) or "" for c in header]
        assert not any("|" in v or "\n" in v or "\r" in v for v in values)
        lines.append("|".join(values))
    return (("\ufeff" if bom else "") + eol.join(lines) + eol).encode("utf-8")


def write_zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def full_release(tmp_path: Path) -> Path:
    """Synthetic AccessGUDID delimited full release built from the real openFDA UDI records."""
    idents = [
        {
            "PrimaryDI": primary_di(r),
            "deviceId": i["id"],
            "deviceIdType": i["type"],
            "deviceIdIssuingAgency": i["issuing_agency"],
        }
        for r in UDI
        for i in r["identifiers"]
    ]
    codes = [
        {"PrimaryDI": primary_di(r), "productCode": p["code"], "productCodeName": p["name"], "vendorNote": "x"}
        for r in UDI
        for p in r.get("product_codes", [])
    ]
    gmdn = [
        {
            "PrimaryDI": primary_di(r),
            "gmdnPTName": g["name"],
            "gmdnPTDefinition": g["definition"],
            "gmdnCode": g["code"],
            "gmdnCodeStatus": g["code_status"],
            "implantable": g["implantable"],
        }
        for r in UDI
        for g in r.get("gmdn_terms", [])
    ]
    return write_zip(
        tmp_path / "AccessGUDID_Delimited_Full_Release_20251001.zip",
        {
            "device.txt": delimited(DEVICE_HEADER, [device_values(r) for r in UDI], eol="\r\n", bom=True) + b"\r\n",
            "identifiers.txt": delimited(IDENTIFIERS_HEADER, idents),
            "productCodes.txt": delimited(PRODUCT_CODES_HEADER, codes),
            "gmdnTerms.txt": delimited(GMDN_HEADER, gmdn),
            "contacts.txt": "PrimaryDI|phone|phoneExtension|email\n",
            "AccessGUDID_ReadMe.pdf": b"%PDF-1.4 not loaded",
        },
    )


@pytest.fixture
def con(tmp_path: Path):
    c = duckdb.connect(str(tmp_path / "mirror.duckdb"))
    c.execute("SET memory_limit = '1GB'")  # the mirror's default duckdb_memory_limit
    yield c
    c.close()


@pytest.fixture
def loaded(con, tmp_path: Path):
    con.begin()
    counts = load_full_release(con, full_release(tmp_path), tmp_path / "work")
    con.commit()
    return counts


def one(con, sql: str, *params):
    return con.execute(sql, list(params)).fetchone()


def rows(con, sql: str, *params) -> list[tuple]:
    return con.execute(sql, list(params)).fetchall()


# --- release names and discovery -------------------------------------------------------------


def test_parse_release_name():
    assert parse_release_name("AccessGUDID_Delimited_Full_Release_20251001.zip", DL + "x") == GudidRelease(
        "AccessGUDID_Delimited_Full_Release_20251001.zip", DL + "x", "full", "2025-10-01"
    )
    assert parse_release_name("gudid_weekly_update_20251005.zip", "/data/w.zip").kind == "delta"
    assert parse_release_name("gudid_monthly_update_20251101.zip", "u").date == "2025-11-01"
    assert parse_release_name("gudid_full_release_20251001.zip", "u") is None  # XML full release
    assert parse_release_name("gudid_daily_update_20251340.zip", "u") is None  # no such date
    assert parse_release_name("AccessGUDID_Delimited_Full_Release_20251001.zip.md5", "u") is None


# Synthetic listing modelled on https://accessgudid.nlm.nih.gov/download/delimited: absolute and
# relative links, XML and delimited full releases, several kinds of update, a duplicate, a checksum link.
HTML_LISTING = """<!DOCTYPE html><html><body>
<h2>Full Release</h2><table>
<tr><td><a href="/release_files/download/AccessGUDID_Delimited_Full_Release_20250901.zip">Sep 2025</a></td></tr>
<tr><td><a href="https://accessgudid.nlm.nih.gov/release_files/download/AccessGUDID_Delimited_Full_Release_20251001.zip">
AccessGUDID_Delimited_Full_Release_20251001.zip</a> (5.6 GB)
<a href="/release_files/download/AccessGUDID_Delimited_Full_Release_20251001.zip.md5">md5</a></td></tr>
<tr><td><a href='/release_files/download/gudid_full_release_20251101.zip'>XML full Nov</a></td></tr>
</table><h2>Updates (XML)</h2><ul>
<li><a href="/release_files/download/gudid_daily_update_20250930.zip">Sep 30</a></li>
<li><a href="../release_files/download/gudid_daily_update_20251003.zip">Oct 3</a></li>
<li><a href="/release_files/download/gudid_daily_update_20251002.zip">Oct 2</a></li>
<li><a href="/release_files/download/gudid_daily_update_20251005.zip">Oct 5</a></li>
<li><a href="/release_files/download/gudid_weekly_update_20251005.zip?x=1&amp;y=2">week to Oct 5</a></li>
<li><a href=/release_files/download/gudid_monthly_update_20251101.zip>Oct</a></li>
</ul></body></html>"""


def test_discover_html_listing():
    plan = discover(HTML_LISTING, "https://accessgudid.nlm.nih.gov/download/delimited")
    assert [(r.kind, r.date, r.name) for r in plan] == [
        ("full", "2025-10-01", "AccessGUDID_Delimited_Full_Release_20251001.zip"),
        ("delta", "2025-10-02", "gudid_daily_update_20251002.zip"),
        ("delta", "2025-10-03", "gudid_daily_update_20251003.zip"),
        ("delta", "2025-10-05", "gudid_weekly_update_20251005.zip"),  # preferred over the daily of that date
        ("delta", "2025-11-01", "gudid_monthly_update_20251101.zip"),
    ]
    assert [r.url for r in plan] == [
        DL + "AccessGUDID_Delimited_Full_Release_20251001.zip",
        DL + "gudid_daily_update_20251002.zip",
        DL + "gudid_daily_update_20251003.zip",
        DL + "gudid_weekly_update_20251005.zip?x=1&y=2",
        DL + "gudid_monthly_update_20251101.zip",
    ]
    later = discover(HTML_LISTING, "https://accessgudid.nlm.nih.gov/download/delimited", applied_through="2025-10-03")
    assert [r.name for r in later] == ["gudid_weekly_update_20251005.zip", "gudid_monthly_update_20251101.zip"]
    # Applied state older than the latest full release: reload the full release.
    stale = discover(HTML_LISTING, "https://accessgudid.nlm.nih.gov/download/delimited", applied_through="2025-09-15")
    assert stale[0].kind == "full" and stale[0].date == "2025-10-01" and len(stale) == 5


# Synthetic RSS 2.0 feed: <link>, <enclosure url=...>, <guid>, CDATA and a URL in plain text.
RSS_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>AccessGUDID Download</title>
<link>https://accessgudid.nlm.nih.gov/download</link>
<item><title>gudid_daily_update_20251004.zip</title>
  <link>https://accessgudid.nlm.nih.gov/release_files/download/gudid_daily_update_20251004.zip</link>
  <guid isPermaLink="false">gudid_daily_update_20251004</guid></item>
<item><title>Delimited full release October 2025</title>
  <enclosure url="https://accessgudid.nlm.nih.gov/release_files/download/AccessGUDID_Delimited_Full_Release_20251001.zip"
             length="5600000000" type="application/zip"/></item>
<item><title>XML full release</title>
  <link>https://accessgudid.nlm.nih.gov/release_files/download/gudid_full_release_20251001.zip</link></item>
<item><title>Daily</title><description><![CDATA[New file:
https://accessgudid.nlm.nih.gov/release_files/download/gudid_daily_update_20251002.zip]]></description></item>
<item><title>Older full</title>
  <link>https://accessgudid.nlm.nih.gov/release_files/download/AccessGUDID_Delimited_Full_Release_20250801.zip</link></item>
<item><title>Old daily</title><description>see gudid_daily_update_20250915.zip</description></item>
</channel></rss>"""


def test_discover_rss_feed():
    plan = discover(RSS_FEED, "https://accessgudid.nlm.nih.gov/download/rss")
    assert [(r.kind, r.date) for r in plan] == [
        ("full", "2025-10-01"),
        ("delta", "2025-10-02"),
        ("delta", "2025-10-04"),
    ]
    assert plan[0].url == DL + "AccessGUDID_Delimited_Full_Release_20251001.zip"
    assert plan[1].url == DL + "gudid_daily_update_20251002.zip"
    assert [r.date for r in discover(RSS_FEED, "x", applied_through="2025-10-02")] == ["2025-10-04"]
    assert discover(RSS_FEED, "x", applied_through="2025-10-04") == []


def test_discover_local_folder_and_missing_full_release():
    plan = discover("AccessGUDID_Delimited_Full_Release_20251001.zip\ngudid_daily_update_20251002.zip\n", "/srv/gudid/")
    assert [r.url for r in plan] == [
        "/srv/gudid/AccessGUDID_Delimited_Full_Release_20251001.zip",
        "/srv/gudid/gudid_daily_update_20251002.zip",
    ]
    only_deltas = "<a href='gudid_daily_update_20251002.zip'>x</a> <a href='gudid_full_release_20251001.zip'>y</a>"
    with pytest.raises(SourceError, match="https://example.org/gudid/"):
        discover(only_deltas, "https://example.org/gudid/")
    assert [r.name for r in discover(only_deltas, "https://example.org/gudid/", "2025-10-01")] == [
        "gudid_daily_update_20251002.zip"
    ]


# --- delimited full release --------------------------------------------------------------------


def test_load_full_release(con, loaded, tmp_path):
    assert loaded == {
        "gudid_device": 5,
        "gudid_identifiers": 5,
        "gudid_product_codes": 4,
        "gudid_gmdn_terms": 5,
        "gudid_contacts": 0,
    }
    assert list((tmp_path / "work").iterdir()) == []  # extracted members are deleted
    cols = [r[0] for r in rows(con, "DESCRIBE gudid_device")]
    assert cols == DEVICE_HEADER  # header from the file, BOM stripped, names kept exactly
    assert {r[1] for r in rows(con, "DESCRIBE gudid_device")} == {"VARCHAR"}
    a = dict(zip(cols, one(con, 'SELECT * FROM gudid_device WHERE "PrimaryDI" = ?', primary_di(A))))
    assert a["brandName"] == A["brand_name"]  # no stray \r from the CRLF line ends
    assert a["sterilizationPriorToUse"] == "false" and a["publicDeviceRecordKey"] == A["public_device_record_key"]
    assert a["catalogNumber"] is None and a["deviceCommDistributionEndDate"] is None  # empty field -> NULL
    assert one(con, 'SELECT "deviceDescription" FROM gudid_device WHERE "PrimaryDI" = ?', primary_di(E)) == (QUOTED,)
    assert one(con, 'SELECT "deviceDescription" FROM gudid_device WHERE "PrimaryDI" = ?', primary_di(D)) == (LONG,)
    assert one(
        con, 'SELECT "catalogNumber", "versionModelNumber" FROM gudid_device WHERE "PrimaryDI" = ?', "B3359500"
    ) == ("950", C["version_or_model_number"])
    g = one(
        con,
        'SELECT "gmdnCode", "gmdnCodeStatus", "implantable" FROM gudid_gmdn_terms WHERE "PrimaryDI" = ?',
        primary_di(A),
    )
    assert g == ("66727", "Active", "false")


def test_headers_are_read_from_the_file(con, loaded):
    assert [r[0] for r in rows(con, "DESCRIBE gudid_product_codes")] == PRODUCT_CODES_HEADER
    got = rows(
        con,
        'SELECT "PrimaryDI", "productCode", "productCodeName", "vendorNote" FROM gudid_product_codes'
        ' ORDER BY "PrimaryDI"',
    )
    want = sorted((primary_di(r), p["code"], p["name"], "x") for r in UDI for p in r.get("product_codes", []))
    assert got == want


def test_unreadable_members(con, tmp_path):
    latin1 = "PrimaryDI|brandName\n1|Kit, Pacemaker Drap\xe9\n".encode("latin-1")  # synthetic, not UTF-8
    z = write_zip(tmp_path / "latin1.zip", {"device.txt": latin1})
    with pytest.raises(CorruptFileError, match=re.escape(str(z)) + ": device.txt cannot be read as pipe-delimited"):
        load_full_release(con, z, tmp_path / "work")
    z = write_zip(tmp_path / "empty.zip", {"device.txt": ""})
    with pytest.raises(CorruptFileError, match=re.escape(str(z)) + ": device.txt is empty"):
        load_full_release(con, z, tmp_path / "work")


def test_full_release_without_device_txt(con, tmp_path):
    z = write_zip(
        tmp_path / "AccessGUDID_Delimited_Full_Release_20251001.zip",
        {"identifiers.txt": "|".join(IDENTIFIERS_HEADER) + "\n"},
    )
    with pytest.raises(CorruptFileError, match=re.escape(str(z)) + ".*device.txt.*mirror sync"):
        load_full_release(con, z, tmp_path / "work")


def test_corrupt_zips(con, tmp_path):
    junk = tmp_path / "AccessGUDID_Delimited_Full_Release_20251001.zip"
    junk.write_bytes(b"<html>503 Service Unavailable</html>")
    with pytest.raises(
        CorruptFileError, match=re.escape(str(junk)) + ".*the download is dropped: run `mirror sync` again"
    ):
        load_full_release(con, junk, tmp_path / "work")
    with pytest.raises(CorruptFileError, match=re.escape(str(junk))):
        apply_delta(con, junk)
    # A stored member with one byte flipped fails its CRC check while streaming.
    damaged = tmp_path / "damaged.zip"
    body = delimited(DEVICE_HEADER, [device_values(r) for r in UDI])
    with zipfile.ZipFile(damaged, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("device.txt", body)
    raw = bytearray(damaged.read_bytes())
    at = raw.index(b"Pacemaker")
    raw[at] ^= 0x20
    damaged.write_bytes(bytes(raw))
    with pytest.raises(CorruptFileError, match=re.escape(str(damaged)) + ".*CRC"):
        load_full_release(con, damaged, tmp_path / "work")
    assert list((tmp_path / "work").iterdir()) == []


def test_row_count_mismatch_is_corrupt(con, tmp_path, monkeypatch):
    real = gudid._extract
    monkeypatch.setattr(gudid, "_extract", lambda *a: (real(*a)[0] + 1, True))
    with pytest.raises(CorruptFileError, match="device.txt has 6 data lines but 5 rows loaded"):
        load_full_release(con, full_release(tmp_path), tmp_path / "work")


def test_line_counting_across_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(gudid, "_CHUNK", 3)
    data = b"\xef\xbb\xbfH|x\r\n1|a\r\n\r\n22|bb\n\n333|c\r4|d"
    z = write_zip(tmp_path / "z.zip", {"t.txt": data})
    with zipfile.ZipFile(z) as zf:
        assert gudid._extract(zf, zf.infolist()[0], tmp_path / "t.txt") == (5, True)
    assert (tmp_path / "t.txt").read_bytes() == data


def test_irregular_lines_are_reported(con, tmp_path, caplog):
    # synthetic: a raw line break inside a description (as in the real openFDA record C) and a '|' in a brand
    body = (
        delimited(DEVICE_HEADER, [device_values(r) for r in (A, B)])
        .replace(A["brand_name"].encode(), b"Cable|V1")
        .replace(b"Kit, Pacemaker Drape", b"Kit,\nPacemaker Drape", 1)
    )
    z = write_zip(tmp_path / "AccessGUDID_Delimited_Full_Release_20251001.zip", {"device.txt": body})
    assert load_full_release(con, z, tmp_path / "work") == {"gudid_device": 3}  # loaded as DuckDB reads it
    assert "device.txt has lines with more or fewer '|' than its header" in caplog.text
    caplog.clear()
    load_full_release(con, full_release(tmp_path), tmp_path / "work")
    assert caplog.text == ""


# --- XML deltas ----------------------------------------------------------------------------------

FIXTURE_XML = XML_FIXTURE.read_text("utf-8")
TEMPLATE = FIXTURE_XML[FIXTURE_XML.index("<device ") : FIXTURE_XML.index("</device>") + len("</device>")]
NEW_KEY = "0b7a3c1e-5d2f-4e8a-9c61-3f0d2b7e9a11"  # synthetic
NEW_DI_FOR_A = "00811331099994"  # synthetic: A's Primary DI changes in the update


def device_xml(key: str, status: str, version: int, di: str, brand: str, extra: str = "") -> str:
    """The fixture's <device> element with synthetic key, status, version, primary DI and brand."""
    x = re.sub(r"<publicDeviceRecordKey>.*?<", f"<publicDeviceRecordKey>{key}<", TEMPLATE)
    x = re.sub(r"<publicVersionStatus>.*?<", f"<publicVersionStatus>{status}<", x)
    x = re.sub(r"<publicVersionNumber>.*?<", f"<publicVersionNumber>{version}<", x)
    x = re.sub(r"<brandName>.*?<", f"<brandName>{brand}<", x)
    return x.replace("00844588018923", di).replace("</device>", extra + "</device>")


def delta_zip(path: Path, *devices: str) -> Path:
    body = (
        '<?xml version="1.0" encoding="utf-8"?>\n<gudid xmlns="http://www.fda.gov/cdrh/gudid">\n'
        + "\n".join(devices)
        + "\n</gudid>\n"
    )
    return write_zip(path, {path.stem + ".xml": body, "readme.txt": "ignored"})


def daily(tmp_path: Path) -> Path:
    """Synthetic daily update: one New, one Update with a new Primary DI, one Delete, one stale Update."""
    return delta_zip(
        tmp_path / "gudid_daily_update_20251002.zip",
        device_xml(
            NEW_KEY,
            "New",
            1,
            "00844588018923",
            "CS2 Acet. Cup Sys. - VitalitE",
            extra="<newGudidField>synthetic value</newGudidField>",
        ),
        device_xml(A["public_device_record_key"], "Update", 2, NEW_DI_FOR_A, "Cable, V1-MPC (updated)"),
        device_xml(B["public_device_record_key"], "delete", 2, primary_di(B), B["brand_name"]),
        device_xml(C["public_device_record_key"], "Update", 3, "B3359500", "stale brand"),  # stored version is 4
    )


def count(con, table: str, di: str) -> int:
    return one(con, f'SELECT count(*) FROM {table} WHERE "PrimaryDI" = ?', di)[0]


@pytest.mark.parametrize("batch", [1, 5000])
def test_apply_delta_new_update_delete(con, loaded, tmp_path, monkeypatch, batch):
    monkeypatch.setattr(gudid_xml, "BATCH_DEVICES", batch)
    con.begin()
    assert apply_delta(con, daily(tmp_path)) == {"new": 1, "updated": 1, "deleted": 1, "skipped": 1}
    con.commit()  # DuckDB must accept the transaction (deletes followed by added columns)
    con.close()
    con = duckdb.connect(str(tmp_path / "mirror.duckdb"))
    try:
        keys = {r[0] for r in rows(con, 'SELECT "publicDeviceRecordKey" FROM gudid_device')}
        assert keys == {NEW_KEY} | {r["public_device_record_key"] for r in (A, C, D, E)}
        a = one(
            con,
            'SELECT "PrimaryDI", "brandName", "publicVersionNumber", "publicVersionStatus", "deviceSterile",'
            ' "sterilizationPriorToUse", "newGudidField" FROM gudid_device WHERE "publicDeviceRecordKey" = ?',
            A["public_device_record_key"],
        )
        assert a == (NEW_DI_FOR_A, "Cable, V1-MPC (updated)", "2", "Update", "false", "true", None)
        assert one(
            con, 'SELECT "brandName", "publicVersionNumber" FROM gudid_device WHERE "PrimaryDI" = ?', "B3359500"
        ) == (C["brand_name"], "4")  # older version skipped
        assert one(con, 'SELECT "newGudidField" FROM gudid_device WHERE "publicDeviceRecordKey" = ?', NEW_KEY) == (
            "synthetic value",
        )  # unknown element -> new column
        assert "deviceId" not in {r[0] for r in rows(con, "DESCRIBE gudid_device")}
        old_a, old_b = primary_di(A), primary_di(B)
        for table in ("gudid_identifiers", "gudid_product_codes", "gudid_gmdn_terms"):
            assert count(con, table, old_a) == 0 and count(con, table, old_b) == 0, table
        for rec in (C, D, E):  # untouched devices keep their child rows (E shares A's product code DSA)
            assert count(con, "gudid_identifiers", primary_di(rec)) == 1
            assert count(con, "gudid_gmdn_terms", primary_di(rec)) == 1
        codes = 'SELECT "productCode" FROM gudid_product_codes WHERE "PrimaryDI" = ?'
        assert rows(con, codes, primary_di(E)) == [("DSA",)]
        for di in (NEW_DI_FOR_A, "00844588018923"):
            assert rows(
                con,
                'SELECT "deviceId", "deviceIdType", "containsDINumber", "pkgQuantity", "pkgType"'
                ' FROM gudid_identifiers WHERE "PrimaryDI" = ? ORDER BY "deviceIdType" DESC',
                di,
            ) == [(di, "Primary", None, None, None), ("00844868017264", "Package", "00844868017288", "25", "case")]
            assert {r[0] for r in rows(con, codes, di)} == {"OQG", "MAX"}
            assert rows(
                con,
                'SELECT "gmdnCode", "implantable", "gmdnCodeStatus" FROM gudid_gmdn_terms'
                ' WHERE "PrimaryDI" = ? ORDER BY 1',
                di,
            ) == [("43691", "true", "Active"), ("43692", "false", "Obsolete")]
            assert rows(
                con,
                'SELECT "sizeType", "sizeUnit", "sizeValue", "sizeText" FROM gudid_device_sizes'
                ' WHERE "PrimaryDI" = ? ORDER BY 1',
                di,
            ) == [
                ("Device Size Text, specify", None, None, "SPACER LAT PEEK 8° 40L X 18W X 10H"),
                ("Outer Diameter", "Millimeter", "32/6", "Size test here"),
            ]
            assert one(
                con,
                'SELECT "storageHandlingHighUnit", "storageHandlingHighValue", "storageHandlingLowValue"'
                ' FROM gudid_environmental_conditions WHERE "PrimaryDI" = ?'
                ' AND "storageHandlingType" = ?',
                di,
                "Storage Environment Temperature",
            ) == ("Degrees Celsius", "8", "-30")
            assert rows(
                con, 'SELECT "sterilizationMethod" FROM gudid_sterilization_method_types WHERE "PrimaryDI" = ?', di
            ) == [("Moist Heat or Steam Sterilization",)]
            assert rows(
                con,
                'SELECT "submissionNumber", "supplementNumber", "submissionType"'
                ' FROM gudid_premarket_submissions WHERE "PrimaryDI" = ? ORDER BY 1',
                di,
            ) == [("K094035", "000", "PMN"), ("P950002", "001", "PMA")]
            assert rows(
                con, 'SELECT "phone", "phoneExtension" FROM gudid_contacts WHERE "PrimaryDI" = ? ORDER BY 1', di
            ) == [("+1 (555) 555-5555", None), ("+1(916)355-7100", "ext555")]
            assert count(con, "gudid_feis", di) == 2
        # product codes loaded from the file keep their extra column; delta rows leave it NULL
        assert one(con, 'SELECT count(*) FROM gudid_product_codes WHERE "vendorNote" IS NULL') == (4,)
    finally:
        con.close()


def test_apply_delta_is_idempotent(con, loaded, tmp_path):
    zip_path = daily(tmp_path)
    apply_delta(con, zip_path)
    tables = [r[0] for r in rows(con, "SELECT table_name FROM duckdb_tables() WHERE starts_with(table_name, 'gudid_')")]
    before = {t: one(con, f"SELECT count(*) FROM {t}")[0] for t in tables}
    assert apply_delta(con, zip_path) == {"new": 0, "updated": 2, "deleted": 1, "skipped": 1}
    assert {t: one(con, f"SELECT count(*) FROM {t}")[0] for t in tables} == before


def test_apply_delta_versions_in_file_order(con, tmp_path):
    key, di = NEW_KEY, "00844588018923"
    z = delta_zip(
        tmp_path / "gudid_weekly_update_20251005.zip",
        device_xml(key, "New", 1, di, "v1"),
        device_xml(key, "Update", 3, di, "v3"),
        device_xml(key, "Update", 2, di, "v2 arrives late"),
    )
    assert apply_delta(con, z) == {"new": 1, "updated": 1, "deleted": 0, "skipped": 1}  # into an empty mirror
    assert rows(con, 'SELECT "brandName", "publicVersionNumber" FROM gudid_device') == [("v3", "3")]
    assert count(con, "gudid_identifiers", di) == 2
    z2 = delta_zip(tmp_path / "gudid_daily_update_20251006.zip", device_xml(key, "Delete", 4, di, "v3"))
    assert apply_delta(con, z2) == {"new": 0, "updated": 0, "deleted": 1, "skipped": 0}
    assert one(con, "SELECT count(*) FROM gudid_device") == (0,)
    for t in ("gudid_identifiers", "gudid_gmdn_terms", "gudid_device_sizes", "gudid_feis"):
        assert one(con, f"SELECT count(*) FROM {t}") == (0,), t


def test_apply_delta_on_the_unmodified_fixture(con, tmp_path):
    z = write_zip(tmp_path / "gudid_daily_update_20251002.zip", {"fixture.xml": XML_FIXTURE.read_bytes()})
    assert apply_delta(con, z) == {"new": 1, "updated": 0, "deleted": 0, "skipped": 0}
    assert one(con, 'SELECT "PrimaryDI", "publicDeviceRecordKey", "MRISafetyStatus" FROM gudid_device') == (
        "00844588018923",
        "33e1d2ec-8555-43d0-8421-b208e7185d06",
        "Labeling does not contain MRI Safety Information",
    )
    definition = one(con, 'SELECT "gmdnPTDefinition" FROM gudid_gmdn_terms WHERE "gmdnCode" = ?', "43691")[0]
    assert definition.startswith("A sterile, implantable") and definition.endswith("motion of the hip.")


def test_apply_delta_bad_content(con, tmp_path):
    """Bad content in an intact zip cannot be applied, whatever the number of downloads: UnloadableFileError
    (the sync keeps the file). This test asserted CorruptFileError (dropped and fetched again) before."""
    no_xml = write_zip(tmp_path / "gudid_daily_update_20251002.zip", {"readme.txt": "x"})
    with pytest.raises(UnloadableFileError, match=re.escape(str(no_xml)) + ".*no .xml member.*cannot be applied"):
        apply_delta(con, no_xml)
    broken = write_zip(tmp_path / "gudid_daily_update_20251003.zip", {"d.xml": "<gudid><device><brandName>x"})
    with pytest.raises(UnloadableFileError, match=re.escape(str(broken)) + "!d.xml: invalid XML"):
        apply_delta(con, broken)
    keyless = delta_zip(tmp_path / "gudid_daily_update_20251004.zip", TEMPLATE.replace("publicDeviceRecordKey", "x"))
    with pytest.raises(UnloadableFileError, match="no publicDeviceRecordKey"):
        apply_delta(con, keyless)
    # the same invalid XML in a zip whose stored bytes were damaged: corrupt, fetched again
    damaged = tmp_path / "gudid_daily_update_20251005.zip"
    with zipfile.ZipFile(damaged, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("d.xml", "<gudid><device><brandName>x" + " " * 100 + "FLIP")
    raw = bytearray(damaged.read_bytes())
    raw[raw.index(b"FLIP")] = ord("Q")
    damaged.write_bytes(bytes(raw))
    with pytest.raises(CorruptFileError, match="CRC"):
        apply_delta(con, damaged)


def test_table_names():
    assert [
        gudid.table_name(s)
        for s in (
            "device",
            "productCodes",
            "gmdnTerms",
            "sterilizationMethodTypes",
            "environmentalConditions",
            "MRISafety",
            "premarket submissions",
        )
    ] == [
        "gudid_device",
        "gudid_product_codes",
        "gudid_gmdn_terms",
        "gudid_sterilization_method_types",
        "gudid_environmental_conditions",
        "gudid_mri_safety",
        "gudid_premarket_submissions",
    ]
