"""Questions that ask for a legal judgement (liability, fault, negligence, suing): not in the data, never answered
with counts that would read as a verdict."""

from __future__ import annotations

import re

__all__ = ["asks_legal", "REPLY"]

REPLY = (
    "Whether a firm is liable, negligent or at fault, or whether to take legal action, is a legal judgement that "
    "the FDA records do not make and I will not give; ask your legal counsel. What I can show is what the records "
    'hold, for example "adverse events for the 630G insulin pump" or "recalls by Arrow International": their '
    "dates, devices, reasons and firms."
)

_LEGAL = re.compile(
    r"(?i)\b(?:liab(?:le|ility|ilities)|negligen(?:t|ce)|su(?:e|ed|ing)|lawsuits?|litigat\w*|legal(?:ly)?\s+"
    r"(?:liable|responsible|speaking|action|case|claim\w*|grounds|exposure|risk)|take\s+legal|court|courts|"
    r"culpab\w*|at\s+fault|(?:who|which\s+\w+)\s+(?:is|was|are|were)\s+(?:to\s+blame|responsible)|"
    r"(?:is|was|are|were)\s+\w+(?:\s+\w+)?\s+to\s+blame|damages\s+(?:claim|award)\w*|compensation\s+claim\w*|"
    # what a claim is worth or whether it is still open: a settlement, a payout, a statute of limitations
    r"settle(?:ment|ments|d)?\s+(?:for|with|amounts?|values?|out\s+of\s+court)|(?:in|a|the|any)\s+settlements?|"
    r"payouts?|statutes?\s+of\s+limitations?|(?:have|has|had)\s+to\s+pay\b|(?:a|the|our|their|my)\s+"
    r"(?:\w+\s+)?(?:claim|case)\s+(?:over|against|for)\b)\b"
)
# the records' own enforcement words: a court-ordered recall or a seizure is a fact in the data, not a judgement
_NOT_LEGAL = re.compile(r"(?i)\b(?:court\s+order(?:ed)?|consent\s+decree|seizure)\b")


def asks_legal(question: str) -> bool:
    """True when the question asks who is liable or at fault, or whether to sue: a legal judgement."""
    q = question or ""
    return bool(_LEGAL.search(q)) and not _NOT_LEGAL.search(q)
