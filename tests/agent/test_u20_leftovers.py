"""Leftovers of issue 14 read as general rules (helper A20): a month said without its year, two noun phrases that are
no comparison, "that device" after a frame naming one, hospital departments and roles as the asker, lay device names
("c-arm", "defib"), a flag or track asked of one record, verbs and naming words that are grammar, and a firm with no
establishment in the registrations said plainly."""

from __future__ import annotations

from datetime import date

import pytest

from agent.understand.interpret import interpret
from agent.understand.resolve import read_device

# 1. a month alone


def test_a_month_alone_in_a_first_question_is_its_latest_before_the_as_of_date(ctx):
    it, clar = interpret(ctx, "recalls initiated in September")  # recalls are as of 2017-12-02 in the sample
    assert clar is None and (it.date_from, it.date_to) == (date(2017, 9, 1), date(2017, 9, 30))


def test_the_year_chosen_for_a_month_alone_is_shown(assistant):
    out = assistant.ask("510(k) clearances decided in February", session_id="m0")  # 510(k)s as of 2025-09-22
    assert "February 2025" in out["answer"].splitlines()[0]


def test_a_followup_month_takes_the_year_of_the_previous_period(assistant):
    assistant.ask("how many 510(k) clearances in 2020?", session_id="m1")
    out = assistant.ask("and how many of those came in May?", session_id="m1")
    assert "May 2020" in out["answer"] and "jones" not in out["answer"].lower()
    out = assistant.ask("what about in November?", session_id="m1")
    assert "November 2020" in out["answer"]


def test_a_followup_month_after_a_span_of_years_takes_the_as_of_year(assistant):
    assistant.ask("adverse event reports since 2019", session_id="m2")  # events as of 2025-09-23
    out = assistant.ask("and in April?", session_id="m2")
    assert "April 2025" in out["answer"]


def test_a_followup_month_not_yet_reached_in_the_as_of_year_is_asked(assistant):
    assistant.ask("adverse event reports since 2019", session_id="m3")
    out = assistant.ask("how about December?", session_id="m3")
    assert "Which year" in out["answer"] and "December 2024" in out["answer"]


@pytest.mark.parametrize("question", ["may I see the recalls of Arrow International", "March 2020 recalls"])
def test_a_modal_may_is_no_month_and_a_month_with_its_year_keeps_it(ctx, question):
    it, _ = interpret(ctx, question)
    assert it.date_from is None or it.date_from.year == 2020


# 2. no comparison word, no sides


def test_two_noun_phrases_with_no_comparison_word_are_no_sides(ctx):
    it, _ = interpret(ctx, "low battery alarms in MAUDE reports for insulin pumps")
    assert not it.sides and it.measure != "compare" and it.device is not None
    assert it.device.words == "insulin pumps"


def test_a_comparison_word_still_sets_sides(ctx):
    it, _ = interpret(ctx, "insulin pumps versus infusion pumps in MAUDE")
    assert len(it.sides) == 2


# 3. "that device" after a frame naming it


@pytest.mark.parametrize(
    "question",
    [
        "We're evaluating infusion pumps for our hospital. How many recalls has that device type had?",
        "Our ICU uses infusion pumps. Any adverse events for these devices?",
    ],
)
def test_that_device_binds_to_the_device_the_frame_named(ctx, question):
    it, clar = interpret(ctx, question)
    assert it.device is not None and "infusion pumps" in it.device.words.lower()
    assert not any("device" in w.lower() for w in it.unexplained)


# 4. departments and roles ask; they are never devices


@pytest.mark.parametrize(
    ("question", "firm"),
    [
        ("Sterile processing is asking how many recalls Medtronic had", "Medtronic"),
        ("Value analysis committee: how many recalls did Medtronic have?", "Medtronic"),
        ("Supply chain needs a count of recalls for Arrow International", "Arrow International"),
        ("The cath lab director wants to know whether Orthofix had 510(k)s", "Orthofix"),
    ],
)
def test_a_department_or_role_is_the_asker_never_a_device(ctx, question, firm):
    it, _ = interpret(ctx, question)
    assert it.device is None and it.firm is not None and firm.lower() in it.firm.name.lower()


def test_a_department_asking_about_a_device_keeps_only_the_device(ctx):
    it, _ = interpret(ctx, "Biomed wants to know how many adverse events mention insulin pumps since 2020")
    assert it.device is not None and it.device.words == "insulin pumps" and not it.unexplained


# 5. lay device names


def test_c_arms_are_the_fluoroscopic_x_ray_codes_the_records_hold(ctx):
    reading = read_device(ctx, "c-arms", ["event"])
    assert reading.device is not None and [c.code for c in reading.device.codes] == ["JAA"]
    reading = read_device(ctx, "c arm", ["classification"])
    assert reading.device is not None and {"RCC", "OXO"} <= {c.code for c in reading.device.codes}


def test_a_defib_is_a_defibrillator(ctx):
    reading = read_device(ctx, "defibs", ["classification"])
    assert reading.device is not None and reading.device.codes
    assert all("defibrillat" in (c.name or "").lower() for c in reading.device.codes)


# 6. a track or a flag asked of one record


def test_the_review_track_of_a_pma_supplement_is_its_supplement_type(assistant):
    out = assistant.ask("which review track did P180032/S002 go through?", session_id="t")
    assert "Special (Immediate Track)" in out["answer"]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Was K202114 reviewed by an accredited third-party review organization?", "yes (Y)"),
        ("K192028 - third party reviewed or not?", "no (N)"),
    ],
)
def test_third_party_review_asked_of_a_510k_is_its_flag(assistant, question, value):
    out = assistant.ask(question, session_id="tp")
    assert f"third-party review {value}" in out["answer"]


# 7. words that are grammar or a firm's name


def test_a_device_word_as_typed_is_never_corrected(ctx):
    reading = read_device(ctx, "patent ductus arteriosus occluder", ["event"])
    assert reading.device is not None and reading.corrected == []


def test_which_firms_sell_keeps_the_verb_out_of_the_device(ctx):
    it, _ = interpret(ctx, "which companies sell infusion pumps")
    assert it.device is not None and "sell" not in it.device.words.lower()


def test_rated_before_a_class_is_grammar(ctx):
    it, clar = interpret(ctx, "how many recalls were rated class II")
    assert clar is None and it.device is None and any(f.field == "recall_class" for f in it.filters)


def test_a_firm_called_so_is_a_firm_even_when_no_record_holds_it(ctx):
    it, clar = interpret(ctx, "any recalls from a company called Standard Imaging?")
    assert clar is None and not it.understood and it.device is None and "Standard Imaging" in it.cannot
    it, _ = interpret(ctx, "510(k)s of a manufacturer named Orthofix")
    assert it.firm is not None and "Orthofix" in it.firm.name and not it.unexplained


# 8. a firm with no establishment in the registrations


def test_a_firms_state_with_no_establishment_is_said_plainly(assistant):
    out = assistant.ask("In which state is Orthofix registered?", session_id="r")
    assert "hold no establishment for Orthofix" in out["answer"] and "2017-03-06" in out["answer"]
    assert "with the most" not in out["answer"]


def test_a_firms_country_is_looked_up_when_it_is_registered(assistant):
    out = assistant.ask("what country is DiaSorin registered in?", session_id="r2")
    assert "country IT" in out["answer"]
