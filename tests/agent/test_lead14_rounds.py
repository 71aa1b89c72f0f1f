"""Classes of misreading found by the blind rounds 24 to 27 (issue 14), each asked here in other words than the
rounds': recall event numbers, registration listings' premarket numbers, US against foreign applicants, regulations
compared, 510(k)s narrowed by device class, devices labeled sterile, chat shorthand and date forms, background
about a client, lay names of glucose meters, GMP exemption flags, advice asked for a patient. Real library API,
sample mirror."""

from __future__ import annotations

import re

import pytest


def _headline(answer: str) -> str:
    return next(ln for ln in answer.splitlines()[1:] if ln.strip())


def test_a_recall_event_number_finds_its_enforcement_report_and_class(assistant):
    answer = assistant.ask("recall event 62925: which recall class did FDA assign?")["answer"]
    assert answer.startswith("Interpreted as: enforcement reports; recall event 62925"), answer
    assert "class III" in _headline(answer) and "Z-2338-2012" in answer, answer


def test_a_year_beside_the_word_recall_is_no_event_number(assistant):
    answer = assistant.ask("bone screw recall 2012, what class?")["answer"]
    assert "recall event 2012" not in answer, answer


def test_a_record_number_ending_a_sentence_keeps_its_full_stop_out(assistant):
    answer = assistant.ask("Count the product codes classified under regulation number 888.3060.")["answer"]
    assert re.search(r"\b7 product codes\b", _headline(answer)), answer


def test_a_registration_listing_gives_its_own_premarket_number(assistant):
    answer = assistant.ask("reg # 9610240 - which PMA is on that listing?")["answer"]
    assert "establishment registrations" in answer.splitlines()[0] and "P990041" in _headline(answer), answer


def test_us_and_foreign_applicants_are_compared_side_by_side(assistant):
    answer = assistant.ask("510(k) clearances: domestic applicants versus foreign applicants")["answer"]
    head = _headline(answer)
    assert "United States: 5" in head and "outside the United States: 2" in head, answer


def test_the_pronoun_us_is_no_country(assistant):
    answer = assistant.ask("can you show us the 510(k)s cleared in 2020")["answer"]
    assert "United States" not in answer.splitlines()[0], answer


def test_two_regulations_are_compared_one_side_each(assistant):
    answer = assistant.ask("number of product codes: 888.3060 versus 888.3080")["answer"]
    head = _headline(answer)
    assert "regulation 888.3060: 7" in head and "regulation 888.3080: 5" in head, answer


def test_a_device_class_narrows_510ks_by_the_class_of_their_product_code(assistant):
    assistant.ask("how many 510(k)s were decided in 2020", session_id="k-class")
    answer = assistant.ask("and of those, class II only?", session_id="k-class")["answer"]
    assert re.search(r"\b4 510\(k\) clearances\b", _headline(answer)), answer


@pytest.mark.parametrize("question", ["how many GUDID devices are labelled sterile", "UDI records flagged sterile"])
def test_devices_labeled_sterile_are_counted_by_their_flag(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert "devices labeled sterile" in answer.splitlines()[0] and re.search(r"^1 ", _headline(answer)), answer


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        ("pma decisons 4Q20", "dates Q4 2020"),
        ("510k decisions 2020Q2", "dates Q2 2020"),
        ("maude count CY2021, procode HRS", "dates 2021"),
        ("udi records w/ publish dt >= 1/1/2020", "dates since 2020-01-01"),
        ("mdrs for procode HRS 1/1/2019 - present", "dates since 2019-01-01"),
        ("enf reports terminated in 2013", "enforcement reports"),
        ("510(k)s received Q4 2019 through Q1 2020", "dates October 2019 to March 2020"),
    ],
)
def test_chat_shorthand_and_date_forms_are_read(assistant, question, reading):
    answer = assistant.ask(question)["answer"]
    assert answer.startswith("Interpreted as:") and reading in answer.splitlines()[0], answer


def test_a_clients_work_named_first_is_background_not_an_unnamed_firm(assistant):
    answer = assistant.ask("For a client's annual review: how many 510(k)s were cleared in 2020?")["answer"]
    assert re.search(r"\b5 510\(k\) clearances\b", _headline(answer)), answer


def test_an_unnamed_supplier_in_the_ask_still_gets_no_figure(assistant):
    answer = assistant.ask("how many recalls did our supplier have since 2019?")["answer"]
    assert not re.search(r"\b\d+ recall", answer), answer


