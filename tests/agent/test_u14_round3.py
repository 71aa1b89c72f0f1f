"""Round 3 of the blind bank (issue 14): the classes of confident wrong figures it found, read in general form.

Drug names and advice for a person are refused by the guard; "the start of" / "the end of" a period are its edges.
(The firm holding a place, "<place>-based" and a bare year asked back are end-to-end cases in
understanding_cases.yaml, ids r3-*.)"""

from __future__ import annotations

from datetime import date

import pytest

from agent.guard import classify
from agent.understand.dates import read_dates
from agent.understand.tokens import tokenize

AS_OF = date(2025, 9, 23)


@pytest.mark.parametrize(
    "question",
    [
        "adverse events reported for Mounjaro",
        "recalls of blood pressure medications",
        "which antidepressants were recalled in 2020?",
        "show me reports about semaglutide",
        "is the infusion pump safe to use on a patient with diabetes?",
    ],
)
def test_drugs_and_advice_are_refused(question):
    assert classify(question) in ("out_of_scope", "medical")


@pytest.mark.parametrize(
    "question",
    [
        "adverse events for insulin pumps",
        "drug-eluting stent recalls",
        "morphine infusion pump malfunctions",
        "chemotherapy port recalls",
        "blood pressure monitor recalls",
        "recalls for the DELTA 3300",
        "how many UDI devices are prescription-only?",  # a device flag, not a drug
    ],
)
def test_device_words_beside_drug_words_are_asked(question):
    assert classify(question) == "ask"


@pytest.mark.parametrize(
    ("words", "start", "end"),
    [
        ("reports received after the start of 2010", date(2010, 1, 1), None),
        ("recalls since the beginning of 2015", date(2015, 1, 1), None),
        ("events after the end of 2019", date(2020, 1, 1), None),
        ("clearances before the end of 2018", None, date(2018, 12, 31)),
        ("clearances before the start of 2018", None, date(2017, 12, 31)),
        ("events until the end of March 2020", None, date(2020, 3, 31)),
        ("reports after 2010", date(2011, 1, 1), None),  # unchanged: after a whole year is after its end
    ],
)
def test_edges_of_a_period(words, start, end):
    got = read_dates(tokenize(words), AS_OF)
    assert got is not None and (got.start, got.end) == (start, end)
