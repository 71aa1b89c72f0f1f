"""resolve_location: place reading (ambiguous codes both ways), establishment counts equal direct SQL, bad input."""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path

import orjson
import pytest

from agent.tools.base import ToolError
from agent.tools.context import ResolvedLocation, ToolContext
from agent.tools.registry import run_tool
from agent.tools.resolve_location import resolve_location  # noqa: F401  (registers the tool)
from mirror import Settings, Store
from mirror.lookup.places import COUNTRIES, REGIONS, US_STATES, read_place
from mirror.sync import SAMPLE_DIR, SyncOptions, sync

DL = "https://download.open.fda.gov"

# SYNTHETIC establishments: copies of the two real sample registrations with a new number, name, place, types and
# product. (registration number, name, iso_country_code, state_code, establishment types, product code)
MAKER, STERILIZER, RELABEL = (
    "Manufacture Medical Device",
    "Sterilize Medical Device for Another Party (Contract Sterilizer)",
    "Repack or Relabel Medical Device",
)
SYNTHETIC_REGISTRATIONS = [
    ("8000001", "Drägerwerk AG & Co. KGaA", "DE", "", [MAKER], "CBK"),
    ("8000002", "B. Braun Melsungen AG", "DE", "", [MAKER, STERILIZER], "FRN"),
    ("8000003", "DRAGER MEDICAL SYSTEMS INC", "US", "DE", [RELABEL], "CBK"),
    ("8000004", "Maple Devices Co", "CA", "", [MAKER], "GCJ"),
    ("8000005", "Abbott Medical", "US", "CA", [MAKER], "DXY"),
    ("8000006", "ABBOTT MEDICAL, INC.", "US", "CA", [RELABEL], "DXY"),
    ("8000007", "Pacific Pacing LLC", "US", "CA", [MAKER], "DXY"),
    ("8000008", "Bharat Surgical Pvt. Ltd.", "IN", "", [MAKER], "GCJ"),
    ("8000009", "Abbott Laboratories", "US", "IN", [MAKER], "LZG"),
    ("8000010", "Lincoln Medical Inc", "US", "IN", [STERILIZER], "FRN"),
    ("8000011", "PT Jakarta Medika", "ID", "", [MAKER], "GCJ"),
    ("8000012", "Boise Instruments", "US", "ID", [MAKER], "GCJ"),
    ("8000013", "Lincoln Medical Ltd", "GB", "", [MAKER], "FRN"),
    ("8000014", "Cork Stents Limited", "IE", "", [MAKER], "DXY"),
    ("8000015", "Société Française S.A.", "FR", "", [RELABEL], "LZG"),
    ("8000016", "Caribe Devices Corp", "US", "PR", [MAKER], "FRN"),
    ("8000017", "Isla Medical", "PR", "", [MAKER], "FRN"),
    ("8000018", "Lone Star Pacing Co", "US", "TX", [MAKER], "DXY"),
    ("8000019", "AB Medical AB", "SE", "", [MAKER], "GCJ"),
    ("8000020", "3M Company", "US", "MN", [MAKER, RELABEL], "FRN"),
]
DEVICE_NAMES = {
    "CBK": "Ventilator, Continuous, Facility Use",
    "FRN": "Pump, Infusion",
    "GCJ": "Laparoscope, General & Plastic Surgery",
    "DXY": "Implantable Pacemaker Pulse-Generator",
    "LZG": "Pump, Infusion, Insulin",
}


def real_registrations() -> list[dict]:
    man = orjson.loads((SAMPLE_DIR / "download.json").read_bytes())
    part = man["results"]["device"]["registrationlisting"]["partitions"][0]
    with zipfile.ZipFile(SAMPLE_DIR / part["file"].removeprefix(DL + "/")) as zf:
        return orjson.loads(zf.read(zf.namelist()[0]))["results"]


