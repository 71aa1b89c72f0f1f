"""Fields of one record asked about in words no field phrase holds: a recall's quantity, a 510(k)'s review time
(decision date minus date received), the proprietary names an establishment lists. Read as a lookup of that field
when the question names the record (its number, device or firm); otherwise `limits` says what cannot be done."""

from __future__ import annotations

import re

from .types import Interpretation

__all__ = ["record_field", "firm_field_home", "REVIEW_DAYS"]

REVIEW_DAYS = "review_days"  # computed: decision_date - date_received

# (datasets the field lives in, the words, the field, the dataset to read it in)
_ASKED: list[tuple[set[str], re.Pattern[str], str]] = [
    (
        {"recall", "enforcement"},
        re.compile(
            r"(?i)\bquantit(?:y|ies)\b|\bqty\b|\bhow much (?:product|was recalled)\b|\bhow many units\b|"
            r"\bunits\s+(?:were\s+|was\s+)?(?:recalled|affected|"
            r"distributed|involved|shipped)\b|\bnumber of units\b|\bhow many\b[^?.]{0,60}\b(?:were|was)\s+"
            r"(?:affected|shipped|distributed)\b"  # "how many X were recalled" counts recalls
        ),
        "product_quantity",
    ),
    (
        {"510k", "pma"},
        re.compile(
            r"(?i)\breview\s+(?:time|period|duration|days|clock)\b|\bhow long\b[^?.]{0,40}\b(?:take|took|clear|approv|"
            r"review|decid)\w*|\bdays\s+(?:from|between|to|until|it took)\b|\btime\s+to\s+(?:clearance|clear|"
            r"approval|approve|decision)\b|\bhow many days\b|\bturnaround\b"
        ),
        REVIEW_DAYS,
    ),
    (
        {"registrationlisting"},
        re.compile(
            r"(?i)\bproprietary\b|\b(?:brand|trade|device|product)\s+names?\b|\blisted\s+(?:device|product)s?\b|"
            r"\b(?:what|which) (?:product|device)s?\b(?!\s+(?:codes?|types?|class))"
        ),
        "proprietary_name",
    ),
    (
        {"510k", "pma", "recall", "enforcement", "registrationlisting"},
        re.compile(
            r"(?i)\bcity\b|\btown\b|^\s*where\b[^?]*\b(?:located|based|headquartered|situated)\b|"
            r"\boperates?\s+(?:from|out of)\b"
        ),
        "city",
    ),
]
_IDS = (
    "k_number",
    "pma_number",
    "product_res_number",
    "registration_number",
    "word:regnum",
    "word:fei",
    "word:ownernum",
)


def record_field(it: Interpretation) -> bool:
    """ "how many units were recalled in Z-2338-2012", "review time for K200606", "what product does DiaSorin
    list": the field looked up for the record named. False when the question names no record, device or firm (a
    field of a whole dataset is not read: `limits` says so)."""
    if it.sides or it.exclude_firm or len(it.datasets) != 1:
        return False
    ds = it.datasets[0]
    for datasets, pattern, field in _ASKED:
        if ds not in datasets or not pattern.search(it.question):
            continue
        named = any(f.field in _IDS for f in it.filters) or it.device is not None or it.firm is not None
        if not named:
            return False
        it.measure, it.field, it.by = "lookup", field, None
        it.unexplained = [w for w in it.unexplained if not pattern.search(w)]
        return True
    return False


def firm_field_home(it: Interpretation) -> None:
    """A field of a firm looked up in a dataset that holds none of its records ("where is Puritan Bennett based":
    registrations, by default, hold none): read where the firm's records are, among the datasets carrying the
    field (said in a note)."""
    f = it.firm
    if it.measure != "lookup" or not it.field or not f or not f.by_dataset or it.sides or len(it.datasets) != 1:
        return
    if f.by_dataset.get(it.datasets[0]) or any(x.field in _IDS for x in it.filters) or it.device is not None:
        return
    carry = next((ds for ds, _, field in _ASKED if field == it.field), None)
    held = {d: n for d, n in f.by_dataset.items() if n and carry and d in carry}
    if not held:
        return
    home = min(held, key=lambda d: (-held[d], d))  # a tie: by name, never by lookup order
    it.notes.append(f"{f.name} has no record in the {_label(it.datasets[0])}; its {_label(home)} were read")
    it.datasets = [home]


def _label(ds: str) -> str:
    from .vocab import LABEL

    return LABEL.get(ds, ds)
