"""Signals against hand-computed 2x2 tables: the SYNTHETIC event mirror (counts in synthetic.EVENTS) and the
shipped sample (7 real reports)."""

from __future__ import annotations

import math

import pytest

from mirror.store.files import Store
from mirror.surveil.scope import Scope
from mirror.surveil.signals import signals
from mirror.surveil.stats import Thresholds, TwoByTwo, measures

from .synthetic import event_rows, publish_events


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Store:
    return publish_events(tmp_path_factory.mktemp("synthetic-events") / "data", event_rows())


def row(table, dim, term, year):
    return next(r for r in table.rows if (r.dimension, r.term, r.year) == (dim, term, year))


def test_battery_problem_all_years_matches_the_hand_computed_table(synthetic):
    # AAA: 11 reports (10 in 2023, 1 in 2022), 6 with Battery Problem; others: 109 reports, 5 with it.
    t = signals(synthetic, Scope(codes=("AAA",)))
    r = row(t, "problem", "Battery Problem", None)
    assert r.table == TwoByTwo(6, 5, 5, 104)
    m = r.measures
    assert m.prr == pytest.approx((6 / 11) / (5 / 109))  # 11.890909...
    assert m.prr == pytest.approx(11.8909090909)
    se = math.sqrt(1 / 6 - 1 / 11 + 1 / 5 - 1 / 109)
    assert (m.prr_low, m.prr_high) == pytest.approx(
        (11.8909090909 * math.exp(-1.959964 * se), 11.8909090909 * math.exp(1.959964 * se))
    )
    assert m.ror == pytest.approx(6 * 104 / (5 * 5))  # 24.96
    assert m.ror_low == pytest.approx(24.96 * math.exp(-1.959964 * math.sqrt(1 / 6 + 1 / 5 + 1 / 5 + 1 / 104)))
    # Yates: N=120, |ad-bc| = |624-25| = 599, (599-60)^2 = 290521; margins 11*109*11*109 = 1437601
    assert m.chi2 == pytest.approx(120 * 290521 / 1437601)  # 24.2506...
    assert not m.haldane and m.flagged


def test_death_in_2023_and_the_year_totals(synthetic):
    t = signals(synthetic, Scope(codes=("AAA",)))
    assert t.reports_in_scope == {2022: 1, 2023: 10, None: 11}
    assert t.reports_other == {2022: 9, 2023: 100, None: 109}
    r = row(t, "event_type", "Death", 2023)
    assert r.table == TwoByTwo(3, 7, 2, 98)
    assert r.measures.prr == pytest.approx(15.0)
    assert r.measures.ror == pytest.approx(3 * 98 / 14)  # 21.0
    # N=110, |294-14| = 280, (280-55)^2 = 50625; margins 10*100*5*105 = 525000
    assert r.measures.chi2 == pytest.approx(110 * 50625 / 525000)  # 10.607...
    assert r.measures.flagged


def test_zero_cell_uses_haldane_and_keeps_the_observed_chi_square(synthetic):
    # Overheating: 2 AAA reports, none elsewhere (c = 0): PRR on the table + 0.5.
    t = signals(synthetic, Scope(codes=("AAA",)))
    r = row(t, "problem", "Overheating", None)
    assert r.table == TwoByTwo(2, 9, 0, 109)
    m = r.measures
    assert m.haldane
    assert m.prr == pytest.approx((2.5 / 12) / (0.5 / 110))  # 45.8333...
    assert m.ror == pytest.approx(2.5 * 109.5 / (9.5 * 0.5))  # 57.631...
    # observed counts: N=120, |218-0| = 218, (218-60)^2 = 24964; margins 11*109*2*118
    assert m.chi2 == pytest.approx(120 * 24964 / (11 * 109 * 2 * 118))  # 10.59...
    assert not m.flagged  # a = 2 < 3


def test_a_term_the_product_never_reports_is_not_listed(synthetic):
    t = signals(synthetic, Scope(codes=("CCC",)))
    assert {(r.dimension, r.term) for r in t.rows} == {("event_type", "Malfunction"), ("problem", "Crack")}
    r = row(t, "event_type", "Malfunction", 2022)
    assert r.table == TwoByTwo(9, 0, 1, 0)  # b = d = 0: ROR from the corrected table
    assert r.measures.ror == pytest.approx(9.5 * 0.5 / (0.5 * 1.5)) and r.measures.chi2 is None


def test_measures_are_undefined_without_other_devices():
    m = measures(TwoByTwo(3, 1, 0, 0))
    assert m.prr is None and m.ror is None and m.chi2 is None and not m.flagged


def test_thresholds_are_applied_and_described():
    t = TwoByTwo(6, 5, 5, 104)
    assert measures(t).flagged
    assert not measures(t, Thresholds(prr=20)).flagged
    assert Thresholds().describe() == "PRR >= 2, chi-square >= 4, n (a) >= 3"


def test_year_range_and_firm_scope(synthetic):
    t = signals(synthetic, Scope(firms=("firm aaa",)), year_from=2023)
    assert t.reports_in_scope == {2023: 10, None: 10}
    assert all(r.year in (2023, None) for r in t.rows)


def test_sample_mirror_hand_table(sample_dir):
    """The real sample: OZP has 2 of 7 reports, one with 'No Display/Image', which one OZO report also has."""
    t = signals(Store(sample_dir), Scope(codes=("OZP",)))
    r = row(t, "problem", "No Display/Image", None)
    assert r.table == TwoByTwo(1, 1, 1, 4)
    assert r.measures.prr == pytest.approx(2.5)
    assert r.measures.ror == pytest.approx(4.0)
    assert r.measures.chi2 == pytest.approx(0.0)  # |4-1| = 3 < N/2 = 3.5: Yates takes it to 0
    assert t.as_of == "2025-09-23"
