"""The reading of questions (agent/understand): the date grammar anchored on the as-of date, and readings matched
against the sample mirror's own vocabulary (firms beat fuzzy devices; unknown words are never corrected into one)."""

from __future__ import annotations

from datetime import date

import pytest

from agent.understand.dates import read_dates, readable
from agent.understand.interpret import interpret
from agent.understand.tokens import tokenize

AS_OF = date(2025, 9, 23)


@pytest.mark.parametrize(
    "text,start,end",
    [
        ("received in January 2023", date(2023, 1, 1), date(2023, 1, 31)),
        ("in Dec 2020", date(2020, 12, 1), date(2020, 12, 31)),
        ("Q3 2022", date(2022, 7, 1), date(2022, 9, 30)),
        ("in the fourth quarter of 2020", date(2020, 10, 1), date(2020, 12, 31)),
        ("2019 Q2", date(2019, 4, 1), date(2019, 6, 30)),
        ("between April and June 2020", date(2020, 4, 1), date(2020, 6, 30)),
        ("from 2019 to 2021", date(2019, 1, 1), date(2021, 12, 31)),
        ("recalls 2019-2021", date(2019, 1, 1), date(2021, 12, 31)),
        ("since 2019", date(2019, 1, 1), None),
        ("after 2019", date(2020, 1, 1), None),
        ("before 2000", None, date(1999, 12, 31)),
        ("last 2 years", date(2023, 9, 23), AS_OF),
        ("this year", date(2025, 1, 1), AS_OF),
        ("last year", date(2024, 1, 1), date(2024, 12, 31)),
        ("in 2023-01", date(2023, 1, 1), date(2023, 1, 31)),
        ("during 1/2023", date(2023, 1, 1), date(2023, 1, 31)),
    ],
)
def test_date_grammar(text, start, end):
    got = read_dates(tokenize(text), AS_OF)
    assert got is not None and (got.start, got.end) == (start, end)


@pytest.mark.parametrize(
    "text", ["what did Medline get in may", "Class III recalls", "MODEL 7200AE VENTILATOR", "march of the recalls"]
)
def test_words_that_only_look_like_dates_are_not_dates(text):
    assert read_dates(tokenize(text), AS_OF) is None


def test_dates_read_for_people():
    assert readable(date(2023, 1, 1), date(2023, 1, 31)) == "January 2023"
    assert readable(date(2023, 1, 1), date(2023, 3, 31)) == "Q1 2023"
    assert readable(date(2020, 1, 1), date(2020, 12, 31)) == "2020"
    assert readable(date(2019, 1, 1), None) == "since 2019-01-01"


def test_a_month_is_never_a_device(ctx):
    it, clar = interpret(ctx, "reports received in January 2023")
    assert it.device is None and clar is None and it.datasets == ["event"]
    assert (it.date_from, it.date_to) == (date(2023, 1, 1), date(2023, 1, 31))


def test_a_known_firm_beats_a_fuzzy_device(ctx):
    it, _ = interpret(ctx, "What 510(k)s did Medline get?")
    assert it.firm is not None and it.firm.name == "Medline Industries, Inc." and it.device is None
    it, _ = interpret(ctx, "GE OEC adverse event reports")
    assert it.firm is not None and it.firm.name.startswith("GE OEC") and it.device is None


def test_a_word_that_matches_nothing_is_not_corrected_into_a_device(ctx):
    it, clar = interpret(ctx, "adverse events for flibbertigibbets")
    assert not it.understood and it.device is None and "flibbertigibbets" in it.unexplained


def test_unreadable_filters_are_never_dropped(ctx):
    for q in [
        'events for firm " OR 1=1 --',
        "Wie viele Rückrufe gab es 2020 für Herzschrittmacher?",
        "recalls for product code QQQ",
    ]:
        it, _ = interpret(ctx, q)
        assert not it.understood, q


def test_device_codes_are_ranked_by_the_records_they_hold_in_the_dataset(ctx):
    it, _ = interpret(ctx, "recalls for intravascular catheters")
    assert it.codes() == ["FOZ"] and it.device.codes[0].records == 1


def test_the_dataset_s_own_names_are_searched_when_codes_find_nothing(ctx):
    it, _ = interpret(ctx, "malfunctions for insulin pumps")
    assert it.device.path == "names" and it.device.text == "insulin pumps" and "630G" not in it.device.how
    assert "brand and generic names" in it.device.how
