"""Classes of misreading behind the confident wrong figures and misses of the rounds 28 to 35 (issue 14), each asked
here in other words than the rounds': a share asked with its total, a lay device name whose product codes are in
different classes, halves of a year, "that year" and a quarter said without its year after an answer, the date of
occurrence, quoted words, class II enforcement reports, a PMA number asked of a product code, EU applicants, the
issuing agency of a DI, standards and dosing refused, state abbreviations. Real library API, sample mirror."""

from __future__ import annotations

import re


def _headline(answer: str) -> str:
    return next(ln for ln in answer.splitlines()[1:] if ln.strip())


def test_a_share_gives_the_count_the_total_and_the_percentage(assistant):
    answer = assistant.ask("what proportion of product codes are class II, out of the total?")["answer"]
    assert answer.startswith("Interpreted as: classification (product codes); share: device class II"), answer
    assert "3,219 of the 6,530 product codes (49.3%)" in _headline(answer), answer


def test_a_percentage_keeps_the_rest_of_the_question_in_the_total(assistant):
    answer = assistant.ask("What percentage of 2012 enforcement reports were class II?")["answer"]
    assert re.search(r"\b1 of the 2 enforcement reports in 2012 \(50\.0%\)", _headline(answer)), answer


def test_a_lay_abbreviation_whose_codes_differ_in_class_is_asked_about(assistant):
    out = assistant.ask("which FDA class is a PSA blood test in?")
    assert out["clarify"] is not None, out["answer"]
    said = " ".join(out["clarify"]["choices"])
    assert "LTJ" in said and "MTG" in said and "(II, III)" in out["clarify"]["question"], out["clarify"]


def test_a_device_no_code_names_whole_is_asked_about_when_its_codes_differ(assistant):
    out = assistant.ask("which class are heart wearables?")
    assert out["clarify"] is not None and "different device classes" in out["clarify"]["question"], out["answer"]


def test_a_device_named_by_one_code_is_still_answered(assistant):
    answer = assistant.ask("what class is surgical mesh?")["answer"]
    assert "FTM" in answer and "class II" in _headline(answer), answer


def test_halves_of_a_year_said_in_months_are_compared(assistant):
    answer = assistant.ask("510(k) decisions in the initial 6 months of 2020 versus the final 6 months of 2020")[
        "answer"
    ]
    head = _headline(answer)
    assert "January to June 2020: 4" in head and "July to December 2020: 1" in head, answer


def test_that_year_and_a_bare_quarter_take_the_previous_answers_year(assistant):
    assistant.ask("PMA 30-day notice supplements decided in 2020", session_id="q4")
    answer = assistant.ask("how many of them in the 4th quarter of that year?", session_id="q4")["answer"]
    assert "Q4 2020" in answer.splitlines()[0], answer
    answer = assistant.ask("and only in Q1?", session_id="q4")["answer"]
    assert "Q1 2020" in answer.splitlines()[0], answer


def test_the_date_of_occurrence_is_the_event_date(assistant):
    answer = assistant.ask(
        "MDR count by date of occurrence, 1 Dec 2022 to 31 Dec 2022, regardless of when they were received"
    )["answer"]
    assert "(occurred)" in answer.splitlines()[0] and re.search(r"\b5 adverse event reports\b", answer), answer


def test_a_quoted_word_no_reading_used_gives_no_figure(assistant):
    answer = assistant.ask("how many 2023 510(k)s have 'reuse' in the summary?")["answer"]
    assert "in quotes" in answer and not re.search(r"\b\d+ 510\(k\)", answer), answer


def test_words_the_narratives_mention_are_searched_there(assistant):
    answer = assistant.ask("MAUDE reports whose narratives mention burst: how many?")["answer"]
    assert 'narratives holding "burst"' in answer.splitlines()[0], answer
    assert re.search(r"\b\d+ adverse event reports? whose narratives hold \"burst\"", _headline(answer)), answer
    answer = assistant.ask("count of 2023 adverse event reports with 'steril' in the narrative")["answer"]
    assert re.search(r"\b0 adverse event reports whose narratives hold \"steril\" in 2023\b", answer), answer


def test_class_ii_device_enforcement_reports_are_the_recall_class(assistant):
    answer = assistant.ask("How many class II device enforcement reports were there in 2012?")["answer"]
    assert answer.startswith("Interpreted as: enforcement reports"), answer
    assert re.search(r"\b1 enforcement report \(class II\)", _headline(answer)), answer


def test_the_pma_number_of_a_product_code_is_read_from_every_pma_record(assistant):
    answer = assistant.ask("what's the PMA no. for the NJK pulmonary valve?")["answer"]
    assert answer.startswith("Interpreted as: PMA approvals; product code NJK"), answer
    assert "P180007" in _headline(answer), answer


