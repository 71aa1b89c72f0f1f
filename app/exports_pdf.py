"""The PDF report (fpdf2): the same content as the Markdown report, laid out for a design history or CAPA file."""

from __future__ import annotations

import json
from pathlib import Path

from agent.pdf_text import FONT_DIRS, latin1

from .exports import Export, columns_of
from .labels import dataset_label, display_value, tool_label

__all__ = ["write_pdf"]

MAX_CELL = 160  # characters of a table cell (a narrative is cut; the XLSX and CSV keep it whole)


def _font(pdf) -> tuple[str, bool]:
    """A Unicode TrueType font when the system has DejaVu Sans, else Helvetica (its text is made Latin-1)."""
    for d in FONT_DIRS:
        regular, bold = d / "DejaVuSans.ttf", d / "DejaVuSans-Bold.ttf"
        if regular.is_file():
            pdf.add_font("DejaVu", "", str(regular))
            pdf.add_font("DejaVu", "B", str(bold if bold.is_file() else regular))
            return "DejaVu", True
    return "Helvetica", False


class _Writer:
    def __init__(self) -> None:
        from fpdf import FPDF

        self.pdf = FPDF(orientation="L", unit="mm", format="A4")
        self.pdf.set_auto_page_break(True, margin=12)
        self.pdf.set_margins(12, 12, 12)
        self.family, self.unicode = _font(self.pdf)
        self.pdf.add_page()

    def text(self, s: str) -> str:
        s = str(s)
        if self.unicode:
            return s
        return latin1(s)

    def heading(self, s: str, size: int = 13) -> None:
        self.pdf.set_font(self.family, "B", size)
        self.pdf.ln(2)
        self.pdf.multi_cell(0, 7, self.text(s), new_x="LMARGIN", new_y="NEXT", align="L")

    def para(self, s: str, size: int = 9, bold: bool = False) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)
        self.pdf.multi_cell(0, 4.6, self.text(s), new_x="LMARGIN", new_y="NEXT", align="L")

    def table(self, header: list[str] | None, rows: list[list[str]], size: int = 7, widths=None) -> None:
        self.pdf.set_font(self.family, "", size)
        with self.pdf.table(
            text_align="LEFT", line_height=3.6, first_row_as_headings=header is not None, col_widths=widths
        ) as t:
            for r in ([header] if header is not None else []) + rows:
                row = t.row()
                for v in r:
                    v = " ".join(str(v).split())
                    row.cell(self.text(v if len(v) <= MAX_CELL else v[: MAX_CELL - 1] + "\u2026"))
        self.pdf.ln(2)


def _answer_lines(body: str) -> list[str]:
    """The answer's paragraphs without its Markdown table (the evidence tables follow in full)."""
    return [ln for ln in body.splitlines() if not ln.lstrip().startswith("|")]


def write_pdf(ex: Export, path: Path) -> None:
    w = _Writer()
    w.heading(ex.question, 15)
    w.table(None, [[k, v] for k, v in ex.header()[1:]], size=8, widths=(1, 4))
    w.heading("Answer")
    w.para("\n".join(_answer_lines(ex.body.strip())))
    w.heading("Citations")
    if ex.citations:
        w.table(["Dataset", "Record"], [[dataset_label(c["dataset"]), c["id"]] for c in ex.citations])
    else:
        w.para("(none)")
    for t in ex.tables:
        w.heading(t.title, 11)
        w.para(f"Data as of {t.as_of_text}. Query: {t.query}", 8)
        cols = columns_of(t)
        w.table([lab for _, lab in cols], [[display_value(c, r.get(c)) for c, _ in cols] for r in t.rows])
        w.para(t.footer, 8)
    w.heading("Audit log")
    w.para(f"Audit file: {ex.audit_path or '(none)'}", 8)
    if ex.tool_calls:
        w.table(
            ["Step", "Arguments", "Result", "Queries"],
            [
                [
                    tool_label(c.get("tool", "")),
                    json.dumps(c.get("args", {}), default=str),
                    c.get("summary", ""),
                    "; ".join(c.get("queries", [])),
                ]
                for c in ex.tool_calls
            ],
        )
    settings = ex.audit().get("settings")
    if settings:
        w.para("Settings: " + json.dumps(settings, default=str), 8)
    w.pdf.output(str(path))
