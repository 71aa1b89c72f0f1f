"""The load-time quality check of a model's free-text summaries: probe questions whose answers are known.

A model may write a summary above the answer only when, on each probe, its text keeps the figure and the record
ID it was given, holds nothing the facts do not support (the grounding check), and reads as sentences. Small
models (SmolLM2-135M) fail; they are then used only to suggest a reading, and the answer is written from the data.
"""

from __future__ import annotations

import re
import threading
import time

from . import prompts

__all__ = ["passes_quality", "PROBES"]

# (question, facts, figure and ID the summary must keep)
PROBES = [
    (
        "How many adverse event reports for product code DXY in 2023?",
        "12 adverse event reports for product code DXY (Implantable Pacemaker Pulse-Generator) in 2023 (device/event "
        "as of 23 September 2025). Newest: report 16081310, received 1 January 2023, Malfunction.",
        ("12", "16081310"),
    ),
    (
        "How many recalls by Arrow International?",
        "3 recalled products from Arrow International Inc (device/recall as of 2 December 2017). Newest: recall "
        "Z-0053-2020, initiated 17 May 2019, root cause Employee error.",
        ("3", "Z-0053-2020"),
    ),
]
_RESULTS: dict[str, tuple[bool, str]] = {}
_LOCK = threading.Lock()


PROBE_SECONDS = 3.0  # a summary must not cost more than this per question (issue 14's budget)


def _coherent(text: str, facts: str) -> bool:
    """Sentences of the facts' own words, none repeated into salad, the figure said with what it counts."""
    tokens = re.findall(r"[\w/()-]+", text)
    if len(tokens) < 6 or len(tokens) > 120:
        return False
    if max((tokens.count(t) for t in set(tokens)), default=0) > 3:
        return False  # "20201201: 20201201: 20201201: ..."
    known = set(re.findall(r"[a-z]+", (facts + " " + _GLUE).lower()))
    words = re.findall(r"[a-z]+", text.lower())
    return sum(w in known for w in words) >= 0.85 * len(words)


_GLUE = (
    "the a an there were was is are of for in on from with and or by to as at its it this that which were have "
    "has had been be reported report reports recall recalls found total newest latest most recent one record "
    "records product products device devices"
)


def _probe(model, question: str, facts: str, must: tuple[str, str]) -> bool:
    from .answer import grounded

    t0, chunks = time.perf_counter(), []
    stream = model.text(prompts.answer_messages(question, facts), max_tokens=90)
    for chunk in stream:
        chunks.append(chunk)
        if time.perf_counter() - t0 > PROBE_SECONDS:
            getattr(stream, "close", lambda: None)()  # too slow for the per-question budget: stop it there
            return False
    text = "".join(chunks)
    ev = [{"total": int(must[0]), "rows": [], "facts": facts}]
    kept, removed = grounded(text, ev, question + " " + facts)
    said = re.search(rf"(?<![\d,]){re.escape(must[0])}\s+[A-Za-z]", kept) is not None
    return not removed and said and must[1] in kept and _coherent(kept, facts)


def passes_quality(model) -> tuple[bool, str]:
    """(whether the model may write summaries, a note to say once when it may not); checked once per model."""
    name = getattr(model, "name", "model")
    key = name if name != "fake" else f"fake-{id(model)}"  # scripted test models are checked each time
    with _LOCK:
        if key not in _RESULTS:
            try:
                ok = sum(_probe(model, *p) for p in PROBES)
            except Exception as e:  # a model that fails to run the probes writes no summaries
                ok = -1
                _RESULTS[key] = (
                    False,
                    f"{name} could not run its quality check ({e}); answers are written from the data only",
                )
            if ok >= 0:
                passed = ok == len(PROBES)
                _RESULTS[key] = (
                    passed,
                    ""
                    if passed
                    else f"{name} did not pass the summary quality check ({ok} of {len(PROBES)} probe "
                    f"answers grounded, coherent and within {PROBE_SECONDS:g} s): answers are written "
                    "from the data, and the model only reads questions the rules cannot and suggests "
                    "which reading is meant",
                )
        return _RESULTS[key]
