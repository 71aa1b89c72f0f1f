"""A question asked again with one part of its reading changed: the dataset, the device, the firm or the dates.

The assistant reads questions, not readings, so a changed part becomes a changed question: the words the reading
came from are replaced by the new ones (or added when the question had none), and the new question is asked in the
same conversation. What was searched stays visible, as for any question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .labels import DATASETS

__all__ = ["Edit", "edit_of", "rephrase", "EDITABLE", "NOUNS"]

EDITABLE = ("dataset", "device", "firm", "dates")
# how a question names each dataset's records (what the assistant reads back as that dataset)
NOUNS = {
    "event": "adverse events",
    "recall": "recalls",
    "enforcement": "enforcement reports",
    "510k": "510(k) clearances",
    "pma": "PMA approvals",
    "classification": "product classifications",
    "udi": "UDI records",
    "registrationlisting": "establishment registrations",
    "covid19serology": "COVID-19 serology tests",
    "gudid": "GUDID records",
}
HINTS = {
    "dataset": "Which records to search",
    "device": "A device name or a product code (for example: infusion pumps, FRN)",
    "firm": "A firm's name as it is written (for example: Medtronic, Arrow International)",
    "dates": "Dates in words (for example: in 2023, since 2019, from 2019 to 2021); empty for all dates",
}
TITLES = {
    "dataset": "Search other records",
    "device": "Change the device",
    "firm": "Change the firm",
    "dates": "Change the dates",
}
_510K = r"510\s*\(?\s*k\s*\)?s?"


@dataclass(frozen=True)
class Edit:
    """What a click on a reading's part offers: a text to change, or a choice among datasets."""

    kind: str  # dataset | device | firm | dates
    title: str
    hint: str
    current: str  # the text the field starts with, or the dataset chosen now
    choices: tuple[tuple[str, str], ...] = ()  # (dataset, label), for a dataset


def edit_of(kind: str, it: dict | None, value: str = "") -> Edit | None:
    """The editor for one part of a reading (`value`: the dataset of a dataset part); None when it cannot change."""
    it = it or {}
    if kind not in EDITABLE or it.get("understood") is False:
        return None
    if kind == "dataset":
        return Edit(kind, TITLES[kind], HINTS[kind], value, tuple((k, v) for k, v in DATASETS.items() if k in NOUNS))
    if kind == "dates":
        return Edit(kind, TITLES[kind], HINTS[kind], it.get("date_words") or _dates_text(it))
    words = (it.get(kind) or {}).get("words", "")
    if kind == "firm" and (it.get("firm") or {}).get("match") == "those":
        words = ""
    return Edit(kind, TITLES[kind], HINTS[kind], words if words.lower() not in ("those", "those firms") else "")


def _dates_text(it: dict) -> str:
    lo, hi = it.get("date_from"), it.get("date_to")
    if lo and hi:
        return f"from {lo} to {hi}"
    return f"since {lo}" if lo else f"before {hi}" if hi else ""


def _find(question: str, words: str) -> re.Match[str] | None:
    if not words.strip():
        return None
    pattern = r"\s+".join(re.escape(w) for w in words.split())
    return re.search(rf"(?<![\w(]){pattern}(?![\w)])", question, re.IGNORECASE)


def _swap(question: str, match: re.Match[str], new: str) -> str:
    out = question[: match.start()] + new + question[match.end() :]
    return re.sub(r"\s{2,}", " ", out).strip()


def _dataset_match(question: str, datasets: list[str], old: str) -> re.Match[str] | None:
    """The words of `question` that named the dataset `old` (or any dataset read), longest phrase first."""
    from .backend import dataset_phrases

    wanted = [old] if old else datasets
    phrases = sorted(
        (" ".join(p) for p, tag in dataset_phrases().items() if tag.rstrip("?") in wanted), key=len, reverse=True
    )
    if "510k" in wanted and (m := re.search(rf"(?<!\w){_510K}(\s+clearances?)?(?!\w)", question, re.IGNORECASE)):
        return m
    for p in phrases:
        if m := _find(question, p):
            return m
    return None


def rephrase(question: str, it: dict | None, kind: str, new: str, old: str = "") -> str:
    """`question` with its `kind` part changed to `new` (for a dataset, `new` and `old` are dataset names)."""
    it, new = it or {}, " ".join(new.split())
    if kind == "dataset":
        noun = NOUNS.get(new, new)
        m = _dataset_match(question, list(it.get("datasets") or []), old)
        return _swap(question, m, noun) if m else f"{question.rstrip(' ?.')} in {noun}"
    if kind == "dates":
        words = it.get("date_words", "")
        m = _find(question, words)
        if m:
            return _swap(question, m, new)
        return f"{question.rstrip(' ?.')} {new}".strip() if new else question
    if kind in ("device", "firm"):
        if not new:
            return question
        words = (it.get(kind) or {}).get("words", "")
        m = _find(question, words) if words.lower() not in ("those", "those firms") else None
        if m:
            return _swap(question, m, new)
        return f"{question.rstrip(' ?.')} {'for' if kind == 'device' else 'by'} {new}"
    raise ValueError(f"cannot change the {kind!r} of a question: choose one of {', '.join(EDITABLE)}")
