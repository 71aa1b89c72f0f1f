"""Round 5 of the blind bank (issue 14): never a confident wrong figure. Each guard is general and worded differently
from the bank: words found nowhere are not a device, a field asked for that no search reads gives no figure,
patient attributes are patients, a device class said of recalls is the devices' class, legal judgements are refused."""

from __future__ import annotations

import shutil

import pytest

from agent.assistant import Assistant
from agent.settings import AgentSettings
from agent.understand.interpret import interpret
from agent.understand.legal import REPLY as LEGAL_REPLY
from agent.understand.legal import asks_legal
from mirror.settings import Settings


@pytest.mark.parametrize(
    "question",
    [
        "enforcement report Z-2338-2012: on what day did it fizzle",  # "fizzle": no product description holds it
        "serology results for the dialysis cohort",  # a sample group word searched as a device name
    ],
)
def test_words_no_record_name_holds_give_no_zero(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and not it.understood
    assert "I did not find" in it.cannot and "no figure" in it.cannot


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("website of Netech Corporation in the UDI records", "website"),
        ("street address of NETECH CORPORATION in the UDI data", "address"),
    ],
)
def test_a_field_no_search_reads_gives_no_figure(ctx, question, said):
    it, clar = interpret(ctx, question)
    assert clar is None and not it.understood and said in it.cannot


def test_a_labelers_duns_is_looked_up_in_udi_records(ctx):
    it, clar = interpret(ctx, "Netech Corporation: its labeler DUNS no")
    assert clar is None and it.understood and it.datasets == ["udi"]
    assert it.measure == "lookup" and it.field == "labeler_duns_number" and it.firm is not None


def test_the_end_of_a_recall_record_is_its_termination_date(ctx):
    it, clar = interpret(ctx, "Z-2338-2012 closure date")
    assert clar is None and it.understood and it.device is None
    assert it.measure == "lookup" and it.field == "termination_date" and it.datasets == ["enforcement"]


@pytest.mark.parametrize(
    ("question", "sex"),
    [
        ("count of MAUDE reports where the patient was female", "Female"),
        ("adverse events in men", "Male"),
        ("how many event reports had male pts", "Male"),
    ],
)
def test_patient_sex_is_a_filter_of_events_not_a_device(ctx, question, sex):
    it, clar = interpret(ctx, question)
    assert clar is None and it.understood and it.device is None
    assert [(f.field, f.value) for f in it.filters] == [("word:sex", sex)]


def test_a_patient_word_read_as_a_device_with_no_records_gives_no_figure(ctx):
    it, clar = interpret(ctx, "510(k) clearances for women")
    assert not (it.understood and it.device and "women" in it.device.words.lower())


@pytest.mark.parametrize(
    "question",
    ["recalled items that were class II devices", "recalls whose device class is 2", "recalls of class two products"],
)
def test_a_class_said_of_the_devices_is_their_device_class(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and it.datasets == ["recall"]
    assert [(f.field, f.value) for f in it.filters] == [("device_class", "2")]


def test_class_before_device_recalls_is_asked_back(ctx):
    it, clar = interpret(ctx, "how many class 2 device recalls are there")
    assert clar is not None and len(clar.choices) == 2
    assert "device class II" in clar.choices[0].label and "recall class II" in clar.choices[1].label


def test_a_recall_class_alone_stays_the_recall_class(ctx):
    it, clar = interpret(ctx, "class 2 recalls in the enforcement reports")
    assert clar is None and [f.field for f in it.filters] == ["recall_class"]


@pytest.mark.parametrize(
    "question",
    [
        "could a patient sue Abbott over the MitraClip events?",
        "is Arrow International liable for those catheter kit recalls",
        "was GE OEC negligent with the 9800 cable problem",
        "who is to blame for the STERRAD cassette recall, legally",
        "lawsuit prospects against Medline for the midline kit failures",
    ],
)
def test_legal_judgements_are_recognised(question):
    assert asks_legal(question)


@pytest.mark.parametrize(
    "question",
    [
        "recalls ordered by a court or consent decree",
        "responsible firm for recall Z-2338-2012",
        "which issues were reported for insulin pumps",
    ],
)
def test_record_questions_are_not_legal_ones(question):
    assert not asks_legal(question)


def test_a_legal_question_is_refused_without_a_figure(sample_dir, tmp_path):
    d = tmp_path / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    a = Assistant(Settings(data_dir=d), AgentSettings(model="none"), model=None)
    try:
        out = a.ask("can our hospital sue Medtronic for the 630G pump malfunctions?", session_id="legal")
    finally:
        a.close()
    assert out["answer"] == LEGAL_REPLY and out["route"] == "out_of_scope"


def test_counting_the_codes_a_broad_word_names_counts_them_all(ctx):
    it, clar = interpret(ctx, "catheter codes in class II: how many does the classification hold")
    assert clar is None and it.understood and it.device is not None
    assert it.device.path == "names" and it.device.text == "catheter"


@pytest.mark.parametrize(
    "question",
    ["510(k) applications Medline Industries filed", "PMAs of applicants headquartered in Minnesota"],
)
def test_filing_and_location_verbs_are_no_device(ctx, question):
    it, clar = interpret(ctx, question)
    assert it.device is None


def test_when_a_recall_named_only_in_enforcement_reports_ended_is_its_termination_date(ctx):
    it, clar = interpret(ctx, "what date did the sterrad cassette recall get terminated")
    assert clar is None and it.understood and it.datasets == ["enforcement"]
    assert it.measure == "lookup" and it.field == "termination_date"
    assert not any(f.field == "word:status" for f in it.filters)


def test_terminated_recalls_counted_stay_a_status(ctx):
    it, clar = interpret(ctx, "how many terminated recalls were there in 2013")
    assert it.measure == "count" and any(f.field == "word:status" for f in it.filters)
