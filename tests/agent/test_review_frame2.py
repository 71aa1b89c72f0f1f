"""Review of the round 13 and 16 frame rules (issue 14): a question the new rules could misread must never get a
confident figure. Each test is a question asked through the assistant on the sample mirror."""

from __future__ import annotations

import re


def _ask(assistant, question: str) -> str:
    return assistant.ask(question, session_id=re.sub(r"\W", "", question)[:30] or "q")["answer"]


def _body(answer: str) -> str:
    return answer.split("\n\n", 1)[1] if "\n\n" in answer else answer


def test_by_the_year_is_a_deadline_not_the_year_alone(assistant):
    answer = _ask(assistant, "How many 510(k)s had been cleared by the year 2021?")
    assert "dates up to 2021-12-31" in answer.split("\n")[0], answer
    assert not _body(answer).startswith("0 "), answer


def test_a_device_whose_words_are_spread_over_several_codes_gets_no_zero(assistant):
    answer = _ask(assistant, "How many recalls for the Sub Q device?")
    assert "I found no records for my reading of your question" in answer, answer
    assert not _body(answer).startswith("0 "), answer


def test_mos_said_without_a_number_is_no_months(assistant):
    answer = _ask(assistant, "How many MDRs for mos?")
    assert not re.match(r"\d", _body(answer)), answer
    assert "mos" in answer, answer


def test_by_the_end_of_the_year_and_by_year_end_are_deadlines(assistant):
    for question in (
        "How many 510(k)s had been cleared by the end of the year 2021?",
        "How many 510(k)s were cleared by year-end 2021?",
    ):
        answer = _ask(assistant, question)
        assert "dates up to 2021-12-31" in answer.split("\n")[0], answer


def test_a_capitalised_shorthand_inside_a_firm_name_is_no_dataset(assistant):
    answer = _ask(assistant, "How many 510(k)s for Supp Medical?")
    assert "supplements" not in answer.split("\n")[0], answer
    assert not re.match(r"\d", _body(answer)), answer


def test_for_it_before_a_comma_and_how_many_is_italy(assistant):
    answer = _ask(assistant, "Registrations for IT, how many?")
    assert "place Italy" in answer.split("\n")[0], answer


def test_by_year_then_a_year_is_a_grouping_and_a_start_not_a_deadline(assistant):
    answer = _ask(assistant, "MDR counts by year, 2010 onward")
    assert "since 2010-01-01" in answer.split("\n")[0] and "per year" in answer.split("\n")[0], answer
    assert "up to 2010" not in answer, answer


def test_a_named_record_beside_our_supplier_is_answered_not_asked_back(assistant):
    answer = _ask(assistant, "For the supplier file of our vendor I need the root cause of recall Z-0053-2020.")
    assert "without naming the firm" not in answer, answer
    assert "Z-0053-2020" in answer.split("\n")[0], answer
