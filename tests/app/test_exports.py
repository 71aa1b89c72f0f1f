"""Exports as Markdown, CSV, XLSX and PDF: the answer, its evidence and audit log, stamped with the as-of dates of the
datasets that gave rows; files a reviewer can open in Excel and file."""

from __future__ import annotations

import csv
import datetime as dt
import json

import pytest

from app.exports import Export, available_formats, file_name, write_export
from app.results import contributing_as_of, tables_of

PROV = [
    {"dataset": "device/event", "as_of": "2025-09-23", "query": 'search=a:"b"&limit=2'},
    {"dataset": "device/recall", "as_of": "2017-12-02", "query": 'search=a:"b"&limit=0'},
]
EVIDENCE = [
    {
        "tool": "search_events",
        "total": 2,
        "id_fields": ["mdr_report_key"],
        "provenance": PROV,
        "rows": [
            {
                "mdr_report_key": "1312172",
                "brand_name": "GE | OEC \u2026",
                "date_received": "20090217",
                "n": 3,
                "dataset": "device/event",
            },
            {"mdr_report_key": "1000006", "date_received": "20080220", "dataset": "device/event"},
        ],
    }
]
CALLS = [
    {
        "tool": "search_events",
        "args": {"product_codes": ["JAA"]},
        "ok": True,
        "summary": "search_events: total 2",
        "queries": ['search=a:"b"&limit=2'],
    }
]


@pytest.fixture
def export(tmp_path) -> Export:
    audit = tmp_path / "audit" / "s1" / "a.json"
    audit.parent.mkdir(parents=True)
    audit.write_text(
        json.dumps(
            {
                "question": "Events for JAA?",
                "model": "none",
                "settings": {"row_cap": 25},
                "as_of": {"event": "2025-09-23"},
            }
        )
    )
    tables = tables_of(EVIDENCE, CALLS)
    payload = {"provenance": PROV}
    return Export(
        "Events for JAA? (since 2019)",
        "Interpreted as: events.\n\n- 2 reports [device/event].",
        [{"dataset": "device/event", "id": "mdr_report_key=1312172"}],
        tables,
        CALLS,
        contributing_as_of(tables, payload),
        "s1",
        "none",
        str(audit),
        interpretation="MAUDE adverse events; Product code JAA",
        searched={"device/event": "2025-09-23", "device/recall": "2017-12-02"},
    )


def test_the_stamp_is_the_as_of_date_of_the_datasets_that_gave_rows(export):
    assert export.as_of == {"device/event": "2025-09-23"}  # the recall count gave no rows: not in the stamp
    assert export.stamp == "2025-09-23"
    assert file_name(export, "csv", 3) == "fda-events-for-jaa-since-2019-s1-3-asof-2025-09-23.csv"
    long = Export("recalls by Arrow International since 2019 please", "", [], [], [], {}, "s", "none")
    assert file_name(long, "md").startswith("fda-recalls-by-arrow-international-since-s-")  # whole words only


def test_markdown_report(export, tmp_path):
    text = write_export(export, "md", tmp_path / "out").read_text()
    assert text.startswith("# Events for JAA? (since 2019)\n")
    for part in (
        "- **Interpreted as:** MAUDE adverse events; Product code JAA",
        "- **Data as of:** MAUDE adverse events 2025-09-23",
        "- **Also searched (no rows shown):** Recalls 2017-12-02",
        "## Answer",
        "- 2 reports",
        "- MAUDE adverse events: `mdr_report_key=1312172`",
        "## MAUDE adverse events",
        "| Report key | Brand | Received | N |",
        "| 1312172 | GE \\| OEC \u2026 | 2009-02-17 | 3 |",
        "2 rows of 2 matching records",
        "## Audit log",
        '"row_cap": 25',
    ):
        assert part in text, part
    assert text.count("- 2 reports") == 1 and "Interpreted as: events" not in text  # the answer once, no jargon
    assert "FDAX" not in text


def test_csv_is_utf8_with_a_bom_and_unique_columns(export, tmp_path):
    path = write_export(export, "csv", tmp_path)
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and "\u2026".encode() in raw
    rows = list(csv.reader(path.open(encoding="utf-8-sig")))
    header = rows[0]
    assert len(header) == len(set(header)), header
    assert header[:5] == ["Part", "Dataset", "Data as of", "Query", "Text"] and "Report key" in header
    records = [dict(zip(header, r)) for r in rows[1:]]
    assert [r["Part"] for r in records] == [
        "question",
        "interpretation",
        "answer",
        "citation",
        "evidence",
        "evidence",
        "tool call",
    ]
    assert records[2]["Text"] == "- 2 reports [device/event]."
    evidence = records[4]
    assert (
        evidence["Dataset"],
        evidence["Data as of"],
        evidence["Report key"],
        evidence["Received"],
        evidence["N"],
    ) == ("MAUDE adverse events", "2025-09-23", "1312172", "2009-02-17", "3")
    assert records[6]["Text"] == "Searched adverse event reports: total 2"
    assert not list(tmp_path.glob("*.part"))


def test_xlsx_has_a_cover_typed_cells_a_styled_frozen_filtered_header(export, tmp_path):
    from openpyxl import load_workbook

    wb = load_workbook(write_export(export, "xlsx", tmp_path))
    assert wb.sheetnames == ["Cover", "MAUDE adverse events", "Citations", "Sources", "Tool calls", "Audit"]
    cover = {r[0]: r[1] for r in wb["Cover"].iter_rows(values_only=True) if r and r[0]}
    assert cover["Interpreted as"] == "MAUDE adverse events; Product code JAA" and cover["Model"] == "none"
    assert cover["Data as of"] == "MAUDE adverse events 2025-09-23" and "Events for JAA? (since 2019)" in cover
    ws = wb["MAUDE adverse events"]
    assert [c.value for c in ws[1]] == ["Report key", "Brand", "Received", "N", "Dataset"]
    assert all(c.font.bold for c in ws[1]) and ws.freeze_panes == "A2" and ws.auto_filter.ref == "A1:E3"
    assert ws["E2"].value == "MAUDE adverse events"
    received, n = ws["C2"], ws["D2"]
    assert received.value == dt.datetime(2009, 2, 17) and received.number_format == "yyyy-mm-dd"
    assert n.value == 3 and ws["A2"].value == "1312172"
    assert ws.column_dimensions["B"].width >= len("GE | OEC \u2026")
    audit = {r[0]: r[1] for r in wb["Audit"].iter_rows(min_row=2, values_only=True)}
    assert audit["settings row_cap"] == 25 and audit["model"] == "none"


def test_pdf_report(export, tmp_path):
    assert "pdf" in available_formats()
    path = write_export(export, "pdf", tmp_path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and len(data) > 2000


def test_an_unknown_format_is_refused(export, tmp_path):
    with pytest.raises(ValueError, match="xlsx, csv, md, pdf"):
        write_export(export, "docx", tmp_path)
