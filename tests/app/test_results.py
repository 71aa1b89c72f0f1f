"""Result tables and charts from evidence, and the timeline entries of agent events (no window, no mirror)."""

from __future__ import annotations

from app.labels import count, display_value, field_label, iso_date
from app.reading import reading_parts, split_answer, without_tables
from app.results import as_of_of, chart_of, contributing_as_of, tables_of
from app.timeline import attach_queries, entry_of

from .conftest import count_result

PROV = [{"dataset": "device/event", "as_of": "2025-09-23", "query": "search=x&limit=2"}]
SEARCH = {
    "tool": "search_events",
    "total": 40,
    "id_fields": ["mdr_report_key"],
    "provenance": PROV,
    "rows": [
        {"mdr_report_key": "2", "date_received": "20090217", "device_problems": ["Break", "Leak"]},
        {"mdr_report_key": "10", "date_received": None, "extra": 3},
    ],
}
TREND = count_result("year", {"2008": 1, "2011": 5}, 7, PROV)
MONTHS = count_result("month", {"2023-11": 1, "2024-02": 2}, 3, PROV)
TOP = count_result("manufacturer", {"B": 2, "A": 7}, 9, PROV, truncated=True)


def test_a_table_per_result_with_rows_columns_in_order_and_a_capped_note():
    [t] = tables_of([SEARCH, {"tool": "count_by", "rows": [], "provenance": PROV}])
    assert t.columns == ["mdr_report_key", "date_received", "device_problems", "extra"]
    assert (t.title, t.as_of, t.query, t.total) == ("MAUDE adverse events", "2025-09-23", "search=x&limit=2", 40)
    assert t.capped and t.footer.startswith("2 rows of 40 matching records. Data as of 2025-09-23.")
    assert "FDAX" not in t.footer and "Ask a narrower question" in t.footer  # no tool call to fetch them all with
    assert t.cells()[0] == ["2", "20090217", '["Break", "Leak"]', ""]
    assert not tables_of([TOP])[0].capped  # count_by totals count records, not buckets


def test_sorting_is_numeric_for_numbers_text_otherwise_and_empty_values_last():
    t = tables_of([SEARCH])[0]
    t.sort(0, ascending=True)
    assert [r["mdr_report_key"] for r in t.rows] == ["10", "2"]  # text column: as text
    t.sort(1, ascending=False)
    assert [r["mdr_report_key"] for r in t.rows] == ["2", "10"]  # the empty date stays last
    top = tables_of([TOP])[0]
    top.sort(1, ascending=False)
    assert [r["count"] for r in top.rows] == [7, 2] and (top.sort_column, top.ascending) == (1, False)


def test_trends_draw_lines_with_gaps_filled_and_categories_draw_bars():
    line = chart_of([SEARCH, TREND])
    assert line.kind == "line" and line.title == "MAUDE adverse events by year" and line.as_of == "2025-09-23"
    assert line.points == [("2008", 1), ("2009", 0), ("2010", 0), ("2011", 5)]
    assert chart_of([MONTHS]).points == [("2023-11", 1), ("2023-12", 0), ("2024-01", 0), ("2024-02", 2)]
    bars = chart_of([TOP])
    assert bars.kind == "bar" and bars.points == [("B", 2), ("A", 7)] and bars.peak == 7
    assert "Bar chart, MAUDE adverse events by manufacturer: B: 2; A: 7" == bars.describe()
    assert chart_of([SEARCH]) is None


def test_as_of_comes_from_the_provenance_used_else_every_dataset():
    assert as_of_of({"provenance": PROV, "as_of": {"event": "x", "gudid": "y"}}) == {"device/event": "2025-09-23"}
    assert as_of_of({"provenance": [], "as_of": {"event": "2025-09-23", "gudid": "2025-10-01"}}) == {
        "device/event": "2025-09-23",
        "gudid": "2025-10-01",
    }


def test_timeline_entries_name_each_step_and_carry_arguments_and_queries():
    plan = entry_of(
        {"type": "step", "step": "plan", "calls": [{"tool": "count_by", "args": {"field": "year"}}]}, 0.0123
    )
    assert (plan.title, plan.details, plan.seconds) == (
        "Planned 1 search",
        [("Counted records", '{"field": "year"}')],
        0.012,
    )
    call = entry_of({"type": "tool_call", "tool": "count_by", "args": {"field": "year"}})
    ok = entry_of({"type": "tool_result", "tool": "count_by", "ok": True, "summary": "count_by: total 7"})
    bad = entry_of({"type": "tool_result", "tool": "search_recalls", "ok": False, "summary": "bad date"})
    assert (call.title, ok.title, ok.ok, bad.title, bad.ok) == (
        "Counted records…",
        "Counted records: total 7",
        True,
        "Searched recalls: failed",
        False,
    )
    error = entry_of({"type": "error", "where": "model plan", "message": "timeout"})
    assert error.title == "The model could not help with this step"
    assert error.details == [("details", "model plan: timeout")]
    assert entry_of({"type": "step", "step": "guard", "route": "ask"}).title == "Read the question"
    assert (
        entry_of({"type": "step", "step": "reflect", "decision": "answer"}).title
        == "Checked the evidence: enough to answer"
    )
    assert entry_of({"type": "token", "text": "x"}) is None and entry_of({"type": "answer"}) is None
    attach_queries(
        [plan, call, ok, bad],
        [{"tool": "count_by", "queries": ["count=date_received"]}, {"tool": "search_recalls", "queries": []}],
    )
    assert ok.details[-1] == ("query", "count=date_received") and bad.details == [("result", "bad date")]


