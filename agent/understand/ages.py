"""A patient's age said as a bound ("patients older than 70", "aged 70+", "under 18"): the adverse event reports whose
patient age, stored as text ("78 YR"), meets it. The ages the reports hold are read from the mirror and searched as
values, so a bound is never dropped and never read as a device or a number of records."""

from __future__ import annotations

import re

from ..tools import ToolContext, ToolError, run_tool
from .tokens import Tokens
from .types import Filter, Interpretation

__all__ = ["read_ages"]

_WORDS = {
    "eighteen": 18,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "sixty-five": 65,
    "seventy": 70,
    "seventy-five": 75,
    "eighty": 80,
    "ninety": 90,
    "sixty five": 65,
    "seventy five": 75,
}
_OVER = r"(?:older than|over|above|at least|more than|greater than|>=?|aged over|aged above)"
_UNDER = r"(?:younger than|under|below|less than|<=?)"
_AGE = re.compile(
    r"(?i)\b(?:patients?|pts?|people|persons?|individuals?|adults?|elderly|age[ds]?|years?\s+old|yrs?\s+old)\b"
)
_ALT = "|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True))
_BOUND = re.compile(
    rf"(?i)(?:(?P<op>{_OVER}|{_UNDER})\s*(?:the\s+age\s+of\s+)?(?P<n>\d{{1,3}}|{_ALT})"
    rf"(?:\s*(?:years?|yrs?|y/?o)(?:\s+old|\s+of\s+age)?)?"
    rf"|(?P<plus>\d{{1,3}})\s*\+\s*(?:years?|yrs?)?(?:\s+old)?"
    rf"|(?P<incl>\d{{1,3}})\s*(?:years?|yrs?)?(?:\s+old)?\s+(?:or|and)\s+(?P<side>older|over|above|up|younger|under|below))"
)
_UNIT_YEARS = {
    "YR": 1.0,
    "YEAR": 1.0,
    "YEARS": 1.0,
    "MO": 1 / 12,
    "MONTH": 1 / 12,
    "MONTHS": 1 / 12,
    "WK": 1 / 52,
    "WEEK": 1 / 52,
    "WEEKS": 1 / 52,
    "DA": 1 / 365,
    "DAY": 1 / 365,
    "DAYS": 1 / 365,
    "": 1.0,
}
_SUBJECT = {
    "patient",
    "patients",
    "pt",
    "pts",
    "people",
    "persons",
    "individuals",
    "adults",
    "elderly",
    "age",
    "aged",
    "ages",
    "old",
    "older",
}  # explained by the bound: the patient whose age it is
_MAX_VALUES = 90  # one search holds at most 100 terms


def _years(value: str) -> float | None:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", value or "")
    if not m or m[2].upper() not in _UNIT_YEARS:
        return None
    return float(m[1]) * _UNIT_YEARS[m[2].upper()]


def read_ages(ctx: ToolContext, tokens: Tokens, it: Interpretation, named: list[str]) -> None:
    """ "MDRs for patients over 70": a filter of the reports whose patient's age meets the bound (events only)."""
    q = tokens.text
    if named and "event" not in named or not _AGE.search(q):
        return
    m = _BOUND.search(q)
    if not m:
        return
    said = m.group("n") or m.group("plus") or m.group("incl") or ""
    n = int(said) if said.isdigit() else _WORDS.get(said.lower())
    if n is None:
        return
    older = not m.group("op") or not re.match(_UNDER, m.group("op"), re.I)
    if m.group("side"):
        older = m.group("side").lower() in ("older", "over", "above", "up")
    op = (m.group("op") or "").lower()
    inclusive = bool(m.group("incl") or m.group("plus")) or op in (">=", "<=", "at least")  # "70 or older", "70+"
    try:
        rows = run_tool(ctx, "count_by", {"dataset": "events", "field": "patient_age", "limit": 1000}).rows
    except ToolError:
        return
    values = [
        str(r["patient_age"])
        for r in rows
        if (y := _years(str(r.get("patient_age") or ""))) is not None
        and (y > n or inclusive and y == n if older else y < n or inclusive and y == n)
    ]
    for k, t in enumerate(tokens.toks):
        if m.start() <= t.start < m.end() or (t.low in _SUBJECT and tokens.free(k)):
            tokens.take(k, k + 1, "filter")
    label = (
        f"patient aged {n} or {'older' if older else 'younger'}"
        if inclusive
        else f"patient {'older' if older else 'younger'} than {n}"
    )
    if not values or len(values) > _MAX_VALUES:
        it.understood = False
        why = "no report here records a patient age that fits" if not values else "too many different ages fit"
        it.cannot = (
            f"I cannot count the reports by the patient's age ({label}): ages are stored as text, and {why}, so I "
            "give no figure."
        )
        return
    it.filters.append(Filter(field="word:age", value=values, label=label, words=m.group(0)))
