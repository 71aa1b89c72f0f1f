"""Plain words for answers: nouns with their number, readable dates, labels for fields, and short record tables."""

from __future__ import annotations

import re
from typing import Any

from .tools.specs import LABEL, SOURCE
from .understand.dates import readable
from .understand.types import DeviceFilter, Interpretation

__all__ = [
    "noun",
    "plural",
    "day",
    "decision",
    "scope",
    "code_text",
    "as_of_text",
    "table",
    "COLUMNS",
    "FIELD_LABEL",
    "field_label",
]

NOUNS = {
    "event": "adverse event report",
    "recall": "recalled product",
    "enforcement": "enforcement report",
    "510k": "510(k) clearance",
    "classification": "product code",
    "udi": "UDI device record",
    "registrationlisting": "establishment registration",
    "gudid": "AccessGUDID device record",
    "covid19serology": "serology test result",
}
FIELD_LABEL = {
    "latest": "most recent date",
    "is_labeled_as_no_nrl": "labeled as not made with natural rubber latex",
    "is_labeled_as_nrl": "labeled as containing natural rubber latex",
    "is_single_use": "labeled for single use",
    "is_sterile": "labeled sterile",
    "regulation_number": "regulation number",
    "pma_number": "PMA number",
    "device_class": "device class",
    "decision_code": "decision code",
    "decision_date": "decision date",
    "root_cause": "root cause",
    "recall_class": "recall class",
    "review_panel": "review panel",
    "device_name": "device name",
    "applicant": "applicant",
    "manufacturer": "manufacturers",
    "product_code": "product codes",
    "event_type": "event types",
    "patient_problem": "patient problems",
    "device_problem": "device problems",
    "country": "countries",
    "state": "states",
    "status": "recall status",
    "supplement_type": "supplement type",
    "clearance_type": "clearance type",
    "third_party_flag": "third-party review",
    "year": "year",
    "quarter": "quarter",
    "month": "month",
    "implant_flag": "implant",
    "life_sustain_support_flag": "life-sustaining or supporting",
    "gmp_exempt_flag": "GMP-exempt (quality system)",
    "registration_number": "registration number",
    "fei_number": "FEI number",
    "version_or_model_number": "version or model number",
    "catalog_number": "catalog number",
    "publish_date": "publish date",
    "commercial_distribution_status": "commercial distribution status",
    "brand_name": "brand name",
    "company_name": "company",
    "gmdn_term": "GMDN term",
    "premarket_submission": "premarket submission",
    "product_problems": "device problems",
    "trade_name": "trade name",
    "city": "city",
    "k_numbers": "510(k) numbers",
    "labeler_duns_number": "labeler DUNS number",
    "termination_date": "termination date",
    "event_date_initiated": "initiation date",
    "product_quantity": "quantity",
    "review_days": "review time (date received to decision)",
    "proprietary_name": "proprietary names",
    "antibody_agree": "agreement with the sample's known status",
    "mri_safety": "MRI safety status",
    "reg_expiry_year": "registration expiry year",
    "generic_name": "generic name",
    "code_info": "lot and code information",
}


def field_label(field: str | None) -> str:
    """A field in words: its label, else the last part of its path ("owner_operator_number": "owner operator
    number"), never a raw field name."""
    f = field or ""
    return FIELD_LABEL.get(f) or f.rsplit(".", 1)[-1].replace("_", " ")


