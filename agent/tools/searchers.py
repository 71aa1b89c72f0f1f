"""The searchers: events, recalls, 510(k), PMA, classification, UDI, registrations, and count_by.

Each builds an openFDA query (the API's own language, not SQL) from typed filters and runs it on the
local API over the mirror (`mirror.api.Api`), so totals and counts cover the whole population, and the
provenance of every result is a request anyone can replay: `mirror query ENDPOINT 'QUERY'` here, or on
api.fda.gov (except the mirror's extension field `recall_class`). A filter a dataset cannot apply is a
ToolError that says which filters it takes; nothing is dropped silently.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal
from urllib.parse import quote_plus

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator

from .base import Provenance, ToolError, ToolResult
from .context import ToolContext
from .registry import tool

__all__ = ["SPECS", "Spec", "SearchArgs", "CountArgs", "build_search", "search", "count_by", "COUNT_FIELDS",
           "NAME_FIELDS", "UnsupportedFilter", "name_variants", "name_stem", "DATE_FIELDS", "date_of"]


class UnsupportedFilter(ToolError):
    """Filters a dataset cannot apply; `.filters` names them (the agent retries without them and says so)."""

    def __init__(self, message: str, filters: list[str]) -> None:
        super().__init__(message)
        self.filters = filters

_CODE = re.compile(r"^[A-Z]{3}$")
_SAFE = re.compile(r"[^\w\s.,'/@%:-]", re.UNICODE)   # characters a quoted openFDA value may carry


@dataclass(frozen=True)
class Spec:
    """How one dataset's records are searched and shown."""
    endpoint: str
    ids: tuple[str, ...]                           # row keys that identify a record
    row: dict[str, str]                            # row key -> dotted record path (first value shown)
    date: str                                      # the date field date_from/date_to apply to
    product_code: str | None = None                # exact field for product codes
    firm: tuple[str, ...] = ()                     # text fields holding the firm's name (exact sub-fields exist)
    country: str | None = None
    state: str | None = None
    text: tuple[str, ...] = ()                     # text fields for free text
    own: dict[str, str] = field(default_factory=dict)   # dataset filters: argument -> exact field
    counts: dict[str, str] = field(default_factory=dict)  # count_by names -> field


