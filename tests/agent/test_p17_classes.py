"""Classes of misreading behind the misses of the rounds 46 to 50 (issue 14), each asked here in other words than
the rounds': the asker's frame and hedge words, a period of adverse events said with no date, periods in number
words, firm short forms, idioms that name no device, a recall's class and end asked in other words, serology false
positives said plainly, the premarket approval track said in lay words, a brand said with words that describe it.
Real library API, sample mirror."""

from __future__ import annotations

import pytest


def _headline(answer: str) -> str:
    return next(ln for ln in answer.splitlines()[1:] if ln.strip())


def _said(out: dict) -> str:
    clar = out.get("clarify") or {}
    return out["answer"] + " " + " ".join(str(c) for c in clar.get("choices") or [])


# the asker's frame words (hedges, academic words) are no device and block nothing; the figure is the plain one
@pytest.mark.parametrize(
    ("question", "headline"),
    [
        (
            "for my dissertation appendix: how many observations of MAUDE reports received in Q1 2023, I assume?",
            "5 adverse event reports",
        ),
        ("PMA decisions in the last five years of the data, presumably counted from the export date", "4 PMA records"),
        ("what's the modal device problem in the adverse event reports, ideally with the runners-up?", "No Display"),
        ("according to the recall data, how many recalls were initiated in 2020? If so, how many?", "0 recalled"),
    ],
)
def test_frame_words_are_grammar(assistant, question, headline):
    answer = assistant.ask(question)["answer"]
    assert "did not understand" not in answer and "did not find" not in answer, answer
    assert headline in _headline(answer), answer


def test_a_reference_point_aside_frames_the_question(assistant):
    answer = assistant.ask(
        "how many PMA decisions in the three years preceding the snapshot date (using the export date as the anchor, "
        "I suppose)?"
    )["answer"]
    assert "Interpreted as: PMA approvals; dates 2022-09-22 to 2025-09-22" in answer, answer


def test_a_month_of_events_with_none_received_asks_which_date(assistant):
    out = assistant.ask("adverse event observations in December 2022?", session_id="dec")
    assert out["clarify"] is not None, out["answer"]
    said = _said(out)
    assert "date of event (when it occurred)" in said and "date received by FDA" in said, said
    answer = assistant.ask("1", session_id="dec")["answer"]
    assert "5 adverse event reports that occurred in December 2022" in answer, answer


def test_a_month_with_reports_received_keeps_the_date_received(assistant):
    out = assistant.ask("adverse event reports in January 2023")
    assert out["clarify"] is None, out["clarify"]
    assert _headline(out["answer"]).startswith("5 adverse event reports in January 2023"), out["answer"]


# firm short forms and idioms: never a device, never a product code
@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("MDT vs Boston Sci adverse events in the last 3 years", ("Medtronic: 4", "Boston Scientific: 1")),
        ("Boston Sci or Medtronic: more red flags in MAUDE over the past 3 years?", ("Medtronic: 4", "Boston Sci")),
    ],
)
def test_firm_short_forms_and_red_flags(assistant, question, sides):
    answer = assistant.ask(question)["answer"]
    assert "RED" not in answer and "Trichinella" not in answer, answer
    assert all(s in _headline(answer) for s in sides), answer


def test_asp_is_advanced_sterilization_products(assistant):
    answer = assistant.ask("ASP Sterrad cassette enforcement report: which recall class?")["answer"]
    assert "Advanced Sterilization Products" in answer.splitlines()[0], answer
    assert "recall class III" in answer, answer


# a recall's class and end asked in other words, after the recall was found
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (["enforcement report for the STERRAD cassettes, 2012?", "what hazard level did it get?"], "recall class III"),
        (["recall Z-2338-2012 please", "the classification of that recall?"], "recall class III"),
        (["Sterrad cassette recall?", "when did that recall officially end?"], "2013-11-08"),
        (["what about the recall of the Sterrad cassettes, when was it finished?"], "2013-11-08"),
    ],
)
def test_a_recall_class_and_end_in_other_words(assistant, turns, expected):
    for t in turns:
        out = assistant.ask(t, session_id="recall-words")
    assert expected in out["answer"], out["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "which antibody test makers misread a known negative sample as positive in the serology evaluations?",
        "covid antibody kits that came back positive on samples from people who never had covid: which brands?",
        "serology eval: who had false pos results?",
    ],
)
def test_serology_false_positives_said_plainly_rank_the_makers(assistant, question):
    answer = assistant.ask(question)["answer"]
    assert "false positives (FP)" in answer.splitlines()[0] and "top manufacturers" in answer.splitlines()[0], answer
    assert "Healgen" in answer and "Phamatech" in answer, answer


def test_how_many_false_positives_stays_a_count(assistant):
    answer = assistant.ask("how many serology results were false positives?")["answer"]
    assert _headline(answer).startswith("2 serology test results"), answer


@pytest.mark.parametrize(
    "question",
    [
        "how many approval decisions did Medtronic's high-risk devices get in 2020?",
        "Medtronic: FDA green light for its highest-risk implants in 2020, how many times?",
        "in 2020 how many decisions for Medtronic in its most stringent approval pathway?",
    ],
)
def test_the_premarket_approval_track_in_lay_words_counts_every_decision(assistant, question):
    answer = assistant.ask(question)["answer"]
    first = answer.splitlines()[0]
    assert "PMA approvals" in first and "original approvals only" not in first, answer
    assert _headline(answer).startswith("2 PMA records"), answer