DECISIONS = {
    "SESE": "substantially equivalent",
    "SESD": "substantially equivalent with drug",
    "SESK": "substantially equivalent (kit)",
    "SESP": "substantially equivalent (postmarket surveillance)",
    "SESU": "substantially equivalent with limitations",
    "DENG": "De Novo granted",
    "APPR": "approved",
    "OK30": "30-day notice accepted",
    "LE30": "30-day notice (real-time) accepted",
    "APRL": "approval for a labeling change",
    "DENY": "denied",
    "NSE": "not substantially equivalent",
}
# row key -> column label, per dataset (the order shown)
COLUMNS = {
    "event": [
        ("mdr_report_key", "Report key"),
        ("date_received", "Received"),
        ("event_type", "Type"),
        ("product_code", "Product code"),
        ("brand_name", "Brand"),
        ("manufacturer", "Manufacturer"),
    ],
    "recall": [
        ("product_res_number", "Recall number"),
        ("event_date_initiated", "Initiated"),
        ("recall_class", "Class"),
        ("recalling_firm", "Firm"),
        ("product_code", "Product code"),
        ("root_cause_description", "Root cause"),
    ],
    "enforcement": [
        ("recall_number", "Recall number"),
        ("report_date", "Reported"),
        ("recall_initiation_date", "Initiated"),
        ("classification", "Class"),
        ("recalling_firm", "Firm"),
        ("status", "Status"),
    ],
    "510k": [
        ("k_number", "510(k)"),
        ("decision_date", "Decided"),
        ("applicant", "Applicant"),
        ("device_name", "Device"),
        ("product_code", "Product code"),
        ("decision_code", "Decision"),
    ],
    "pma": [
        ("pma_number", "PMA"),
        ("supplement_number", "Supplement"),
        ("decision_date", "Decided"),
        ("applicant", "Applicant"),
        ("trade_name", "Trade name"),
        ("product_code", "Product code"),
    ],
    "classification": [
        ("product_code", "Product code"),
        ("device_name", "Device"),
        ("device_class", "Class"),
        ("regulation_number", "Regulation"),
        ("medical_specialty", "Specialty"),
    ],
    "udi": [
        ("primary_di", "Device identifier"),
        ("brand_name", "Brand"),
        ("version_or_model_number", "Version or model"),
        ("company_name", "Company"),
        ("product_code", "Product code"),
        ("publish_date", "Published"),
    ],
    "gudid": [
        ("primary_di", "Device identifier"),
        ("brand_name", "Brand"),
        ("version_or_model_number", "Version or model"),
        ("company_name", "Company"),
        ("gmdn_term", "GMDN term"),
        ("product_codes", "Product codes"),
        ("publish_date", "Published"),
    ],
    "covid19serology": [
        ("sample_id", "Sample"),
        ("manufacturer", "Manufacturer"),
        ("device", "Test"),
        ("date_performed", "Performed"),
        ("antibody_truth", "Truth"),
        ("antibody_agree", "Agreement"),
        ("igg_result", "IgG"),
        ("igm_result", "IgM"),
    ],
    "registrationlisting": [
        ("registration_number", "Registration"),
        ("fei_number", "FEI"),
        ("name", "Establishment"),
        ("city", "City"),
        ("state_code", "State"),
        ("iso_country_code", "Country"),
        ("product_codes", "Product codes"),
    ],
}
_DATE_KEYS = {
    "date_received",
    "event_date_initiated",
    "recall_initiation_date",
    "decision_date",
    "publish_date",
    "date_performed",
    "report_date",
    "date_of_event",
    "event_date_terminated",
    "event_date_posted",
    "termination_date",
    "center_classification_date",
    "created_date",
}


def plural(n: int, word: str) -> str:
    if n == 1:
        return word
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"


def noun(ds: str, n: int, it: Interpretation | None = None) -> str:
    if ds == "pma":
        kind = it.supplements if it else "all"
        word = {"originals": "original PMA approval", "supplements": "PMA supplement"}.get(kind)
        return plural(n, word or "PMA record")
    return plural(n, NOUNS.get(ds, "record"))


def day(value: Any) -> str:
    """'20230101', '2023-01-01', '4/21/2020' or a date -> '2023-01-01' (ISO, as a person reads it in every answer);
    other text unchanged."""
    m = re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", str(value or "").strip()[:10])
    if us := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", str(value or "").strip()):  # 4/21/2020
        m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", f"{us[3]}{int(us[1]):02d}{int(us[2]):02d}")
    if not m or not 1 <= int(m[2]) <= 12 or not 1 <= int(m[3]) <= 31:
        return str(value or "")
    return f"{m[1]}-{m[2]}-{m[3]}"


def decision(code: str) -> str:
    return f"{code} ({DECISIONS[code]})" if code in DECISIONS else code


def as_of_text(e: dict) -> str:
    """'adverse event reports as of 2025-09-23; recalls as of 2017-12-02': each searched dataset by its name."""
    dates = sorted({(p["dataset"], p["as_of"]) for p in e.get("provenance", [])})
    return "; ".join(f"{dataset_name(ds)} as of {day(a)}" for ds, a in dict(dates).items()) or "as-of date unknown"


def dataset_name(source: str) -> str:
    """A provenance source ('device/recall', 'gudid') as a person names the dataset ('recalls')."""
    return _NAMES.get(source, source)


_NAMES = {src: re.sub(r"\s*\(.*\)$", "", LABEL[ds]) for ds, src in SOURCE.items()}  # by provenance source