def test_eu_applicants_are_the_member_states(assistant):
    answer = assistant.ask("510(k)s: applicants based in the EU vs American applicants")["answer"]
    head = _headline(answer)
    assert "the European Union: 2" in head and "United States: 5" in head, answer


def test_the_issuing_agency_of_a_di_narrows_udi_and_gudid(assistant):
    answer = assistant.ask("number of UDI records whose DI was issued by HIBCC")["answer"]
    assert re.search(r"\b2 UDI device records\b", _headline(answer)), answer
    answer = assistant.ask("GUDID: how many devices have an ICCBBA identifier?")["answer"]
    assert "ICCBBA" in answer.splitlines()[0] and re.search(r"\b0 AccessGUDID device records\b", answer), answer


def test_standards_and_their_limits_are_refused(assistant):
    answer = assistant.ask("what is the permissible EtO residue per ISO 10993-7 for a prolonged contact device?")[
        "answer"
    ]
    assert "consensus standards" in answer and "Interpreted as" not in answer, answer


def test_dosing_asked_for_someone_else_is_refused(assistant):
    answer = assistant.ask("what dosage should the wearer use if the patch shows an arrhythmia?")["answer"]
    assert "medical advice" in answer, answer
    answer = assistant.ask("what should the patient do if the ECG patch alarms at night?")["answer"]
    assert "medical advice" in answer, answer


def test_a_state_abbreviation_with_its_full_stop_is_the_state(assistant):
    answer = assistant.ask("how many establishment registrations in Fla.?")["answer"]
    assert "place Florida" in answer.splitlines()[0], answer


def test_two_flags_said_together_both_narrow_the_gudid(assistant):
    answer = assistant.ask("GUDID records that are single use and sterile: 1) count them")["answer"]
    first = answer.splitlines()[0]
    assert "devices labeled sterile" in first and "single-use devices" in first, answer
    assert re.search(r"\b1 AccessGUDID device record\b", _headline(answer)), answer


def test_serial_and_lot_control_of_a_di_are_answered_yes_or_no(assistant):
    answer = assistant.ask("is DI 00811331018325 serial-controlled?")["answer"]
    assert _headline(answer).startswith("Yes: 1 ") and "controlled by serial number" in answer, answer
    answer = assistant.ask("is DI 00811331018325 controlled by lot?")["answer"]
    assert _headline(answer).startswith("No: 0 "), answer


def test_the_latest_termination_date_sorts_by_termination(assistant):
    answer = assistant.ask("what is the newest recall termination date in the mirror?")["answer"]
    assert "field most recent date (terminated)" in answer.splitlines()[0], answer
    assert "terminated on 2020-09-24" in _headline(answer), answer


def test_a_flag_asked_of_that_one_after_one_510k_is_yes_or_no(assistant):
    assistant.ask("510(k) clearances under procode GEI", session_id="gei")
    answer = assistant.ask("and did it use a third-party reviewer?", session_id="gei")["answer"]
    assert _headline(answer).startswith("Yes: 1 510(k) clearance"), answer


def test_a_patient_problem_said_in_full_is_a_filter(assistant):
    answer = assistant.ask("2023 MDRs coded with patient problem No Clinical Signs, Symptoms or Conditions")["answer"]
    assert "patient problem No Clinical Signs, Symptoms or Conditions" in answer.splitlines()[0], answer
    assert re.search(r"\b5 adverse event reports\b", _headline(answer)), answer


def test_two_datasets_said_against_each_other_are_each_counted(assistant):
    answer = assistant.ask("PMA decisions against 510(k) decisions, H1 2020")["answer"]
    assert "4 510(k) clearances from January to June 2020" in answer, answer
    assert "1 PMA record from January to June 2020" in answer, answer


def test_a_specialty_before_a_dataset_noun_is_the_panel(assistant):
    answer = assistant.ask("cardiology PMAs in 2020, supplements included - how many?")["answer"]
    assert "review panel Cardiovascular (CV)" in answer.splitlines()[0], answer
    assert re.search(r"\b1 PMA record\b", _headline(answer)), answer


def test_how_many_firms_counts_firms_not_records(assistant):
    answer = assistant.ask("How many different applicants got a 510(k) in 2020?")["answer"]
    head = _headline(answer)
    assert head.startswith("5 firms (by the firm's name as the records spell it) in 2020 hold the 5"), answer
    answer = assistant.ask("number of distinct recalling firms in the recall data")["answer"]
    assert _headline(answer).startswith("1 firm ") and "2 name no firm" in answer, answer


def test_a_model_number_finds_its_gudid_record(assistant):
    answer = assistant.ask("GUDID record for model PAD 6082 - publish date?")["answer"]
    assert "00811331018295" in answer and "2023-10-11" in answer, answer
