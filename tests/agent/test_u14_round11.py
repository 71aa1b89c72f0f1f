"""Round 11 of issue 14 as general rules: the words of quality and regulatory work frame a question and are never
searched as names; yes/no questions are answered Yes or No first; MDR report numbers and record numbers with a
description beside them name one record; day ranges are dates; drug questions are refused. Worded apart from the
bank, on the sample mirror."""

from __future__ import annotations

from datetime import date

import pytest

from agent.guard import classify
from agent.understand.dates import read_dates
from agent.understand.interpret import interpret
from agent.understand.tokens import tokenize

AS_OF = date(2025, 9, 23)


def _body(answer: str) -> str:
    return answer.split("\n\n", 1)[1] if "\n\n" in answer else answer


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("MDRs received between February 1 and April 30, 2022", date(2022, 2, 1), date(2022, 4, 30)),
        ("recalls from 3 May to 9 June 2021", date(2021, 5, 3), date(2021, 6, 9)),
        ("reports dated 07/01/2019-09/30/2019", date(2019, 7, 1), date(2019, 9, 30)),
        ("events June 2 - August 15, 2020", date(2020, 6, 2), date(2020, 8, 15)),
    ],
)
def test_a_range_of_days_is_read_as_dates(question, start, end):
    tokens = tokenize(question)
    rng = read_dates(tokens, AS_OF)
    assert rng is not None and (rng.start, rng.end) == (start, end)
    assert all(
        not tokens.free(i) for i, t in enumerate(tokens.toks) if t.low[:3] in ("feb", "apr", "may", "jun", "aug")
    )


@pytest.mark.parametrize(
    "question",
    [
        "For our supplier audit: has Encore Medical been in any class II recall?",
        "we are reviewing the vendor file - did Encore Medical ever get a class 2 enforcement action?",
        "CAPA 2231 follow-up: any class II recalls of Encore Medical? yes/no",
    ],
)
def test_work_words_frame_a_yes_no_question_about_a_firm(assistant, question):
    out = assistant.ask(question, session_id="yn")
    body = _body(out["answer"])
    assert body.startswith("Yes: 1 enforcement report from Encore Medical"), body
    assert "cap" not in out["answer"].lower().replace("capa", "")


def test_a_no_is_said_first_when_nothing_is_found(assistant):
    out = assistant.ask("has Encore Medical ever had a class I recall?", session_id="no")
    assert _body(out["answer"]).startswith("No: 0 enforcement reports"), out["answer"]


def test_a_screw_supplier_is_no_device_filter(ctx):
    it, clar = interpret(ctx, "Should we approve Encore Medical as our screw supplier, any class II recalls on record?")
    assert clar is None and it.device is None
    assert it.firm is not None and it.firm.name.startswith("Encore Medical")


@pytest.mark.parametrize(
    "question",
    [
        "for the complaint file: which problem was coded on MDR report 2032227-2023-100002",
        "device problem, report no. 2032227-2023-100002",
    ],
)
def test_an_mdr_report_number_names_its_report(assistant, question):
    out = assistant.ask(question, session_id="rn")
    assert "Improper Flow or Infusion" in out["answer"], out["answer"]
    assert "report 2032227-2023-100002" in out["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "when did Arrow start recall Z-0053-2020 (the pediatric CVC kit with the lidstock label)?",
        "Z-0053-2020, the Arrow blue kit one: initiation date for our supplier file",
    ],
)
def test_words_beside_a_recall_number_describe_it(assistant, question):
    out = assistant.ask(question, session_id="zd")
    answer = out["answer"]
    assert "2019-05-17" in answer and "Z-0053-2020" in answer, answer
    assert "patient" not in answer and "I give no figure" not in answer
    assert "was read as describing Z-0053-2020" in answer


def test_a_complaint_being_worked_is_not_medical_advice():
    assert classify("I have a complaint about a Medtronic lead, which product code is it filed under?") == "ask"
    assert classify("I have a customer complaint on an infusion set; any recalls for it?") == "ask"
    assert classify("I have pain near my implant, should I worry?") == "medical"
    assert classify("my doctor says my pacemaker is recalled, should I have it replaced?") == "medical"