SPECS: dict[str, Spec] = {s.endpoint: s for s in (
    Spec("event", ("mdr_report_key",),
         {"mdr_report_key": "mdr_report_key", "report_number": "report_number", "date_received": "date_received",
          "event_type": "event_type", "product_code": "device.device_report_product_code",
          "brand_name": "device.brand_name", "generic_name": "device.generic_name",
          "manufacturer": "device.manufacturer_d_name", "device_problems": "product_problems"},
         "date_received", "device.device_report_product_code.exact", ("device.manufacturer_d_name", "manufacturer_name"),
         "device.manufacturer_d_country.exact", "device.manufacturer_d_state.exact", ("mdr_text.text",),
         {"event_type": "event_type.exact", "patient_problem": "patient.patient_problems.exact",
          "device_problem": "product_problems.exact", "brand_name": "device.brand_name.exact",
          "mdr_report_key": "mdr_report_key"},
         {"product_code": "device.device_report_product_code.exact", "manufacturer": "device.manufacturer_d_name.exact",
          "event_type": "event_type.exact", "patient_problem": "patient.patient_problems.exact",
          "device_problem": "product_problems.exact", "country": "device.manufacturer_d_country.exact",
          "brand_name": "device.brand_name.exact", "device_class": "device.openfda.device_class"}),
    Spec("recall", ("product_res_number",),
         {"product_res_number": "product_res_number", "res_event_number": "res_event_number",
          "event_date_initiated": "event_date_initiated", "recall_status": "recall_status",
          "recalling_firm": "recalling_firm", "product_code": "product_code", "recall_class": "",
          "reason_for_recall": "reason_for_recall", "root_cause_description": "root_cause_description"},
         "event_date_initiated", "product_code", ("recalling_firm",), "country", "state",
         ("reason_for_recall", "product_description", "action"),
         {"recall_status": "recall_status", "recall_class": "recall_class", "root_cause": "root_cause_description.exact",
          "k_number": "k_numbers", "pma_number": "pma_numbers", "product_res_number": "product_res_number"},
         {"product_code": "product_code", "manufacturer": "recalling_firm.exact", "recall_status": "recall_status",
          "recall_class": "recall_class", "root_cause": "root_cause_description.exact", "country": "country",
          "state": "state", "device_class": "openfda.device_class"}),
    Spec("enforcement", ("recall_number",),
         {"recall_number": "recall_number", "event_id": "event_id", "report_date": "report_date",
          "recall_initiation_date": "recall_initiation_date",
          "classification": "classification", "status": "status", "recalling_firm": "recalling_firm",
          "reason_for_recall": "reason_for_recall", "product_description": "product_description"},
         "report_date", None, ("recalling_firm",), "country.exact", "state.exact",
         ("reason_for_recall", "product_description", "code_info"),
         {"recall_class": "classification.exact", "status": "status.exact",
          "voluntary_mandated": "voluntary_mandated.exact", "recall_number": "recall_number"},
         {"recall_class": "classification.exact", "manufacturer": "recalling_firm.exact", "status": "status.exact",
          "country": "country.exact", "state": "state.exact"}),
    Spec("510k", ("k_number",),
         {"k_number": "k_number", "decision_date": "decision_date", "applicant": "applicant",
          "device_name": "device_name", "product_code": "product_code", "decision_code": "decision_code",
          "clearance_type": "clearance_type", "country_code": "country_code",
          "regulation_number": "openfda.regulation_number"},
         "decision_date", "product_code", ("applicant",), "country_code", "state.exact", ("device_name",),
         {"decision_code": "decision_code.exact", "clearance_type": "clearance_type.exact",
          "advisory_committee": "advisory_committee.exact", "third_party": "third_party_flag",
          "k_number": "k_number.exact"},
         {"product_code": "product_code", "manufacturer": "applicant.exact", "decision_code": "decision_code.exact",
          "clearance_type": "clearance_type.exact", "country": "country_code", "state": "state.exact",
          "advisory_committee": "advisory_committee_description.exact", "device_class": "openfda.device_class"}),
    Spec("pma", ("pma_number", "supplement_number"),
         {"pma_number": "pma_number", "supplement_number": "supplement_number", "decision_date": "decision_date",
          "applicant": "applicant", "trade_name": "trade_name", "generic_name": "generic_name",
          "product_code": "product_code", "decision_code": "decision_code", "supplement_type": "supplement_type",
          "supplement_reason": "supplement_reason"},
         "decision_date", "product_code", ("applicant",), None, "state", ("trade_name", "generic_name"),
         {"decision_code": "decision_code", "supplement_type": "supplement_type.exact",
          "supplement_words": "supplement_type",
          "advisory_committee": "advisory_committee", "pma_number": "pma_number",
          "supplement_number": "supplement_number", "supplement": "supplement_number"},
         {"product_code": "product_code", "manufacturer": "applicant.exact", "decision_code": "decision_code",
          "supplement_type": "supplement_type.exact", "state": "state", "device_class": "openfda.device_class"}),
    Spec("classification", ("product_code",),
         {"product_code": "product_code", "device_name": "device_name", "device_class": "device_class",
          "regulation_number": "regulation_number", "medical_specialty": "medical_specialty_description",
          "review_panel": "review_panel", "implant_flag": "implant_flag",
          "life_sustain_support_flag": "life_sustain_support_flag"},
         "", "product_code", (), None, None, ("device_name", "definition"),
         {"device_class": "device_class", "regulation_number": "regulation_number.exact",
          "medical_specialty": "medical_specialty", "review_panel": "review_panel", "implant_flag": "implant_flag",
          "life_sustain_support_flag": "life_sustain_support_flag", "submission_type": "submission_type_id"},
         {"device_class": "device_class", "medical_specialty": "medical_specialty_description.exact",
          "review_panel": "review_panel", "submission_type": "submission_type_id",
          "regulation_number": "regulation_number.exact"}),
    Spec("udi", ("public_device_record_key",),
         {"public_device_record_key": "public_device_record_key", "primary_di": "identifiers.id",
          "brand_name": "brand_name", "version_or_model_number": "version_or_model_number",
          "company_name": "company_name", "product_code": "product_codes.code", "publish_date": "publish_date",
          "gmdn_term": "gmdn_terms.name", "premarket_submissions": "premarket_submissions.submission_number",
          "commercial_distribution_status": "commercial_distribution_status"},
         "publish_date", "product_codes.code", ("company_name",), None, None,
         ("brand_name", "device_description", "gmdn_terms.name"),
         {"di": "identifiers.id", "is_rx": "is_rx", "is_otc": "is_otc", "is_kit": "is_kit",
          "is_single_use": "is_single_use", "mri_safety": "mri_safety.exact", "brand_name": "brand_name.exact",
          "labeler_duns_number": "labeler_duns_number"},
         {"product_code": "product_codes.code", "manufacturer": "company_name.exact", "mri_safety": "mri_safety.exact",
          "gmdn_term": "gmdn_terms.name.exact", "is_rx": "is_rx", "brand_name": "brand_name.exact"}),
    Spec("covid19serology", ("sample_id", "manufacturer"),
         {"sample_id": "sample_id", "manufacturer": "manufacturer", "device": "device", "panel": "panel",
          "date_performed": "date_performed", "group": "group", "antibody_truth": "antibody_truth",
          "igg_result": "igg_result", "igm_result": "igm_result", "lot_number": "lot_number"},
         "date_performed", None, ("manufacturer",), None, None, ("device",),
         {"antibody_truth": "antibody_truth", "group": "group", "panel": "panel", "type": "type",
          "igg_result": "igg_result", "igm_result": "igm_result", "control": "control", "sample_id": "sample_id",
          "lot_number": "lot_number"},
         {"manufacturer": "manufacturer.exact", "device": "device.exact", "antibody_truth": "antibody_truth",
          "panel": "panel", "group": "group"}),
    Spec("registrationlisting", ("registration_number", "fei_number"),
         {"registration_number": "registration.registration_number", "fei_number": "registration.fei_number",
          "name": "registration.name", "owner_operator": "registration.owner_operator.firm_name",
          "city": "registration.city", "state_code": "registration.state_code",
          "iso_country_code": "registration.iso_country_code", "establishment_type": "establishment_type",
          "product_codes": "products.product_code"},
         "products.created_date", "products.product_code", ("registration.name", "registration.owner_operator.firm_name"),
         "registration.iso_country_code", "registration.state_code", ("proprietary_name", "registration.name"),
         {"establishment_type": "establishment_type.exact", "establishment_words": "establishment_type",
          "registration_number": "registration.registration_number",
          "fei_number": "registration.fei_number", "status_code": "registration.status_code"},
         {"product_code": "products.product_code", "country": "registration.iso_country_code",
          "state": "registration.state_code", "establishment_type": "establishment_type.exact",
          "manufacturer": "registration.owner_operator.firm_name.exact"}),
)}


