"""Build mirror/sample, an offline openFDA + AccessGUDID download site, from the real records in tests/data/fixtures."""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

from mirror.schema.openfda import DISCLAIMER, LICENSE, TERMS
from mirror.schema.openfda import DOWNLOAD_SITE as DL

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "data" / "fixtures"
ZIP_TIME = (2025, 10, 2, 0, 0, 0)
ZIP_ATTR = 0o644 << 16
MIB = 1048576  # openFDA's exporter: os.path.getsize(f)/1024/1024.0
GUDID_ZIP = "AccessGUDID_Delimited_Full_Release_20251001.zip"
NOTE = "FDA Explorer Offline sample source: real openFDA records from shared fixtures; see SOURCES.md"
ENDPOINTS = [
    "enforcement",
    "event",
    "classification",
    "510k",
    "pma",
    "recall",
    "registrationlisting",
    "udi",
    "covid19serology",
]  # order of the real 2023 manifest (bench/synth_mirror.py reads this list)
PARTS = {"udi": 2}  # endpoints split into several files to exercise multi-part partitions
THIN = {"recall", "enforcement", "registrationlisting"}
KEYS = {
    "event": lambda r: r.get("mdr_report_key"),
    "510k": lambda r: r.get("k_number"),
    "pma": lambda r: (r["pma_number"], r.get("supplement_number")) if "pma_number" in r else None,
    "udi": lambda r: r.get("public_device_record_key"),
    "recall": lambda r: r.get("product_res_number"),
    "enforcement": lambda r: r.get("recall_number"),
}
SPECIALTY = {  # FDA/openfda openfda/device_common.py MED_SPECIALTY_ADVISORY_COMMITTEE
    "AN": "Anesthesiology",
    "CV": "Cardiovascular",
    "CH": "Clinical Chemistry",
    "DE": "Dental",
    "EN": "Ear, Nose, Throat",
    "GU": "Gastroenterology, Urology",
    "HO": "General Hospital",
    "HE": "Hematology",
    "IM": "Immunology",
    "MG": "Medical Genetics",
    "MI": "Microbiology",
    "NE": "Neurology",
    "OB": "Obstetrics/Gynecology",
    "OP": "Ophthalmic",
    "OR": "Orthopedic",
    "PA": "Pathology",
    "PM": "Physical Medicine",
    "RA": "Radiology",
    "SU": "General, Plastic Surgery",
    "TX": "Clinical Toxicology",
    "": "Unknown",
}


def pairs(text: str) -> list[tuple[str, str]]:
    """'a=b c=d' -> [("a", "b"), ("c", "d")]; used for the column mapping tables below."""
    return [tuple(item.split("=")) for item in text.split()]


