"""Issue 16, without a window: a reading's part changed into a new question, a table's column chooser and what its
exports hold, a chart exported as a PNG image with its as-of dates."""

from __future__ import annotations

import csv

import openpyxl
import pytest
from PIL import Image

from app.exports import Export, write_export
from app.reading import reading_parts
from app.rephrase import edit_of, rephrase
from app.results import chart_of, tables_of

from .conftest import count_result

PROV = [{"dataset": "device/event", "as_of": "2025-09-23", "query": "search=x&limit=10"}]
EVENTS = {
    "tool": "search_events",
    "total": 2,
    "id_fields": ["mdr_report_key"],
    "provenance": PROV,
    "rows": [
        {"mdr_report_key": "1312172", "brand_name": "OEC 9800", "event_type": "Malfunction", "score": 1},
        {"mdr_report_key": "1000006", "brand_name": "OEC 9900", "event_type": "Injury", "score": 2},
    ],
}
MONTHS = count_result("month", {"2023-02": 1, "2023-04": 2}, 3, PROV)
PUMPS = {
    "question": "adverse events for infusion pumps in 2023",
    "datasets": ["event"],
    "date_words": "in 2023",
    "date_from": "2023-01-01",
    "date_to": "2023-12-31",
    "device": {"words": "infusion pumps", "path": "codes", "codes": [{"code": "FRN", "name": "Pump"}]},
}
ARROW = {
    "question": "recalls by Arrow International since 2019",
    "datasets": ["recall"],
    "date_words": "since 2019",
    "date_from": "2019-01-01",
    "firm": {"words": "Arrow International", "name": "Arrow International Inc"},
}


def test_each_part_of_a_reading_becomes_the_same_question_with_that_part_changed():
    q = PUMPS["question"]
    assert rephrase(q, PUMPS, "device", "FRN") == "adverse events for FRN in 2023"
    assert rephrase(q, PUMPS, "dates", "from 2019 to 2021") == "adverse events for infusion pumps from 2019 to 2021"
    assert rephrase(q, PUMPS, "dates", "") == "adverse events for infusion pumps"  # all dates
    assert rephrase(q, PUMPS, "dataset", "recall", "event") == "recalls for infusion pumps in 2023"
    assert rephrase(q, PUMPS, "firm", "Medtronic") == "adverse events for infusion pumps in 2023 by Medtronic"
    assert rephrase(ARROW["question"], ARROW, "firm", "  Medtronic ") == "recalls by Medtronic since 2019"
    assert (
        rephrase("any 510(k)s for JAA?", {"datasets": ["510k"]}, "dataset", "pma", "510k")
        == "any PMA approvals for JAA?"
    )
    assert (
        rephrase("how many for JAA?", {"datasets": ["event"]}, "dataset", "recall", "event")
        == "how many for JAA in recalls"
    )  # no dataset words: said at the end
    assert rephrase(q, PUMPS, "device", "") == q  # nothing typed: nothing changes
    with pytest.raises(ValueError, match="choose one of dataset, device, firm, dates"):
        rephrase(q, PUMPS, "measure", "top")


def test_only_datasets_devices_firms_and_dates_are_edited_and_the_editor_starts_from_the_question():
    kinds = [(p.kind, p.editable) for p in reading_parts(PUMPS)]
    assert ("dataset", True) in kinds and ("device", True) in kinds and ("dates", True) in kinds
    assert edit_of("device", PUMPS).current == "infusion pumps"
    assert edit_of("dates", ARROW).current == "since 2019"
    dataset = edit_of("dataset", PUMPS, "event")
    assert dataset.current == "event" and ("recall", "Recalls") in dataset.choices
    assert edit_of("measure", PUMPS) is None and edit_of("device", {"understood": False}) is None
    those = {"firm": {"words": "those firms", "match": "those", "name": "A, B"}}
    assert edit_of("firm", those).current == ""  # never "those" to edit


def test_a_hidden_column_leaves_the_screen_and_the_exports_but_the_last_one_stays(tmp_path):
    [t] = tables_of([EVENTS])
    assert t.choosable == ["mdr_report_key", "brand_name", "event_type"]  # bookkeeping columns are not offered
    assert t.toggle_column("brand_name") and t.hidden == ["brand_name"]
    assert [t.columns[i] for i in t.shown_columns] == ["mdr_report_key", "event_type"]
    assert t.toggle_column("event_type") and not t.toggle_column("mdr_report_key")  # one column always stays
    assert t.toggle_column("event_type") and t.hidden == ["brand_name"]
    ex = Export("Events for JAA?", "2 reports.", [], [t], [], {"device/event": "2025-09-23"}, "s1", "none")
    with write_export(ex, "csv", tmp_path).open(encoding="utf-8-sig") as f:
        header = next(csv.reader(f))
    assert "Brand" not in header and "Event type" in header and "Report key" in header
    sheet = openpyxl.load_workbook(write_export(ex, "xlsx", tmp_path)).worksheets[1]
    labels = [c.value for c in next(sheet.iter_rows(max_row=1))]
    assert "Brand" not in labels and "Event type" in labels
    assert "Brand" not in write_export(ex, "md", tmp_path).read_text(encoding="utf-8")
    t.toggle_column("brand_name")  # shown again: exported again
    with write_export(ex, "csv", tmp_path).open(encoding="utf-8-sig") as f:
        assert "Brand" in next(csv.reader(f))


def test_a_chart_exports_as_a_png_image_stamped_with_its_question_and_as_of_dates(tmp_path):
    chart = chart_of([MONTHS], {"date_from": "2023-01-01", "date_to": "2023-12-31"})
    ex = Export(
        "adverse events by month in 2023",
        "3 reports.",
        [],
        tables_of([MONTHS]),
        [],
        {"device/event": "2025-09-23"},
        "s1",
        "none",
        chart=chart,
    )
    path = write_export(ex, "png", tmp_path, 2)
    assert path.name.endswith("-2-asof-2025-09-23.png") and not list(tmp_path.glob("*.part"))
    image = Image.open(path)
    assert image.format == "PNG" and image.size[0] == 1200 and image.size[1] > 400
    assert image.text["Data as of"] == "MAUDE adverse events 2025-09-23"
    assert image.text["Question"] == "adverse events by month in 2023"
    blue = dict((rgb, n) for n, rgb in image.convert("RGB").getcolors(1 << 20)).get((25, 103, 210), 0)
    assert blue > 500  # the line and its 12 points are drawn
    firms = {
        **MONTHS,
        "id_fields": ["manufacturer"],
        "rows": [{"manufacturer": "A" * 200, "count": 7}, {"manufacturer": "B", "count": 1}],
    }
    bars = Export("top firms", "", [], [], [], {"device/event": "2025-09-23"}, "s1", "none", chart=chart_of([firms]))
    assert Image.open(write_export(bars, "png", tmp_path)).size[0] == 1200  # a long label is cut, not widened
    no_chart = Export("q", "", [], [], [], {}, "s1", "none")
    with pytest.raises(ValueError, match="no chart to export as an image"):
        write_export(no_chart, "png", tmp_path)