def synthetic_record(base: dict, number: str, name: str, country: str, state: str, types: list[str], code: str) -> dict:
    r = copy.deepcopy(base)
    reg = r["registration"]
    reg.update(
        registration_number=number, fei_number="30" + number, name=name, iso_country_code=country, state_code=state
    )
    reg["owner_operator"].update(firm_name=name, owner_operator_number="9" + number)
    r["establishment_type"] = types
    r["products"] = [
        {
            **r["products"][0],
            "product_code": code,
            "owner_operator_number": "9" + number,
            "openfda": {**r["products"][0]["openfda"], "device_name": DEVICE_NAMES[code]},
        }
    ]
    return r


def write_registration_site(root: Path, rows=SYNTHETIC_REGISTRATIONS, export_date: str = "2025-01-01") -> None:
    """A SYNTHETIC download site holding only device/registrationlisting: the real records plus `rows`."""
    real = real_registrations()
    recs = real + [synthetic_record(real[i % 2], *row) for i, row in enumerate(rows)]
    name = "device-registrationlisting-0001-of-0001.json"
    path = root / "device" / "registrationlisting" / (name + ".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "meta": {
            "last_updated": export_date,
            "_synthetic": "test copies of real records",
            "results": {"skip": 0, "limit": len(recs), "total": len(recs)},
        },
        "results": recs,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, json.dumps(doc, indent=2) + "\n")
    part = {
        "display_name": "All",
        "file": f"{DL}/device/registrationlisting/{name}.zip",
        "records": len(recs),
        "size_mb": "%0.2f" % (path.stat().st_size / 1048576),
    }
    manifest = {
        "meta": {"last_updated": export_date, "_synthetic": "test manifest"},
        "results": {
            "device": {
                "registrationlisting": {"export_date": export_date, "total_records": len(recs), "partitions": [part]}
            }
        },
    }
    (root / "download.json").write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))


@pytest.fixture(scope="session")
def synthetic_dir(tmp_path_factory) -> Path:
    """A mirror of SYNTHETIC registrations only (no other dataset)."""
    root = tmp_path_factory.mktemp("synthetic-registrations")
    write_registration_site(root / "site")
    report = sync(Settings(data_dir=root / "data"), SyncOptions(source_dir=root / "site", quiet=True))
    assert report.ok, report.errors
    return root / "data"


@pytest.fixture
def synthetic(synthetic_dir):
    c = ToolContext.open(Settings(data_dir=synthetic_dir))
    yield c
    c.close()


def direct_count(data_dir: Path, where: str, codes: list[str] | None = None) -> int:
    """Establishments by a hand-written SQL filter (the tool's answer must equal it)."""
    con = Store(data_dir).connect()
    try:
        sql = f"SELECT count(*) FROM device_registrationlisting WHERE {where}"
        if codes:
            listed = ", ".join(f"'{c}'" for c in codes)
            sql += (
                " AND registration_number IN (SELECT registration_number FROM device_registrationlisting_product "
                f"WHERE product_code IN ({listed}))"
            )
        return con.execute(sql).fetchone()[0]
    finally:
        con.close()


def replayed_total(ctx: ToolContext, query: str) -> int:
    """The total the provenance query gives when replayed on the local openFDA API."""
    r = ctx.api.get("/device/registrationlisting.json", query + "&limit=1")
    return r.json()["meta"]["results"]["total"] if r.status == 200 else 0


