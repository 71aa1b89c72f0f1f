"""The last accounting of a question before a figure is stated: the words that ask for a measure or a grouping must
match what the executed search computed, each side of a comparison passes the weak-reading checks of a single search,
and a device is never read from a word that only describes one ("implantable", "used"), asks for a measure ("rate")
or names an identifier field ("FEI", "lot")."""

from __future__ import annotations

import re

from .guards import weak_device
from .types import DeviceFilter, Interpretation

__all__ = ["account", "weak_sides", "form_word_device", "drop_verb_device", "place_dropped", "which_unit"]

# words that describe a device, never a device filter on their own
_FORM = {
    "implantable", "implanted", "reusable", "sterile", "nonsterile", "non-sterile", "disposable", "portable",
    "wearable",
}  # fmt: skip
# ordinary verbs: grammar of the question, never a device
_VERBS = {
    "use", "uses", "used", "using", "made", "make", "sold", "filed", "given", "listed", "reported", "received",
    "cleared", "approved", "recalled", "marketed", "registered", "submitted", "involved", "involving",
}  # fmt: skip
# identifier fields of a record, never a device filter on their own
_IDS = {"fei", "duns", "udi", "di", "udi-di", "lot", "lots", "serial", "k", "number", "no", "#"}
# words that ask for a measure, never a device filter on their own
_MEASURES = {
    "average", "avg", "mean", "median", "percent", "percentage", "percentages", "proportion", "ratio", "share",
    "rate", "rates", "fraction",
}  # fmt: skip
_FILLER = {"the", "a", "an", "of", "device", "devices", "product", "products", "type", "types", "kind", "kinds"}


def _words(d: DeviceFilter) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9#-]+", d.words.lower()) if w not in _FILLER]


def drop_verb_device(it: Interpretation) -> None:
    """A device read only from an ordinary verb ("which DUNS does Netech use"): the verb is grammar, so the reading
    keeps no device filter for it (a side of a comparison made of a verb is left to the weak-side check)."""
    d = it.device
    if d is not None and d.path != "given" and (words := _words(d)) and all(w in _VERBS for w in words):
        it.device = None


def form_word_device(it: Interpretation) -> str:
    """What to say instead of a figure when the only device of the reading was read from a word that names none
    ('' otherwise). A product code asked for as such ("product code FEI") stays the code."""
    sides = [s.device for s in it.sides if s.device is not None]
    for d in ([it.device] if it.device is not None else []) + sides:
        if said := _formed(it.question, d):
            return said
    return ""


def _formed(question: str, d: DeviceFilter) -> str:
    words = _words(d)
    if not words:
        return ""
    if d.path == "given" and (re.search(r"(?i)\b(?:product\s+)?codes?\b|\bprocodes?\b", question)):
        return ""  # "adverse events for product code FEI": the code itself
    if all(w in _IDS for w in words):
        return (
            f'"{d.words}" names a number that identifies a record, not a device, so I give no figure for it. Ask for '
            'that number of a named record or firm ("the FEI of DiaSorin", "the lot in report 16081314"), or name '
            "the device."
        )
    if all(w in _MEASURES for w in words):
        return (
            f'"{d.words}" asks for a measure, not a device, and I count records only, so I give no figure for it. '
            "Ask for the two counts (the records with what you want, and the records in all) and compare them."
        )
    if all(w in _FORM or w in _IDS or w in _VERBS for w in words) and d.path != "given":
        return (
            f'"{d.words}" describes a device but names none, so I give no figure for it: the product codes whose '
            f'names hold "{d.words}" are many different devices. Name the device itself (with that word if you like) '
            "or its product code."
        )
    return ""


