"""Follow-ups: a question that narrows, changes or asks a field of the previous one ("just 2009?", "root cause?",
"what about Boston Scientific?"), merged into the previous reading; "those" bound to the previous result set."""

from __future__ import annotations

import re

from . import vocab
from .fields import ID_FIELDS, LOOKUP_FIELDS
from .limits import only_negation
from .resolve import MAX_CODES
from .tokens import Tokens
from .types import Code, DeviceFilter, FirmFilter, Interpretation, LastResult

__all__ = ["field_not_dataset", "bare", "content", "specific", "refining", "merge", "bind", "decision_date_asked"]

# an establishment's own numbers: a registration found by one names one establishment ("reg number?" after it)
_REGISTRY_IDS = ("word:regnum", "word:fei", "word:ownernum")
_REFINE_FIRST = {"and", "just", "only", "but", "now", "also", "filter", "same", "narrow", "limit", "restrict", "then"}


FIELD_DATASET_WORDS = {
    "regulation": "regulation_number",
    "regulations": "regulation_number",
    "panel": "review_panel",
    "classification": "device_class",
    "classified": "device_class",
}


def field_not_dataset(tokens: Tokens, it: Interpretation) -> None:
    """A follow-up whose only dataset word is also a field ("regulation?", "and the panel?"): that field."""
    used = sorted(i for i, r in tokens.role.items() if r == "dataset")  # the first said names the field
    content = [
        i
        for i in tokens.unused()
        if tokens.toks[i].low not in vocab.FUNCTION | vocab.FIELD_WORDS
        and any(ch.isalnum() for ch in tokens.toks[i].low)
    ]
    if used and not content and all(tokens.toks[i].low in FIELD_DATASET_WORDS for i in used):
        it.datasets = []
        it.field = it.field or FIELD_DATASET_WORDS[tokens.toks[used[0]].low]  # a field already said stays
        for i in used:
            tokens.role[i] = "field"


def content(tokens: Tokens) -> list[int]:
    """Tokens no reading used that are not grammar."""
    return [
        i
        for i in tokens.unused()
        if tokens.toks[i].low not in vocab.FUNCTION | vocab.FIELD_WORDS
        and any(ch.isalnum() for ch in tokens.toks[i].low)
    ]


def bare(tokens: Tokens, it: Interpretation) -> bool:
    """Nothing new is named: only a field, a measure, a filter or a period ("root cause?", "class?", "by state")."""
    said = bool(it.field or it.by or it.filters or it.date_from or it.date_to or it.measure != "list")
    return not content(tokens) and said


def specific(reading: dict) -> bool:
    """The reading names one thing: a device by few codes, a firm, or a record number."""
    device = reading.get("device") or {}
    ids = [f for f in reading.get("filters", []) if f.get("field") in ID_FIELDS + _REGISTRY_IDS]
    return bool(
        reading.get("firm")
        or ids
        or device
        and (device.get("path") in ("given", "names") or len(device.get("codes", [])) <= 3)
    )


def refining(tokens: Tokens, follow: list) -> bool:
    """The question narrows or changes the previous one ("just 2009?", "and for Medtronic?", "what about X?")."""
    lows = tokens.lows()
    return (
        bool(follow)
        or (bool(lows) and lows[0] in _REFINE_FIRST)
        or lows[:3] in (["how", "many", "are"], ["how", "many", "were"])  # "how many are implantable?": of those
    )


def merge(prev: Interpretation, new: Interpretation, dated: bool, last: LastResult | None = None) -> Interpretation:
    """The previous reading with what the new question says instead (device, firm, place, dates, filters, measure)."""
    out = prev.model_copy(deep=True)
    out.question, out.notes, out.unexplained = new.question, new.notes, new.unexplained
    out.followup, out.confidence, out.understood = "keys", new.confidence, True
    if new.device and not only_negation(new.device.words, frozenset({"without"})):
        out.device = new.device  # ("now exclude Netech": "exclude" read as a device is no new device)
    if new.firm:
        out.firm = new.firm
    if new.place:
        out.place = new.place
    if dated:
        out.date_from, out.date_to, out.date_words = new.date_from, new.date_to, new.date_words
    fields = {f.field for f in new.filters}
    out.filters = [f for f in out.filters if f.field not in fields] + new.filters
    if new.measure != "list" or new.field:
        out.measure, out.by, out.field, out.top_n = new.measure, new.by, new.field, new.top_n
    if new.sides:
        out.sides = new.sides
    if out.field and out.measure == "lookup" and last and last.codes:
        _field_home(out, last)
    return out


def _field_home(it: Interpretation, last: LastResult) -> None:
    """A field the previous dataset's records do not carry ("what class is it?" after 510(k)s): looked up where it
    lives, for the previous answer's product codes."""
    from ..tools.searchers import SPECS

    ds = it.datasets[0] if it.datasets else ""
    home = LOOKUP_FIELDS.get(it.field or "")
    if not home or home == ds or ds in SPECS and it.field in SPECS[ds].row:
        return
    if home == "classification":
        it.datasets = ["classification"]
        it.device = DeviceFilter(words="those", path="given", codes=[Code(code=c) for c in last.codes[:MAX_CODES]])
        it.firm = it.place = None
        it.filters = [f for f in it.filters if f.field not in ID_FIELDS]
        it.date_from = it.date_to = None


def bind(it: Interpretation, last: LastResult, words: list[str]) -> None:
    """ "those" / "them": the previous answer's result set."""
    if last.kind == "firms" and last.firms:
        it.firm = FirmFilter(
            words="those firms", name=", ".join(last.firms[:5]), variants=last.firms[:10], match="those"
        )
        it.followup = "firms"
    elif last.codes:
        it.device = DeviceFilter(words="those", path="given", codes=[Code(code=c) for c in last.codes[:MAX_CODES]])
        it.followup = "codes"
    if last.place and not it.place:
        it.place = last.place


# a short question after a premarket record was found that asks only when it was decided: "when was it cleared?",
# "decision date?", "ok when exactly?", "what date did FDA clear it", "and when was that decided"
_WHEN = re.compile(
    r"(?i)^\W*(?:(?:ok(?:ay)?|and|so|cool|great|thanks|right)[\s,.!]+)*(?:when\b|what\s+(?:date|day)\b|which\s+(?:date|day)\b|"
    r"on\s+what\s+(?:date|day)\b|(?:the\s+)?(?:decision|clearance|approval)\s+date\b|date\b)"
)
_WHEN_WORDS = set(
    """when what which on date day dates was were is did does do fda it that this they them its the one ok okay and
so cool great thanks right exactly clear cleared clearance decided decide decision approve approved approval get
got give gave on of for pls please""".split()
)


def decision_date_asked(question: str, last: LastResult | None) -> Interpretation | None:
    """ "when was it cleared?" after a 510(k) or PMA record was found: the decision date of what was found (the
    previous reading, its field now the decision date). None for any other question."""
    if not last or not last.reading or not _WHEN.search(question):
        return None
    words = re.findall(r"[a-z0-9()']+", question.lower())
    if not words or len(words) > 10 or any(w not in _WHEN_WORDS for w in words):
        return None
    prev = Interpretation(**last.reading)
    if len(prev.datasets) != 1 or prev.datasets[0] not in ("510k", "pma") or prev.sides or not specific(last.reading):
        return None
    out = prev.model_copy(deep=True)
    out.question, out.field, out.measure, out.by, out.followup = question, "decision_date", "lookup", None, "keys"
    return out
