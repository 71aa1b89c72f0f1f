"""Round 6 of the blind bank (issue 14), as general rules worded differently from the bank: attributes and flags of
records are filters, not device words (review panel, GMP exemption, single use, sample type, patient age, a firm's
city); fields of one record are read from it (city, generic name, lot, MRI safety, registration expiry); a model
number's digits are not a year; forecasts are refused; phrasal verbs are grammar; and a lookup that finds no record
states no figure."""

from __future__ import annotations

import pytest

from agent.understand.forecast import REPLY as FORECAST_REPLY
from agent.understand.forecast import asks_forecast
from agent.understand.interpret import interpret


def _filters(it) -> list[tuple[str, object]]:
    return [(f.field, f.value) for f in it.filters]


@pytest.mark.parametrize(
    ("question", "field", "value"),
    [
        ("510(k) clearances from the general hospital advisory panel", "word:panel", "HO"),
        ("510ks under review panel HO - count", "word:panel", "HO"),
        ("how many class II codes are exempt from GMP", "word:gmp", "Y"),
        ("count the disposable devices in the UDI records", "word:single", "true"),
        ("how many plasma samples were in the covid serology study", "word:stype", "Plasma"),
    ],
)
def test_a_record_attribute_is_a_filter_not_a_device(ctx, question, field, value):
    it, clar = interpret(ctx, question)
    assert clar is None and it.understood and it.device is None
    assert (field, value) in _filters(it)


def test_a_panel_word_before_a_device_stays_the_device(ctx):
    it, clar = interpret(ctx, "cardiac monitor 510(k)s")
    assert it.device is not None and not any(f.field == "word:panel" for f in it.filters)


def test_two_values_of_one_field_are_compared(assistant):
    out = assistant.ask("plasma versus serum: covid antibody test samples", session_id="cmp")
    assert "Plasma: 11" in out["answer"] and "Serum: 38" in out["answer"]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("maude reports for patients above 75 years of age", "patient older than 75"),
        ("adverse events where the patient was younger than 50", "patient younger than 50"),
    ],
)
def test_a_patient_age_bound_filters_the_reports(ctx, question, said):
    it, clar = interpret(ctx, question)
    assert clar is None and it.understood and it.device is None
    assert [f.label for f in it.filters] == [said] and it.datasets == ["event"]


def test_a_city_the_records_hold_is_a_filter(ctx):
    it, clar = interpret(ctx, "how many PMAs list Minneapolis as the applicant's city")
    assert clar is None and it.understood and ("word:city", "MINNEAPOLIS") in _filters(it)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("in which city is the Puritan Bennett Corp applicant located", "CARLSBAD"),  # the firm's 510(k)
        ("Z-0053-2020: the recalling firm's town", "Reading"),
        ("Spiration valve: its generic name in the PMA records", "Valve, pulmonary"),
        ("Encore Medical screw enforcement report - which lot", "007A1037"),
        ("EXPMT 2000 analyzer: MRI status in the GUDID", "Labeling does not contain MRI Safety Information"),
        ("the year DiaSorin's registration expires", "2016"),
    ],
)
def test_a_field_of_one_record_is_read_from_it(assistant, question, said):
    out = assistant.ask(question, session_id="rec")
    assert said in out["answer"]


def test_a_model_numbers_digits_are_not_a_year(ctx):
    it, clar = interpret(ctx, "gudid record for the EXPMT 2000")
    assert it.date_from is None and it.device is not None and "2000" in it.device.words


def test_a_lookup_that_finds_no_record_states_no_figure(assistant):
    out = assistant.ask("city of Medtronic according to the establishment registrations", session_id="none")
    assert "hold no establishment for Medtronic" in out["answer"] and "cannot give its city" in out["answer"]
    assert " 0 " not in out["answer"].split("\n\n")[1]


@pytest.mark.parametrize(
    "question",
    [
        "how many recalls will Abbott have next year?",
        "forecast the number of MDRs for insulin pumps in 2027",
        "how likely is FDA to clear another leadless pacemaker",
        "will Abbott get more recalls",
    ],
)
def test_forecasts_are_refused(assistant, question):
    assert asks_forecast(question)
    out = assistant.ask(question, session_id="fc")
    assert out["answer"] == FORECAST_REPLY


@pytest.mark.parametrize("question", ["how many recalls were there in 2019", "reports received last year"])
def test_history_is_no_forecast(question):
    assert not asks_forecast(question)


def test_phrasal_verbs_are_grammar(ctx):
    it, clar = interpret(ctx, "how many recalls got started up in 2019")
    assert clar is None and it.understood and it.device is None


def test_not_with_a_demonym_leaves_the_country_out(ctx):
    it, clar = interpret(ctx, "510(k)s in 2020 from applicants that are not Japanese")
    assert it.place is not None and it.place.exclude and it.place.code == "JP" and it.device is None


def test_a_city_is_matched_whole_as_the_records_spell_it(ctx):
    it, clar = interpret(ctx, "PMA approvals for Saint Paul applicants")
    assert ("word:city", "ST PAUL") in _filters(it)  # the records say "ST PAUL"
    it, clar = interpret(ctx, "PMA approvals for Paul")
    assert not any(f.field == "word:city" for f in it.filters)  # "Paul" alone is no city the records hold


def test_words_of_several_things_are_no_place(ctx):
    it, clar = interpret(ctx, "generic name of SVS (Spiration) in the PMA records")
    assert it.place is None and clar is None


def test_a_field_the_dataset_does_not_carry_is_said_so_not_missing(assistant):
    out = assistant.ask("MRI safety status of the 630G insulin pump in the adverse event reports", session_id="nc")
    assert "do not carry the MRI safety status" in out["answer"] and "not given in the record" not in out["answer"]


def test_a_recalls_lots_are_read_from_the_recall(assistant):
    out = assistant.ask("lot numbers in the Arrow International recall", session_id="lot")
    assert "13F18C0374" in out["answer"]


@pytest.mark.parametrize("question", ["Zyntrex PMA approvals in Texas", "recalls by Medtronic Qorvath"])
def test_a_name_no_record_holds_gives_no_figure(ctx, question):
    it, clar = interpret(ctx, question)
    assert clar is None and not it.understood and "I give no figure" in it.cannot


def test_a_firm_name_shortened_is_still_the_firm(ctx):
    it, clar = interpret(ctx, "Medtronic vs Boston Sci PMA supplements")
    assert it.understood and len(it.sides) == 2
