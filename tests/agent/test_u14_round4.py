"""Round 4 of the blind bank (issue 14): the classes it found, each read in general form and worded differently
from the bank. Unit cases for the period grammar and the privacy check; the rest read on the sample mirror."""

from __future__ import annotations

from datetime import date

import pytest

from agent.understand.dates import read_dates
from agent.understand.interpret import interpret
from agent.understand.privacy import asks_identity
from agent.understand.tokens import tokenize

AS_OF = date(2025, 9, 23)


@pytest.mark.parametrize(
    "question",
    [
        "what was the patient's home address in report 16081312",
        "phone number for the woman in MDR 16081311",
        "identify the man behind that recall report",
        "who is the 60 year old patient in report 16081316? her name",
        "email of the reporter of mdr 16081313",
    ],
)
def test_a_patient_identity_is_never_looked_up(question):
    assert asks_identity(question)


@pytest.mark.parametrize(
    "question",
    [
        "patient problems in the 2023 insulin pump reports",
        "brand names of patient monitors",
        "who is the manufacturer of the patient lift?",
        "names of the firms that recalled catheters",
        "device name for report 16081310",
    ],
)
def test_record_questions_with_person_words_are_answered(question):
    assert not asks_identity(question)


@pytest.mark.parametrize(
    ("words", "start", "end"),
    [
        ("recalls closed pre-2012", None, date(2011, 12, 31)),
        ("clearances post-2019", date(2020, 1, 1), None),
        ("events in the last half year", date(2025, 3, 23), AS_OF),
        ("reports over the last 3 mos", date(2025, 6, 23), AS_OF),
    ],
)
def test_short_forms_of_a_period(words, start, end):
    got = read_dates(tokenize(words), AS_OF)
    assert got is not None and (got.start, got.end) == (start, end)


def test_a_status_is_a_filter_of_every_dataset_holding_it(ctx):
    it, clar = interpret(ctx, "open enforcement reports in 2012")
    assert clar is None and it.datasets == ["enforcement"] and it.device is None
    assert [(f.field, f.value) for f in it.filters] == [("word:status", "Ongoing")]


def test_a_flag_is_read_in_the_gudid_release_too(ctx):
    it, clar = interpret(ctx, "number of kits in the gudid release")
    assert clar is None and it.datasets == ["gudid"] and [f.field for f in it.filters] == ["word:kit"]


def test_chat_words_are_not_product_codes(ctx):
    it, _ = interpret(ctx, "510k clearances per year plz")
    assert it.device is None and it.measure == "trend"


def test_two_years_compared_are_two_sides(ctx):
    it, clar = interpret(ctx, "compare recalls initiated 2012 and 2013")
    assert clar is None and it.measure == "compare"
    assert [(s.date_from, s.date_to) for s in it.sides] == [
        (date(2012, 1, 1), date(2012, 12, 31)),
        (date(2013, 1, 1), date(2013, 12, 31)),
    ]


def test_the_end_of_a_recall_is_its_termination_date(ctx):
    it, _ = interpret(ctx, "recalls that ended before 2015")
    assert it.date_field == "terminated" and it.date_to == date(2014, 12, 31) and not it.filters


def test_a_class_asked_of_a_broad_term_is_asked_back(ctx):
    it, clar = interpret(ctx, "which device class are catheters in")
    assert clar is not None and "catheter" in clar.question.lower() and len(clar.choices) >= 3
    assert all("catheter" in c.label.lower() for c in clar.choices)


def test_a_class_asked_of_a_few_codes_is_answered(ctx):
    it, clar = interpret(ctx, "device class of infusion pumps")
    assert clar is None and it.measure == "lookup" and it.field == "device_class"


def test_a_yes_no_class_question_looks_the_class_up(ctx):
    it, clar = interpret(ctx, "is a blood pressure cuff class 2 or class 3?")
    assert clar is None and it.measure == "lookup" and it.field == "device_class" and not it.filters
    assert "DXQ" in it.codes()


def test_the_newest_record_date_is_a_lookup(ctx):
    it, clar = interpret(ctx, "when did the newest 510(k) get decided? what date")
    assert clar is None and it.understood and it.measure == "lookup" and it.field == "latest"
    assert it.datasets == ["510k"]


def test_a_class_of_a_record_is_read_for_its_product_code(ctx):
    it, clar = interpret(ctx, "what device class is K200606 in")
    assert clar is None and it.datasets == ["classification"] and it.field == "device_class"
    assert it.device is not None and it.device.path == "given" and it.codes()
    assert not any(f.field == "k_number" for f in it.filters)


