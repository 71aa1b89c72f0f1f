"""Round 8 of the blind bank (issue 14), as general rules worded differently from the bank: a zero is said only when
the question was understood (a device read through corrected or defined-only words gives no figure), two values of
one field are compared, never AND-ed, a field asked of a term whose codes disagree is asked back, periods inside a
year ("the final quarter of 2019", "Nov 2022 - Dec 2022") are that year's, money questions are refused, "not" is
grammar, a firm's site is a side of a comparison, and a problem said in other words is the problem."""

from __future__ import annotations

from datetime import date

import pytest

from agent.understand.commerce import REPLY as COMMERCE_REPLY
from agent.understand.commerce import asks_commerce
from agent.understand.dates import read_dates
from agent.understand.guards import weak_zero
from agent.understand.interpret import interpret
from agent.understand.judgement import REPLY as JUDGEMENT_REPLY
from agent.understand.judgement import asks_judgement
from agent.understand.tokens import tokenize
from agent.understand.types import Code, DeviceFilter, Interpretation

AS_OF = date(2025, 9, 23)


def _head(out: dict) -> str:
    return "\n".join(out["answer"].splitlines()[:3])  # the provenance below quotes the query itself


@pytest.mark.parametrize(
    ("said", "start", "end"),
    [
        ("recalls initiated in the final quarter of 2019", date(2019, 10, 1), date(2019, 12, 31)),
        ("events during the last quarter 2021", date(2021, 10, 1), date(2021, 12, 31)),
        ("510(k)s in the last half of 2020", date(2020, 7, 1), date(2020, 12, 31)),
        ("the last month of 2018", date(2018, 12, 1), date(2018, 12, 31)),
        ("reports from Nov 2022 - Dec 2022", date(2022, 11, 1), date(2022, 12, 31)),
        ("from February 2021 to April 2021", date(2021, 2, 1), date(2021, 4, 30)),
        ("510(k)s cleared between March and May 2020", date(2020, 3, 1), date(2020, 5, 31)),
        ("enforcement reports dated FY2012", date(2011, 10, 1), date(2012, 9, 30)),
        ("recalls in fiscal year 2016", date(2015, 10, 1), date(2016, 9, 30)),
    ],
)
def test_a_part_of_a_named_year_is_that_years_part(said, start, end):
    rng = read_dates(tokenize(said), AS_OF)
    assert rng is not None and (rng.start, rng.end) == (start, end)


def test_the_last_quarter_alone_stays_relative_to_the_data():
    rng = read_dates(tokenize("recalls in the last quarter"), AS_OF)
    assert rng is not None and rng.end == AS_OF