# The dates a range can apply to, by the verb a person uses (the Spec's `date` is the default).
DATE_FIELDS: dict[str, dict[str, str]] = {
    "event": {"received": "date_received", "occurred": "date_of_event", "reported": "date_received"},
    "510k": {"decided": "decision_date", "received": "date_received"},
    "pma": {"decided": "decision_date", "received": "date_received"},
    "recall": {"initiated": "event_date_initiated", "posted": "event_date_posted",
               "terminated": "event_date_terminated"},
    "enforcement": {"reported": "report_date", "initiated": "recall_initiation_date",
                    "classified": "center_classification_date", "terminated": "termination_date"},
    "udi": {"published": "publish_date"},
    "covid19serology": {"performed": "date_performed"},
}


def date_of(spec: "Spec", kind: str | None) -> str:
    """The date field a range applies to: the one named by `kind` when the dataset has it, else the default."""
    return DATE_FIELDS.get(spec.endpoint, {}).get(kind or "", spec.date)


# Each dataset's own device-name fields (brand, generic, trade, device names), searched by `names`.
NAME_FIELDS: dict[str, tuple[str, ...]] = {
    "event": ("device.brand_name", "device.generic_name"), "recall": ("product_description",),
    "enforcement": ("product_description",), "510k": ("device_name",), "pma": ("trade_name", "generic_name"),
    "classification": ("device_name",), "udi": ("brand_name", "device_description", "gmdn_terms.name"),
    "registrationlisting": ("proprietary_name",), "covid19serology": ("device",)}


def name_variants(word: str) -> list[str]:
    """A word and its singular or plural ("pumps" -> pumps, pump; "battery" -> battery, batteries)."""
    w = word.lower()
    out = [w]
    if w.endswith("ies") and len(w) > 4:
        out.append(w[:-3] + "y")
    elif w.endswith(("ches", "shes", "sses", "xes")):
        out.append(w[:-2])
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        out.append(w[:-1])
    elif w.endswith("y") and len(w) > 3 and w[-2] not in "aeiou":
        out.append(w[:-1] + "ies")
    elif not w.endswith("s"):
        out.append(w + ("es" if w.endswith(("ch", "sh", "x", "ss")) else "s"))
    return out


_STEM_ENDS = ("izations", "ization", "ations", "ation", "ators", "ator", "izers", "izer", "ions", "ion", "ings", "ing",
              "ers", "er", "ors", "or", "ed")


def name_stem(word: str) -> list[str]:
    """A prefix search for a long word's stem ("stimulators" -> stimulat*, "catheterization" -> catheter*), or []."""
    w = word.lower()
    if not w.isalpha() or len(w) < 8:
        return []
    for end in _STEM_ENDS:
        if w.endswith(end) and len(w) - len(end) >= 6:
            return [w[: len(w) - len(end)] + "*"]
    return []


