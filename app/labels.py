"""Words the app shows for internal names: datasets, tools, fields (raw names kept for tooltips), dates, counts."""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "dataset_label",
    "tool_label",
    "field_label",
    "count",
    "iso_date",
    "is_date_field",
    "DATE_FIELD",
    "HIDDEN_COLUMNS",
    "display_value",
]

DATASETS = {
    "event": "MAUDE adverse events",
    "recall": "Recalls",
    "enforcement": "Enforcement reports",
    "510k": "510(k) clearances",
    "pma": "PMA approvals",
    "classification": "Product classification",
    "udi": "UDI device records",
    "registrationlisting": "Establishment registrations",
    "covid19serology": "COVID-19 serology tests",
    "gudid": "GUDID device identifiers",
}
TOOLS = {
    "resolve_device": "Looked up the device",
    "resolve_manufacturer": "Looked up the firm names",
    "resolve_location": "Looked up the place",
    "search_events": "Searched adverse event reports",
    "search_recalls": "Searched recalls",
    "search_enforcement": "Searched enforcement reports",
    "search_510k": "Searched 510(k) clearances",
    "search_pma": "Searched PMA approvals",
    "search_classifications": "Searched the product classification",
    "search_udi": "Searched UDI records",
    "search_registrations": "Searched establishment registrations",
    "count_by": "Counted records",
}
FIELDS = {
    "mdr_report_key": "Report key",
    "report_number": "Report number",
    "date_received": "Received",
    "date_of_event": "Event date",
    "event_type": "Event type",
    "product_code": "Product code",
    "product_codes": "Product codes",
    "brand_name": "Brand",
    "generic_name": "Generic name",
    "manufacturer": "Manufacturer",
    "manufacturer_name": "Manufacturer",
    "device_problems": "Device problems",
    "patient_problems": "Patient problems",
    "product_res_number": "Recall number",
    "res_event_number": "Recall event",
    "event_date_initiated": "Initiated",
    "event_date_posted": "Posted",
    "recall_status": "Recall status",
    "recalling_firm": "Recalling firm",
    "reason_for_recall": "Reason for recall",
    "root_cause_description": "Root cause",
    "recall_class": "Recall class",
    "recall_number": "Recall number",
    "recall_initiation_date": "Initiated",
    "classification": "Class",
    "status": "Status",
    "k_number": "510(k) number",
    "decision_date": "Decision date",
    "decision_code": "Decision",
    "decision_description": "Decision",
    "applicant": "Applicant",
    "device_name": "Device",
    "clearance_type": "Clearance type",
    "pma_number": "PMA number",
    "supplement_number": "Supplement",
    "supplement_type": "Supplement type",
    "trade_name": "Trade name",
    "device_class": "Device class",
    "regulation_number": "Regulation",
    "medical_specialty": "Specialty",
    "medical_specialty_description": "Specialty",
    "review_panel": "Review panel",
    "primary_di": "Device identifier",
    "company_name": "Company",
    "publish_date": "Published",
    "registration_number": "Registration number",
    "fei_number": "FEI number",
    "name": "Name",
    "city": "City",
    "state_code": "State",
    "iso_country_code": "Country",
    "count": "Records",
    "year": "Year",
    "month": "Month",
    "day": "Day",
    "dataset": "Dataset",
    "code": "Product code",
    "records": "Records",
    "variants": "Name variants",
    "key": "Firm key",
    "country": "Country",
    "state": "State",
    "firm": "Firm",
    "firm_name": "Firm",
    "recall_count": "Recalls",
    "event_count": "Adverse events",
    "definition": "Definition",
    "term": "Term",
}
# Columns that are bookkeeping for the assistant, not facts about a record: kept in exports, hidden on screen.
HIDDEN_COLUMNS = {"score", "ids", "match", "gudid_devices", "rank", "rowid"}
DATE_FIELD = re.compile(r"(^|_)(date|initiated|posted|received|published)(_|$)|^date")
_YMD = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")


def dataset_label(name: str) -> str:
    """'device/event' or 'event' -> 'MAUDE adverse events' (an unknown name as it is)."""
    return DATASETS.get(name.removeprefix("device/"), name)


def tool_label(tool: str) -> str:
    return TOOLS.get(tool, tool.replace("_", " ").capitalize())


def field_label(name: str) -> str:
    """A column's label; the raw field name goes in its tooltip."""
    return FIELDS.get(name) or name.replace(".", " ").replace("_", " ").capitalize()


def count(n: int, word: str, plural: str | None = None) -> str:
    """'1 recall', '2 recalls', '1,204 adverse event reports'."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def is_date_field(name: str) -> bool:
    return bool(DATE_FIELD.search(name))


def iso_date(value: Any) -> str:
    """'20230101' or '2023-01-01' -> '2023-01-01'; anything else unchanged (as text)."""
    text = "" if value is None else str(value).strip()
    m = _YMD.fullmatch(text)
    if m and 1 <= int(m[2]) <= 12 and 1 <= int(m[3]) <= 31:
        return f"{m[1]}-{m[2]}-{m[3]}"
    return text


def display_value(name: str, value: Any) -> str:
    """A cell as a person reads it: dates as 2023-01-01, lists joined, class numbers as Roman numerals."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(display_value(name, v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{field_label(k)}: {display_value(k, v)}" for k, v in value.items() if v not in (None, ""))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}" if name in ("count", "records", "total") else str(value)
    if is_date_field(name):
        return iso_date(value)
    if name == "dataset" and isinstance(value, str):
        return dataset_label(value)
    if name == "device_class" and str(value) in ("1", "2", "3"):
        return {"1": "Class I", "2": "Class II", "3": "Class III"}[str(value)]
    return " ".join(str(value).split())
