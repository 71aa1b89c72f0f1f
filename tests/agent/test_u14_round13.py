"""Rounds 13 and 16 of issue 14 as general rules: the date of an event is the event date, a statement of the
asker's own work beside a question frames it (and lends its dataset to an ask that names none), serology results
are ranked by manufacturer, a model number after a firm's name is the device's brand, firm names with two letters
swapped or a first word cut short are found, shorthand of periods and words ("2H", "2008-present", "intake",
"prod", "class one", "PR ops") is written out, and follow-ups keep the dataset of the question before. Worded apart
from the rounds, on the sample mirror."""

from __future__ import annotations

import pytest

from agent.understand.frame import expand_shorthand, reframe
from agent.understand.interpret import interpret


def _body(answer: str) -> str:
    return answer.split("\n\n", 1)[1] if "\n\n" in answer else answer


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("prod recalls", "products recalls"),
        ("prod code of the pump", "product code of the pump"),
        ("class one recalls in 2019", "class I recalls in 2019"),
        ("510k intake per year", "510k received per year"),
        ("PMA decisions in 2H 2020", "PMA decisions in second half of 2020"),
        ("reports 2009-present", "reports since 2009"),
        ("reports from 2009 onward", "reports since 2009"),
        ("acme PR ops reports", "acme Puerto Rico operations reports"),
    ],
)
def test_shorthand_of_periods_and_words_is_written_out(said, written):
    assert expand_shorthand(said) == written


def test_a_statement_of_the_askers_work_beside_a_question_frames_it():
    framed = reframe(
        "We are cleaning up our quarterly tracker against FDA data. How many recalls were there?", lambda t: []
    )
    assert framed.text == "How many recalls were there?"
    assert "tracker" in framed.context
    shown = reframe(
        "I plan to chart how the cardiology panel divides by class. How many codes are class II?", lambda t: []
    )
    assert shown.text == "How many codes are class II?"


def test_a_clause_on_the_askers_own_use_of_a_device_is_context():
    framed = reframe("any recalls for the infusion pump our nurses use", lambda t: [])
    assert framed.text == "any recalls for the infusion pump"
    assert "nurses" in framed.context
    kept = reframe("how many recalls did our supplier have in 2019", lambda t: [])
    assert kept.text == "how many recalls did our supplier have in 2019"


@pytest.mark.parametrize(
    "question",
    [
        "adverse event reports whose date of event falls in December 2022",
        "how many MDRs occured in Dec 2022",
    ],
)
def test_the_date_of_an_event_counts_on_the_event_date(assistant, question):
    out = assistant.ask(question, session_id="ev")
    assert "(occurred)" in out["answer"].split("\n")[0], out["answer"]
    assert _body(out["answer"]).startswith("5 adverse event reports that occurred in December 2022"), out["answer"]


def test_an_own_work_sentence_naming_a_dataset_frames_the_question(assistant):
    out = assistant.ask(
        "We're checking our complaint files against MAUDE before the audit. How many reports have an event date in "
        "December 2022?",
        session_id="fr",
    )
    assert "compared" not in out["answer"]
    assert _body(out["answer"]).startswith("5 adverse event reports that occurred"), out["answer"]


def test_serology_results_are_ranked_by_manufacturer(ctx):
    for q in (
        "rank the covid antibody kit makers by their TP results",
        "which serology manufacturer scored the most true positives against the panel truth",
    ):
        it, clar = interpret(ctx, q)
        assert clar is None and it.measure == "top" and it.by == "manufacturer", (q, it)
        assert it.datasets == ["covid19serology"] and not it.sides


def test_a_comparison_of_two_classes_compares_the_classes(ctx):
    it, clar = interpret(
        ctx, "I want to show how the ophthalmic specialty splits by class. Class I compared with class II codes?"
    )
    assert clar is None and it.device is None
    assert [s.label for s in it.sides] == ["device class I", "device class II"]


def test_a_model_number_after_a_firm_is_the_brand(assistant):
    out = assistant.ask("MDRs on the GE OEC 9800 mobile c-arm since 2008", session_id="oec")
    first = out["answer"].split("\n")[0]
    assert '"OEC 9800"' in first and "firm" not in first, out["answer"]
    assert _body(out["answer"]).startswith("1 adverse event report"), out["answer"]


def test_a_firm_with_two_letters_swapped_is_found(ctx):
    it, clar = interpret(ctx, "neetch udi records")
    assert clar is None and it.firm is not None and it.firm.name == "NETECH CORPORATION"


def test_a_firm_with_its_first_word_cut_short_is_found(ctx):
    it, clar = interpret(ctx, "adv sterilization products enforcement reports")
    assert clar is None and it.firm is not None and it.firm.name.lower() == "advanced sterilization products"


