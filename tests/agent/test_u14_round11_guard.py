"""The accounting check of issue 14 (agent/understand/accounting.py): a figure is stated only when the search that ran
computed every measure and grouping the question asks for, each side of a comparison is read as surely as a single
search, and a word that only describes a device, asks for a measure or names an identifier is never a device. Worded
apart from the bank, on the sample mirror."""

from __future__ import annotations

from datetime import date

import pytest

from agent.understand.accounting import account
from agent.understand.dates import read_dates
from agent.understand.interpret import interpret
from agent.understand.tokens import tokenize
from agent.understand.types import Interpretation

AS_OF = date(2025, 9, 23)


def _body(answer: str) -> str:
    return answer.split("\n\n", 1)[1] if "\n\n" in answer else answer


@pytest.mark.parametrize(
    ("question", "measure", "by"),
    [
        ("510(k) clearances per quarter in 2021", "trend", "year"),
        ("monthly counts of recalls in 2012", "count", None),
        ("MDRs each year, listed", "list", None),
        ("top firms per month in 2020", "top", "recalling_firm"),
    ],
)
def test_a_grouping_asked_but_not_run_gives_no_figure(question, measure, by):
    held, lead = account(Interpretation(question=question, measure=measure, by=by), [5])
    assert held and "no figure" in held and not lead


@pytest.mark.parametrize(
    ("question", "by"),
    [("recalls per quarter in 2012", "quarter"), ("monthly MDR counts", "month"), ("clearances by year", "year")],
)
def test_a_grouping_that_ran_is_stated(question, by):
    assert account(Interpretation(question=question, measure="trend", by=by), [5]) == ("", "")


def test_a_week_is_said_to_be_counted_otherwise(assistant):
    out = assistant.ask("maude reports on a weekly basis during 2023", session_id="w")
    body = _body(out["answer"])
    assert body.startswith("I count per month, quarter or year, not per week")
    assert "5 adverse event reports" in body


@pytest.mark.parametrize(
    ("question", "what"),
    [
        ("what is the mean number of recalls per year", "averages"),
    ],
)
def test_a_measure_the_tools_cannot_compute_is_said_and_counts_are_labelled(assistant, question, what):
    out = assistant.ask(question, session_id="m")
    body = _body(out["answer"])
    assert body.startswith(f"I do not compute {what} here: the figures below are counts of records")


@pytest.mark.parametrize(
    ("question", "part"),
    [
        ("what fraction of maude reports are malfunctions", "7 of the 7 adverse event reports (100.0%)"),
        ("what share of the 2023 adverse event reports were malfunctions", "5 of the 5 adverse event reports in 2023"),
    ],
)
def test_a_share_of_the_records_is_given_with_its_total(assistant, question, part):
    body = _body(assistant.ask(question, session_id="m")["answer"])
    assert body.startswith(part) and "match malfunction reports" in body, body


def test_the_time_between_two_dates_of_many_records_is_said(assistant):
    out = assistant.ask("number of days from initiation to termination for recall Z-0053-2020", session_id="d")
    assert "I do not compute the time between two dates here" in out["answer"]


def test_the_fewest_is_never_answered_with_the_most(ctx):
    it = Interpretation(question="which firm has the fewest recalls", measure="top", by="recalling_firm")
    held, _ = account(it, [3])
    assert "not from the fewest" in held


@pytest.mark.parametrize(
    "question",
    [
        "how many adverse events involved saline compared with blood",
        "registrations that listed pump compared with catheter",
    ],
)
def test_a_zero_against_zero_over_weak_sides_is_not_stated(assistant, question):
    out = assistant.ask(question, session_id="c")
    assert ": 0;" not in out["answer"] and "side by side" not in out["answer"]
    assert out["clarify"] and "I found no records for my reading" in out["clarify"]["question"]


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("reusable device types in class 2", "reusable"),
        ("how many sterile products are class III", "sterile"),
        ("disposable devices with recalls", "disposable"),
    ],
)
def test_a_describing_word_alone_is_never_a_device(ctx, question, word):
    it, ask = interpret(ctx, question, None)
    assert ask is None and not it.understood
    assert f'"{word}" describes a device but names none' in it.cannot


@pytest.mark.parametrize(
    ("question", "word"),
    [("rate of injuries in the adverse event reports", "rate"), ("what were the rates of deaths in maude", "rates")],
)
def test_a_measure_word_is_never_a_device(ctx, question, word):
    it, ask = interpret(ctx, question, None)
    assert ask is None and not it.understood
    assert "asks for a measure, not a device" in it.cannot


def test_a_describing_word_before_a_device_noun_keeps_the_device(ctx):
    it, _ = interpret(ctx, "sterile tray recalls", None)
    assert it.understood and it.device is not None and "tray" in it.device.words.lower()


def test_a_serial_number_asked_is_never_answered_with_a_count(assistant):
    out = assistant.ask("what serial no. is in MDR 16081314?", session_id="s")
    assert "serial number is not among the fields" in out["answer"]
    assert "1 adverse event report" not in out["answer"]