@pytest.mark.parametrize(
    "question",
    [
        "how many class I and how many class II dental product codes",
        "dental product codes: class 1 vs class 2",
        "are there more class one or class two dental devices?",
    ],
)
def test_two_values_of_one_field_are_compared_not_and_ed(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.understood
    assert it.measure == "compare"
    classes = [[f.value for f in s.filters if f.field == "device_class"] for s in it.sides]
    assert classes in ([["1"], ["2"]], [["1"], ["2"], ["1"], ["2"]])  # by the specialty, and by the review panel
    assert not any(f.field == "device_class" for f in it.filters)  # no side holds both classes


def test_the_value_said_after_not_is_left_out_not_compared(ctx):
    it, clar = interpret(ctx, "malfunction reports in 2023, not deaths")
    assert clar is None and not it.sides
    assert [(f.field, f.value) for f in it.filters] == [("event_type", "Malfunction")]


def test_compared_classes_are_counted_per_side(assistant):
    out = assistant.ask("how many class I and how many class II dental product codes", session_id="cmp")
    head = _head(out)
    assert "device class I, medical specialty Dental (DE): 191" in head  # "dental" alone: by both panel fields
    assert "device class II, medical specialty Dental (DE): 108" in head and "review panel Dental (DE): 190" in head


@pytest.mark.parametrize(
    "question",
    [
        "what does the 630G insulin pump cost",
        "Abbott's market share in glucose meters",
        "how many 630G pumps were sold in 2023",
        "annual revenue of Becton Dickinson from syringes",
        "list price for an Impella heart pump",
    ],
)
def test_money_and_markets_are_refused(question):
    assert asks_commerce(question)


@pytest.mark.parametrize(
    "question",
    ["how many units were recalled in Z-0053-2020", "recalls of infusion pumps since 2019", "events for the 630G pump"],
)
def test_record_questions_are_no_money_questions(question):
    assert not asks_commerce(question)


def test_a_money_question_gets_no_figure(assistant):
    out = assistant.ask("how many InterStim leads did Medtronic sell in 2024?", session_id="sell")
    assert out["answer"] == COMMERCE_REPLY
    assert not any(ch.isdigit() for ch in out["answer"].split("for example")[0])


def test_not_is_grammar_never_the_product_code_NOT(ctx):
    it, _ = interpret(ctx, "how many malfunctions occurred in Q4 2022 (event date, not the received date)")
    assert it.device is None or "NOT" not in it.codes()


def test_a_zero_over_corrected_words_is_not_said(assistant):
    out = assistant.ask("how many InterStim lead adverse events in 2024", session_id="z")
    assert out["clarify"] and "I found no records for my reading" in out["clarify"]["question"]
    assert '"interstim"' in out["clarify"]["question"]
    assert "0 adverse event reports" not in out["answer"]


def test_a_zero_of_an_understood_question_is_said(assistant):
    out = assistant.ask("death reports in 2023", session_id="z0")
    assert "0 adverse event reports" in _head(out)


def test_weak_zero_names_the_device_words_no_code_holds():
    it = Interpretation(
        question="q",
        measure="count",
        device=DeviceFilter(words="zorblax tubing", codes=[Code(code="FPK", name="Tubing, Fluid Delivery")]),
    )
    assert '"zorblax"' in weak_zero(it, [0])
    assert weak_zero(it, [3]) == ""  # records found: the figure stands
    it.device = DeviceFilter(words="fluid tubing", codes=[Code(code="FPK", name="Tubing, Fluid Delivery")])
    assert weak_zero(it, [0]) == ""  # every word is in the code's name: the zero stands


@pytest.mark.parametrize("question", ["tray: what device class", "which device class are trays in?"])
def test_a_class_asked_of_codes_that_disagree_is_asked_back(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is not None and len(clar.choices) >= 2
    assert "different device classes" in clar.question


def test_a_firms_site_is_a_side_of_a_comparison(assistant):
    out = assistant.ask("MiniMed or Medtronic PR: which has more adverse events", session_id="site")
    head = _head(out)
    assert "MEDTRONIC PUERTO RICO OPERATIONS CO.: 3" in head and "MiniMed: 1" in head
    assert "place Puerto Rico" not in head


def test_a_problem_said_in_other_words_is_the_problem(assistant):
    out = assistant.ask("adverse events where the display showed no image", session_id="img")
    head = _head(out)
    assert "device problem No Display/Image" in head and "2 adverse event reports" in head


def test_the_specialty_ranked_is_named(assistant):
    out = assistant.ask("which specialty has the most class II product codes", session_id="sp")
    assert "Gastroenterology, Urology: 405" in _head(out)


def test_a_review_panel_ranked_is_named_not_coded(assistant):
    out = assistant.ask("which review panel has the most class I devices?", session_id="rp")
    assert "Clinical Chemistry (CH): 267" in _head(out)


def test_the_lot_of_an_event_report_is_its_devices_lot(assistant):
    out = assistant.ask("lot number on the NC Emerge report", session_id="lot")
    assert "0029830255" in _head(out)


def test_classes_listed_as_a_question_ask_the_class(assistant):
    out = assistant.ask("the Yumizen C1200 CRP: class 1, 2 or 3?", session_id="yz")
    assert "K192028" in _head(out) and "device class II" in _head(out)


def test_registered_is_a_verb_when_another_dataset_is_named(ctx):
    it, clar = interpret(ctx, "which devices has Netech registered in the UDI database")
    assert clar is None and it.understood and it.datasets == ["udi"]


def test_a_brand_typed_with_a_slip_is_read_from_the_records_names(assistant):
    out = assistant.ask("when was the o-genisis graft delivery system cleared", session_id="og")
    head = _head(out)
    assert "K200606" in head and "decision date 2020-05-01" in head


def test_the_devices_a_firm_has_in_gudid_are_its_records(assistant):
    out = assistant.ask("which devices does Netech Corporation have in the GUDID release?", session_id="nt")
    assert "External Pacemaker Ananlyzer" in out["answer"]
    assert "Product codes with the most" not in out["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "which glucose meter is the safest?",
        "is the Impella heart pump safe to use?",
        "what's the failure rate of the 770G pump",
        "how many hospitals use the da Vinci robot?",
        "what percentage of 630G pumps broke down",
    ],
)
def test_judgements_and_rates_are_refused(question):
    assert asks_judgement(question)


@pytest.mark.parametrize(
    "question",
    ["is the EXPMT 2000 analyzer MR safe?", "most common device problems in 2023", "which firm has the most recalls"],
)
def test_record_questions_are_no_judgements(question):
    assert not asks_judgement(question)


def test_a_safety_ranking_gets_no_figure(assistant):
    out = assistant.ask("which insulin pump is the safest?", session_id="safe")
    assert out["answer"] == JUDGEMENT_REPLY


def test_a_firms_staff_is_no_record_figure(assistant):
    out = assistant.ask("how many employees does Abbott have?", session_id="staff")
    assert out["answer"] == COMMERCE_REPLY


def test_which_is_more_common_compares_and_is_no_device(ctx):
    it, clar = interpret(ctx, "recall classes in enforcement reports: class I or class II, which is more common?")
    assert clar is None and it.measure == "compare" and it.device is None


def test_a_zero_over_words_no_record_names_is_not_said():
    it = Interpretation(
        question="q", measure="count", device=DeviceFilter(words="frobnicator", path="names", text="frobnicator")
    )
    assert '"frobnicator"' in weak_zero(it, [0, 0])
    it.device.found = 4
    assert weak_zero(it, [0, 0]) == ""  # the names hold the words: the zero of a narrower search stands


def test_recall_classes_compared_are_counted_in_enforcement_reports(assistant):
    out = assistant.ask("how many recalls are class II and how many class III", session_id="rc")
    head = _head(out)
    assert "enforcement reports" in head and "class II: 1" in head and "class III: 1" in head


@pytest.mark.parametrize("question", ["adverse events for class II devices in 2023", "UDI records of class 2 devices"])
def test_a_device_class_the_search_cannot_apply_gives_no_figure(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and not it.understood
    assert "do not filter by device class" in it.cannot


def test_class_iii_pma_approvals_are_every_pma_approval(ctx):
    it, clar = interpret(ctx, "pma approvals for class III devices in 2020")
    assert clar is None and it.understood and not any(f.field == "device_class" for f in it.filters)
    assert any("class III devices" in n for n in it.notes)


def test_a_value_to_leave_out_gives_no_opposite_count(ctx):
    it, clar = interpret(ctx, "event reports that were not deaths in 2023")
    assert clar is None and not it.understood and "leave out death reports" in it.cannot


def test_a_negation_closing_a_device_span_is_grammar(ctx):
    it, _ = interpret(ctx, "recalls of Arrow catheter kits, not the ones terminated")
    assert it.device is None or "not" not in it.device.words.lower().split()


def test_combined_is_no_device(ctx):
    it, clar = interpret(ctx, "how many udi records were published in 2019 and 2020 combined")
    assert clar is None and it.understood and it.device is None


def test_the_field_after_which_is_the_one_ranked(ctx):
    it, clar = interpret(ctx, "class I product codes - which specialty leads?")
    assert clar is None and (it.measure, it.by) == ("top", "medical_specialty")


def test_a_model_name_left_unused_gives_no_figure(ctx):
    it, clar = interpret(ctx, "events for the minimed 670g and 770g")
    assert clar is None and not it.understood and '"770g"' in it.cannot