def test_a_result_read_from_several_datasets_keeps_each_as_of_date():
    """A resolver reads several datasets: each row keeps its own dataset and as-of date, the table the oldest."""
    firm = {
        "tool": "resolve_manufacturer",
        "total": 2,
        "id_fields": ["name"],
        "provenance": [
            {"dataset": "device/event", "as_of": "2025-09-23", "query": "q1"},
            {"dataset": "device/pma", "as_of": "2025-09-22", "query": "q2"},
        ],
        "rows": [
            {"name": "BOSTON SCIENTIFIC", "dataset": "device/event"},
            {"name": "Boston Scientific Corp.", "dataset": "device/pma"},
        ],
    }
    [t] = tables_of([firm])
    assert (t.dataset, t.as_of, t.query) == ("device/event; device/pma", "2025-09-22", "q1; q2")
    assert t.as_of_text == "MAUDE adverse events 2025-09-23; PMA approvals 2025-09-22"
    assert [t.row_source(r) for r in t.rows] == [("device/event", "2025-09-23"), ("device/pma", "2025-09-22")]


def test_the_month_chart_is_zero_filled_over_the_dates_asked():
    one = {**MONTHS, "rows": [{"month": "2023-01", "count": 5}]}
    chart = chart_of([one], {"date_from": "2023-01-01", "date_to": "2023-12-31"})
    assert [k for k, _ in chart.points] == [f"2023-{m:02d}" for m in range(1, 13)]
    assert dict(chart.points)["2023-01"] == 5 and sum(v for _, v in chart.points) == 5
    years = chart_of([{**TREND, "rows": [{"year": "2019", "count": 1}]}], {"date_from": "2017-01-01", "date_to": None})
    assert years.points == [("2017", 0), ("2018", 0), ("2019", 1)]


def test_only_the_datasets_that_gave_rows_stamp_an_answer():
    """A recall search also counts enforcement reports (limit=0): only the recall's as-of date is the answer's."""
    recall = {
        "tool": "search_recalls",
        "total": 1,
        "id_fields": ["product_res_number"],
        "provenance": [
            {"dataset": "device/recall", "as_of": "2017-12-02", "query": "search=a&limit=10"},
            {"dataset": "device/enforcement", "as_of": "2017-03-06", "query": "search=a&limit=0"},
        ],
        "rows": [{"product_res_number": "Z-0053-2020", "score": 3}],
    }
    payload = {"provenance": recall["provenance"], "as_of": {"event": "2025-09-23"}}
    tables = tables_of([recall], [{"tool": "search_recalls", "args": {"limit": 10}, "ok": True}])
    assert contributing_as_of(tables, payload) == {"device/recall": "2017-12-02"}
    assert tables[0].as_of_text == "2017-12-02" and tables[0].call == {"tool": "search_recalls", "args": {"limit": 10}}
    assert [tables[0].columns[i] for i in tables[0].shown_columns] == ["product_res_number"]  # score is hidden
    empty = {**recall, "total": 0, "rows": []}
    assert contributing_as_of(tables_of([empty]), {"provenance": empty["provenance"]}) == {
        "device/recall": "2017-12-02"
    }
    assert contributing_as_of([], {"provenance": []}) == {}


def test_tables_page_ten_rows_at_a_time():
    rows = [{"mdr_report_key": str(i), "n": i} for i in range(25)]
    t = tables_of([{**SEARCH, "total": 25, "rows": rows}], [{"tool": "search_events", "args": {}, "ok": True}])[0]
    assert (t.pages, len(t.page_rows()), t.capped) == (3, 10, False)
    assert t.footer.startswith("Rows 1–10 of 25 of 25 matching records")
    t.turn_page(1)
    t.turn_page(1)
    t.turn_page(1)
    assert t.page == 2 and [r["n"] for r in t.page_rows()] == [20, 21, 22, 23, 24]
    t.sort(1, ascending=False)
    assert t.page == 0 and t.page_rows()[0]["n"] == 24


def test_plain_words_for_fields_dates_and_the_reading():
    assert (field_label("mdr_report_key"), field_label("some_new_field")) == ("Report key", "Some new field")
    assert (iso_date("20230101"), iso_date("2023-01-01"), iso_date("K123")) == ("2023-01-01", "2023-01-01", "K123")
    assert display_value("date_received", "20090217") == "2009-02-17"
    assert display_value("device_class", "3") == "Class III"
    assert count(1, "recalled product") == "1 recalled product" and count(2, "recall") == "2 recalls"
    it = {
        "datasets": ["recall"],
        "measure": "list",
        "firm": {"name": "Arrow International Inc", "variants": ["A"]},
        "date_from": "2019-01-01",
        "device": {"words": "infusion pumps", "path": "codes", "codes": [{"code": "FRN", "name": "Pump, Infusion"}]},
    }
    assert [p.text for p in reading_parts(it)] == [
        "Recalls",
        "Device: infusion pumps \u2192 FRN (Pump, Infusion)",
        "Firm: Arrow International Inc",
        "Dates: since 2019-01-01",
    ]
    assert split_answer("Interpreted as: recalls.\n\n1 recall.") == ("Interpreted as: recalls.", "1 recall.")
    assert (
        without_tables("1 recall.\n\n| a |\n|---|\n| 1 |\n\nSources:\n- device/recall (x): q\n\nEnd.")
        == "1 recall.\n\nEnd."
    )
