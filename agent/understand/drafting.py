"""Requests to write a document (a letter, a 510(k) summary, an MDR narrative, a response to a 483): the assistant
reads FDA records, it does not author submissions or correspondence; refused in one sentence that says what it can
do instead, never read as a device or a comparison."""

from __future__ import annotations

import re

__all__ = ["asks_document", "REPLY"]

REPLY = (
    "I do not write documents such as letters, summaries, narratives, submissions or responses to FDA; what I can "
    'do is show what the FDA records hold for you to draw on, for example "recalls of catheter kits since 2020" or '
    '"the 510(k) clearances for surgical gloves", with their dates, firms, reasons and record numbers.'
)

_VERB = r"(?:write|writing|draft|drafting|compose|composing|prepare|preparing|author|generate|create)"
_DOC = (
    r"(?:letters?|summar(?:y|ies)|narratives?|responses?|reply|replies|submissions?|reports?\s+text|text|"
    r"memos?|emails?|e-mails?|notices?|notifications?|statements?|justifications?|rationales?|cover\s+letters?|"
    r"sections?|paragraphs?|capa\s+plans?|plans?|procedures?|sops?|essays?|press\s+releases?|communications?)"
)
_DRAFT = re.compile(rf"(?i)\b{_VERB}\b(?:\s+(?:me|us|for\s+(?:me|us)))?\b[^?.!]{{0,80}}?\b{_DOC}\b")
# the records' own words: "recall notification letters sent" in a report is data, asked about, not to be written
_ASKS_RECORDS = re.compile(r"(?i)^\s*(?:how\s+many|count|list|show|which|what|when|find|any)\b")


def asks_document(question: str) -> bool:
    """True when the question asks the assistant to write, draft, compose or prepare a document."""
    q = question or ""
    return bool(_DRAFT.search(q)) and not _ASKS_RECORDS.search(q)