_UNITS = {"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year", "half": "half year"}
_GROUPING = re.compile(
    r"(?i)\b(?:per|by|each|every)\s+(?:calendar\s+|fiscal\s+)?(half|day|week|month|quarter|year)s?"
    r"(?:[\s-]+years?)?\b(?!\s+(?:of|ago|old))|\b(daily|weekly|monthly|quarterly|yearly|semiannual(?:ly)?|biannual(?:ly)?)\b"
)
_ADVERB = {"daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter", "yearly": "year"}
# "which month had the most": one count per month, read off the largest
_WHICH_UNIT = re.compile(
    r"(?i)\b(?:which|what)\s+(month|quarter|year)s?\b(?=.*\b(?:most|least|fewest|highest|lowest|busiest|peak|"
    r"more|max(?:imum)?|min(?:imum)?)\b)"
)
# a second breakdown asked beside a period ("recalls by root cause per year"): the count per period alone is another
# question ("by" after a verb names who did it: "submitted by applicants")
_SECOND_WAY = re.compile(
    r"(?i)\btop\b|\bmost\b|(?<!ed )\bby\s+(?!(?:year|month|quarter|week|day|half|calendar|fiscal|decision|received|"
    r"report|date|the\s+(?:year|month|quarter))\b)[a-z]+"
)
_COMPARED = re.compile(r"(?i)\b(?:vs\.?|versus|compared?\s+(?:with|to)|compare)\b")
_UNCOMPUTED = [
    (re.compile(r"(?i)\b(?:average|avg|median)\b|\bmean\s+(?:number|count|time|days?|age|value)\b"), "averages"),
    (
        re.compile(
            r"(?i)\b(?:percent(?:age)?s?|proportions?|ratios?|fractions?)\b|%|\bshare\s+of\b|\brates?\s+of\b|"
            r"\bper\s+\d[\d,]*\b|"
            r"\b(?:death|injury|malfunction|recall|event|approval|clearance)\s+rates?\b"
        ),
        "percentages or rates",
    ),
    (
        re.compile(
            r"(?i)\bhow\s+long\b|\b(?:days|weeks|months|years|time)\s+(?:between|from|to)\b|\bduration\b|"
            r"\bhow\s+many\s+(?:days|weeks|months|years)\b|"
            r"\bturnaround\b"
        ),
        "the time between two dates",
    ),
]
_FEWEST = re.compile(r"(?i)\b(?:least|fewest|lowest|bottom)\b")
_EARLIEST = re.compile(
    r"(?i)\b(?:oldest|earliest)\b|\bfirst(?!\s+(?:quarter|half|q[1-4]|name|names|of|week|month|time|page))\b"
)


def _grouping(question: str) -> str:
    m = _GROUPING.search(question)
    if not m:
        return ""
    if m.group(1):
        return _UNITS[m.group(1).lower()]
    return _ADVERB.get(m.group(2).lower(), "half year")


def which_unit(it: Interpretation) -> None:
    """ "Which month of 2023 had the most reports", "what quarter saw the most PMA decisions": a count per month
    (quarter, year), never one total or a ranking of another field."""
    m = _WHICH_UNIT.search(it.question)
    if m and not it.sides and it.measure in ("count", "list", "top") and not (it.measure == "top" and it.by == "year"):
        it.measure, it.by = "trend", m.group(1).lower()


def weak_sides(it: Interpretation, totals: list[int]) -> str:
    """Why "0 against 0" is not said when no side of a comparison found anything and a side's reading is weak
    ('' when the zeros stand, or the person confirmed the reading)."""
    if not it.sides or not totals or any(totals) or it.confirmed:
        return ""
    if not _SET_BESIDE.search(it.question):  # sides read from a list ("Medtronic entity counts, MiniMed, ..."), never
        # asked to be set side by side: all zeros may be a misreading
        return "you did not ask to compare " + " and ".join(f'"{s.label}"' for s in it.sides[:3])
    return _weak_side(it)


_SET_BESIDE = re.compile(
    r"(?i)\b(?:vs\.?|v\.|versus|compared?|comparing|comparison|against|each|both|side\s+by\s+side|or|and|"
    r"head\s+to\s+head|between|than|yoy|mom|qoq|breakdown|break\s+down|split|per)\b|/"
)


def _weak_side(it: Interpretation) -> str:
    """Why a side of a comparison is too weak for "0 against 0" (the weak-reading checks of a single search, and
    product codes named that hold no record here)."""
    for side in it.sides:
        d = side.device
        if d is None:
            continue
        if d.path in ("codes", "codes+names") and d.codes and all(c.records == 0 for c in d.codes) and not d.found:
            return f'no record here is filed under the product codes named "{d.words}"'
        if why := weak_device(d):
            return why
    return ""


