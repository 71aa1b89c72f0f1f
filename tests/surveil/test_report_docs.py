"""The surveillance report as PDF and DOCX, through `fda-explorer report`: the documents' figures are checked
against counts made here in Python from the mirror's rows (not through the report's SQL), on a copy of the shipped
sample (real records) and on the SYNTHETIC event mirror of `synthetic.py` (flagged signals, hand-computed)."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import docx
import pypdf
import pytest

from mirror.store.files import Store

from .synthetic import event_rows, publish_events

CODES = ("OZP", "FOZ", "JAA", "GEI", "KGO", "LKK", "EZW", "NJK", "MNB", "LWP")


def pdf_text(path: Path) -> str:
    """The PDF's text with every run of white space as one space (lines wrap where the page ends them)."""
    return " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(str(path)).pages).split())


def docx_tables(path: Path) -> dict[str, list[list[str]]]:
    """Each table of the document under the heading it follows -> its rows (header first)."""
    doc = docx.Document(str(path))
    out, heading = {}, ""
    body = doc.element.body
    tables = iter(doc.tables)
    paragraphs = {p._p: p for p in doc.paragraphs}
    for el in body.iterchildren():
        if el.tag.endswith("}p") and getattr(paragraphs[el].style, "name", "").startswith("Heading"):
            heading = paragraphs[el].text
        elif el.tag.endswith("}tbl"):
            out[heading] = [[c.text for c in r.cells] for r in next(tables).rows]
    return out


def docx_text(path: Path) -> str:
    return "\n".join(p.text for p in docx.Document(str(path)).paragraphs)


def mirror_figures(data_dir: Path, codes: tuple[str, ...], start: date, end: date) -> dict:
    """What the report should say, counted in Python from every row of the mirror."""
    con = Store(data_dir).connect()
    try:
        events = [
            e
            for e in con.execute(
                "SELECT mdr_report_key, product_code_list, date_received, event_type, "
                "product_problems FROM device_event"
            ).fetchall()
            if set(e[1] or ()) & set(codes) and e[2] and start <= e[2] <= end
        ]
        k510 = [
            r[0]
            for r in con.execute("SELECT k_number, product_code, decision_date FROM device_510k").fetchall()
            if r[1] in codes and start <= r[2] <= end
        ]
        pma = [
            (r[0], r[1])
            for r in con.execute(
                "SELECT pma_number, supplement_number, product_code, decision_date FROM device_pma"
            ).fetchall()
            if r[2] in codes and start <= r[3] <= end
        ]
        recalls = [
            r
            for r in con.execute(
                "SELECT product_res_number, product_code, event_date_initiated, res_event_number FROM device_recall"
            ).fetchall()
            if r[1] in codes and r[2] and start <= r[2] <= end
        ]
    finally:
        con.close()
    by_month = Counter((e[2].strftime("%Y-%m"), e[3]) for e in events)
    terms = Counter(t for e in events for t in set(e[4] or ()))
    return {
        "events": events,
        "by_month": by_month,
        "terms": terms,
        "510k": sorted(k510),
        "pma": sorted(pma),
        "recalls": recalls,
    }


