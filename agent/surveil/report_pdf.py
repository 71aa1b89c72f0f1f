"""The surveillance report as a PDF (fpdf2): A4 landscape, so the 13-column signal table fits; a running header with
the watchlist and period, page numbers, tables that repeat their header row on each page, SQL in a monospace font."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from ..pdf_text import FONT_DIRS, latin1
from .report import Block, Report

__all__ = ["write_pdf"]

MAX_CELL = 200  # characters of a table cell
# Relative column widths of the tables whose columns are known; others get equal widths.
WIDTHS = {
    "term": (5, 14, 3, 3, 3, 4, 4, 4, 7, 4, 7, 4, 6),  # the signal table: by, term, year, a, b, c, d, ...
}


class _Pdf(FPDF):
    running = ""
    family = "Helvetica"

    def header(self) -> None:
        if self.page_no() > 1:
            self.set_font(self.family, "", 7)
            self.set_text_color(110)
            self.cell(0, 4, self.running, new_x="LMARGIN", new_y="NEXT", align="L")
            self.set_text_color(0)
            self.ln(1)

    def footer(self) -> None:
        self.set_y(-9)
        self.set_font(self.family, "", 7)
        self.set_text_color(110)
        self.cell(0, 4, f"Page {self.page_no()} of {{nb}}", align="R")
        self.set_text_color(0)


class _Writer:
    def __init__(self, report: Report) -> None:
        self.pdf = _Pdf(orientation="L", unit="mm", format="A4")
        self.pdf.set_auto_page_break(True, margin=14)
        self.pdf.set_margins(14, 12, 14)
        self.unicode = self._fonts()
        self.pdf.running = self.text(f"{report.title}. Written {report.written} (UTC).")
        self.pdf.set_title(self.text(report.title))
        self.pdf.set_creator("FDA Explorer Offline")
        self.pdf.add_page()

    def _fonts(self) -> bool:
        for d in FONT_DIRS:
            regular, bold, mono = d / "DejaVuSans.ttf", d / "DejaVuSans-Bold.ttf", d / "DejaVuSansMono.ttf"
            if regular.is_file():
                self.pdf.add_font("DejaVu", "", str(regular))
                self.pdf.add_font("DejaVu", "B", str(bold if bold.is_file() else regular))
                self.pdf.add_font("DejaVuMono", "", str(mono if mono.is_file() else regular))
                self.pdf.family, self.mono = "DejaVu", "DejaVuMono"
                return True
        self.pdf.family, self.mono = "Helvetica", "Courier"
        return False

    def text(self, s: str) -> str:
        if self.unicode:
            return s
        return latin1(s)

    def block(self, blk: Block) -> None:
        pdf, fam = self.pdf, self.pdf.family
        if blk.kind == "h1":
            pdf.set_font(fam, "B", 16)
            pdf.multi_cell(0, 8, self.text(blk.text), new_x="LMARGIN", new_y="NEXT", align="L")
            pdf.ln(1)
        elif blk.kind == "h2":
            if pdf.get_y() > pdf.h - 40:  # a heading is not left alone at the foot of a page
                pdf.add_page()
            pdf.ln(2)
            pdf.set_font(fam, "B", 12)
            pdf.multi_cell(0, 6.5, self.text(blk.text), new_x="LMARGIN", new_y="NEXT", align="L")
            pdf.ln(0.5)
        elif blk.kind in ("p", "note"):
            pdf.set_font(fam, "", 9 if blk.kind == "p" else 8)
            pdf.multi_cell(0, 4.6, self.text(blk.text), new_x="LMARGIN", new_y="NEXT", align="L")
            pdf.ln(1)
        elif blk.kind == "bullets":
            pdf.set_font(fam, "", 9)
            for item in blk.items:
                pdf.set_x(pdf.l_margin + 3)
                pdf.multi_cell(
                    0,
                    4.6,
                    self.text("\u2022 " if self.unicode else "- ") + self.text(item),
                    new_x="LMARGIN",
                    new_y="NEXT",
                    align="L",
                )
            pdf.ln(1)
        elif blk.kind == "code":
            pdf.set_font(self.mono, "", 7)
            pdf.set_fill_color(243)
            pdf.multi_cell(0, 3.4, self.text(blk.text), new_x="LMARGIN", new_y="NEXT", fill=True, align="L")
            pdf.ln(1.5)
        elif blk.kind == "table":
            self.table(blk.columns, blk.rows)

    def table(self, columns: list[str], rows: list[list[str]]) -> None:
        pdf = self.pdf
        widths = WIDTHS.get(columns[1]) if len(columns) > 1 else None
        if widths is not None and len(widths) != len(columns):
            widths = None
        size = 7 if len(columns) > 8 else 8
        pdf.set_font(pdf.family, "", size)
        with pdf.table(
            text_align="LEFT",
            line_height=size * 0.5,
            col_widths=widths,
            repeat_headings=1,
            headings_style=_headings(pdf.family),
            padding=0.8,
        ) as t:
            for r in [columns] + rows:
                row = t.row()
                for v in r:
                    row.cell(self.text(v if len(v) <= MAX_CELL else v[: MAX_CELL - 1] + "\u2026"))
        pdf.ln(2)


def _headings(family: str):
    from fpdf.fonts import FontFace

    return FontFace(family=family, emphasis="BOLD", fill_color=(225, 230, 238))


def write_pdf(report: Report, path: Path) -> None:
    w = _Writer(report)
    for blk in report.blocks:
        w.block(blk)
    w.pdf.output(str(path))
