"""Questions the records could answer but the searches here cannot: said plainly instead of a figure that would be
about something else (a false positive is not a positive; a firm excluded is not that firm)."""

from __future__ import annotations

import re

from .types import Interpretation

__all__ = ["cannot_answer"]

# (datasets the words matter in, the words, what is said); None: any dataset
_LIMITS: list[tuple[set[str] | None, re.Pattern[str], str]] = [
    (
        {"covid19serology"},
        re.compile(
            r"(?i)\b(?:false|true)[- ]?(?:positive|negative)s?\b|\bwrongly\s+(?:call\w*|flag\w*|identif\w*|read)\b|"
            r"\bmis-?(?:called|classified|read)\b|\bagree(?:d|ment)?\b"
        ),
        "Whether a serology result agreed with the sample's known status (true or false positives and negatives) "
        "is not among the fields I can search; I can count results by the sample's known status (antibody truth) "
        "and list them with their IgG and IgM results.",
    ),
    (
        {"covid19serology"},
        re.compile(r"\b(?:FP|FN|TP|TN)\b"),
        "Whether a serology result agreed with the sample's known status (true or false positives and negatives) "
        "is not among the fields I can search; I can count results by the sample's known status (antibody truth) "
        "and list them with their IgG and IgM results.",
    ),
    (
        {"recall", "enforcement"},
        re.compile(
            r"(?i)\bquantit(?:y|ies)\b|\bhow many units\b|\bunits\s+(?:were\s+|was\s+)?(?:recalled|affected|"
            r"distributed|involved|shipped)\b|\bnumber of units\b"
        ),
        "The quantity of product recalled is not among the fields I read in recalls and enforcement reports, so "
        "I cannot give it; I can show the recall itself (its number, dates, class, firm and product).",
    ),
    (
        {"510k", "pma"},
        re.compile(
            r"(?i)\breview\s+(?:time|period|duration|days)\b|\bhow long\b[^?.]{0,40}\b(?:take|took|clear|approv|"
            r"review|decid)\w*|\bdays\s+(?:from|between|to|until|it took)\b|\btime\s+to\s+(?:clearance|clear|"
            r"approval|approve|decision)\b|\bhow many days\b|\bturnaround\b"
        ),
        "The date a submission was received is not among the fields I read in each record, so I cannot compute "
        "its review time here; I can give its decision date.",
    ),
    (
        {"registrationlisting"},
        re.compile(
            r"(?i)\bproprietary\b|\b(?:brand|trade|device|product)\s+names?\b|"
            r"\b(?:what|which) (?:product|device)s?\b(?!\s+(?:codes?|types?|class))"
        ),
        "The proprietary names of the products an establishment lists are not among the fields I read in "
        "registrations; I can give the establishment, its registration and FEI numbers and its product codes.",
    ),
    (
        None,
        re.compile(
            r"(?i)\b(?:other than|excluding|exclude|except(?:\s+for)?|besides|apart from|aside from|not (?:from|by|"
            r"made by|filed by)|non)[- ]+(?:the\s+)?(?P<firm>[A-Za-z][\w&.'-]*)"
        ),
        "I cannot leave a firm out of a search yet. Ask for all of them and for {firm}'s alone: the difference "
        "is the rest.",
    ),
]


def cannot_answer(it: Interpretation) -> str:
    """What the question asks that the searches cannot do, as one plain sentence ('' when nothing)."""
    q = it.question
    if it.place and it.place.exclude:
        return ""  # "non-US companies": a place left out, which the searches can do
    for datasets, pattern, said in _LIMITS:
        if datasets is not None and not set(it.datasets) & datasets:
            continue
        m = pattern.search(q)
        if not m:
            continue
        if "firm" in pattern.groupindex:
            firm = m.group("firm")
            if it.firm and firm.lower() in (it.firm.words + " " + it.firm.name).lower():
                return said.format(firm=it.firm.name)
            if m.group(0).lower().startswith("non-") and firm[:1].isupper() and len(firm) >= 4 and not it.firm:
                return said.format(firm=firm)  # "non-Medtronic applicants"
            continue  # "other than" not before a firm ("devices other than pumps")
        return said
    return ""
