"""Exports as Markdown, CSV and XLSX: the answer, its evidence and audit log, stamped with the data's as-of date."""

from __future__ import annotations

import csv

import pytest

from app.exports import Export, file_name, write_export
from app.results import tables_of

EVIDENCE = [{"tool": "search_events", "total": 2, "id_fields": ["mdr_report_key"],
             "provenance": [{"dataset": "device/event", "as_of": "2025-09-23", "query": 'search=a:"b"&limit=2'}],
             "rows": [{"mdr_report_key": "1312172", "brand_name": "GE | OEC", "n": 3}, {"mdr_report_key": "1000006"}]}]


@pytest.fixture
def export(tmp_path) -> Export:
    audit = tmp_path / "audit" / "s1" / "a.json"
    audit.parent.mkdir(parents=True)
    audit.write_text("{}")
    audit.with_suffix(".md").write_text("# Audit: events\n\n- model: none\n")
    return Export("Events for JAA?", "- 2 reports [device/event as of 2025-09-23].",
                  [{"dataset": "device/event", "id": "mdr_report_key=1312172"}], tables_of(EVIDENCE),
                  [{"tool": "search_events", "args": {"product_codes": ["JAA"]}, "ok": True, "summary": "total 2",
                    "queries": ['search=a:"b"&limit=2']}],
                  {"device/event": "2025-09-23", "device/recall": "2017-12-02"}, "s1", "none", str(audit))


def test_file_names_carry_the_oldest_as_of_date(export):
    assert export.stamp == "2017-12-02"
    assert file_name(export, "csv", 3) == "fda-events-for-jaa-s1-3-asof-2017-12-02.csv"


def test_markdown_holds_answer_citations_evidence_and_the_audit_log(export, tmp_path):
    text = write_export(export, "md", tmp_path / "out").read_text()
    assert text.startswith("# Events for JAA?\n\n**Data as of 2017-12-02** (device/event 2025-09-23; device/recall 2017-12-02)")
    for part in ("## Answer", "- 2 reports", "- device/event: `mdr_report_key=1312172`", "### search_events · device/event",
                 "Query: `search=a:\"b\"&limit=2`", "| mdr_report_key | brand_name | n |", "| 1312172 | GE \\| OEC | 3 |",
                 "2 rows shown; total 2 records", "## Audit log", "# Audit: events"):
        assert part in text, part


def test_csv_rows_are_tagged_by_part_and_stamped(export, tmp_path):
    path = write_export(export, "csv", tmp_path)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [r["part"] for r in rows] == ["answer", "question", "citation", "evidence", "evidence", "tool_call"]
    assert rows[0]["as_of"] == "device/event 2025-09-23; device/recall 2017-12-02"
    assert rows[2]["as_of"] == "2025-09-23" and rows[2]["text"] == "mdr_report_key=1312172"
    assert [(r["mdr_report_key"], r["as_of"], r["n"]) for r in rows[3:5]] == [("1312172", "2025-09-23", "3"),
                                                                             ("1000006", "2025-09-23", "")]
    assert rows[5]["query"] == 'search=a:"b"&limit=2'
    assert rows[5]["text"] == 'search_events {"product_codes": ["JAA"]}: total 2'
    assert not list(tmp_path.glob("*.part"))


def test_xlsx_has_answer_citations_a_sheet_per_table_tool_calls_and_audit(export, tmp_path):
    from openpyxl import load_workbook
    wb = load_workbook(write_export(export, "xlsx", tmp_path))
    assert wb.sheetnames == ["Answer", "Citations", "1 search_events event", "Tool calls", "Audit"]
    answer = {r[0]: r[1] for r in wb["Answer"].iter_rows(values_only=True) if r and r[0]}
    assert answer["question"] == "Events for JAA?" and answer["data as of"].startswith("device/event 2025-09-23")
    assert answer["device/recall"] == "2017-12-02"
    table = list(wb["1 search_events event"].iter_rows(values_only=True))
    assert table[1] == ("data as of", "2025-09-23", None) and table[3] == ("mdr_report_key", "brand_name", "n")
    assert table[4] == ("1312172", "GE | OEC", 3)
    assert list(wb["Citations"].iter_rows(values_only=True))[1] == ("device/event", "mdr_report_key=1312172", "2025-09-23")
    assert next(wb["Audit"].iter_rows(values_only=True))[0] == "# Audit: events"


def test_an_unknown_format_is_refused(export, tmp_path):
    with pytest.raises(ValueError, match="md, csv, xlsx"):
        write_export(export, "pdf", tmp_path)