def test_a_device_class_needs_no_firm_even_when_a_client_makes_it(assistant):
    answer = assistant.ask("a client makes glucose meters - what class are those?")["answer"]
    assert "without naming the firm" not in answer and "NBW" in answer, answer


def test_blood_sugar_meters_are_the_glucose_meter_codes(assistant):
    answer = assistant.ask("product code for a blood sugar meter please")["answer"]
    assert "NBW" in answer and "PZI" in answer, answer


def test_over_the_counter_asked_with_a_class_is_part_of_the_device_name(assistant):
    answer = assistant.ask("what device class is an over the counter blood glucose test system?")["answer"]
    assert "NBW" in answer.splitlines()[0] and "class II" in _headline(answer), answer


def test_the_gmp_exemption_of_two_codes_is_given_for_each(assistant):
    answer = assistant.ask("is a UV toothbrush sanitizer GMP exempt?")["answer"]
    head = _headline(answer)
    assert "MCF" in head and "NOB" in head and "no (N)" in head and "yes (Y)" in head, answer


def test_a_follow_up_field_value_is_read_in_the_previous_dataset(assistant):
    assistant.ask("serology evaluation results for Biomedomics", session_id="sero")
    answer = assistant.ask("how many were negatives?", session_id="sero")["answer"]
    assert "antibody truth Negative" in answer.splitlines()[0] and re.search(r"^3 ", _headline(answer)), answer


def test_originals_or_supplements_counts_every_pma_decision(assistant):
    answer = assistant.ask("PMA decisions in 2020, originals or supplements - how many?")["answer"]
    assert re.search(r"\b5 PMA records\b", _headline(answer)), answer


def test_a_definition_asked_beside_a_count_is_no_comparison(assistant):
    answer = assistant.ask("how many 510(k)s were cleared in 2020 and what does cleared mean versus approved?")
    assert re.search(r"\b5 510\(k\) clearances\b", _headline(answer["answer"])), answer["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "should a patient with a cracked hip implant have it taken out?",
        "my neighbour's knee implant was recalled, does she need another operation?",
    ],
)
def test_advice_for_a_patient_or_a_neighbour_is_refused(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert "medical advice" in answer and not re.search(r"\b\d+ (?:recall|adverse)", answer), answer


def test_a_code_said_before_product_code_is_read_even_when_it_is_a_word(assistant):
    answer = assistant.ask("MAX product code: is it an implant?")["answer"]
    head = _headline(answer)
    assert "MAX" in answer.splitlines()[0] and ("yes (Y)" in head or head.startswith("Yes")), answer


def test_english_three_letter_verbs_are_no_product_codes(assistant):
    answer = assistant.ask("We want to buy from a relabeler. How many registered establishments repack or relabel?")
    assert "product code" not in answer["answer"].splitlines()[0], answer["answer"]


@pytest.mark.parametrize(
    "question", ["FSCAs for class II devices - how many?", "field safety notices for FDA class 2 devices"]
)
def test_an_eu_word_for_a_recall_is_read_as_the_us_recalls(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert answer.startswith("Interpreted as: recalls") and re.search(r"^2 recalled products", _headline(answer))


def test_an_eu_authoritys_field_safety_notices_are_still_refused(assistant):
    answer = assistant.ask("how many field safety notices did the French competent authority publish in 2020?")
    assert "not in this mirror" in answer["answer"], answer["answer"]


@pytest.mark.parametrize(
    ("question", "reading"),
    [
        ("enforcement reports initiated 20/06/2012 to 31/12/2012", "dates 2012-06-20 to 2012-12-31"),
        ("enforcement reports initiated 20.06.2012 - 31.12.2012", "dates 2012-06-20 to 2012-12-31"),
        ("MDRs with an event date from 01/12/2022 to 31/12/2022", "dates December 2022"),
    ],
)
def test_dates_typed_day_first_are_read_day_first(assistant, question, reading):
    answer = assistant.ask(question)["answer"]
    assert reading in answer.splitlines()[0], answer


def test_a_product_code_ending_a_sentence_is_read(assistant):
    answer = assistant.ask("Our device is product code MLO. What class is it?")["answer"]
    assert "MLO" in answer.splitlines()[0] and "class II" in _headline(answer), answer


def test_a_lay_name_beside_the_code_it_gives_is_not_asked_back(assistant):
    answer = assistant.ask("death reports for coronary balloon catheters (product code LOX)")["answer"]
    assert answer.startswith("Interpreted as: adverse event reports") and "Before I answer" not in answer, answer
    assert re.search(r"^0 adverse event reports for product code LOX", _headline(answer)), answer