READINGS = [  # (text, expected readings as "kind:code") -- pure reading, no mirror
    ("Germany", ["country:DE"]),
    ("DE", ["country:DE", "us_state:DE"]),
    ("DEU", ["country:DE"]),
    ("de", ["country:DE", "us_state:DE"]),
    ("Delaware", ["us_state:DE"]),
    ("US-DE", ["us_state:DE"]),
    ("country DE", ["country:DE"]),
    ("DE-BY", ["country:DE"]),
    ("Delaware, US", ["us_state:DE"]),
    ("United Kingdom", ["country:GB"]),
    ("UK", ["country:GB"]),
    ("GB", ["country:GB"]),
    ("GBR", ["country:GB"]),
    ("Great Britain", ["country:GB"]),
    ("Ireland", ["country:IE"]),
    ("IRL", ["country:IE"]),
    ("California", ["us_state:CA"]),
    ("CA", ["country:CA", "us_state:CA"]),
    ("CA, USA", ["us_state:CA"]),
    ("CA USA", ["us_state:CA"]),
    ("state of CA", ["us_state:CA"]),
    ("Canada", ["country:CA"]),
    ("CAN", ["country:CA"]),
    ("CA (country)", ["country:CA"]),
    ("IN", ["country:IN", "us_state:IN"]),
    ("Indiana", ["us_state:IN"]),
    ("state of IN", ["us_state:IN"]),
    ("IN (country)", ["country:IN"]),
    ("India", ["country:IN"]),
    ("IND", ["country:IN"]),
    ("ID", ["country:ID", "us_state:ID"]),
    ("Idaho", ["us_state:ID"]),
    ("Indonesia", ["country:ID"]),
    ("PA", ["country:PA", "us_state:PA"]),
    ("GA", ["country:GA", "us_state:GA"]),
    ("AL", ["country:AL", "us_state:AL"]),
    ("Georgia", ["country:GE", "us_state:GA"]),
    ("Georgia, USA", ["us_state:GA"]),
    ("Texas", ["us_state:TX"]),
    ("TX", ["us_state:TX"]),
    ("New York State", ["us_state:NY"]),
    ("Washington DC", ["us_state:DC"]),
    ("US", ["country:US"]),
    ("USA", ["country:US"]),
    ("U.S.A.", ["country:US"]),
    ("United States", ["country:US"]),
    ("Puerto Rico", ["us_state:PR"]),
    ("PR", ["us_state:PR"]),
    ("EU", ["region:EU"]),
    ("European Union", ["region:EU"]),
    ("EEA", ["region:EEA"]),
    ("Korea, Republic of", ["country:KR"]),
    ("Côte d'Ivoire", ["country:CI"]),
    ("Cote d'Ivoire", ["country:CI"]),
    ("Paris, France", ["country:FR"]),
    ("Texas, Canada", ["us_state:TX", "country:CA"]),
    ("Germny", ["country:DE"]),
    ("Atlantis", []),
    ("'; DROP TABLE x; --", []),
]


@pytest.mark.parametrize("text,expected", READINGS, ids=[t for t, _ in READINGS])
def test_read_place(text, expected):
    assert [f"{p.kind}:{p.code}" for p in read_place(text).places] == expected


def test_place_table_is_complete():
    assert len(COUNTRIES) == 249 and len(US_STATES) == 57  # ISO 3166-1; 50 states, DC, 6 territories
    assert COUNTRIES["DE"] == ("DEU", "Germany") and US_STATES["IN"] == "Indiana"
    assert len(REGIONS["EU"][1]) == 27 and "GB" not in REGIONS["EU"][1]
    for a2, (a3, name) in COUNTRIES.items():
        assert [p.code for p in read_place(a3).places] == [a2], a3
        assert a2 in [p.code for p in read_place(name).places], name


@pytest.mark.parametrize("text", ["", "   ", "x" * 5000])
def test_read_place_refuses_empty_and_long_text(text):
    with pytest.raises(ValueError):
        read_place(text)


