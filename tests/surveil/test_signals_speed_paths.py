"""The two speed-ups of signals checked against a brute-force count in Python over every report of the mirror: the
all-devices totals cached per published event file, and the product-code row index read for a scope of codes
alone (the sample mirror has the index; a scope with a brand takes the filter over every report)."""

from __future__ import annotations

from collections import Counter

import pytest

from mirror.store.files import Store
from mirror.surveil.scope import Scope
from mirror.surveil.signals import _in_scope, signals, totals_path

from .synthetic import event_rows, publish_events


def brute(store: Store, codes: set[str]) -> dict[tuple, tuple[int, int, int, int]]:
    """(dim, term, None) -> (a, b, c, d) over all years, counted report by report."""
    con = store.connect()
    try:
        reports = con.execute(
            "SELECT product_code_list, event_type, product_problems FROM device_event WHERE date_received IS NOT NULL"
        ).fetchall()
    finally:
        con.close()
    inside: Counter[tuple[str, str]] = Counter()
    outside: Counter[tuple[str, str]] = Counter()
    n_in = n_out = 0
    for listed, etype, probs in reports:
        listed = listed or []
        terms = [("event_type", (etype or "").strip() or "(none)")] + [("problem", p) for p in set(probs or [])]
        if set(listed) & codes:
            n_in += 1
            inside.update(terms)
        elif listed:
            n_out += 1
            outside.update(terms)
    return {(d, t, None): (a, n_in - a, outside[(d, t)], n_out - outside[(d, t)]) for (d, t), a in inside.items()}


@pytest.mark.parametrize("codes", [("OZP",), ("JAA", "LOX"), ("FRN",)])
def test_index_path_equals_brute_force_on_the_sample(mirror_copy, codes):
    store = Store(mirror_copy)
    con = store.connect()
    try:
        assert "product_code_list_rows" in _in_scope(con, Scope(codes=codes))  # the fast path is taken
        assert "product_code_list_rows" not in _in_scope(con, Scope(codes=codes, brands=("X",)))
    finally:
        con.close()
    got = {
        (r.dimension, r.term, r.year): (r.table.a, r.table.b, r.table.c, r.table.d)
        for r in signals(store, Scope(codes=codes)).rows
        if r.year is None
    }
    assert got == brute(store, set(codes)) and got


def test_totals_are_cached_once_per_published_event_file(tmp_path):
    store = publish_events(tmp_path / "data", event_rows())  # SYNTHETIC, no row index: the filter path
    first = signals(store, Scope(codes=("AAA",)))
    cache = totals_path(store)
    assert cache.exists() and first.queries[1].startswith("SELECT dim, term, yr, n FROM read_parquet(")
    stamp = cache.stat().st_mtime_ns
    again = signals(store, Scope(codes=("AAA",)))
    assert cache.stat().st_mtime_ns == stamp and [r.table for r in again.rows] == [r.table for r in first.rows]
    got = {
        (r.dimension, r.term, r.year): (r.table.a, r.table.b, r.table.c, r.table.d)
        for r in first.rows
        if r.year is None
    }
    assert got == brute(store, {"AAA"})
    # a new event file (another sync): a new cache, the old one deleted, counts of the new data
    publish_events(tmp_path / "data", event_rows() + event_rows(start=500)[:12])
    third = signals(store, Scope(codes=("AAA",)))
    assert totals_path(store) != cache and not cache.exists() and totals_path(store).exists()
    # the 12 rows added: 10 of AAA, 2 of BBB (synthetic.EVENTS' first lines)
    assert (third.reports_in_scope[None], third.reports_other[None]) == (11 + 10, first.reports_other[None] + 2)
    got = {
        (r.dimension, r.term, r.year): (r.table.a, r.table.b, r.table.c, r.table.d)
        for r in third.rows
        if r.year is None
    }
    assert got == brute(store, {"AAA"})
