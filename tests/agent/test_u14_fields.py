"""Issue 14: fields asked for by name, read from the mirror's field catalogue (a general rule, not one per field): a
field's words are never device words, a field of a named record, firm or device is its value in those records (with
their numbers), a category field's value named in full is a filter, and a request to write a document is refused."""

from __future__ import annotations

import pytest

from agent.understand.drafting import REPLY as DRAFTING_REPLY
from agent.understand.drafting import asks_document
from agent.understand.field_names import field_names, find_fields
from agent.understand.interpret import interpret


def test_the_lexicon_is_built_from_the_field_catalogue():
    leaves = {f.leaf: f.paths for f in field_names()}
    assert "registrationlisting" in leaves["owner_operator_number"]
    assert set(leaves["reason_for_recall"]) == {"recall", "enforcement"}
    assert leaves["distribution_pattern"]["enforcement"] == "distribution_pattern"
    assert "product_code" not in leaves  # a code said is a filter, read elsewhere


@pytest.mark.parametrize(
    ("said", "leaf"),
    [
        ("the owner/operator no. of Baxter", "owner_operator_number"),
        ("owner-operator # please", "owner_operator_number"),
        ("the recall reason", "reason_for_recall"),
        ("distribution pattern of that recall", "distribution_pattern"),
        ("what was the remedial action", "remedial_action"),
    ],
)
def test_field_names_are_matched_in_the_words_people_use(said, leaf):
    assert [f.leaf for f, _, _ in find_fields(said)][:1] == [leaf]


@pytest.mark.parametrize(
    "question",
    [
        "owner operator number of Ethicon Endo-Surgery",
        "Ethicon Endo Surgery: owner/operator no.?",
        "what's ethicon's owner-operator #",
    ],
)
def test_a_field_word_is_never_a_device(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.understood
    assert it.device is None  # "operator" is no product code here
    assert (it.measure, it.field, it.datasets) == ("lookup", "owner_operator_number", ["registrationlisting"])


def test_a_firms_field_is_its_value_with_the_record_number(assistant):
    out = assistant.ask("owner operator number of Ethicon Endo-Surgery", session_id="oo")
    head = "\n".join(out["answer"].splitlines()[:3])  # the provenance below quotes the query itself
    assert "owner operator number 9010225" in head and "1628808" in head
    assert "owner_operator" not in head  # a label, never the field's raw name


def test_the_distribution_of_a_recall_is_read_from_its_record(assistant):
    out = assistant.ask("distribution pattern of Z-2338-2012", session_id="dp")
    assert "Z-2338-2012: distribution pattern" in out["answer"]
    assert "0 enforcement" not in out["answer"]


@pytest.mark.parametrize(
    "question",
    ["recall reason for Z-2338-2012", "why was the sterrad cassette recalled", "Z-2338-2012 - reason for the recall?"],
)
def test_the_reason_for_a_recall_is_the_records_own_reason(assistant, question):
    answer = assistant.ask(question, session_id="why")["answer"]
    assert "reason for recall" in answer and "camera used to verify printing" in answer
    assert "root cause" not in answer  # enforcement reports carry none: never "cannot give it"


@pytest.mark.parametrize(
    "question", ["device class of the Yumizen C1200 CRP", "the Yumizen C1200 CRP 510(k): which device class?"]
)
def test_a_field_of_a_device_a_few_records_name_is_their_value_not_a_count(assistant, question):
    answer = assistant.ask(question, session_id="cls")["answer"]
    assert "K192028" in answer and "device class II" in answer


@pytest.mark.parametrize(
    "question",
    [
        "MAUDE reports coded Power Problem",
        "how many events had the problem wireless communication problem",
        "adverse events with material rupture problems",
    ],
)
def test_a_category_value_named_in_full_is_a_filter(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.understood and it.device is None
    assert [(f.field, it.datasets) for f in it.filters] == [("word:problem", ["event"])]


def test_a_problem_value_counts_the_reports_holding_it(assistant):
    answer = assistant.ask("how many adverse event reports list the problem Material Rupture?", session_id="p")[
        "answer"
    ]
    assert "1 adverse event report (device problem Material Rupture)" in answer


@pytest.mark.parametrize(
    "question",
    [
        "draft a field safety notice for our infusion pump recall",
        "please write the device description section of a 510(k) for a catheter",
        "can you compose an e-mail to FDA about our MDR?",
        "prepare a CAPA plan for the Medtronic complaints",
        "generate the summary of safety and effectiveness for our PMA",
    ],
)
def test_a_request_to_write_a_document_is_refused(assistant, question):
    assert asks_document(question)
    out = assistant.ask(question, session_id="draft")
    assert out["answer"] == DRAFTING_REPLY


@pytest.mark.parametrize(
    "question",
    [
        "how many recall notification letters were sent for Z-2338-2012",
        "show the 510(k) summary for K192028",
        "prepare a list of recalls by Baxter",
        "which firms wrote the most MDRs",
    ],
)
def test_questions_about_records_that_mention_documents_are_not_refused(question):
    assert not asks_document(question)


@pytest.mark.parametrize(
    ("question", "months"),
    [("recalls over the past year and a half", 18), ("510(k)s in the last 2 years and a half", 30)],
)
def test_a_year_and_a_half_is_eighteen_months(ctx, question, months):
    it, _ = interpret(ctx, question)
    assert it.date_from is not None and it.date_to is not None
    span = (it.date_to.year - it.date_from.year) * 12 + it.date_to.month - it.date_from.month
    assert span == months and not it.unexplained


@pytest.mark.parametrize("question", ["how have 510(k) decisions trended?", "PMA records by decision year"])
def test_a_trend_said_as_a_verb_or_by_decision_year_is_a_trend(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and (it.measure, it.by) == ("trend", "year")


def test_approvals_and_supplements_said_together_count_every_pma_record(ctx):
    it, clar = interpret(ctx, "PMA approvals and supplements per year")
    assert clar is None and it.supplements == "all" and not it.filters


@pytest.mark.parametrize("question", ["regulation number of surgical mesh", "mesh, surgical: which 21 CFR regulation?"])
def test_a_term_that_is_exactly_one_codes_name_is_that_code(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.field == "regulation_number"
    assert it.device is not None and [c.code for c in it.device.codes] == ["FTM"]