@pytest.mark.parametrize(
    "question",
    [
        "serology results whose antibody result agreed with the truth",  # agreement said in other words
        "total quantity recalled across all recalls",  # a quantity is read for one recall named, not summed
        "average review time of 510(k)s",  # a review time is computed for one submission named
        "recalls of catheters other than urological ones",  # a kind of device left out
        "proprietary names of listed products in registrations",  # listed names of no establishment named
    ],
)
def test_what_the_searches_cannot_do_is_said_without_a_figure(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and not it.understood and it.cannot


@pytest.mark.parametrize(
    "question",
    [
        "which product codes does DiaSorin list?",
        "adverse events for non-invasive monitors",  # "non-" before no firm
        "adverse events for non-invasive blood pressure monitors",
        "serology results with antibody truth positive",
    ],
)
def test_questions_the_searches_can_do_are_not_turned_away(ctx, question):
    it, _ = interpret(ctx, question)
    assert not it.cannot


def test_a_breakdown_names_the_states_and_skips_empty_keys():
    from agent.answer import _main_sentence
    from agent.understand.types import Interpretation

    it = Interpretation(datasets=["510k"], measure="top", by="state")
    e = {
        "tool": "count_by",
        "total": 7,
        "rows": [{"state": "", "count": 2}, {"state": "CA", "count": 2}, {"state": "TX", "count": 1}],
        "as_of": "2025-09-22",
    }
    text = _main_sentence(it, e, {"dataset": "510k", "args": {"field": "state"}}, [])
    assert "California (CA): 2; Texas (TX): 1; 2 with none given" in text


def test_a_firm_named_by_its_initials(ctx):
    it, clar = interpret(ctx, "how many MAUDE reports name BSC")
    assert clar is None and it.firm is not None and "BOSTON SCIENTIFIC" in it.firm.name.upper()
    assert it.device is None


def test_a_lay_term_with_no_record_asks_for_the_codes_its_telling_word_names(ctx):
    it, clar = interpret(ctx, "how many recalls for spinal pedicle fixation systems")
    assert clar is not None and any("NKB" in c.label for c in clar.choices)


def test_a_term_known_only_by_definitions_offers_the_codes_of_its_head_word(ctx):
    it, clar = interpret(ctx, "510(k)s for breathing ventilators")
    assert clar is not None and any("CBK" in c.label for c in clar.choices)


def test_a_field_of_a_narrow_code_also_reads_the_code_its_head_word_names(ctx):
    it, clar = interpret(ctx, "pulse oximeter regulation")
    assert clar is None and it.field == "regulation_number" and "DQA" in it.codes()


def _last(ctx, question):
    from agent.understand.types import LastResult

    it, _ = interpret(ctx, question)
    return LastResult(dataset=it.datasets[0], reading=it.model_dump(mode="json"))


def test_that_recall_points_at_the_previous_result(ctx):
    last = _last(ctx, "enforcement reports from recalling firms in Texas")
    it, clar = interpret(ctx, "which class was that recall in?", last)
    assert clar is None and it.datasets == ["enforcement"] and it.field == "recall_class" and it.place is not None


def test_classes_listed_as_a_follow_up_ask_each_records_class(ctx):
    last = _last(ctx, "enforcement reports from Texas")
    it, clar = interpret(ctx, "class I, II or III?", last)
    assert clar is None and it.measure == "lookup" and it.field == "recall_class" and not it.sides


def test_a_place_alone_narrows_the_previous_question(ctx):
    last = _last(ctx, "510(k)s decided after April 2020")
    it, clar = interpret(ctx, "any from Texas?", last)
    assert clar is None and it.datasets == ["510k"] and it.place is not None and it.date_from == date(2020, 5, 1)


def test_that_one_points_at_the_previous_record(ctx):
    last = _last(ctx, "pull up PMA P180032")
    it, clar = interpret(ctx, "which class is that one?", last)
    assert clar is None and it.datasets == ["classification"] and it.field == "device_class"


def test_a_place_left_out_is_searched_not_turned_away(ctx):
    it, clar = interpret(ctx, "510(k)s from non-US firms")
    assert not it.cannot and it.place is not None and it.place.exclude


@pytest.mark.parametrize(
    "question", ["adverse event reports not from Medtronic", "non-Medtronic adverse event reports"]
)
def test_a_firm_left_out_is_all_records_minus_the_firms(ctx, question):
    from agent.planner import plan_calls

    it, clar = interpret(ctx, question)
    assert clar is None and it.understood and it.exclude_firm and it.firm is not None and it.device is None
    calls = plan_calls(it)
    assert [c["label"] for c in calls] == ["all", "left out"]
    assert "manufacturer" not in str(calls[0]["args"]) and calls[1]["args"] != calls[0]["args"]


def test_a_model_number_no_code_holds_is_read_where_its_name_is(ctx):
    it, clar = interpret(ctx, "who makes the DELTA 3300 analyzer")
    assert it.datasets == ["udi"] and it.device is not None and it.device.path == "names"


def test_list_them_lists_the_records_not_a_ranking(ctx):
    it, clar = interpret(ctx, "510(k) decisions of 2019 - list them please")
    assert clar is None and it.measure == "list" and it.by is None and it.field is None
    it, _ = interpret(ctx, "list the decision codes for 2019 510(k)s")
    assert it.measure == "top" and it.by == "decision_code"


def test_a_misspelt_firm_with_no_device_reading_is_read_as_that_firm(ctx):
    it, clar = interpret(ctx, "medtronc adverse events in 2023")
    assert clar is None and it.firm is not None and "medtronic" in it.firm.name.lower()
    assert any("medtronc" in n for n in it.notes)
