"""Result tables and charts from evidence, and the timeline entries of agent events (no window, no mirror)."""

from __future__ import annotations

from app.results import as_of_of, chart_of, tables_of
from app.timeline import attach_queries, entry_of

PROV = [{"dataset": "device/event", "as_of": "2025-09-23", "query": "search=x&limit=2"}]
SEARCH = {"tool": "search_events", "total": 40, "id_fields": ["mdr_report_key"], "provenance": PROV,
          "rows": [{"mdr_report_key": "2", "date_received": "20090217", "device_problems": ["Break", "Leak"]},
                   {"mdr_report_key": "10", "date_received": None, "extra": 3}]}
TREND = {"tool": "count_by", "total": 7, "id_fields": ["year"], "provenance": PROV,
         "rows": [{"year": "2008", "count": 1}, {"year": "2011", "count": 5}]}
MONTHS = {"tool": "count_by", "total": 3, "id_fields": ["month"], "provenance": PROV,
          "rows": [{"month": "2023-11", "count": 1}, {"month": "2024-02", "count": 2}]}
TOP = {"tool": "count_by", "total": 9, "id_fields": ["manufacturer"], "provenance": PROV, "truncated": True,
       "rows": [{"manufacturer": "B", "count": 2}, {"manufacturer": "A", "count": 7}]}


def test_a_table_per_result_with_rows_columns_in_order_and_a_capped_note():
    [t] = tables_of([SEARCH, {"tool": "count_by", "rows": [], "provenance": PROV}])
    assert t.columns == ["mdr_report_key", "date_received", "device_problems", "extra"]
    assert (t.title, t.as_of, t.query, t.total) == ("search_events · device/event", "2025-09-23", "search=x&limit=2", 40)
    assert t.capped and "2 rows shown; total 40 records (as of 2025-09-23)" in t.footer and "FDAX_ROW_CAP" in t.footer
    assert t.cells()[0] == ["2", "20090217", '["Break", "Leak"]', ""]
    assert not tables_of([TOP])[0].capped        # count_by totals count records, not buckets


def test_sorting_is_numeric_for_numbers_text_otherwise_and_empty_values_last():
    t = tables_of([SEARCH])[0]
    t.sort(0, ascending=True)
    assert [r["mdr_report_key"] for r in t.rows] == ["10", "2"]      # text column: as text
    t.sort(1, ascending=False)
    assert [r["mdr_report_key"] for r in t.rows] == ["2", "10"]      # the empty date stays last
    top = tables_of([TOP])[0]
    top.sort(1, ascending=False)
    assert [r["count"] for r in top.rows] == [7, 2] and (top.sort_column, top.ascending) == (1, False)


def test_trends_draw_lines_with_gaps_filled_and_categories_draw_bars():
    line = chart_of([SEARCH, TREND])
    assert line.kind == "line" and line.title == "device/event by year" and line.as_of == "2025-09-23"
    assert line.points == [("2008", 1), ("2009", 0), ("2010", 0), ("2011", 5)]
    assert chart_of([MONTHS]).points == [("2023-11", 1), ("2023-12", 0), ("2024-01", 0), ("2024-02", 2)]
    bars = chart_of([TOP])
    assert bars.kind == "bar" and bars.points == [("B", 2), ("A", 7)] and bars.peak == 7
    assert "bar chart, device/event by manufacturer: B: 2; A: 7" == bars.describe()
    assert chart_of([SEARCH]) is None


def test_as_of_comes_from_the_provenance_used_else_every_dataset():
    assert as_of_of({"provenance": PROV, "as_of": {"event": "x", "gudid": "y"}}) == {"device/event": "2025-09-23"}
    assert as_of_of({"provenance": [], "as_of": {"event": "2025-09-23", "gudid": "2025-10-01"}}) == {
        "device/event": "2025-09-23", "gudid": "2025-10-01"}


def test_timeline_entries_name_each_step_and_carry_arguments_and_queries():
    plan = entry_of({"type": "step", "step": "plan", "calls": [{"tool": "count_by", "args": {"field": "year"}}]}, 0.0123)
    assert (plan.title, plan.details, plan.seconds) == ("Planned the search: 1 tool call (count_by)",
                                                        [("count_by", '{"field": "year"}')], 0.012)
    call = entry_of({"type": "tool_call", "tool": "count_by", "args": {"field": "year"}})
    ok = entry_of({"type": "tool_result", "tool": "count_by", "ok": True, "summary": "count_by: total 7"})
    bad = entry_of({"type": "tool_result", "tool": "search_recalls", "ok": False, "summary": "bad date"})
    assert (call.title, ok.title, ok.ok, bad.title, bad.ok) == (
        "Calling count_by", "count_by: total 7", True, "search_recalls failed", False)
    assert entry_of({"type": "error", "where": "model plan", "message": "timeout"}).title == "model plan: timeout"
    assert entry_of({"type": "token", "text": "x"}) is None and entry_of({"type": "answer"}) is None
    attach_queries([plan, call, ok, bad], [{"tool": "count_by", "queries": ["count=date_received"]},
                                           {"tool": "search_recalls", "queries": []}])
    assert ok.details[-1] == ("query", "count=date_received") and bad.details == [("result", "bad date")]


def test_a_result_read_from_several_datasets_keeps_each_as_of_date():
    """A resolver reads several datasets: each row keeps its own dataset and as-of date, the table the oldest."""
    firm = {"tool": "resolve_manufacturer", "total": 2, "id_fields": ["name"],
            "provenance": [{"dataset": "device/event", "as_of": "2025-09-23", "query": "q1"},
                           {"dataset": "device/pma", "as_of": "2025-09-22", "query": "q2"}],
            "rows": [{"name": "BOSTON SCIENTIFIC", "dataset": "device/event"},
                     {"name": "Boston Scientific Corp.", "dataset": "device/pma"}]}
    [t] = tables_of([firm])
    assert (t.dataset, t.as_of, t.query) == ("device/event; device/pma", "2025-09-22", "q1; q2")
    assert t.as_of_text == "device/event 2025-09-23; device/pma 2025-09-22"
    assert [t.row_source(r) for r in t.rows] == [("device/event", "2025-09-23"), ("device/pma", "2025-09-22")]
