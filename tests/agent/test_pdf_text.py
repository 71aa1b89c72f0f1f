"""The one Latin-1 text for PDFs without a Unicode font (agent/pdf_text.py), as both PDF writers use it."""

from __future__ import annotations

import pypdf

import app.exports_pdf
from agent.pdf_text import latin1
from app.exports import write_export
from tests.app.test_exports import export  # noqa: F401  (the fixture)


def test_typographic_marks_are_spelled_in_ascii_and_the_rest_becomes_a_question_mark():
    assert latin1("a \u2026 b \u2013 c \u2014 d \u2192 e") == "a ... b - c - d -> e"
    assert latin1("\u201cx\u201d it\u2019s \u00b7 n \u2265 3") == '"x" it\'s - n >= 3'
    assert latin1("caf\u00e9 \u4e2d") == "caf\u00e9 ?"  # Latin-1 kept, the rest replaced


def test_the_answer_pdf_without_dejavu_writes_helvetica_with_the_marks_spelled_out(export, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setattr(app.exports_pdf, "FONT_DIRS", ())  # as on a system with no DejaVu fonts
    path = write_export(export, "pdf", tmp_path)
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(str(path)).pages)
    assert "GE | OEC ..." in text and "\u2026" not in text
    assert b"Helvetica" in path.read_bytes() and b"DejaVu" not in path.read_bytes()