@pytest.mark.parametrize(
    "period,start,end",
    [
        ("2023Q1", date(2023, 1, 1), date(2023, 3, 31)),
        ("2020", date(2020, 1, 1), date(2020, 12, 31)),
        ("2019", date(2019, 1, 1), date(2019, 12, 31)),
    ],
)
def test_pdf_and_docx_hold_the_mirrors_figures(run, mirror_copy, tmp_path, period, start, end):
    d = str(mirror_copy)
    run("watch", "create", "watched", *[x for c in CODES for x in ("--code", c)], "--data-dir", d)
    pdf, doc = tmp_path / "r.pdf", tmp_path / "r.docx"
    for out in (pdf, doc):
        assert (
            f"wrote {out}"
            in run("report", "--watch", "watched", "--period", period, "--out", str(out), "--data-dir", d).output
        )
    want = mirror_figures(mirror_copy, CODES, start, end)
    assert want["events"] or want["510k"] or want["recalls"]  # each period has something to show
    tables, text = docx_tables(doc), pdf_text(pdf)
    dtext = docx_text(doc)

    # 1. events by month and type
    month_rows = tables.get("1. Adverse event reports by month and event type", [])[1:]
    assert {(m, t): int(n) for m, t, n in month_rows} == dict(want["by_month"])
    for (m, t), n in want["by_month"].items():
        assert f"{m} {t} {n}" in text
    # 2. top problem terms
    term_rows = tables.get("2. Top device problem terms", [])[1:]
    assert {t: int(n) for t, n in term_rows} == dict(want["terms"])
    for t, n in want["terms"].items():
        assert f"{t} {n}" in text
    # 3. the reports, cited in the appendix
    ids = sorted(e[0] for e in want["events"])
    assert sorted(r[0] for r in tables.get("3. Adverse event reports (deaths first)", [])[1:]) == ids
    cited = next((p for p in dtext.splitlines() if p.startswith("Adverse event reports (deaths first): ")), "")
    assert sorted(cited.partition(": ")[2].split(", ")) == (ids or [""])
    # 4.-7. recalls (with their class), 510(k)s, PMAs
    recall_rows = tables.get("4. Recalls initiated", [])[1:]
    assert [r[0] for r in recall_rows] == [r[0] for r in want["recalls"]]
    assert sorted(r[0] for r in tables.get("6. 510(k) decisions", [])[1:]) == want["510k"]
    assert (
        sorted((r[0], r[1]) for r in tables.get("7. PMA decisions (originals and supplements)", [])[1:]) == want["pma"]
    )
    for k in want["510k"]:
        assert k in text
    for line in (f"Records: {len(want['510k'])}. ", f"Records: {len(want['events'])}. "):
        assert line in text and line in dtext
    # provenance, caveats, as-of dates, in both
    for doc_text in (text, dtext):
        assert "Source: event, data as of 2025-09-23." in doc_text
        assert "Source: 510k, data as of 2025-09-22." in doc_text
        assert "MAUDE counts are reports, not incidence." in doc_text
        assert "Summary reports (alternative summary reporting) distort the counts." in doc_text
        assert "Appendix: record IDs cited" in doc_text and "Q1: figure 1" in doc_text
    assert "FROM device_event t WHERE" in text and "FROM device_event t WHERE" in dtext  # the queries themselves


def test_recall_class_comes_from_the_enforcement_reports(run, mirror_copy, tmp_path):
    d = str(mirror_copy)
    con = Store(mirror_copy).open_file(Store(mirror_copy).published()["enforcement"], read_only=False)
    try:  # give the sample's FOZ recall event an enforcement report of class II (the two sample events differ)
        con.execute("UPDATE device_enforcement SET event_id = '82984' WHERE recall_number = 'Z-2338-2012'")
    finally:
        con.close()
    run("watch", "create", "foz", "--code", "FOZ", "--data-dir", d)
    run("report", "--watch", "foz", "--period", "2019", "--out", str(tmp_path / "r.docx"), "--data-dir", d)
    rows = docx_tables(tmp_path / "r.docx")["4. Recalls initiated"]
    assert rows[0][:2] == ["product_res_number", "recall_class"] and rows[1][:2] == ["Z-0053-2020", "Class III"]


def test_signal_table_in_both_documents(run, tmp_path):
    data = tmp_path / "data"
    publish_events(data, event_rows())  # SYNTHETIC: AAA has 6 of 10 2023 reports on battery
    run("watch", "create", "aaa", "--code", "AAA", "--data-dir", str(data))
    pdf, doc = tmp_path / "s.pdf", tmp_path / "s.docx"
    for out in (pdf, doc):
        run("report", "--watch", "aaa", "--period", "2023", "--out", str(out), "--data-dir", str(data))
    rows = docx_tables(doc)["4. Signals (disproportionality, MAUDE)"]
    assert rows[0][:7] == ["by", "term", "year", "a", "b", "c", "d"]
    battery = next(r for r in rows if r[1] == "Battery Problem")
    # 2023 only: AAA 10 reports, 6 with it; others 100 reports (BBB), 5 with it
    assert battery[3:8] == ["6", "4", "5", "95", f"{(6 / 10) / (5 / 100):.2f}"] and battery[-1] == "SIGNAL"
    assert rows[1][-1] == "SIGNAL"  # flagged rows first
    text = pdf_text(pdf)
    assert "problem Battery Problem all 6 4 5 95 12.00" in text and "SIGNAL" in text
    assert "Flagged (SIGNAL) when PRR >= 2, chi-square >= 4, n (a) >= 3" in text
    assert "Not available: " in text and "no change history yet" in text  # no sync recorded: said, not failed


def test_bad_out_names_say_what_to_do(run, mirror_copy, tmp_path):
    d = str(mirror_copy)
    run("watch", "create", "w", "--code", "OZP", "--data-dir", d)
    err = run(
        "report", "--watch", "w", "--period", "2023Q1", "--out", str(tmp_path / "r.odt"), "--data-dir", d, ok=False
    ).output
    assert "written as .md, .pdf, .docx" in err and len(err.strip().splitlines()) == 1
    err = run(
        "report",
        "--watch",
        "w",
        "--period",
        "2023Q1",
        "--out",
        str(tmp_path / "nope" / "r.pdf"),
        "--data-dir",
        d,
        ok=False,
    ).output
    assert "no such folder" in err
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
