"""Issue 14, round 2 of the blind bank: the classes it showed, checked on their parts (no mirror needed here; the
whole questions are in understanding_cases.yaml)."""

from __future__ import annotations

from datetime import date

from agent.guard import classify
from agent.understand.asking import ask_class_kind, ask_firm_dataset
from agent.understand.dates import readable
from agent.understand.ids import code_tokens, read_ids
from agent.understand.resolve import _word_forms
from agent.understand.tokens import tokenize
from agent.understand.types import Filter, FirmFilter, Interpretation
from agent.writing import day


def test_dates_a_person_reads_are_iso():
    assert day("20230101") == "2023-01-01"
    assert day("2023-01-01") == "2023-01-01"
    assert day("4/21/2020") == "2020-04-21"
    assert day(date(2025, 9, 23)) == "2025-09-23"
    assert day("not a date") == "not a date"
    assert readable(date(2020, 4, 1), date(2020, 5, 15)) == "2020-04-01 to 2020-05-15"
    assert readable(date(2020, 4, 21), date(2020, 4, 21)) == "2020-04-21"
    assert readable(None, date(2019, 12, 31)) == "up to 2019-12-31"


def test_lay_word_endings_become_the_endings_device_names_use():
    assert "fluoroscopic systems" in _word_forms("fluoroscopy systems")
    assert "fluoroscopic x-ray" in _word_forms("fluoroscopic xray")
    assert "image intensified" in _word_forms("image intensifiers")
    assert _word_forms("pump") == []  # nothing to change: no alternative


def test_registration_and_fei_numbers_are_establishment_numbers_not_report_keys():
    got = read_ids(tokenize("which establishment has registration number 1628808?"))
    assert [(ds, f.field, f.value) for ds, f in got] == [("registrationlisting", "word:regnum", "1628808")]
    got = read_ids(tokenize("establishments with FEI 3002808212"))
    assert [(ds, f.field) for ds, f in got] == [("registrationlisting", "word:fei")]
    got = read_ids(tokenize("mdr report 16081310 device problem"))
    assert [(ds, f.field) for ds, f in got] == [("event", "mdr_report_key")]


def test_a_capital_code_followed_by_a_model_number_is_no_code_but_a_year_keeps_it():
    _, caps = code_tokens(tokenize("what's the primary DI for model PAD 6082?"))
    assert caps == []
    toks = tokenize("OZP 2023 reports")
    _, caps = code_tokens(toks)
    assert [toks.toks[i].text for i in caps] == ["OZP"]


def test_advice_for_a_relative_and_agency_heads_are_not_searched():
    assert classify("is the 630G insulin pump safe for my daughter?") == "medical"
    assert classify("should my mother have her InterStim removed?") == "medical"
    assert classify("who is the current FDA commissioner?") == "off_topic"
    assert classify("how many adverse events for pacemakers?") == "ask"
    assert classify("recalls for patient monitors") == "ask"


def test_a_firm_in_several_datasets_without_one_named_is_asked_about():
    firm = FirmFilter(
        words="Boston Scientific", name="BOSTON SCIENTIFIC CORPORATION", by_dataset={"event": 1, "pma": 1, "recall": 0}
    )
    clar = ask_firm_dataset(Interpretation(datasets=["event"], firm=firm))
    assert clar is not None and len(clar.choices) == 2
    assert {tuple(c.patch["datasets"]) for c in clar.choices} == {("event",), ("pma",)}
    one = FirmFilter(words="Orthofix", name="Orthofix, Inc.", by_dataset={"510k": 1})
    assert ask_firm_dataset(Interpretation(datasets=["510k"], firm=one)) is None


def test_a_bare_class_asks_device_class_or_recall_class():
    f = Filter(field="device_class", value="2", label="device class II", words="class II")
    clar = ask_class_kind(Interpretation(datasets=["event"], measure="count", filters=[f]))
    assert clar is not None
    assert [c.patch["datasets"] for c in clar.choices] == [["classification"], ["enforcement"]]
    assert clar.choices[1].patch["filters"][0]["value"] == "Class II"
    assert ask_class_kind(Interpretation(datasets=["classification"], measure="count", filters=[f])) is None


def test_this_and_last_quarter_are_anchored_on_the_as_of_date():
    from agent.understand.dates import read_dates

    anchor = date(2025, 9, 23)
    got = read_dates(tokenize("adverse events this quarter"), anchor)
    assert got is not None and (got.start, got.end) == (date(2025, 7, 1), anchor)
    got = read_dates(tokenize("510(k)s cleared last quarter"), anchor)
    assert got is not None and (got.start, got.end) == (date(2025, 4, 1), date(2025, 6, 30))
    got = read_dates(tokenize("recalls last quarter"), date(2017, 2, 10))
    assert got is not None and (got.start, got.end) == (date(2016, 10, 1), date(2016, 12, 31))