def _quote(value: str) -> str:
    """A value as an openFDA quoted phrase; characters the API refuses are dropped (then said in a note)."""
    v = _SAFE.sub(" ", value).replace('"', " ")
    return '"' + " ".join(v.split()) + '"'


class SearchArgs(BaseModel):
    """Filters shared by the searchers (each dataset says which it cannot apply)."""
    model_config = ConfigDict(extra="forbid")
    product_codes: list[str] | None = Field(None, description="FDA product codes, e.g. [\"DXY\", \"LWS\"]")
    manufacturer: str | list[str] | None = Field(
        None, description="Firm name or its variants (from resolve_manufacturer); words match the firm fields")
    manufacturer_exact: bool = Field(False, description="Match the manufacturer names exactly as spelled (one "
                                                        "company's spellings), not by their words")
    country: str | list[str] | None = Field(None, description="ISO 3166-1 alpha-2 country code(s), e.g. US, DE")
    state: str | None = Field(None, description="US state code, e.g. CA")
    exclude_country: str | list[str] | None = Field(None, description="Every country but these, e.g. US (foreign)")
    exclude_state: str | None = Field(None, description="Every US state but this one")
    date_from: date | None = Field(None, description="From this date (inclusive), YYYY-MM-DD")
    date_to: date | None = Field(None, description="To this date (inclusive), YYYY-MM-DD")
    date_field: str | None = Field(None, description="Which date the range applies to: received, decided, "
                                                     "initiated, posted, terminated, reported, classified, "
                                                     "occurred, published (each dataset has its default)")
    text: str | None = Field(None, description="Free text over the dataset's text fields (narratives for events)")
    names: str | None = Field(None, description="Words of a device name, searched in the dataset's own brand, "
                                                "generic, trade or device-name fields (singular and plural forms)")
    filters: dict[str, str | list[str]] = Field(default_factory=dict,
                                                description="Dataset fields, e.g. {\"event_type\": \"Death\"}")
    limit: int = Field(25, ge=0, le=1000, description="Rows to return (the total is always the full count)")

    @field_validator("product_codes")
    @classmethod
    def _codes(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        out = []
        for code in v:
            c = str(code).strip().upper()
            if not _CODE.match(c):
                raise ValueError(f"{code!r} is not a product code (three letters, e.g. DXY); "
                                 "resolve_device turns device names into product codes")
            out.append(c)
        return out

    @field_validator("country", "state", "exclude_country", "exclude_state")
    @classmethod
    def _place(cls, v: str | list[str] | None) -> str | list[str] | None:
        if v is None:
            return v
        codes = [str(x).strip().upper() for x in (v if isinstance(v, list) else [v])]
        for c in codes:
            if not re.fullmatch(r"[A-Z]{2}", c):
                raise ValueError(f"{c!r} is not a two-letter code; resolve_location turns place names into codes")
        return codes if isinstance(v, list) else codes[0]


def _or(field_name: str, values: list[str]) -> str:
    return "(" + " OR ".join(f"{field_name}:{_quote(v)}" for v in values) + ")" if len(values) > 1 \
        else f"{field_name}:{_quote(values[0])}"


def build_search(spec: Spec, args: SearchArgs, ctx: ToolContext | None = None,
                 phrase: bool = False) -> tuple[str, list[str]]:
    """The openFDA `search` value for these filters, and notes; ToolError for a filter the dataset lacks.
    `phrase`: the text's words as one phrase (in a row), instead of all of them anywhere."""
    parts, notes, unsupported = [], [], []
    if args.product_codes:
        if spec.product_code is None:
            unsupported.append("product_codes")
        else:
            parts.append(_or(spec.product_code, args.product_codes))
    if args.manufacturer:
        if not spec.firm:
            unsupported.append("manufacturer")
        else:
            parts.append(_firm(spec, args.manufacturer, ctx, args.manufacturer_exact))
    for name, fld in (("country", spec.country), ("state", spec.state), ("exclude_country", spec.country),
                      ("exclude_state", spec.state)):
        value = getattr(args, name)
        if value:
            if fld is None:
                unsupported.append(name)
            elif name.startswith("exclude_"):
                bare = fld.removesuffix(".exact")
                parts.append(f"_exists_:{bare} AND NOT {_or(fld, value if isinstance(value, list) else [value])}")
            else:
                parts.append(_or(fld, value if isinstance(value, list) else [value]))
    if args.date_from or args.date_to:
        if not spec.date:
            unsupported.append("date_from/date_to")
        else:
            lo = args.date_from.strftime("%Y%m%d") if args.date_from else "*"
            hi = args.date_to.strftime("%Y%m%d") if args.date_to else "*"
            if args.date_from and args.date_to and args.date_from > args.date_to:
                raise ToolError(f"date_from {args.date_from} is after date_to {args.date_to}")
            parts.append(f"{date_of(spec, args.date_field)}:[{lo} TO {hi}]")
    if args.text and args.text.strip():
        words = _text_words(args.text)
        if not words:
            notes.append("the text held no words to search")
        elif not spec.text:
            unsupported.append("text")
        else:
            quoted = '"' + " ".join(words) + '"' if len(words) > 1 else words[0]
            each = quoted if phrase else f"({' AND '.join(words)})"
            any_field = " OR ".join(f"{f}:{each}" for f in spec.text)
            parts.append(f"({any_field})" if len(spec.text) > 1 else any_field)
            notes.append(f"text: records with all of {words} in {', '.join(spec.text)} (phrase form: {quoted})")
    if args.names and args.names.strip():
        words = [w for w in _text_words(args.names) if len(w) > 1][:6]
        fields = NAME_FIELDS.get(spec.endpoint, ())
        if not fields:
            unsupported.append("names")
        elif words:      # every word in one of the record's name fields (brand "NC EMERGE", generic "catheters")
            each = [" OR ".join(f"{f}:{v}" for f in fields for v in name_variants(w) + name_stem(w)) for w in words]
            parts.append("(" + " AND ".join(f"({e})" for e in each) + ")")
            notes.append(f"names: records whose {', '.join(fields)} hold {' '.join(words)}")
    for key, value in args.filters.items():
        if key == "supplement" and key in spec.own:     # original | supplement: PMA originals or supplements
            values = value if isinstance(value, list) else [value]
            if values and values != ["any"]:       # supplement numbers are S001...; an original has none (or "")
                has = f"{spec.own[key]}:S*"
                parts.append(f"NOT {has}" if values == ["original"] else has)
            continue
        if key not in spec.own:
            raise ToolError(f"device/{spec.endpoint} has no filter {key!r}; its filters are: "
                            + ", ".join(sorted(spec.own)) + ", plus product_codes, manufacturer, country, state, "
                            "date_from, date_to, text where the dataset has them")
        values = value if isinstance(value, list) else [value]
        if not values:
            continue
        parts.append(_or(spec.own[key], [str(v) for v in values]))
    if unsupported:
        raise UnsupportedFilter(f"device/{spec.endpoint} cannot filter by {', '.join(unsupported)}; "
                                f"it takes: {', '.join(_supported(spec))}", unsupported)
    return " AND ".join(parts), notes


def _text_words(text: str) -> list[str]:
    """The words of a free-text filter that are searched (at most 12)."""
    return re.findall(r"\w+", text)[:12]


def _supported(spec: Spec) -> list[str]:
    out = [n for n, v in (("product_codes", spec.product_code), ("manufacturer", spec.firm),
                          ("country", spec.country), ("state", spec.state), ("date_from/date_to", spec.date),
                          ("text", spec.text)) if v]
    return out + [f"filters.{k}" for k in sorted(spec.own)]


def _firm(spec: Spec, manufacturer: str | list[str], ctx: ToolContext | None, exact: bool = False) -> str:
    names = [manufacturer] if isinstance(manufacturer, str) else list(manufacturer)
    if exact:                      # one company's spellings, whole values only ("Dentigen GmbH", not "Dentigen Ltd.")
        return "(" + " OR ".join(f"{f}.exact:{_quote(v)}" for f in spec.firm for v in dict.fromkeys(names)) + ")"
    variants: list[str] = []
    if ctx is not None:
        for n in names:
            for firm in ctx.resolved.firms:
                if n.strip().lower() in (firm.canonical.lower(), firm.key.lower()):
                    variants += firm.variants
    clauses = []
    if variants:   # known spellings: whole-value matches, besides the words below
        clauses += [f"{f}.exact:{_quote(v)}" for f in spec.firm for v in dict.fromkeys(variants)]
    seen: set[tuple[str, ...]] = set()
    for n in names:
        words = [w for w in re.findall(r"\w+", n) if w.lower() not in _LEGAL and len(w) > 1][:8] \
            or re.findall(r"\w+", n)[:8]
        if words and tuple(w.lower() for w in words) not in seen:   # one clause per spelling, whatever its case
            seen.add(tuple(w.lower() for w in words))
            clauses += [f"{f}:({' AND '.join(words)})" for f in spec.firm]
    if not clauses:
        raise ToolError(f"manufacturer {manufacturer!r} holds no name to search")
    return "(" + " OR ".join(clauses) + ")"


_LEGAL = {"inc", "llc", "ltd", "corp", "corporation", "co", "company", "gmbh", "ag", "sa", "srl", "bv", "nv", "plc",
          "limited", "incorporated", "the"}


def _value(record: dict, path: str) -> Any:
    node: Any = record
    for part in path.split("."):
        if isinstance(node, list):
            node = node[0] if node else None
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    if isinstance(node, list) and node and not isinstance(node[0], (dict, list)):
        return node if len(node) > 1 else node[0]
    return node if not isinstance(node, (dict, list)) else None


def _row(spec: Spec, record: dict) -> dict[str, Any]:
    return {k: _value(record, p) for k, p in spec.row.items() if p}


def _query(params: list[tuple[str, str]]) -> str:
    """A URL query string as api.fda.gov takes it (spaces as `+`, the search syntax left readable)."""
    return "&".join(f"{k}={quote_plus(v, safe=_READABLE)}" for k, v in params)


_READABLE = ':[]"()*,/\'@.-_'  # noqa: E501


def _get(ctx: ToolContext, endpoint: str, query: str) -> tuple[int, dict]:
    resp = ctx.api.get(f"/device/{endpoint}.json", query)
    body = orjson.loads(resp.body)
    if resp.status == 400:
        raise ToolError(f"device/{endpoint} refused the query ({body['error']['message']})")
    if resp.status >= 500:
        raise ToolError(f"device/{endpoint}: the mirror could not answer ({body['error'].get('details', '')})")
    return resp.status, body


def search(ctx: ToolContext, endpoint: str, args: SearchArgs) -> ToolResult:
    spec = SPECS[endpoint]
    search_value, notes = build_search(spec, args, ctx)
    limit = min(args.limit, ctx.row_cap if args.limit == 25 else args.limit)
    sort = [("sort", f"{spec.date}:desc")] if spec.date else []
    query = _query(([("search", search_value)] if search_value else []) + [("limit", str(limit))] + sort)
    status, body = _get(ctx, endpoint, query)
    if status == 404 and body["error"]["message"].startswith("The mirror holds no"):
        raise ToolError(body["error"]["message"])
    records = body.get("results", []) if status == 200 else []
    total = body["meta"]["results"]["total"] if status == 200 else 0
    params = args.model_dump(mode="json", exclude_defaults=True)
    prov = [_provenance(ctx, endpoint, query, params)]
    words = _text_words(args.text or "")
    if endpoint == "event" and len(words) > 1 and total and limit:
        # the narratives holding the words as a phrase first (newest first), then the others holding all of them
        phrase, _ = build_search(spec, args, ctx, phrase=True)
        pq = _query([("search", phrase), ("limit", str(limit))] + sort)
        pstatus, pbody = _get(ctx, endpoint, pq)
        first = pbody.get("results", []) if pstatus == 200 else []
        keys = {r.get("mdr_report_key") for r in first}
        records = (first + [r for r in records if r.get("mdr_report_key") not in keys])[:limit]
        n = pbody["meta"]["results"]["total"] if pstatus == 200 else 0
        notes.append(f"ranked: the {n} records whose narratives hold \"{' '.join(words)}\" as a phrase first, then "
                     f"the others holding all the words; newest ({spec.date}) first within each")
        prov.append(_provenance(ctx, endpoint, pq, params))
    rows = [_row(spec, r) for r in records]
    if endpoint == "recall" and rows:
        _recall_classes(ctx, rows)
    return ToolResult(tool=f"search_{_tool_suffix(endpoint)}", total=total, rows=rows, truncated=total > len(rows),
                      id_fields=list(spec.ids), provenance=prov, notes=notes)


def _provenance(ctx: ToolContext, endpoint: str, query: str, params: dict | None = None) -> Provenance:
    return Provenance(dataset=f"device/{endpoint}", as_of=ctx.api.as_of(endpoint), query=query, params=params or {})


def _recall_classes(ctx: ToolContext, rows: list[dict]) -> None:
    numbers = [r["product_res_number"] for r in rows if r.get("product_res_number")]
    if not numbers or "enforcement" not in ctx.api.datasets():
        return
    query = _query([("search", _or("recall_number.exact", numbers)), ("limit", "1000")])
    status, body = _get(ctx, "enforcement", query)
    classes = {r.get("recall_number"): r.get("classification") for r in body.get("results", [])} if status == 200 else {}
    for r in rows:
        r["recall_class"] = classes.get(r.get("product_res_number"))


def _tool_suffix(endpoint: str) -> str:
    return {"event": "events", "recall": "recalls", "enforcement": "enforcement", "registrationlisting": "registrations",
            "classification": "classifications", "covid19serology": "serology"}.get(endpoint, endpoint)


# -- the tools ------------------------------------------------------------------------------------------


@tool("search_events", SearchArgs, "searcher")
def search_events(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search MAUDE adverse event reports (device/event) by product codes, manufacturer, country/state, date received, narrative text and filters event_type (Death, Injury, Malfunction, Other), patient_problem, device_problem, brand_name. Returns the full total and the newest reports (mdr_report_key); for text of several words, the reports holding them as a phrase first."""
    return search(ctx, "event", args)


class RecallArgs(SearchArgs):
    recall_class: Literal["Class I", "Class II", "Class III"] | None = Field(
        None, description="FDA recall class (from the enforcement report with the same recall number)")


@tool("search_recalls", RecallArgs, "searcher")
def search_recalls(ctx: ToolContext, args: RecallArgs) -> ToolResult:
    """Search device recalls (device/recall, one record per recalled product, with its recall class from device/enforcement) by product codes, recalling firm, country/state, date initiated, text in the reason, recall_class and filters recall_status, root_cause, k_number, pma_number. Also reports how many enforcement reports match."""
    base = SearchArgs(**args.model_dump(exclude={"recall_class"}))
    if args.recall_class:
        base.filters = {**base.filters, "recall_class": args.recall_class}
    result = search(ctx, "recall", base)
    result.provenance[0].params = args.model_dump(mode="json", exclude_defaults=True)
    if "enforcement" in ctx.api.datasets():
        enf_args = SearchArgs(**args.model_dump(exclude={"recall_class", "product_codes", "filters", "limit"}), limit=0)
        if args.recall_class:
            enf_args.filters = {"recall_class": args.recall_class}
        if args.product_codes or {k for k in args.filters if k not in SPECS["enforcement"].own}:
            result.notes.append("enforcement reports carry no product code, so they are matched through the "
                                "recall numbers shown (recall_class)")
            return result
        spec = SPECS["enforcement"]
        search_value, _ = build_search(spec, enf_args, ctx)
        query = _query(([("search", search_value)] if search_value else []) + [("limit", "0")])
        status, body = _get(ctx, "enforcement", query)
        n = body["meta"]["results"]["total"] if status == 200 else 0
        result.notes.append(f"device/enforcement: {n} enforcement reports match the same filters")
        result.related["enforcement"] = n
        result.provenance.append(Provenance(dataset="device/enforcement", as_of=ctx.api.as_of("enforcement"),
                                            query=query, params=enf_args.model_dump(mode="json", exclude_defaults=True)))
    return result


@tool("search_enforcement", SearchArgs, "searcher")
def search_enforcement(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search FDA enforcement reports of device recalls (device/enforcement: one report per recall number, with its recall class) by recalling firm, country/state, recall initiation date, text in the reason or product description, and filters recall_class (Class I, Class II, Class III), status, voluntary_mandated, recall_number. Enforcement reports carry no product code."""
    return search(ctx, "enforcement", args)


@tool("search_510k", SearchArgs, "searcher")
def search_510k(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search 510(k) clearances (device/510k) by product codes, applicant, country/state, decision date, device-name text and filters decision_code, clearance_type, advisory_committee, third_party. Rows carry k_number."""
    return search(ctx, "510k", args)


@tool("search_pma", SearchArgs, "searcher")
def search_pma(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search PMA approvals and supplements (device/pma) by product codes, applicant, state, decision date, trade/generic-name text and filters decision_code, supplement_type, advisory_committee. Rows carry pma_number and supplement_number."""
    return search(ctx, "pma", args)


@tool("search_classifications", SearchArgs, "searcher")
def search_classifications(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search the device classification (device/classification: one record per product code) by product codes, name/definition text and filters device_class (1, 2, 3), regulation_number, medical_specialty, review_panel, implant_flag, life_sustain_support_flag, submission_type."""
    return search(ctx, "classification", args)


@tool("search_udi", SearchArgs, "searcher")
def search_udi(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search UDI / GUDID device records (device/udi) by product codes, company, publish date, brand/description/GMDN text and filters di (device identifier), brand_name, is_rx, is_otc, is_kit, is_single_use, mri_safety, labeler_duns_number. Rows carry public_device_record_key and the primary DI."""
    return search(ctx, "udi", args)


@tool("search_registrations", SearchArgs, "searcher")
def search_registrations(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search establishment registrations and listings (device/registrationlisting) by product codes, firm name, country/state, listing date, proprietary-name text and filters establishment_type, registration_number, fei_number, status_code."""
    return search(ctx, "registrationlisting", args)


@tool("search_serology", SearchArgs, "searcher")
def search_serology(ctx: ToolContext, args: SearchArgs) -> ToolResult:
    """Search FDA's COVID-19 serology test evaluations (device/covid19serology: one record per sample tested with one manufacturer's antibody test) by manufacturer, date performed, device-name text and filters antibody_truth (Positive, Negative), group, panel, igg_result, igm_result, sample_id. Rows carry sample_id and manufacturer."""
    return search(ctx, "covid19serology", args)


# -- count_by ------------------------------------------------------------------------------------------

DATASET_NAMES = {"events": "event", "event": "event", "recalls": "recall", "recall": "recall",
                 "enforcement": "enforcement", "510k": "510k", "pma": "pma", "classification": "classification",
                 "classifications": "classification", "udi": "udi", "registrations": "registrationlisting",
                 "registrationlisting": "registrationlisting", "serology": "covid19serology",
                 "covid19serology": "covid19serology"}
COUNT_FIELDS = {ep: sorted({"year", "month", "day"} | set(s.counts)) if s.date else sorted(s.counts)
                for ep, s in SPECS.items()}


class CountArgs(SearchArgs):
    dataset: str = Field(description="events, recalls, enforcement, 510k, pma, classification, udi, registrations, "
                                     "serology or gudid")
    field: str = Field(description="What to count by: year, month, day (trends), product_code, manufacturer, "
                                   "event_type, patient_problem, device_problem, recall_class, country, ...")
    limit: int = Field(25, ge=1, le=1000, description="Buckets to return (the most frequent; all for trends)")


@tool("count_by", CountArgs, "searcher")
def count_by(ctx: ToolContext, args: CountArgs) -> ToolResult:
    """Count records of a dataset by a field over the full population (never a sample): trends by year, month or day, or the top values of product_code, manufacturer, event_type, patient_problem, device_problem, recall_class, country and more, with the same filters as the searchers."""
    if args.dataset.strip().lower() in ("gudid", "accessgudid"):
        from .gudid import count_gudid_tool
        return count_gudid_tool(ctx, args)
    endpoint = DATASET_NAMES.get(args.dataset.strip().lower())
    if endpoint is None:
        raise ToolError(f"unknown dataset {args.dataset!r}; choose one of: {', '.join(sorted(set(DATASET_NAMES)))}")
    spec = SPECS[endpoint]
    name = args.field.strip().lower()
    if name not in COUNT_FIELDS[endpoint]:
        raise ToolError(f"device/{endpoint} cannot be counted by {args.field!r}; choose one of: "
                        + ", ".join(COUNT_FIELDS[endpoint]))
    filters = SearchArgs(**args.model_dump(exclude={"dataset", "field", "limit"}))
    search_value, notes = build_search(spec, filters, ctx)
    trend = name in ("year", "month", "day")
    count_field = date_of(spec, args.date_field) if trend else spec.counts[name]
    params = ([("search", search_value)] if search_value else []) + [("count", count_field)]
    if not trend:
        params.append(("limit", str(args.limit)))
    query = _query(params)
    status, body = _get(ctx, endpoint, query)
    buckets = body.get("results", []) if status == 200 else []
    if trend:
        width = {"year": 4, "month": 6, "day": 8}[name]
        agg: Counter = Counter()
        for b in buckets:
            agg[b["time"][:width]] += b["count"]
        fmt = (lambda k: k) if name == "year" else (lambda k: f"{k[:4]}-{k[4:6]}" + (f"-{k[6:]}" if width == 8 else ""))
        rows = [{name: fmt(k), "count": n} for k, n in sorted(agg.items())]
        notes.append(f"{name}s are of {count_field}; records without a readable {count_field} are not counted")
    else:
        rows = [{name: b["term"], "count": b["count"]} for b in buckets]
    total_q = _query(([("search", search_value)] if search_value else []) + [("limit", "0")])
    tstatus, tbody = _get(ctx, endpoint, total_q)
    total = tbody["meta"]["results"]["total"] if tstatus == 200 else 0
    if status == 404 and total and not trend:
        notes.append(f"no record has a value for {name}")
    prov = [_provenance(ctx, endpoint, query, args.model_dump(mode="json", exclude_defaults=True)),
            _provenance(ctx, endpoint, total_q)]
    return ToolResult(tool="count_by", total=total, rows=rows, truncated=not trend and len(rows) >= args.limit,
                      id_fields=[name], provenance=prov,
                      notes=notes + [f"total = {total} matching records; a record can count under several values"])