def test_recalls_blamed_on_human_error_are_employee_error(assistant):
    for question in ("how many recalls were caused by human error?", "recalls due to staff errors: how many?"):
        answer = assistant.ask(question)["answer"]
        assert "root cause Employee Error" in answer.splitlines()[0], answer
        assert _headline(answer).startswith("2 recalled products"), answer


def test_a_brand_with_lay_words_describing_it_is_the_brand(assistant):
    for question in (
        "when was the Somnera breathing device for sleep apnea cleared?",
        "clearance date of FRESCA Medical's device, the one based in San Clemente, something like 'Somnera'",
    ):
        answer = assistant.ask(question)["answer"]
        assert "cemented" not in answer.lower(), answer
        assert "2020-06-29" in answer, answer


def test_an_unread_word_still_blocks_a_figure(assistant):
    answer = assistant.ask("how many recalls were blamed on supplier sabotage?")["answer"]
    assert "recalled products" not in answer or "did not" in answer, answer


def test_crp_is_c_reactive_protein(assistant):
    answer = assistant.ask("MAUDE reports on CRP assays in the last 2 years?")["answer"]
    assert "C-Reactive Protein" in answer.splitlines()[0], answer
    assert "0 adverse event reports" in _headline(answer), answer


# one recall's start and problem, asked of the recall named by its firm, device or number, also as a follow-up
@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (["when did the Arrow International recall begin?"], "initiation date 2019-05-17"),
        (["recall Z-0053-2020: start date?"], "initiation date 2019-05-17"),
        (["Arrow International recall - what was the issue?", "ok and when was it started?"], "2019-05-17"),
        (["any recall of Arrow International?", "since when has it been running?"], "2019-05-17"),
        (["Arrow International recall: what was the problem?"], "root cause Employee error"),
    ],
)
def test_one_recalls_start_and_problem(assistant, turns, expected):
    for t in turns:
        out = assistant.ask(t, session_id="recall-start")
    assert expected in out["answer"], out["answer"]


def test_a_count_of_recalls_started_in_a_year_stays_a_count(assistant):
    answer = assistant.ask("how many recalls were initiated in 2019?")["answer"]
    assert _headline(answer).startswith("1 recalled product initiated in 2019"), answer


# German words of a German-speaking asker
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Welcher Hersteller had the most PMA Entscheidungen in 2020?", "Medtronic"),
        ("Anzahl of GUDID device records from Tz Medical", "2 AccessGUDID device records"),
        ("the Rückruf Z-0053-2020, when was it initiated?", "2019-05-17"),
    ],
)
def test_german_words_are_read_in_english(assistant, question, expected):
    answer = assistant.ask(question)["answer"]
    assert "did not" not in answer, answer
    assert expected in _headline(answer), answer


def test_this_alone_is_the_device_of_the_sentence_before(assistant):
    answer = assistant.ask("We sell electronic clinical thermometers. What regulation number has this at FDA?")[
        "answer"
    ]
    assert "FLL" in answer and "880.2910" in answer, answer
    assert "6,530" not in answer, answer


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how many GTINs are in the GUDID release?", "3 AccessGUDID device records (DIs issued by GS1)"),
        ("GUDID kits: who's the labeler?", "PACKROOM LLC"),
        ("Netech's models in the UDI data?", "DELTA 3300"),
        ("DiaSorin device listing: which PMA is it listed under?", "P990041"),
    ],
)
def test_udi_and_listing_fields_in_other_words(assistant, question, expected):
    answer = assistant.ask(question)["answer"]
    assert expected in answer, answer


def test_lab_codes_in_brackets_after_a_short_name_are_examples(assistant):
    answer = assistant.ask("MDRs for CRP assays (DCK/DCN) in the last 2 years")["answer"]
    assert "NQD" in answer.splitlines()[0] and "DCH" in answer.splitlines()[0], answer
    kept = assistant.ask("adverse events for infusion pumps (FRN/MEA)")["answer"]
    assert "FRN" in kept.splitlines()[0] and "MEA" in kept.splitlines()[0], kept


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (["VAC is comparing Medtronic vs Boston Scientific. MDRs for each in the last 3 years?"], "Medtronic: 4"),
        (["decision date for the Somnera system, for the VAC binder"], "2020-06-29"),
        (["any FDA action against Advanced Sterilization Products?", "when was it terminated?"], "2013-11-08"),
        (["recall Z-2338-2012", "its classification (we're filling in a severity table)"], "recall class III"),
    ],
)
def test_asker_context_and_record_fields(assistant, turns, expected):
    for t in turns:
        out = assistant.ask(t, session_id="context")
    assert "VAC" not in out["answer"].splitlines()[0], out["answer"]
    assert expected in out["answer"], out["answer"]


@pytest.mark.parametrize(
    "question",
    [
        "how many people were harmed or killed by Medtronic devices in the adverse event reports?",
        "Medtronic MDRs: did anyone die?",
    ],
)
def test_a_zero_by_event_type_says_what_the_reports_were(assistant, question):
    answer = assistant.ask(question)["answer"]
    first, head = answer.splitlines()[0], _headline(answer)
    assert "death reports" in first and "Medtronic" in first, answer
    assert "0" in head and "Malfunction: 4" in head, answer


def test_a_count_by_event_type_that_finds_some_says_no_more(assistant):
    answer = assistant.ask("how many malfunction reports for Medtronic?")["answer"]
    assert _headline(answer).startswith("4 adverse event reports") and "by event type" not in answer, answer
