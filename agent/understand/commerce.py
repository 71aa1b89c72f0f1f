"""Questions about money and markets (prices, costs, sales, revenue, market share, units sold): no openFDA device
dataset holds them, so they are refused in one sentence that says what the records do hold, never answered with a
count of reports or recalls that happen to name the device or firm."""

from __future__ import annotations

import re

__all__ = ["asks_commerce", "REPLY"]

REPLY = (
    "Prices, costs, sales, revenue, market share and other business figures (staff, shares, acquisitions) are not in "
    "the FDA device records this mirror holds, so I cannot give them. What I can show is what the records do hold, "
    'for example "adverse events for the 770G insulin pump" or "510(k) clearances by Boston Scientific since 2020".'
)

_MONEY = re.compile(
    r"(?i)\b(?:(?:list|selling|sale|retail|average|unit|purchase|market)\s+prices?|prices?|pricing|priced|"
    r"(?:how\s+much|what)\s+(?:does|do|did|is|are|would|will)\b[^?.]{0,60}\b(?:cost|costs|charge|sell)\b|costs?\s+(?:of|for)\s+"
    r"(?:a|an|the|one|each)\b|revenues?|turnover|earnings|profits?|market\s+shares?|market\s+size|"
    r"(?:sales|sold|sell|sells|selling)\b(?!\s+(?:representative|rep)s?\b)|units\s+shipped|reimburse\w*|"
    r"\$\s?\d|\d\s?(?:usd|dollars?|euros?)\b|employees|headcount|workforce|stock\s+(?:price|ticker)|share\s+price|"
    r"market\s+cap\w*|acquisitions?|acquired\s+by|mergers?|ipo)"
)
# the records' own money words: "cost of the recall" is no price asked; "distributed" is the records' word for sold
_RECORD_WORDS = re.compile(r"(?i)\b(?:recall(?:ed|s)?\s+units|product\s+quantity|quantity\s+(?:in\s+)?commerce)\b")


def asks_commerce(question: str) -> bool:
    """True when the question asks for a price, cost, sales, revenue or market share."""
    q = question or ""
    return bool(_MONEY.search(q)) and not _RECORD_WORDS.search(q)
