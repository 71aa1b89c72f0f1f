"""The surveillance report as a Word document (python-docx): A4 landscape like the PDF, Word's own heading styles
(so the navigation pane lists the sections), grid tables with a repeated header row, SQL in Consolas."""

from __future__ import annotations

from pathlib import Path

from docx import Document
from docx.enum.section import WD_ORIENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Mm, Pt

from .report import Report

__all__ = ["write_docx"]


def _repeat_header(row) -> None:
    tr_pr = row._tr.get_or_add_trPr()
    el = OxmlElement("w:tblHeader")
    el.set(qn("w:val"), "true")
    tr_pr.append(el)


def _table(doc, columns: list[str], rows: list[list[str]]) -> None:
    size = Pt(7 if len(columns) > 8 else 8)
    table = doc.add_table(rows=len(rows) + 1, cols=len(columns))
    table.style = "Table Grid"
    for i, r in enumerate([columns] + rows):
        cells = table.rows[i].cells
        for cell, value in zip(cells, r):
            par = cell.paragraphs[0]
            run = par.add_run(value)
            run.font.size = size
            run.bold = i == 0
            par.paragraph_format.space_after = Pt(0)
    _repeat_header(table.rows[0])
    doc.add_paragraph()


def write_docx(report: Report, path: Path) -> None:
    doc = Document()
    sec = doc.sections[0]
    sec.orientation = WD_ORIENT.LANDSCAPE
    sec.page_width, sec.page_height = Mm(297), Mm(210)
    for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(sec, side, Mm(14))
    doc.styles["Normal"].font.size = Pt(9)
    doc.core_properties.title = report.title
    doc.core_properties.author = "FDA Explorer Offline"
    sec.header.paragraphs[0].text = f"{report.title}. Written {report.written} (UTC)."
    sec.header.paragraphs[0].runs[0].font.size = Pt(7)
    for blk in report.blocks:
        if blk.kind == "h1":
            doc.add_heading(blk.text, level=1)
        elif blk.kind == "h2":
            doc.add_heading(blk.text, level=2)
        elif blk.kind in ("p", "note"):
            par = doc.add_paragraph(blk.text)
            if blk.kind == "note":
                par.runs[0].font.size = Pt(8)
                par.runs[0].italic = True
        elif blk.kind == "bullets":
            for item in blk.items:
                doc.add_paragraph(item, style="List Bullet")
        elif blk.kind == "code":
            run = doc.add_paragraph().add_run(blk.text)
            run.font.name = "Consolas"
            run.font.size = Pt(7)
        elif blk.kind == "table":
            _table(doc, blk.columns, blk.rows)
    doc.save(str(path))
