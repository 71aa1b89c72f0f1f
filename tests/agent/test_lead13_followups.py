"""A follow-up that says its dataset again over "those" ("how many of those were approvals?") narrows the previous
answer's records; it is not a new question over the whole dataset (issue 14). Real library API, sample mirror."""

from __future__ import annotations

import re


def _headline(answer: str) -> str:
    return next(ln for ln in answer.splitlines()[1:] if ln.strip())


def test_approvals_of_those_supplements_keep_their_period_and_count_approved_ones(assistant):
    first = assistant.ask("PMA supplement decisions between October and December 2020", session_id="appr")
    assert re.search(r"\b4 PMA supplements\b", first["answer"]), first["answer"]
    answer = assistant.ask("and how many of them were approvals?", session_id="appr")["answer"]
    line = _headline(answer)
    assert re.search(r"\b3 PMA supplements\b", line) and "APPR" in line and "Q4 2020" in line, answer


def test_of_these_approved_after_a_supplement_list_is_not_the_originals(assistant):
    assistant.ask("list the PMA supplements decided in Q4 2020", session_id="appr2")
    answer = assistant.ask("of these, how many got approved?", session_id="appr2")["answer"]
    assert "original" not in _headline(answer).lower(), answer
    assert re.search(r"\b3 PMA supplements\b", answer), answer


def test_another_dataset_over_those_still_binds_the_previous_result(assistant):
    assistant.ask("top manufacturers of infusion pumps in adverse events", session_id="other-ds")
    answer = assistant.ask("any recalls for those?", session_id="other-ds")["answer"]
    assert answer.startswith("Interpreted as: recalls") and "previous answer" in answer, answer


def test_maintenance_instructions_are_refused_with_where_to_find_them(assistant):
    answer = assistant.ask("what PM interval does the maker recommend for our Alaris infusion pumps?")["answer"]
    assert "service manual" in answer and not re.search(r"\b\d+ (?:adverse|recall|record)", answer), answer


def test_maintenance_as_a_recalls_reason_is_not_refused(assistant):
    answer = assistant.ask("how many MDRs mention a service manual?")["answer"]
    assert "service manual and instructions for use" not in answer, answer


def test_two_device_words_without_a_comparison_word_are_no_comparison(assistant):
    answer = assistant.ask("model number of NETECH's pacemaker analyzer for our predicate table")["answer"]
    assert "side by side" not in answer and "EXPMT 2000" in answer and "DELTA 3300" in answer, answer
    assert 'Words not used: "table"' in answer or 'taken as background): "table"' in answer, answer


def test_a_request_sentence_naming_a_dataset_is_part_of_the_ask(assistant):
    answer = assistant.ask(
        "I need the UDI record for NETECH Corporation's pacemaker analyzer. Which model number is listed?"
    )["answer"]
    assert answer.startswith("Interpreted as: UDI") and "EXPMT 2000" in answer, answer


def test_how_many_are_after_a_list_counts_among_its_records(assistant):
    assistant.ask("which class 3 codes does the dental panel have?", session_id="dental")
    answer = assistant.ask("how many r implantable?", session_id="dental")["answer"]
    line = _headline(answer)
    figures = set(re.findall(r"(?<![(\w])(\d+)(?![)\w])", line.split("(classification as of")[0]))
    assert figures == {"6"} and "Dental" in line and "implants" in line, answer  # one field or both: 6 each


def test_a_board_pack_or_deck_is_the_askers_work_not_a_board_device(assistant):
    answer = assistant.ask("510(k) clearances per decision year between 1991 and 2019 for the board pack")["answer"]
    assert "Board, " not in answer and re.search(r"1992: 1; 2000: 1", answer), answer


def test_approved_among_every_pma_decision_of_a_period_counts_the_approved_ones(assistant):
    first = assistant.ask("PMA decisions in the last quarter of 2020, please", session_id="all-appr")["answer"]
    assert re.search(r"\b4 PMA records\b", first), first
    answer = assistant.ask("and how many of them got approved?", session_id="all-appr")["answer"]
    assert re.search(r"\b3 PMA records \(decision APPR", answer) and "original" not in _headline(answer), answer


def test_two_numeric_months_joined_by_to_are_one_range_not_two_sides(assistant):
    answer = assistant.ask("510(k) clearances 03/2020 to 06/2020")["answer"]
    assert "side by side" not in answer and "dates March to June 2020" in answer, answer


def test_a_contrast_with_rather_than_is_no_filter_to_count_on(assistant):
    assistant.ask("Which PMA supplements had decisions in Q4 2020?", session_id="rather")
    answer = assistant.ask("How many of those were approvals rather than 30-day notices?", session_id="rather")
    assert "30 Day Notice" not in answer["answer"].split("\n")[0] or "no figure" in answer["answer"], answer["answer"]
    assert not re.search(r"\b0 PMA", answer["answer"]), answer["answer"]


def test_a_seven_digit_model_number_in_a_udi_question_is_no_mdr_key(assistant):
    answer = assistant.ask("primary DI of the NuVasive CoRoent 5163284 in the UDI database")["answer"]
    assert answer.startswith("Interpreted as: UDI") and "report 5163284" not in answer, answer


def test_the_no_of_yes_or_no_leaves_nothing_out(assistant):
    answer = assistant.ask("recalls for Arrow International, yes or no were any class I?")["answer"]
    assert "leave out" not in answer and re.search(r"^(?:Yes|No):", _headline(answer)), answer
