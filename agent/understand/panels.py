"""Which of the classification's two panel fields a question means.

A product code carries a review panel (the FDA panel that reviews it) and a medical specialty (the regulation's
panel); for many codes they differ ("cardiovascular": 91 class III codes by review panel, 20 by specialty). "the
cardiovascular review panel", "reviewed by the orthopedic panel" and "advisory panel" name the review panel;
"specialty" names the medical specialty; a bare "panel", or a panel's name alone ("cardiovascular class III codes"),
could be either, so a count or a comparison is answered for both, each named by its field, the medical specialty
first (the reading the rules gave before)."""

from __future__ import annotations

import re

from . import vocab
from .types import Filter, Interpretation, Side

__all__ = ["panel_fields"]

_REVIEW = re.compile(
    r"(?i)\breview(?:ed|s|ing)?\s+(?:by\s+)?(?:the\s+|each\s+|a\s+)?(?:[\w-]+\s+)?panels?\b|\badvisory\b"
)
_SPECIALTY = re.compile(r"(?i)\bspecialt(?:y|ies)\b")


def _reading(question: str) -> str:
    review, specialty = bool(_REVIEW.search(question)), bool(_SPECIALTY.search(question))
    if review != specialty:
        return "review" if review else "specialty"
    return "both"  # "the cardiovascular panel", or "cardiovascular" alone: either field, so both are counted


def _as(f: Filter, kind: str) -> Filter:
    code = str(f.value)
    name = vocab.PANEL_NAMES.get(code, code)
    if kind == "review":
        return f.model_copy(update={"field": "word:rpanel", "label": f"review panel {name} ({code})"})
    return f.model_copy(update={"field": "word:panel", "label": f"medical specialty {name} ({code})"})


def panel_fields(it: Interpretation) -> None:
    """Sets each classification panel filter to the field the question names; a bare "panel" in a count or a
    comparison becomes one side per field (a side per value and field when the sides were already there)."""
    if "classification" not in it.datasets:  # a 510(k)'s advisory committee: the panel that reviewed it
        it.filters = [
            _as(f, "review").model_copy(update={"field": f.field}) if f.field == "word:panel" else f for f in it.filters
        ]
        return
    said = [f for f in it.filters if f.field == "word:panel"]
    sided = [f for s in it.sides for f in s.filters if f.field == "word:panel"]
    if not said and not sided:
        return
    kind = _reading(it.question)
    if kind == "both" and (it.measure not in ("count", "compare") or it.field or len(it.datasets) > 1):
        kind = "specialty"
    if kind != "both":
        it.filters = [_as(f, kind) if f in said else f for f in it.filters]
        for s in it.sides:
            s.filters = [_as(f, kind) if f in sided else f for f in s.filters]
            s.label = " ".join(f.label for f in s.filters) if sided and len(s.filters) == 1 else s.label
        return
    sides = it.sides or [Side(label="")]
    out: list[Side] = []
    for kind_ in ("specialty", "review"):
        for s in sides:
            own = [_as(f, kind_) if f.field == "word:panel" else f for f in s.filters]
            own += [_as(f, kind_) for f in said]
            named = s.label if s.firm or s.device or s.place or s.date_from or s.date_to else ""
            label = ", ".join([named] * bool(named) + [f.label for f in own])
            out.append(s.model_copy(update={"filters": own, "label": label}))
    it.sides = out
    it.filters = [f for f in it.filters if f not in said]
    it.measure = "compare"
    it.notes.append(
        'a "panel" of the classification can be its medical specialty or its review panel, and for many product codes '
        "the two differ, so each is counted"
    )
