"""Questions that ask for a judgement or a rate the records cannot give: which device is safest or best, whether a
device is safe, or a failure rate or share of devices or people, which needs how many devices are in use (no FDA
device record holds that). Refused in one sentence that says what counts can be shown instead, never answered with
a count of product codes or reports that happen to match the words."""

from __future__ import annotations

import re

__all__ = ["asks_judgement", "REPLY"]

REPLY = (
    "The FDA records cannot say which device is safest or best, or give a failure rate: they hold reports, recalls "
    "and decisions, not how many devices are in use, so any rate or ranking of safety would be a guess. What I can "
    'show is the counts themselves, for example "adverse events for the 630G insulin pump per year" or "recalls of '
    'insulin pumps since 2019", for you to weigh.'
)

_JUDGEMENT = re.compile(
    r"(?i)\b(?:safest|safer|most\s+reliable|least\s+reliable|more\s+reliable|less\s+reliable|best|worst|"
    r"most\s+dangerous|least\s+safe|riskiest)\b|"
    r"\b(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+|it\s+|they\s+)?(?:[\w()-]+\s+){0,5}(?:safe|dangerous|reliable)\b"
    r"(?:\s+to\s+use)?\s*\??\s*$|"
    r"\b(?:failure|malfunction|complication|defect|death|mortality|injury|recall)\s+rates?\b|"
    r"\bpercent(?:age)?\s+of\s+(?:the\s+|all\s+)?(?:[\w-]+\s+){0,4}?(?:pumps?|devices?|units?|implants?|patients?|"
    r"people|users?)\b|"
    r"\b(?:how\s+many|number\s+of)\s+(?:people|patients|hospitals|users|clinics|doctors|surgeons)\s+"
    r"(?:use|used|using|have|has|own|are\s+using|rely\s+on)\b|\binstalled\s+base\b|\bunits\s+in\s+use\b"
)
# the records' own safety fields: a device's MRI safety status is in the GUDID records
_RECORD_SAFETY = re.compile(r"(?i)\bmri?\s+(?:safe|safety|conditional|unsafe)\b|\bmr\s+safe\b")


def asks_judgement(question: str) -> bool:
    """True when the question asks which device is safest or best, whether one is safe, or for a rate or share."""
    q = question or ""
    return bool(_JUDGEMENT.search(q)) and not _RECORD_SAFETY.search(q)