def test_a_firms_any_class_i_recalls_is_the_recall_class(assistant):
    out = assistant.ask("any class I recalls for advanced sterilization prod?", session_id="asp")
    assert "Which do you mean" not in out["answer"]
    assert _body(out["answer"]).startswith("No: 0 enforcement reports"), out["answer"]
    out = assistant.ask("adv sterilization products class one recalls, any?", session_id="asp2")
    assert _body(out["answer"]).startswith("No: 0 enforcement reports"), out["answer"]


def test_pma_approvals_decided_in_a_year_are_the_originals(ctx):
    it, _ = interpret(ctx, "count of PMA approvals decided during 2020")
    assert it.supplements == "originals"


def test_a_frames_dataset_carries_to_an_ask_naming_none(assistant):
    out = assistant.ask(
        "For a deck I'm tallying 510(k) clearances decided in 2020. How many were there?", session_id="k"
    )
    assert _body(out["answer"]).startswith("5 510(k) clearances in 2020"), out["answer"]
    out = assistant.ask("which of those came from applicants abroad?", session_id="k")
    first = out["answer"].split("\n")[0]
    assert "510(k)" in first and "outside the United States" in first, out["answer"]
    assert "Horiba ABX SAS" in out["answer"], out["answer"]


def test_list_pma_decisions_lists_the_records_and_a_follow_up_keeps_the_list(assistant):
    out = assistant.ask("list the PMA decisions of 2H 2020", session_id="p")
    assert "decision code" not in out["answer"].split("\n")[0], out["answer"]
    assert _body(out["answer"]).startswith("4 PMA records from July to December 2020"), out["answer"]
    out = assistant.ask("only the 30-day notice ones", session_id="p")
    assert _body(out["answer"]).startswith("1 PMA record"), out["answer"]
    assert "P970004" in out["answer"], out["answer"]


def test_510k_intake_compares_on_the_date_received(assistant):
    out = assistant.ask("For our KPI deck: 510(k) intake 2019 v 2020", session_id="kpi")
    assert "KPI" not in out["answer"].split("\n")[0], out["answer"]
    assert "2019: 2; 2020: 3" in out["answer"], out["answer"]


def test_udi_catalog_number_and_publish_date_are_fields(assistant):
    out = assistant.ask("catalog no. of the netech pacemaker analyzer", session_id="u1")
    assert "catalog number" in out["answer"] and "DELTA 3300" in out["answer"] and "EXPMT 2000" in out["answer"]
    out = assistant.ask("netech analyzer udi publish date", session_id="u2")
    assert "publish date 2020-03-05" in out["answer"] and "publish date 2017-06-16" in out["answer"], out["answer"]


def test_italy_in_capitals_at_the_end(ctx):
    it, clar = interpret(ctx, "establishment registrations for IT")
    assert clar is None and it.place is not None and it.place.code == "IT"


def test_a_yes_no_about_a_firm_with_frame_words_left_says_no(assistant):
    out = assistant.ask("did Encore Medical ever have a class I recall that would trouble purchasing?", session_id="y")
    assert _body(out["answer"]).startswith("No: 0 enforcement reports"), out["answer"]
    out = assistant.ask("any class I recalls for Encore Medical Zorblax?", session_id="y2")
    assert "No:" not in out["answer"] and "Zorblax" in out["answer"], out["answer"]


def test_a_closing_clause_about_the_askers_purpose_frames_the_question():
    framed = reframe(
        "which recalling firm leads in class II recalls, for our vendor risk register review?", lambda t: []
    )
    assert framed.text == "which recalling firm leads in class II recalls?"
    assert "vendor" in framed.context
    kept = reframe("recalls for the audit file of Acme", lambda t: [])
    assert kept.text == "recalls for the audit file of Acme"


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("MDRs for Mar-21", "MDRs for Mar 2021"),
        ("events in 3/21", "events in 3/2021"),
        ("cat. no. of it", "catalog number of it"),
    ],
)
def test_short_month_years_and_catalog_numbers(said, written):
    assert expand_shorthand(said) == written


def test_a_recall_initiated_by_a_firm_reads_the_verb(ctx):
    it, clar = interpret(ctx, "how many recalls did Medtronic initiate since 2015?")
    assert clar is None and it.device is None and it.firm is not None and it.date_field in ("", "initiated")


def test_who_needs_the_answer_is_context_and_special_510ks_filter(assistant):
    out = assistant.ask(
        "my director wants the count of original PMA approvals in 2020 - can you pull it", session_id="d"
    )
    assert "Did you mean" not in out["answer"] and "original" in out["answer"].split("\n")[0], out["answer"]
    out = assistant.ask("how many traditional 510(k)s were cleared in 2020", session_id="t")
    assert "Traditional" in out["answer"].split("\n")[0]
    assert _body(out["answer"]).startswith("5 510(k) clearances"), out["answer"]
