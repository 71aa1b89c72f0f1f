"""The load-time quality check of a model's free-text summaries: probe questions whose answers are known.

A model may write a summary above the answer only when, on each probe, its text keeps the figure and the record
ID it was given, holds nothing the facts do not support (the grounding check), and reads as sentences. Small
models (SmolLM2-135M) fail; they are then used only to suggest a reading, and the answer is written from the data.
"""

from __future__ import annotations

import re
import threading

from . import prompts

__all__ = ["passes_quality", "PROBES"]

# (question, facts, figure and ID the summary must keep)
PROBES = [
    ("How many adverse event reports for product code DXY in 2023?",
     "12 adverse event reports for product code DXY (Implantable Pacemaker Pulse-Generator) in 2023 (device/event "
     "as of 23 September 2025). Newest: report 16081310, received 1 January 2023, Malfunction.",
     ("12", "16081310")),
    ("How many recalls by Arrow International?",
     "3 recalled products from Arrow International Inc (device/recall as of 2 December 2017). Newest: recall "
     "Z-0053-2020, initiated 17 May 2019, root cause Employee error.",
     ("3", "Z-0053-2020")),
]
_RESULTS: dict[str, tuple[bool, str]] = {}
_LOCK = threading.Lock()


def _coherent(text: str) -> bool:
    words = re.findall(r"[A-Za-z]+", text)
    if len(words) < 6 or len(words) > 120:
        return False
    common = max((words.count(w) for w in set(words)), default=0)
    return common <= max(4, len(words) // 5)          # no word salad of one repeated word


def _probe(model, question: str, facts: str, must: tuple[str, str]) -> bool:
    from .answer import grounded
    text = "".join(model.text(prompts.answer_messages(question, facts), max_tokens=120))
    ev = [{"total": int(must[0]), "rows": [], "facts": facts}]
    kept, removed = grounded(text, ev, question + " " + facts)
    return not removed and all(m in kept for m in must) and _coherent(kept)


def passes_quality(model) -> tuple[bool, str]:
    """(whether the model may write summaries, a note to say once when it may not); checked once per model."""
    name = getattr(model, "name", "model")
    key = name if name != "fake" else f"fake-{id(model)}"      # scripted test models are checked each time
    with _LOCK:
        if key not in _RESULTS:
            try:
                ok = sum(_probe(model, *p) for p in PROBES)
            except Exception as e:   # a model that fails to run the probes writes no summaries
                ok = -1
                _RESULTS[key] = (False, f"{name} could not run its quality check ({e}); answers are written from "
                                         "the data only")
            if ok >= 0:
                passed = ok == len(PROBES)
                _RESULTS[key] = (passed, "" if passed else
                                  f"{name} did not pass the summary quality check ({ok} of {len(PROBES)} probe "
                                  "answers right): answers are written from the data, and the model only suggests "
                                  "which reading of a question is meant")
        return _RESULTS[key]