# (location, device_type, SQL filter of the expected establishments, product codes the SQL also requires)
SYNTHETIC_CASES = [
    ("Germany", None, "iso_country_code = 'DE'", None),
    ("DEU", None, "iso_country_code = 'DE'", None),
    ("Delaware", None, "iso_country_code = 'US' AND state_code = 'DE'", None),
    ("CA, USA", None, "iso_country_code = 'US' AND state_code = 'CA'", None),
    ("Canada", None, "iso_country_code = 'CA'", None),
    ("Indiana", None, "iso_country_code = 'US' AND state_code = 'IN'", None),
    ("India", None, "iso_country_code = 'IN'", None),
    ("Idaho", None, "iso_country_code = 'US' AND state_code = 'ID'", None),
    ("UK", None, "iso_country_code = 'GB'", None),
    ("Ireland", None, "iso_country_code = 'IE'", None),
    ("US", None, "iso_country_code = 'US'", None),
    ("Puerto Rico", None, "(iso_country_code = 'US' AND state_code = 'PR') OR iso_country_code = 'PR'", None),
    ("EU", None, f"iso_country_code IN ({', '.join(repr(c) for c in REGIONS['EU'][1])})", None),
    ("California", "DXY", "iso_country_code = 'US' AND state_code = 'CA'", ["DXY"]),
    ("US", "pacemaker", "iso_country_code = 'US'", ["DXY"]),
    ("US", "infusion pumps", "iso_country_code = 'US'", ["FRN", "LZG"]),
    ("Germany", "DXY, FRN", "iso_country_code = 'DE'", ["DXY", "FRN"]),
    ("Germany", "ZZZ", "iso_country_code = 'DE'", ["ZZZ"]),
]


@pytest.mark.parametrize(
    "location,device_type,where,codes", SYNTHETIC_CASES, ids=[f"{a}|{b}" for a, b, _, _ in SYNTHETIC_CASES]
)
def test_synthetic_totals_equal_direct_sql_and_replay(synthetic, synthetic_dir, location, device_type, where, codes):
    r = run_tool(synthetic, "resolve_location", {"location": location, "device_type": device_type})
    expected = direct_count(synthetic_dir, where, codes)
    assert r.total == expected
    assert len(r.rows) == min(expected, synthetic.row_cap) and r.truncated == (expected > synthetic.row_cap)
    assert r.id_fields == ["registration_number", "fei_number"]
    assert all(
        set(row)
        == {"registration_number", "fei_number", "name", "city", "state_code", "iso_country_code", "establishment_type"}
        for row in r.rows
    )
    [prov] = r.provenance
    assert prov.dataset == "device/registrationlisting" and prov.as_of == "2025-01-01"
    assert replayed_total(synthetic, prov.query) == expected
    assert synthetic.resolved.location is not None and synthetic.resolved.location.kind in (
        "country",
        "us_state",
        "region",
    )


def test_counts_by_establishment_type(synthetic, synthetic_dir):
    r = run_tool(synthetic, "resolve_location", {"location": "Germany"})
    assert r.total == 2 and {row["name"] for row in r.rows} == {"Drägerwerk AG & Co. KGaA", "B. Braun Melsungen AG"}
    con = Store(synthetic_dir).connect()
    by_type = con.execute(
        "SELECT t, count(*) FROM (SELECT unnest(establishment_type) AS t FROM "
        "device_registrationlisting WHERE iso_country_code = 'DE') GROUP BY t"
    ).fetchall()
    con.close()
    assert by_type and all(f"{t} {n}" in r.notes[0] for t, n in by_type)


AMBIGUOUS = [  # code, its country reading, its state reading
    ("CA", "iso_country_code = 'CA'", "iso_country_code = 'US' AND state_code = 'CA'"),
    ("IN", "iso_country_code = 'IN'", "iso_country_code = 'US' AND state_code = 'IN'"),
    ("DE", "iso_country_code = 'DE'", "iso_country_code = 'US' AND state_code = 'DE'"),
    ("ID", "iso_country_code = 'ID'", "iso_country_code = 'US' AND state_code = 'ID'"),
]


@pytest.mark.parametrize("code,country,state", AMBIGUOUS, ids=[a[0] for a in AMBIGUOUS])
def test_ambiguous_codes_give_both_readings_with_counts(synthetic, synthetic_dir, code, country, state):
    synthetic.resolved.location = ResolvedLocation(kind="country", code="FR", name="France")
    r = run_tool(synthetic, "resolve_location", {"location": code})
    assert [(row["kind"], row["code"]) for row in r.rows] == [("country", code), ("us_state", code)]
    assert [row["establishments"] for row in r.rows] == [
        direct_count(synthetic_dir, country),
        direct_count(synthetic_dir, state),
    ]
    assert r.notes[0].startswith("AMBIGUOUS") and COUNTRIES[code][1] in r.notes[0] and US_STATES[code] in r.notes[0]
    assert synthetic.resolved.location.code == "FR"  # nothing chosen
    assert [replayed_total(synthetic, p.query) for p in r.provenance] == [row["establishments"] for row in r.rows]


