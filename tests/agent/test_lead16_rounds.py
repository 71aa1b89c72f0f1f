"""Classes of misreading found by the blind rounds 36 to 40 (issue 14) that the lead fixed, each asked here in other
words than the rounds': dates typed year first with slashes, halves written 1H or H1 after the year, "trailing"
periods, the last months of a named year, a quarter said without its year, months in brackets that restate a
quarter, a product code before "510k", a patient's identity asked with "pt", market size and worth, and other
regulators' records. Real library API, sample mirror; expected figures are counted by SQL on the same mirror."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import duckdb
import pytest

from agent.understand.dates import read_dates
from agent.understand.tokens import tokenize


def _count(sample_dir: Path, table: str, where: str) -> int:
    con = duckdb.connect(str(sample_dir / "db" / f"{table}.duckdb"), read_only=True)
    try:
        return con.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]
    finally:
        con.close()


def _head(answer: str) -> tuple[str, str]:
    lines = [ln for ln in answer.splitlines() if ln.strip()]
    return lines[0], lines[1]


ANCHOR = date(2025, 9, 22)


@pytest.mark.parametrize(
    "text, start, end",
    [
        ("decisions 2021/04 ~ 2021/06", date(2021, 4, 1), date(2021, 6, 30)),
        ("between 2018/2/1 and 2018/3/15", date(2018, 2, 1), date(2018, 3, 15)),
        ("reports of 2022/11", date(2022, 11, 1), date(2022, 11, 30)),
        ("started 2018 2H", date(2018, 7, 1), date(2018, 12, 31)),
        ("cleared in 2H21", date(2021, 7, 1), date(2021, 12, 31)),
        ("over the rolling 2 years", date(2023, 9, 22), ANCHOR),
        ("the first 4 months of 2022", date(2022, 1, 1), date(2022, 4, 30)),
        ("the last 2 quarters of 2018", date(2018, 7, 1), date(2018, 12, 31)),
        ("initiated after 2013 but before 2016", date(2014, 1, 1), date(2015, 12, 31)),
        ("since May 2018 and before 2020", date(2018, 5, 1), date(2019, 12, 31)),
        ("before 2012 and after 2009", date(2010, 1, 1), date(2011, 12, 31)),
        ("cleared CY19", date(2019, 1, 1), date(2019, 12, 31)),
        ("closed '06–'09", date(2006, 1, 1), date(2009, 12, 31)),
        ("decided Mar–May 2021", date(2021, 3, 1), date(2021, 5, 31)),
        ("in the 3 years before the export date", date(2022, 9, 22), ANCHOR),
        ("since 6 months before the data cut", date(2025, 3, 22), ANCHOR),
        ("the past 2 years (relative to the export date)", date(2023, 9, 22), ANCHOR),
    ],
)
def test_dates_typed_in_other_ways_are_read_as_one_period(text, start, end):
    got = read_dates(tokenize(text), ANCHOR)
    assert got is not None and (got.start, got.end) == (start, end), got


def test_a_quarter_without_its_year_is_its_latest_and_the_year_is_shown():
    got = read_dates(tokenize("how many reports in the 2nd quarter"), ANCHOR)
    assert got is not None and (got.start, got.end, got.quarter_alone) == (date(2025, 4, 1), date(2025, 6, 30), 2)
    later = read_dates(tokenize("Q4 complaints"), ANCHOR)  # Q4 2025 has not started on the as-of date
    assert later is not None and (later.start, later.end) == (date(2024, 10, 1), date(2024, 12, 31))
    assert read_dates(tokenize("Q4 of 2019"), ANCHOR).start == date(2019, 10, 1)


def test_months_in_brackets_that_restate_a_quarter_are_not_more_periods(assistant, sample_dir):
    want = _count(sample_dir, "device_pma", "decision_date BETWEEN '2020-10-01' AND '2020-12-31'")
    head, first = _head(assistant.ask("How many PMA decisions came in Q4 2020 (Oct to Dec)?")["answer"])
    assert "compared" not in head and "Q4 2020" in head, head
    assert re.search(rf"\b{want} PMA", first), first


def test_a_year_first_slashed_range_is_counted(assistant, sample_dir):
    want = _count(sample_dir, "device_pma", "decision_date BETWEEN '2020-11-01' AND '2020-12-31'")
    head, first = _head(assistant.ask("number of PMA decisions 2020/11 ~ 2020/12 please")["answer"])
    assert "November to December 2020" in head, head
    assert re.search(rf"\b{want} PMA", first), first


def test_the_last_months_of_a_named_year_are_that_years_end(assistant, sample_dir):
    want = _count(sample_dir, "device_pma", "decision_date BETWEEN '2020-11-01' AND '2020-12-31'")
    head, first = _head(assistant.ask("PMA decisions in the final two months of 2020")["answer"])
    assert "November to December 2020" in head, head
    assert re.search(rf"\b{want} PMA", first), first


def test_a_code_before_510k_is_read_as_the_code_not_a_model_number(assistant):
    head, first = _head(assistant.ask("ETB 510k: decision date?")["answer"])
    assert "product code ETB" in head, head
    assert "2000-06-23" in first, first


def test_patient_shorthand_alone_asks_for_no_identity():
    from agent.understand.privacy import asks_identity

    assert not asks_identity("pt sex breakdown, all MDRs")
    assert not asks_identity("how many pts were over 70 in those reports?")


def test_another_regulators_records_are_refused_and_firms_of_a_country_are_not(assistant):
    refused = assistant.ask("What class did the MHLW give this endoscope in Japan?")["answer"]
    assert refused.startswith("That is not in this mirror"), refused
    searched = assistant.ask("recalls by Japanese firms since 2010")["answer"]
    assert searched.startswith("Interpreted as: recalls; place Japan"), searched


@pytest.mark.parametrize("text", ["which came first and which last", "the last", "over the past 3"])
def test_period_words_at_the_end_of_a_question_read_no_period(text):
    assert read_dates(tokenize(text), ANCHOR) is None


def test_a_quarter_without_its_year_in_a_first_question_asks_which_year_and_the_pick_is_counted(assistant, sample_dir):
    out = assistant.ask("adverse event reports in the first quarter, how many?", "q-alone")
    assert out["clarify"] is not None, out["answer"]
    assert out["clarify"]["choices"][:3] == ["Q1 2025", "Q1 2024", "Q1 2023"], out["clarify"]
    want = _count(sample_dir, "device_event", "date_received BETWEEN '2023-01-01' AND '2023-03-31'")
    picked = assistant.ask("3", "q-alone")["answer"]
    head, first = _head(picked)
    assert "Q1 2023" in head, head
    assert re.search(rf"\b{want} adverse event reports?\b", first), first


def test_a_quarter_without_its_year_after_an_answer_takes_that_answers_year(assistant):
    assistant.ask("MDRs received in Q1 2023", "q-follow")
    out = assistant.ask("and in Q2?", "q-follow")
    assert out["clarify"] is None, out["answer"]
    assert "Q2 2023" in _head(out["answer"])[0], out["answer"]


def test_a_kit_asked_about_its_label_is_not_read_as_a_device_named_kit(assistant):
    out = assistant.ask("is PACKROOM's pacemaker drape kit sterile?")
    said = out["answer"] + str(out.get("clarify") or "")
    assert "NVZ" not in said and "Pulse Generator" not in said, said


def test_records_that_went_public_are_no_business_question():
    from agent.understand.commerce import asks_commerce

    assert not asks_commerce("how many DIs went public in GUDID last year?")
    assert asks_commerce("when did the company go public?")
