"""Records per product code (issue 14): a broad term names hundreds of codes, and the local API refuses a search of
more than 100 terms. Counting them in one query made every code read as "no records here", so a device term was
answered from the records' own names instead of its product code (a confident wrong figure at scale 0.3)."""

from __future__ import annotations

from agent.understand.resolve import CODES_PER_COUNT, codes_in


def test_codes_in_counts_every_code_of_a_list_longer_than_one_search_holds(ctx, sample_dir):
    from mirror.store.files import Store

    con = Store(sample_dir).connect()
    try:
        held = [
            c
            for (c,) in con.execute(
                "SELECT DISTINCT device_report_product_code FROM device_event_device "
                "WHERE device_report_product_code IS NOT NULL"
            ).fetchall()
        ]
        every = [c for (c,) in con.execute("SELECT product_code FROM device_classification").fetchall()]
    finally:
        con.close()
    codes = [c for c in every if c not in held][: 3 * CODES_PER_COUNT] + held  # the codes with records come last
    assert len(codes) > 100
    got = codes_in(ctx, "event", codes)
    assert set(got) == set(codes)
    assert all(got[c] > 0 for c in held), {c: got[c] for c in held}
    assert not any(got[c] for c in codes if c not in held)