FOI_COLUMNS = dict(
    pairs(  # foiclass.txt header -> openFDA classification field
        "REVIEW_PANEL=review_panel MEDICALSPECIALTY=medical_specialty PRODUCTCODE=product_code DEVICENAME=device_name "
        "DEVICECLASS=device_class UNCLASSIFIED_REASON=unclassified_reason GMPEXEMPTFLAG=gmp_exempt_flag "
        "THIRDPARTYFLAG=third_party_flag REVIEWCODE=review_code REGULATIONNUMBER=regulation_number "
        "SUBMISSION_TYPE_ID=submission_type_id DEFINITION=definition PHYSICALSTATE=physical_state "
        "TECHNICALMETHOD=technical_method TARGETAREA=target_area Implant_Flag=implant_flag "
        "Life_Sustain_support_flag=life_sustain_support_flag SummaryMalfunctionReporting=summary_malfunction_reporting"
    )
)
CLASS_ORDER = [  # key order of the real 2025 API records (minus openfda), then the three extra foiclass columns
    "third_party_flag",
    "life_sustain_support_flag",
    "gmp_exempt_flag",
    "summary_malfunction_reporting",
    "product_code",
    "review_panel",
    "medical_specialty",
    "device_name",
    "review_code",
    "unclassified_reason",
    "medical_specialty_description",
    "device_class",
    "definition",
    "regulation_number",
    "implant_flag",
    "submission_type_id",
    "physical_state",
    "technical_method",
    "target_area",
]
GUDID_FILES = {  # file: (openFDA field holding the rows, [(GUDID header, openFDA sub-field)]); PrimaryDI first
    "device.txt": (
        "",
        pairs(
            "publicDeviceRecordKey=public_device_record_key publicVersionStatus=public_version_status "
            "deviceRecordStatus=record_status publicVersionNumber=public_version_number "
            "publicVersionDate=public_version_date devicePublishDate=publish_date "
            "deviceCommDistributionEndDate=commercial_distribution_end_date "
            "deviceCommDistributionStatus=commercial_distribution_status brandName=brand_name "
            "versionModelNumber=version_or_model_number catalogNumber=catalog_number dunsNumber=labeler_duns_number "
            "companyName=company_name deviceCount=device_count_in_base_package deviceDescription=device_description "
            "DMExempt=is_direct_marking_exempt premarketExempt=is_pm_exempt deviceHCTP=is_hct_p deviceKit=is_kit "
            "deviceCombinationProduct=is_combination_product singleUse=is_single_use lotBatch=has_lot_or_batch_number "
            "serialNumber=has_serial_number manufacturingDate=has_manufacturing_date "
            "expirationDate=has_expiration_date "
            "donationIdNumber=has_donation_id_number labeledContainsNRL=is_labeled_as_nrl "
            "labeledNoNRL=is_labeled_as_no_nrl MRISafetyStatus=mri_safety rx=is_rx otc=is_otc "
            "deviceSterile=sterilization.is_sterile sterilizationPriorToUse=sterilization.is_sterilization_prior_use"
        ),
    ),
    "identifiers.txt": (
        "identifiers",
        pairs(
            "deviceId=id deviceIdType=type deviceIdIssuingAgency=issuing_agency containsDINumber=unit_of_use_id "
            "pkgQuantity=quantity_per_package pkgDiscontinueDate=package_discontinue_date pkgStatus=package_status "
            "pkgType=package_type"
        ),
    ),
    "productCodes.txt": ("product_codes", pairs("productCode=code productCodeName=name")),
    "gmdnTerms.txt": (
        "gmdn_terms",
        pairs(
            "gmdnPTName=name gmdnPTDefinition=definition gmdnCode=code gmdnCodeStatus=code_status "
            "implantable=implantable"
        ),
    ),
    "contacts.txt": ("customer_contacts", pairs("phone=phone phoneExtension=ext email=email")),
    "deviceSizes.txt": ("device_sizes", pairs("sizeType=type sizeUnit=unit sizeValue=value sizeText=text")),
    "environmentalConditions.txt": (
        "storage",
        pairs(
            "storageHandlingType=type storageHandlingHighUnit=high.unit storageHandlingHighValue=high.value "
            "storageHandlingLowUnit=low.unit storageHandlingLowValue=low.value "
            "storageHandlingSpecialConditionText=special_conditions"
        ),
    ),
    "premarketSubmissions.txt": (
        "premarket_submissions",
        pairs("submissionNumber=submission_number supplementNumber=supplement_number"),
    ),
    "sterilizationMethodTypes.txt": ("sterilization.sterilization_methods", [("sterilizationMethod", "")]),
}


def record_key(ep: str, rec: dict):
    """Endpoint key, or the whole record (as canonical JSON) when the endpoint has none or the record lacks it."""
    key = KEYS[ep](rec) if ep in KEYS else None
    return key if key is not None else json.dumps(rec, sort_keys=True)


def records_in(path: Path) -> tuple[list, str | None]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(doc, dict) and isinstance(doc.get("results"), list):
        return doc["results"], (doc.get("meta") or {}).get("last_updated")
    if path.name.endswith(".docs-record.json") and isinstance(doc, dict):
        return [doc], None
    return [], None


def collect(fix: Path, ep: str) -> dict:
    """Deduplicated real records of one endpoint, with the fixture files they came from."""
    seen, recs, sources, dates = set(), [], {}, []
    for path in sorted((fix / "openfda" / ep).glob("*.json")):
        if path.name.endswith(".http.json"):
            continue
        results, updated = records_in(path)
        fresh = [r for r in results if record_key(ep, r) not in seen]
        for r in fresh:
            seen.add(record_key(ep, r))
        recs += fresh
        if fresh:
            sources[path.relative_to(fix).as_posix()] = (len(fresh), len(results))
            dates += [updated] if updated and re.fullmatch(r"\d{4}-\d{2}-\d{2}", updated) else []
    manifest = json.loads((fix / "openfda" / "download.json").read_text(encoding="utf-8"))
    fallback = manifest["results"]["device"][ep]["export_date"]
    return {
        "records": recs,
        "sources": sources,
        "export_date": max(dates) if dates else fallback,
        "date_note": "" if dates else "fixture meta is undated; taken from the real 2023 manifest",
    }


