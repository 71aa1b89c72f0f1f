"""Rounds 9 and 10 of the bank (issue 14), as general rules worded differently from the bank: the top value of a field
over a whole dataset is a ranking (never a request to name a device), and a bare "class 2 recalls" asks whether the
recall's classification or the recalled devices' class is meant."""

from __future__ import annotations

import pytest

from agent.understand.interpret import interpret


@pytest.mark.parametrize(
    "question",
    [
        "which device problem is reported most frequently in adverse events?",
        "the product problem seen most often in MAUDE",
        "name the #1 device problem across the adverse event reports",
        "top device problem codes in the event data",
    ],
)
def test_the_top_value_of_a_field_over_a_dataset_is_a_ranking(ctx, question):
    it, ask = interpret(ctx, question, None)
    assert ask is None
    assert (it.measure, it.by, it.datasets) == ("top", "device_problem", ["event"])


def test_the_top_problem_over_all_event_reports_is_answered(assistant):
    out = assistant.ask("device problem reported most often in the mdr data?", session_id="t")
    head = out["answer"].splitlines()[0:3]
    assert "top device problems" in head[0]
    assert "did not understand" not in out["answer"]


@pytest.mark.parametrize(
    "question",
    ["how many class 3 recalls do we have?", "class I recalls in total", "count the recalls that were class two"],
)
def test_a_bare_class_of_recalls_asks_which_class_is_meant(ctx, question):
    _, ask = interpret(ctx, question, None)
    assert ask is not None
    labels = " | ".join(c.label for c in ask.choices)
    assert "recalls of device class" in labels and "FDA enforcement reports" in labels


def test_a_list_of_class_ii_recalls_is_answered_with_each_record_class(ctx):
    it, ask = interpret(ctx, "show me the Class II recalls", None)
    assert ask is None and it.datasets == ["enforcement"]


def test_a_recall_class_said_in_enforcement_terms_is_not_asked_about(ctx):
    it, ask = interpret(ctx, "how many enforcement reports are class II recalls?", None)
    assert ask is None
    assert it.datasets == ["enforcement"]
    assert any(f.field == "recall_class" for f in it.filters)


@pytest.mark.parametrize(
    "question", ["FEI number of the Diasorin establishment", "Diasorin's FEI no.", "give me the FEI for DiaSorin"]
)
def test_fei_in_capitals_is_the_establishment_identifier_not_a_product_code(ctx, question):
    it, _ = interpret(ctx, question, None)
    assert it.device is None or all(c.code != "FEI" for c in it.device.codes)
    assert it.datasets == ["registrationlisting"]


def test_fei_said_to_be_a_product_code_is_still_the_code(ctx):
    it, _ = interpret(ctx, "adverse events for product code FEI", None)
    assert it.device is not None and [c.code for c in it.device.codes] == ["FEI"]


def test_the_fei_of_a_named_firm_is_answered_with_its_registration(assistant):
    out = assistant.ask("FEI no. for DiaSorin?", session_id="f")
    assert "3002808212" in out["answer"]
    assert "Instrument, Special Lens" not in out["answer"]


@pytest.mark.parametrize(
    "question", ["implantable device types in class II", "how many implanted class 1 product codes"]
)
def test_implantable_alone_in_the_classification_is_the_implant_flag(ctx, question):
    it, ask = interpret(ctx, question, None)
    assert ask is None and it.device is None
    assert ("word:implant", "Y") in [(f.field, f.value) for f in it.filters]


def test_implantable_before_a_device_noun_stays_the_device(ctx):
    it, _ = interpret(ctx, "implantable pulse generator recalls", None)
    assert it.device is not None and "pulse generator" in it.device.words
    assert all(f.field != "word:implant" for f in it.filters)


def test_a_follow_up_on_implantable_device_types_keeps_their_filters(assistant):
    first = assistant.ask("implantable device types in class 3", session_id="i")
    then = assistant.ask("of those, which are life-sustaining? how many", session_id="i")
    assert "implants" in first["answer"].splitlines()[0]
    head = then["answer"].splitlines()[0]
    assert "device class III" in head and "implants" in head and "life-sustaining" in head


def test_registrant_and_lists_are_read_as_registration_words(ctx):
    for question in ["who is the registrant that lists Endopath Xcel?", "registrants for ENDOPATH XCEL"]:
        it, ask = interpret(ctx, question, None)
        assert ask is None and it.datasets == ["registrationlisting"]
        assert it.device is not None and it.device.words.lower() == "endopath xcel"


def test_used_is_grammar_in_a_serology_comparison(ctx):
    it, ask = interpret(ctx, "serology results that used plasma versus serum", None)
    assert ask is None and it.device is None and it.measure == "compare"