@pytest.mark.parametrize(
    ("words", "start", "end"),
    [
        ("in the second half", date(2025, 7, 1), date(2025, 9, 23)),
        ("during the first half", date(2025, 1, 1), date(2025, 6, 30)),
        ("in the second half of 2021", date(2021, 7, 1), date(2021, 12, 31)),
    ],
)
def test_a_half_year_without_a_year_is_anchored_on_the_as_of_date(words, start, end):
    rng = read_dates(tokenize(words), AS_OF)
    assert rng is not None and (rng.start, rng.end) == (start, end)


def test_a_half_year_without_a_year_is_never_a_device(assistant):
    out = assistant.ask("how many 510(k)s in the second half?", session_id="h")
    head = out["answer"].splitlines()[0]
    assert "Second Antibody" not in out["answer"] and "2025-07-01" in head


@pytest.mark.parametrize("question", ["opthalmic device types in class 2", "ophtalmology panel product codes"])
def test_a_panel_word_with_a_slip_reads_as_the_panel(ctx, question):
    it, ask = interpret(ctx, question, None)
    assert ask is None and it.device is None
    assert any(f.label.endswith("Ophthalmic (OP)") for f in it.filters) or "Ophthalmic (OP)" in it.cannot + " ".join(
        it.notes
    )


def test_the_earliest_of_several_records_is_not_answered_with_a_newest_first_list(assistant):
    out = assistant.ask("the oldest maude report for product code OZP", session_id="o")
    assert "do not pick out the earliest" in out["answer"]
    assert "| Report key" not in out["answer"]


def test_a_single_record_is_its_own_earliest(ctx):
    it = Interpretation(question="earliest recall for Z-0053-2020", measure="list")
    assert account(it, [1]) == ("", "")


def test_an_ordinary_verb_is_grammar_not_a_device(ctx):
    it, ask = interpret(ctx, "which labeler DUNS does Netech use", None)
    assert ask is None and it.device is None
    assert it.firm is not None and it.firm.name.startswith("NETECH") and it.field == "labeler_duns_number"


def test_a_serial_number_of_a_device_is_never_answered_with_its_lot(assistant):
    out = assistant.ask("give me the serial no of the 630G pump in the mdr data", session_id="s2")
    assert "serial number is not among the fields" in out["answer"]
    assert "HG4A1P5" not in out["answer"]


@pytest.mark.parametrize(
    ("question", "by"),
    [
        ("what month in 2023 saw the most MDRs", "month"),
        ("in 2020, which quarter had the highest number of pma decisions", "quarter"),
    ],
)
def test_which_period_had_the_most_is_a_count_per_period(ctx, question, by):
    it, ask = interpret(ctx, question, None)
    assert ask is None and (it.measure, it.by) == ("trend", by)


def test_every_month_is_a_grouping(ctx):
    it, _ = interpret(ctx, "adverse event reports for every month of 2023", None)
    assert (it.measure, it.by) == ("trend", "month")


def test_a_half_year_grouping_is_said_to_be_counted_otherwise():
    it = Interpretation(question="clearances per half-year in 2020", measure="count")
    assert account(it, [5])[1].startswith("I count per month, quarter or year, not per half year")


def test_a_comparison_read_with_one_side_gives_no_figure(assistant):
    out = assistant.ask("recalls that were open compared to those terminated", session_id="v")
    assert "I read only one side of it" in out["answer"] or "side by side" in out["answer"]
    assert (
        "I read only one side of it"
        in account(Interpretation(question="terminated versus ongoing recalls", measure="count"), [1])[0]
    )


@pytest.mark.parametrize(
    "question", ["510(k)s by product code per year", "top 3 firms by recall count per year", "mdrs by brand each year"]
)
def test_a_second_breakdown_beside_the_period_gives_no_figure(question):
    held, _ = account(Interpretation(question=question, measure="trend", by="year"), [4])
    assert "second breakdown" in held


def test_how_many_days_a_recall_lasted_is_said_not_computed(assistant):
    out = assistant.ask("how many days did Arrow International's recall run", session_id="r")
    assert "I do not compute the time between two dates here" in out["answer"]


def test_a_rate_per_hundred_is_said_not_computed():
    _, lead = account(Interpretation(question="injuries per 1,000 reports in 2023", measure="count"), [2])
    assert lead.startswith("I do not compute percentages or rates here")


@pytest.mark.parametrize(
    "question",
    ["recalls over the last year and a half", "MDRs received in a year", "510(k)s from the first half of 2020"],
)
def test_a_period_is_no_grouping(question):
    assert account(Interpretation(question=question, measure="count"), [3]) == ("", "")


def test_a_place_asked_of_gudid_is_said_in_plain_words(assistant):
    out = assistant.ask("AccessGUDID device records from labelers in California", session_id="g")
    assert "cannot be narrowed to a place (California), so the search ran without it" in out["answer"]
    assert "records in California" not in out["answer"]
    assert "product_codes" not in out["answer"]


def test_a_place_asked_of_the_gudid_release_alone_is_said_in_plain_words(assistant):
    out = assistant.ask("GUDID devices from labelers in Texas", session_id="g2")
    assert "cannot be narrowed to a place here, so I give no figure for Texas" in out["answer"]
    assert "product_codes" not in out["answer"]