@pytest.mark.parametrize(
    "question",
    [
        "For the combination-product trend review, which famotidine tablet lots were recalled?",
        "recall class of the valsartan 160 mg tablets for our CAPA",
        "metformin caplets recalled in 2020",
    ],
)
def test_drug_questions_are_refused_even_with_device_context(question):
    assert classify(question) == "out_of_scope"


@pytest.mark.parametrize("question", ["capsule endoscopy adverse events in 2023", "heparin-coated catheter recalls"])
def test_device_words_near_drugs_are_still_asked(question):
    assert classify(question) == "ask"


def test_two_event_types_with_a_slash_are_counted_together(ctx):
    it, clar = interpret(ctx, "count of death/malfunction MDRs for insulin infusion pumps in 2023")
    assert clar is None and not it.sides and it.measure != "compare"
    types = [f for f in it.filters if f.field == "event_type"]
    assert len(types) == 1 and isinstance(types[0].value, list) and len(types[0].value) == 2


@pytest.mark.parametrize(
    "question",
    [
        "For the quarterly management review: Medtronic recalls in 2019?",
        "field actions by Medtronic during 2019, for the risk file",
    ],
)
def test_a_review_or_file_of_the_work_names_no_device(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.device is None, clar
    assert it.datasets == ["recall"] and it.firm is not None and it.firm.name.startswith("Medtronic")
    assert (it.date_from, it.date_to) == (date(2019, 1, 1), date(2019, 12, 31))


@pytest.mark.parametrize(
    "question",
    ["CAPA-0107: number of MDRs for product code FRN in 2023", "ncr 2023-88 - FRN adverse events during 2023"],
)
def test_the_works_own_record_number_is_neither_a_device_nor_a_date(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.codes() == ["FRN"] and it.datasets == ["event"]
    assert (it.date_from, it.date_to) == (date(2023, 1, 1), date(2023, 12, 31)) and not it.unexplained


def test_customer_complaints_counted_are_still_the_adverse_event_reports(ctx):
    it, _ = interpret(ctx, "how many customer complaints were filed on FRN pumps in 2023")
    assert it.datasets == ["event"] and it.codes() == ["FRN"]


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("MDRs from 2022-02-01 to 2022-04-30", date(2022, 2, 1), date(2022, 4, 30)),
        ("recalls from the 2nd of May to the 9th of June 2021", date(2021, 5, 2), date(2021, 6, 9)),
    ],
)
def test_whole_days_and_ordinal_days_make_a_range(question, start, end):
    rng = read_dates(tokenize(question), AS_OF)
    assert rng is not None and (rng.start, rng.end) == (start, end)


def test_a_threshold_question_is_answered_by_its_figure_not_a_bare_yes(assistant):
    out = assistant.ask("did Encore Medical have more than 3 class II recalls?", session_id="th")
    body = _body(out["answer"])
    assert not body.startswith(("Yes", "No")) and "1 enforcement report" in body, body


@pytest.mark.parametrize(
    "question",
    [
        "As part of our vendor evaluation of Arrow International, show their recalls",
        "Post-market surveillance memo: Arrow International recalls",
        "Incoming inspection found defects; were there recalls for Arrow International?",
        "regulatory intelligence request - Arrow International recalls",
    ],
)
def test_the_frame_of_the_work_leaves_the_firm_and_the_dataset(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.understood and it.device is None and not it.unexplained, (clar, it.unexplained)
    assert it.datasets == ["recall"] and it.firm is not None and it.firm.name.startswith("Arrow International")
    assert it.measure in ("list", "count")


def test_an_annual_product_review_is_no_yearly_trend(ctx):
    it, clar = interpret(ctx, "for the annual product review: FRN adverse events in 2023")
    assert clar is None and it.measure != "trend" and it.codes() == ["FRN"]
