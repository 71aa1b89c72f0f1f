"""Round 9 and 10 of the blind bank (issue 14), as general rules worded differently from the bank: a trend asked by
quarter is counted per calendar quarter (never per year), and questions about other regulators (EU MDR, notified
bodies, CE marking, BfArM, TUV) are refused in one sentence that says the mirror holds FDA device data only."""

from __future__ import annotations

import pytest

from agent import guard
from agent.understand.interpret import interpret


def _head(out: dict) -> str:
    return "\n".join(out["answer"].splitlines()[:3])  # the provenance below quotes the query itself


@pytest.mark.parametrize(
    "question",
    [
        "510(k) clearances each quarter of 2019",
        "quarterly counts of recalls in 2012",
        "adverse events split by quarter for 2015",
        "how many PMA supplements q1-q4 2018",
    ],
)
def test_a_trend_by_quarter_is_counted_per_quarter(ctx, question):
    it, _ = interpret(ctx, question, None)
    assert (it.measure, it.by) == ("trend", "quarter")


def test_a_quarter_trend_answers_with_quarter_buckets_not_years(assistant):
    out = assistant.ask("pma approvals by quarter in 2020", session_id="q")
    head = _head(out)
    assert "per quarter" in head and "2020-Q" in head
    assert "per year" not in head


def test_a_single_named_quarter_stays_a_date_not_a_trend(ctx):
    it, _ = interpret(ctx, "how many recalls in Q2 2016", None)
    assert it.measure != "trend"


@pytest.mark.parametrize(
    "question",
    [
        "who is the notified body for the Medtronic pacemaker CE mark?",
        "how many field safety notices for insulin pumps in Germany",
        "which devices did TUV Rheinland certify under the EU MDR",
        "list BfArM recalls of infusion pumps",
        "class IIa devices with a CE certificate",
    ],
)
def test_other_regulators_are_refused_as_not_fda_data(assistant, question):
    out = assistant.ask(question, session_id="reg")
    assert "only FDA medical-device data" in out["answer"]
    assert "did not understand" not in out["answer"]


@pytest.mark.parametrize(
    "question",
    ["how many MDRs for insulin pumps in 2020", "class II recalls of infusion pumps", "CE-rated power supply recalls"],
)
def test_fda_words_are_no_other_regulator(question):
    assert guard.classify(question) != "out_of_scope"
