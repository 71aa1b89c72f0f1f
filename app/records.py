"""A cited record laid out for reading: key facts first, fields grouped and labelled, narratives as text."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .labels import dataset_label, display_value, field_label

__all__ = ["RecordView", "Field", "Group", "layout", "fda_link", "original_json"]

# The facts a reviewer looks for first, per dataset (the ones a record has, in this order).
KEY_FACTS = {
    "event": [
        "report_number",
        "mdr_report_key",
        "event_type",
        "date_received",
        "date_of_event",
        "manufacturer_name",
        "product_code",
        "brand_name",
    ],
    "recall": [
        "product_res_number",
        "recall_class",
        "recalling_firm",
        "event_date_initiated",
        "recall_status",
        "product_code",
        "root_cause_description",
        "reason_for_recall",
    ],
    "enforcement": [
        "recall_number",
        "classification",
        "recalling_firm",
        "recall_initiation_date",
        "status",
        "product_code",
        "reason_for_recall",
    ],
    "510k": ["k_number", "decision_date", "decision_description", "applicant", "device_name", "product_code"],
    "pma": ["pma_number", "supplement_number", "decision_date", "applicant", "trade_name", "product_code"],
    "classification": ["product_code", "device_name", "device_class", "regulation_number", "medical_specialty"],
    "udi": ["primary_di", "brand_name", "company_name", "publish_date"],
    "registrationlisting": ["registration_number", "name", "city", "iso_country_code"],
}
NARRATIVE_MIN = 120  # a text this long (or with line breaks) is shown as a paragraph


@dataclass
class Field:
    label: str
    name: str  # the raw field path, for the tooltip
    value: str
    narrative: bool = False


@dataclass
class Group:
    title: str
    fields: list[Field] = field(default_factory=list)


@dataclass
class RecordView:
    """A cited record: loading, then its groups (and the original JSON, for copying)."""

    dataset: str
    ident: str
    groups: list[Group] = field(default_factory=list)
    text: str = ""  # the original record as JSON
    error: str = ""
    loading: bool = True

    @property
    def link(self) -> str:
        return fda_link(self.dataset, self.ident)

    @property
    def title(self) -> str:
        return f"{dataset_label(self.dataset)} record {self.ident.partition('=')[2] or self.ident}"


def _text(value: Any) -> str:
    return str(value).replace("\r\n", "\n").replace("\r", "\n").strip()


def _field(name: str, value: Any, path: str) -> Field | None:
    if value in (None, "", [], {}):
        return None
    if isinstance(value, str) and (len(value) >= NARRATIVE_MIN or "\n" in value or "\r" in value):
        return Field(field_label(name), path, _text(value), narrative=True)
    return Field(field_label(name), path, display_value(name, value))


def _flat(record: dict, prefix: str = "") -> list[Field]:
    out = []
    for k, v in record.items():
        if isinstance(v, dict):
            out += _flat(v, f"{prefix}{k}.")
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            continue  # lists of records get groups of their own
        elif (f := _field(k, v, prefix + k)) is not None:
            out.append(f)
    return out


def _narratives(items: list[dict], path: str) -> Group:
    """MAUDE's mdr_text[]: each text under its type ("Description of event or problem")."""
    g = Group("Narratives")
    for i, t in enumerate(items):
        label = str(t.get("text_type_code") or f"Text {i + 1}")
        if t.get("text"):
            g.fields.append(Field(label, f"{path}[{i}].text", _text(t["text"]), narrative=True))
    return g


def layout(dataset: str, record: dict) -> list[Group]:
    """Key facts, then the record's other fields, then one group per nested record (device 1, patient 1, ...)."""
    ds = dataset.removeprefix("device/")
    top = {
        k: v
        for k, v in record.items()
        if not (isinstance(v, list) and v and all(isinstance(x, dict) for x in v)) and not isinstance(v, dict)
    }
    keys = [k for k in KEY_FACTS.get(ds, []) if top.get(k) not in (None, "", [])]
    facts = Group("Key facts", [f for k in keys if (f := _field(k, top[k], k)) is not None])
    rest = Group("Details", [f for f in _flat({k: v for k, v in top.items() if k not in keys})])
    groups = [g for g in (facts, rest) if g.fields]
    for k, v in record.items():
        if k == "mdr_text" and isinstance(v, list):
            groups.append(_narratives(v, k))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for i, item in enumerate(v):
                title = field_label(k) + (f" {i + 1}" if len(v) > 1 else "")
                groups.append(Group(title, _flat(item, f"{k}[{i}].")))
        elif isinstance(v, dict) and v:
            groups.append(Group("openFDA fields" if k == "openfda" else field_label(k), _flat(v, f"{k}.")))
    return [g for g in groups if g.fields]


def original_json(record: dict) -> str:
    return json.dumps(record, indent=2, ensure_ascii=False)


def fda_link(dataset: str, ident: str) -> str:
    """The record's public page on fda.gov (for when the computer is online); empty when there is none."""
    ds, (name, _, value) = dataset.removeprefix("device/"), ident.partition("=")
    pages = {
        ("510k", "k_number"): "https://www.accessdata.fda.gov/scripts/cdrh/cfdocs/cfpmn/pmn.cfm?ID={}",
        ("pma", "pma_number"): "https://www.accessdata.fda.gov/scripts/cdrh/cfdocs/cfpma/pma.cfm?id={}",
        (
            "event",
            "mdr_report_key",
        ): "https://www.accessdata.fda.gov/scripts/cdrh/cfdocs/cfmaude/detail.cfm?mdrfoi__id={}",
        (
            "classification",
            "product_code",
        ): "https://www.accessdata.fda.gov/scripts/cdrh/cfdocs/cfpcd/classification.cfm?ID={}",
        ("recall", "product_res_number"): "",
    }
    url = pages.get((ds, name), "")
    return url.format(value) if url and value else ""