_PLACE_KEYS = {"state", "country", "exclude_country", "countries", "city"}


def place_dropped(it: Interpretation, dropped: list[str]) -> bool:
    """The question's place is among the filters the search ran without (`dropped`, as the retry names them)."""
    return bool(it.place) and bool({d.replace("filters.", "") for d in dropped} & _PLACE_KEYS)


def account(it: Interpretation, totals: list[int], dropped: list[str] | None = None) -> tuple[str, str]:
    """(what to say instead of a figure, a sentence said before the figure): both '' when the search that ran
    applied every filter and answers every measure and grouping the question asks for. `dropped`: filters a dataset
    could not apply, left out of the search that ran (the counts are then said to be without them)."""
    if it.place and it.datasets == ["gudid"]:
        return (
            f"The AccessGUDID records cannot be narrowed to a place here, so I give no figure for {it.place.name}. "
            "I can count them by firm, device, product code or publish date.",
            "",
        )
    if dropped:
        if it.place and place_dropped(it, dropped):
            what = f"a place ({it.place.name})"
            tail = f"the counts below are of records from every place, not only {it.place.name}."
        else:
            what = ", ".join(d.replace("filters.", "").replace("_", " ") for d in dropped)
            tail = "the counts below are without it."
        return "", f"These records cannot be narrowed to {what}, so the search ran without it: {tail}"
    serial_flag = any(f.field == "word:serial" for f in it.filters)
    if re.search(r"(?i)\bserial\b", it.question) and "serial" not in (it.field or "") and not serial_flag:
        return (
            "The serial number is not among the fields I read in these records, so I give no figure for it. I can "
            "show the record itself (its firm, device, dates, lot and model numbers).",
            "",
        )
    if it.measure == "lookup" and it.field:
        return "", ""  # a field of a named record ("how long did K200606 take"): the field answers it
    group = _grouping(it.question)
    if _COMPARED.search(it.question) and not it.sides and it.supplements != "originals" and len(it.datasets) < 2:
        return (
            "You asked for a comparison, but I read only one side of it, so I give no figure. Name both sides as "
            'the records spell them ("recalls of A versus B", "2023 vs 2024") and I will count each.',
            "",
        )
    if group in ("day", "week", "half year"):
        ran = (
            f"the counts below are per {it.by}."
            if it.measure == "trend" and it.by in ("month", "quarter", "year")
            else "the count below is for the whole period asked."
            if it.measure != "trend"
            else ""
        )
        return "", f"I count per month, quarter or year, not per {group}: {ran}"
    if group and it.measure not in ("compare", "lookup") and not (it.measure == "trend" and it.by == group):
        ran = f"per {it.by}" if it.measure == "trend" and it.by else "over the whole period"
        return (
            f"You asked for the figures per {group}, but the search I ran counted {ran}, so I give no figure. "
            f'Ask again as "... per {group} in <year>" and I will count each {group}.',
            "",
        )
    if it.measure == "trend" and _SECOND_WAY.search(it.question) and not _WHICH_UNIT.search(it.question):
        return (
            f"You asked for a second breakdown beside the count per {it.by or 'period'}, and I count one way at a "
            "time, so I give no figure. Ask for one breakdown at a time (per year, or by firm, device or cause).",
            "",
        )
    if _FEWEST.search(it.question) and it.measure == "top":
        return (
            "I rank from the most records down, not from the fewest, so I give no figure for the fewest. Ask for "
            "the counts of the firms or devices you have in mind and compare them.",
            "",
        )
    if _EARLIEST.search(it.question) and it.measure == "list" and totals and max(totals) > 1:
        return (
            "I list records newest first and do not pick out the earliest of several, so I give no figure for it. "
            'Ask for them per year ("... per year") and the first year listed holds the earliest.',
            "",
        )
    for pattern, what in _UNCOMPUTED:
        if pattern.search(it.question):
            return "", f"I do not compute {what} here: the figures below are counts of records, not {what}."
    return "", ""