@pytest.mark.parametrize(
    "text,kind",
    [
        ("CA, USA", "us_state"),
        ("state of IN", "us_state"),
        ("US-DE", "us_state"),
        ("Idaho", "us_state"),
        ("CA (country)", "country"),
        ("India", "country"),
        ("Germany", "country"),
        ("Indonesia", "country"),
    ],
)
def test_context_settles_the_reading_and_is_remembered(synthetic, text, kind):
    r = run_tool(synthetic, "resolve_location", {"location": text})
    assert not r.notes[0].startswith("AMBIGUOUS")
    assert synthetic.resolved.location.kind == kind and r.total >= 1


def test_sample_mirror_real_registrations(ctx, sample_dir):
    for text in ("Italy", "IT", "ITA", "EU"):
        r = run_tool(ctx, "resolve_location", {"location": text})
        assert r.total == direct_count(sample_dir, "iso_country_code = 'IT'") == 1
        assert r.rows[0]["registration_number"] == "9610240" and r.rows[0]["fei_number"] == "3002808212"
    r = run_tool(ctx, "resolve_location", {"location": "New Mexico", "device_type": "laparoscope"})
    assert r.total == 1 and r.rows[0]["name"] == "ETHICON ENDO-SURGERY, INC."
    assert "GCJ" in r.notes[1] and replayed_total(ctx, r.provenance[0].query) == 1
    assert run_tool(ctx, "resolve_location", {"location": "Germany"}).total == 0
    assert ctx.resolved.location == ResolvedLocation(kind="country", code="DE", name="Germany")


def test_device_words_without_a_product_code_match_nothing(ctx):
    r = run_tool(ctx, "resolve_location", {"location": "US", "device_type": "flux capacitor"})
    assert r.total == 0 and any("no product code" in n for n in r.notes)


VALID = "a country name or ISO 3166-1 code ('Germany', 'DE', 'DEU')"
BAD = [  # arguments, what the error must say
    ({"location": ""}, "location: String should have at least 1 character"),
    ({"location": "   "}, "empty location; give " + VALID),
    ({"location": "x" * 5000}, "location: String should have at most 200 characters"),
    ({"location": "Atlantis"}, "unknown location 'Atlantis'; give " + VALID),
    ({"location": "'; DROP TABLE x; --"}, 'unknown location "\'; DROP TABLE x; --"; give ' + VALID),
    ({"location": "US", "device_type": "x" * 5000}, "device_type: String should have at most 200 characters"),
    ({"location": "US", "bogus": 1}, "bogus: unknown argument"),
]


@pytest.mark.parametrize("args,message", BAD, ids=[m[:40] for _, m in BAD])
def test_bad_input_is_a_clear_error(ctx, args, message):
    with pytest.raises(ToolError) as e:
        run_tool(ctx, "resolve_location", args)
    assert message in str(e.value)
    assert "EU" in str(e.value) or "valid arguments" in str(e.value)
    assert run_tool(ctx, "resolve_location", {"location": "US"}).total == 1  # the mirror is untouched


def test_missing_registration_data_is_a_note(tmp_path):
    report = sync(Settings(data_dir=tmp_path), SyncOptions(source_dir=SAMPLE_DIR, only=["510k"], quiet=True))
    assert report.ok
    c = ToolContext.open(Settings(data_dir=tmp_path))
    try:
        r = run_tool(c, "resolve_location", {"location": "Texas", "device_type": "DXY"})
        assert r.total == 0 and any("mirror sync --only registrationlisting" in n for n in r.notes)
        assert c.resolved.location is None
    finally:
        c.close()