def code_text(d: DeviceFilter, limit: int = 3) -> str:
    """'product code OZP (Automated Insulin Dosing ...)', or the words searched in the dataset's names."""
    if d.path == "names":
        return f'"{d.words}" in the records\' own device names'
    shown = [f"{c.code} ({c.name})" if c.name else c.code for c in d.codes[:limit]]
    more = f" and {len(d.codes) - limit} more" if len(d.codes) > limit else ""
    codes = f"product code{'s' if len(d.codes) > 1 else ''} " + ", ".join(shown) + more
    return f"{d.words} ({codes})" if d.path == "codes" else codes


def scope(it: Interpretation, call: dict, sides: bool = True) -> str:
    """' for <device> from <firm> in <place> in <dates>, <filters>' for the first sentence."""
    bits = []
    side = next((s for s in it.sides if s.label == call.get("label")), None) if sides else None
    device = (side.device if side and side.device else None) or it.device
    firm = (side.firm if side and side.firm else None) or it.firm
    if device:
        bits.append(" for " + code_text(device, 2))
    if firm:
        bits.append(" from " + (firm.name if firm.match != "those" else "those firms"))
    place = (side.place if side and side.place else None) or it.place
    if place:
        bits.append(f" {place.name}" if place.exclude else f" in {place.name}")
    filters = [f.label for f in it.filters if f.field in ("event_type", "recall_class", "device_class")]
    filters += [f.label for f in it.filters if f.field.startswith("word:")]  # "(patient older than 70)"
    filters += [f.label for f in (side.filters if side else [])]
    if filters:
        bits.append(" (" + ", ".join(filters) + ")")
    if it.text and call.get("dataset") == "event":
        bits.append(f' whose narratives hold "{it.text}"')
    ids = [
        f.label
        for f in it.filters
        if f.field in ("k_number", "pma_number", "product_res_number", "mdr_report_key", "di")
    ]
    if ids:
        bits.append(" for " + ", ".join(ids))
    if it.date_from or it.date_to:
        when = readable(it.date_from, it.date_to)
        one_day = it.date_from is not None and it.date_from == it.date_to
        kind = _DATE_VERB.get(it.date_field, "")
        rel = _RELATIVE.search(it.date_words or "")
        bits.append(
            " "
            + kind
            + (
                f"in the last {rel[1] + ' ' if rel[1] else ''}{rel[2].lower()} (from {when})"
                if rel and " to " in when and not when.startswith(("since", "up to"))
                else when
                if when.startswith(("since", "up to"))
                else f"from {when}"
                if " to " in when
                else f"{'on' if one_day else 'in'} {when}"
            )
        )
    return "".join(bits)


# a period said relative to the data's date ("over the trailing twelve months" read as "over the last 12 months"):
# said so in the answer, with its dates
_RELATIVE = re.compile(
    r"(?i)\b(?:last|past|trailing|previous)\s+(?:(\d+)\s+)?(years?|months?|weeks?|days?|quarters?)\b"
)


# the date a period is of, said before it when it is not the dataset's usual date ("terminated in 2020")
_DATE_VERB = {
    "occurred": "that occurred ",
    "terminated": "terminated ",
    "initiated": "initiated ",
    "posted": "posted ",
    "classified": "classified ",
    "received": "received ",
}


def _cell(key: str, v: Any) -> str:
    if isinstance(v, list):
        v = ", ".join(map(str, v[:3])) + (" …" if len(v) > 3 else "")
    if key == "device_class" and str(v) in ("1", "2", "3"):
        v = {"1": "I", "2": "II", "3": "III"}[str(v)]
    s = day(v) if key in _DATE_KEYS else decision(str(v)) if key == "decision_code" else str(v if v is not None else "")
    s = " ".join(s.split()).replace("|", "/")
    return s if len(s) <= 60 else s[:57] + "…"


def table(ds: str, e: dict, limit: int) -> str:
    """The first records as a short table with labelled columns (count results: value and count)."""
    rows = e.get("rows", [])[: limit if e["tool"] != "count_by" else 12]
    if not rows:
        return ""
    if e["tool"] == "count_by":
        key = next(k for k in rows[0] if k != "count")
        return "\n".join(
            [f"| {field_label(key)} | records |", "|---|---|"]
            + [f"| {_cell(key, r.get(key))} | {r['count']:,} |" for r in rows]
        )
    cols = [(k, label) for k, label in COLUMNS.get(ds, []) if any(r.get(k) not in (None, "", []) for r in rows)]
    if not cols:
        return ""
    head = f"| {' | '.join(label for _, label in cols)} |"
    body = [f"| {' | '.join(_cell(k, r.get(k)) for k, _ in cols)} |" for r in rows]
    more = f"\n({len(rows)} of {e['total']:,} shown, newest first)" if e["total"] > len(rows) else ""
    return "\n".join([head, "|" + "---|" * len(cols)] + body) + more
