"""The packaged field catalog (mirror/api/fields.json) against real records and recorded openFDA behaviour.

Records are the `results` of the recorded API responses and documentation examples under
tests/data/fixtures/openfda/<endpoint>/ and of the sample mirror's bulk files (mirror/sample/device/**.zip).
Every leaf path they carry must be in the catalog; key, date and `.exact` fields must be typed as openFDA's
Elasticsearch mappings (and the recorded requests) show. FIELDS.md says where each fact comes from.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "data" / "fixtures" / "openfda"
SAMPLE = ROOT / "mirror" / "sample" / "device"
ENDPOINTS = [
    "event",
    "510k",
    "pma",
    "classification",
    "recall",
    "enforcement",
    "registrationlisting",
    "udi",
    "covid19serology",
]
TYPES = {"text", "keyword", "date", "integer", "long", "float", "double", "boolean"}

CATALOG = json.loads(resources.files("mirror.api").joinpath("fields.json").read_text(encoding="utf-8"))


def leaf_paths(value, prefix: str = "") -> Iterator[str]:
    """Dotted leaf paths of a record; arrays are transparent, as in a `search=`."""
    if isinstance(value, dict):
        for key, sub in value.items():
            yield from leaf_paths(sub, f"{prefix}.{key}" if prefix else key)
    elif isinstance(value, list):
        for sub in value:
            yield from leaf_paths(sub, prefix)
    elif prefix:
        yield prefix


def records_in(doc) -> list[dict]:
    """A response or bulk file gives its `results`; a bare documentation example is one record."""
    if isinstance(doc, dict) and isinstance(doc.get("results"), list):
        return doc["results"]
    if isinstance(doc, dict) and not ({"meta", "error", "results"} & doc.keys()):
        return [doc]
    return []


def records(endpoint: str) -> Iterator[tuple[str, dict]]:
    for path in sorted((FIXTURES / endpoint).glob("*.json")):
        if not path.name.endswith(".http.json"):
            for rec in records_in(json.loads(path.read_text(encoding="utf-8"))):
                yield path.name, rec
    for path in sorted((SAMPLE / endpoint).rglob("*.zip")):
        with zipfile.ZipFile(path) as zf:
            for name in zf.namelist():
                for rec in records_in(json.loads(zf.read(name))):
                    yield f"{path.relative_to(SAMPLE)}:{name}", rec


def test_catalog_shape():
    assert set(CATALOG) == {"_comment", *ENDPOINTS}
    for ep in ENDPOINTS:
        paths = CATALOG[ep]
        assert paths, ep
        for path, spec in paths.items():
            assert spec["type"] in TYPES, (ep, path)
            assert spec.get("exact", True) is True, (ep, path)  # present only when true
            assert spec.get("source", "response") in {"response", "records"}, (ep, path)
            assert not path.endswith(".exact") and "" not in path.split("."), (ep, path)
        # leaves only: no entry is an object holding another entry
        assert not [p for p in paths if any(q.startswith(p + ".") for q in paths)], ep


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_every_record_path_is_catalogued(endpoint):
    seen: dict[str, str] = {}
    count = 0
    for where, rec in records(endpoint):
        count += 1
        for path in leaf_paths(rec):
            seen.setdefault(path, where)
    assert count, f"no real {endpoint} records found"
    missing = {p: w for p, w in seen.items() if p not in CATALOG[endpoint]}
    assert not missing, missing


KEY_FIELDS = [  # (endpoint, path, type, has .exact)
    ("event", "mdr_report_key", "text", True),
    ("event", "report_number", "text", True),  # recorded: search=report_number.exact:...
    ("510k", "k_number", "text", True),
    ("pma", "pma_number", "keyword", False),
    ("pma", "supplement_number", "keyword", False),
    # the mapping says analyzed text without a sub-field; recorded: count=product_code.exact -> 404
    ("classification", "product_code", "text", False),
    ("recall", "product_res_number", "text", True),  # recorded: search=product_res_number.exact:...
    ("recall", "res_event_number", "keyword", False),
    ("enforcement", "recall_number", "text", True),  # recorded: search=recall_number.exact:Z-2338-2012
    ("enforcement", "event_id", "long", False),
    ("udi", "public_device_record_key", "keyword", False),
    ("udi", "identifiers.id", "keyword", False),
    ("registrationlisting", "registration.registration_number", "keyword", False),
    ("registrationlisting", "products.product_code", "keyword", False),
]


@pytest.mark.parametrize("endpoint,path,type_,exact", KEY_FIELDS)
def test_key_fields(endpoint, path, type_, exact):
    spec = CATALOG[endpoint][path]
    assert spec["type"] == type_
    assert spec.get("exact", False) is exact
    assert "source" not in spec  # straight from the mapping


DATES = {  # DATA-FORMATS.md section B
    "event": [
        "date_received",
        "date_report",
        "date_of_event",
        "date_facility_aware",
        "date_manufacturer_received",
        "date_report_to_fda",
        "date_report_to_manufacturer",
        "report_date",
        "device_date_of_manufacturer",
        "device.date_received",
        "device.date_returned_to_manufacturer",
        "device.expiration_date_of_device",
        "patient.date_received",
        "mdr_text.date_report",
    ],
    "510k": ["decision_date", "date_received"],
    "pma": ["date_received", "decision_date", "fed_reg_notice_date"],
    "classification": [],
    "recall": ["event_date_initiated", "event_date_created", "event_date_posted", "event_date_terminated"],
    "enforcement": ["recall_initiation_date", "center_classification_date", "report_date", "termination_date"],
    "registrationlisting": ["products.created_date"],
    "udi": [
        "publish_date",
        "public_version_date",
        "commercial_distribution_end_date",
        "identifiers.package_discontinue_date",
    ],
    "covid19serology": ["date_performed"],
}
# Mapped dates no record shows: the stripped MAUDE baseline fields, and the mapping's misspelt twin.
EXTRA_DATES = {
    "event": [
        "device.baseline_date_ceased_marketing",
        "device.baseline_date_first_marketed",
        "device_date_of_manufacturere",
    ]
}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_date_fields(endpoint):
    dates = {p for p, spec in CATALOG[endpoint].items() if spec["type"] == "date"}
    assert dates == {*DATES[endpoint], *EXTRA_DATES.get(endpoint, [])}


def test_event_date_added_and_changed_are_text_as_mapped():
    # DATA-FORMATS B.1 lists them among the dates, but maude_mapping.json maps them as plain text
    for path in ("date_added", "date_changed"):
        assert CATALOG["event"][path] == {"type": "text", "note": CATALOG["event"][path]["note"]}


EXACT_COUNTED = [  # recorded: count=<path>.exact answered 200
    ("event", "device.openfda.medical_specialty_description"),
    ("510k", "openfda.medical_specialty_description"),
    ("pma", "openfda.medical_specialty_description"),
    ("recall", "openfda.medical_specialty_description"),
    ("classification", "medical_specialty_description"),
    ("enforcement", "recalling_firm"),
    ("registrationlisting", "products.openfda.medical_specialty_description"),
    ("pma", "advisory_committee_description"),
]


@pytest.mark.parametrize("endpoint,path", EXACT_COUNTED)
def test_recorded_exact_counts(endpoint, path):
    assert CATALOG[endpoint][path].get("exact") is True


@pytest.mark.parametrize(
    "endpoint,path",
    [
        ("enforcement", "event_date_initiated"),  # recorded 404: a recall field, not enforcement
        ("registrationlisting", "registration.address.iso_country_code"),  # recorded 404: no such path
    ],
)
def test_recorded_unknown_fields_are_absent(endpoint, path):
    assert path not in CATALOG[endpoint]


def test_fields_seen_only_in_2025_responses_are_marked():
    event = CATALOG["event"]
    for path in (
        "pma_pmn_number",
        "exemption_number",
        "reporter_country_code",
        "summary_report_flag",
        "device.combination_product_flag",
    ):
        assert event[path] == {"type": "keyword", "source": "response"}, path
    # listed as unmapped in DATA-FORMATS B.1, but the current maude_mapping.json maps them
    for path in ("suppl_dates_mfr_received", "suppl_dates_fda_received", "device.udi_di", "device.udi_public"):
        assert event[path] == {"type": "text", "exact": True}, path