def classification(fix: Path) -> dict:
    """foiclass.txt rows converted field by field into openFDA classification records."""
    lines = (fix / "classification" / "foiclass-2019.txt").read_bytes().decode("cp1252").split("\r\n")
    header = [FOI_COLUMNS[h] for h in lines[0].split("|")]
    recs = []
    for line in filter(None, lines[1:]):
        fields = line.split("|")
        assert len(fields) == len(header), line
        row = dict(zip(header, fields))
        row["medical_specialty_description"] = SPECIALTY[row["medical_specialty"]]
        recs.append({k: row[k] for k in CLASS_ORDER})
    assert len(recs) == len({r["product_code"] for r in recs}) == 6530
    return {
        "records": recs,
        "sources": {"classification/foiclass-2019.txt": (len(recs), len(recs))},
        "export_date": "2019-07-04",
        "date_note": "date of the foiclass.txt snapshot",
    }


def zip_bytes(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type, info.external_attr, info.create_system = zipfile.ZIP_DEFLATED, ZIP_ATTR, 3
            zf.writestr(info, data)
    return buf.getvalue()


def quarter(rec: dict) -> str:
    d = rec.get("date_received", "")
    return f"{d[:4]}q{(int(d[4:6]) - 1) // 3 + 1}" if re.fullmatch(r"\d{8}", d) else "all_other"


def display_name(ep: str, part: str, i: int, n: int) -> str:
    """Same naming as _make_display_name in openFDA's index_util.dump_index."""
    label = "All other data" if part == "all_other" else part.replace("q", " Q")
    suffix = f" (part {i} of {n})" if n > 1 else (" (all)" if part else " data")
    return (label if part else f"/device/{ep}") + suffix


def write_partition(out: Path, ep: str, part: str, recs: list, nparts: int, export_date: str) -> list[dict]:
    size = -(-len(recs) // nparts)
    rows = []
    for i in range(1, nparts + 1):
        chunk = recs[(i - 1) * size : i * size]
        name = f"device-{ep}-{i:04d}-of-{nparts:04d}.json"
        rel = "/".join(filter(None, ["device", ep, part, name + ".zip"]))
        meta = {
            "disclaimer": DISCLAIMER,
            "terms": TERMS,
            "license": LICENSE,
            "last_updated": export_date,
            "results": {"skip": (i - 1) * size, "limit": size if i < nparts else len(chunk), "total": len(recs)},
        }
        data = zip_bytes([(name, (json.dumps({"meta": meta, "results": chunk}, indent=2) + "\n").encode())])
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
        rows.append(
            {
                "display_name": display_name(ep, part, i, nparts),
                "file": f"{DL}/{rel}",
                "size_mb": "%0.2f" % (len(data) / MIB),
                "records": len(chunk),
                "_bytes": len(data),
            }
        )
    return rows


def write_endpoint(out: Path, ep: str, info: dict) -> dict:
    if ep == "event":
        groups = {}
        for rec in info["records"]:
            groups.setdefault(quarter(rec), []).append(rec)
        plan = [(q, groups[q], 1) for q in sorted(groups, key=lambda q: (q == "all_other", q))]
    else:
        plan = [("", info["records"], PARTS.get(ep, 1))]
    parts = [p for part, recs, n in plan for p in write_partition(out, ep, part, recs, n, info["export_date"])]
    info["partitions"] = parts
    return {
        "export_date": info["export_date"],
        "partitions": [{k: v for k, v in p.items() if k != "_bytes"} for p in parts],
        "total_records": sum(p["records"] for p in parts),
    }


def field(obj, path: str):
    for part in filter(None, path.split(".")):
        obj = obj.get(part, "") if isinstance(obj, dict) else ""
    return obj


def clean(value, stats: dict, where: str) -> str:
    text = "" if value is None else str(value)
    fixed = re.sub(r"\r\n|[\r\n|]", " ", text)
    if fixed != text:
        stats["replaced"].append(where)
    return fixed


def primary_di(rec: dict) -> str | None:
    return next((i.get("id") for i in rec.get("identifiers") or [] if i.get("type") == "Primary"), None)


def gudid_tables(udi: list[dict], stats: dict) -> dict[str, list[list[str]]]:
    """AccessGUDID-style delimited tables (header first) from openFDA UDI records, joined on PrimaryDI."""
    tables = {name: [["PrimaryDI"] + [h for h, _ in cols]] for name, (_, cols) in GUDID_FILES.items()}
    for rec in udi:
        di = primary_di(rec)
        if not di or not rec.get("public_device_record_key"):
            stats["skipped"].append(di or "(no primary DI)")
            continue
        for name, (src, cols) in GUDID_FILES.items():
            items = field(rec, src) or []
            for item in [items] if isinstance(items, (str, dict)) else items:
                tables[name].append(
                    [clean(di, stats, f"{name} {di} PrimaryDI")]
                    + [clean(field(item, p), stats, f"{name} {di} {h}") for h, p in cols]
                )
    return tables


def write_gudid(out: Path, udi: list[dict]) -> dict:
    stats = {"replaced": [], "skipped": []}
    tables = gudid_tables(udi, stats)
    members = [(n, "".join("|".join(r) + "\r\n" for r in rows).encode("utf-8")) for n, rows in tables.items()]
    (out / "gudid").mkdir(parents=True, exist_ok=True)
    (out / "gudid" / GUDID_ZIP).write_bytes(zip_bytes(members))
    (out / "gudid" / "index.html").write_text(
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>AccessGUDID delimited releases (sample)'
        f"</title></head>\n<body><h1>AccessGUDID delimited full releases (offline sample)</h1>\n<ul>\n<li><a href="
        f'"{GUDID_ZIP}">{GUDID_ZIP}</a></li>\n</ul></body></html>\n',
        encoding="utf-8",
        newline="\n",
    )
    return {
        "rows": {n: len(rows) - 1 for n, rows in tables.items()},
        **stats,
        "bytes": (out / "gudid" / GUDID_ZIP).stat().st_size,
    }


def sources_md(infos: dict, gudid: dict) -> str:
    rows = []
    for ep, info in infos.items():
        src = "<br>".join(f"`{p}` ({k} of {n})" for p, (k, n) in info["sources"].items())
        files = "<br>".join(
            f"`{p['file'][len(DL) + 1 :]}` ({p['records']} records, {p['_bytes']} bytes)" for p in info["partitions"]
        )
        note = f"{info['export_date']}" + (f" ({info['date_note']})" if info["date_note"] else "")
        name = f"{ep} **(thin)**" if ep in THIN else ep
        rows.append(f"| {name} | {len(info['records'])} | {files} | {src} | {note} |")
    g_rows = ", ".join(f"`{n}` {k}" for n, k in gudid["rows"].items())
    return (
        PROSE_HEAD
        + "\n".join(rows)
        + "\n"
        + PROSE_GUDID.format(
            zip=GUDID_ZIP,
            rows=g_rows,
            bytes=gudid["bytes"],
            replaced="; ".join(gudid["replaced"]) or "none",
            skipped=", ".join(gudid["skipped"]) or "none",
        )
    )


PROSE_HEAD = """# Sample source provenance

An offline copy of the openFDA download site (`download.json` plus `device/...` zips at the same paths as
`https://download.open.fda.gov/...`) and of an AccessGUDID delimited release, for `mirror sync --from mirror/sample`.
Generated by `tests/data/build_sample.py` from `tests/data/fixtures` (unmodified copies of shared/fixtures, whose own
provenance is in `tests/data/fixtures/SOURCES.md`). **Every record is real; nothing is synthesised** (no `_synthetic`).

* Records are copied unchanged (keys, values, key order) from every `results` list of the endpoint's fixture files
  and from bare `*.docs-record.json` records; `count/`, `errors/` and `*.http.json` are not used. Duplicates are
  dropped by the endpoint key (event `mdr_report_key`, 510k `k_number`, pma `pma_number`+`supplement_number`, udi
  `public_device_record_key`, recall `product_res_number`, enforcement `recall_number`; registrationlisting and
  covid19serology by whole-record equality, as is any record lacking its key). Sources below read "(kept of present)".
* Zip bodies are written like openFDA's exporter (`index_util.dump_index`): one deflated member named like the zip
  minus `.zip`, `json.dumps(doc, indent=2) + "\\n"`, meta `last_updated` = the endpoint export_date, `results`
  {skip, limit (chunk size; len(results) in the last chunk), total (records of the partition)}. Zips are
  deterministic (date 2025-10-02 00:00:00, external_attr 0o644, create_system 3).
* `size_mb` = zip bytes / 1,048,576 formatted `%0.2f`, as openFDA's exporter computes it (bytes/1024/1024), so
  most sample files show `0.00`. export_date = latest `meta.last_updated` of the files that contributed records.
* event is split by `date_received` quarter; udi is split into 2 parts only to demonstrate multi-part partitions.
* **Thin endpoints**: recall, enforcement and registrationlisting have only 2-3 real records (2017 API responses
  and open.fda.gov documentation examples, which may be abridged: e.g. the enforcement docs record has no
  `recall_number`, the udi docs record has no `public_device_record_key`). covid19serology records are real
  documents from openFDA's ES test index; the fixture's meta was synthesised and is not used.
* **classification** comes only from FDA's `foiclass.txt` of 2019-07-04 (Windows-1252, `|`, CRLF): columns renamed
  as openFDA's classification pipeline does, `medical_specialty_description` mapped with openFDA's
  `device_common.MED_SPECIALTY_ADVISORY_COMMITTEE` (including `MG` Medical Genetics and `""` -> `Unknown`), values
  kept verbatim (backslashes included; decoded as Windows-1252 where openFDA's pipeline uses ISO-8859-1), key
  order of the real 2025 API records. Differences from real openFDA
  records: no `openfda` harmonisation block, and `physical_state`, `technical_method`, `target_area` are kept
  (openFDA's pipeline drops those three columns).

| endpoint | records | files | fixture sources | export_date |
|---|---|---|---|---|
"""
PROSE_GUDID = """
## gudid/

`gudid/{zip}` ({bytes} bytes) is built from the real openFDA UDI records above, converted field by field back to
the GUDID names (inverse of the rename map in openFDA `device_udi/pipeline.py`; booleans stay `true`/`false`).
Rows: {rows}.
**The values are real, but the delimited layout (file names, header names and column order) is INFERRED from
DATA-FORMATS.md D.1/D.2, not copied from a real AccessGUDID release.** Format chosen: UTF-8, `|`, header row, CRLF,
no quoting, joined on `PrimaryDI` (the `Primary` identifier); members at the zip root. Fields not in the
chosen headers are dropped (e.g. `premarket_submissions[].submission_type`, `product_codes[].openfda`).
Values whose `|` or line breaks were replaced by a space (file, PrimaryDI, column): {replaced}.
UDI records left out of the GUDID release (no `public_device_record_key`, the GUDID primary key): {skipped}.
`gudid/index.html` is a minimal listing page with a relative link to the zip.
"""
NOTICE = """FDA Explorer Offline: sample source (mirror/sample)

openFDA data (download.json, device/**) is from the U.S. Food and Drug Administration via openFDA. It is public
domain, dedicated under Creative Commons CC0 1.0 Universal (https://open.fda.gov/license/). FDA's Product
Classification file (foiclass.txt) is a U.S. government work in the public domain.

GMDN term names and definitions (udi records and gudid/gmdnTerms.txt) are used under licence from The GMDN Agency;
extracting GMDN content for commercial services, alternative categorisations or mappings, or AI training needs a
licence from The GMDN Agency. The AccessGUDID-style files hold real openFDA UDI values in an inferred layout;
see SOURCES.md.
"""


def build(fix: Path, out: Path) -> dict:
    for sub in ("device", "gudid"):
        shutil.rmtree(out / sub, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    infos = {ep: classification(fix) if ep == "classification" else collect(fix, ep) for ep in ENDPOINTS}
    device = {ep: write_endpoint(out, ep, info) for ep, info in infos.items()}
    meta = {
        "disclaimer": DISCLAIMER,
        "terms": TERMS,
        "license": LICENSE,
        "last_updated": max(d["export_date"] for d in device.values()),
        "_sample_note": NOTE,
    }
    (out / "download.json").write_text(
        json.dumps({"meta": meta, "results": {"device": device}}, indent=2) + "\n", encoding="utf-8", newline="\n"
    )
    gudid = write_gudid(out, infos["udi"]["records"])
    (out / "SOURCES.md").write_text(sources_md(infos, gudid), encoding="utf-8", newline="\n")
    (out / "NOTICE").write_text(NOTICE, encoding="utf-8", newline="\n")
    return {ep: len(info["records"]) for ep, info in infos.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "mirror" / "sample")
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    args = parser.parse_args()
    for ep, n in build(args.fixtures, args.out).items():
        print(f"{ep:20s} {n:6d} records")


if __name__ == "__main__":
    main()
