"""Text for a PDF (fpdf2): where to look for the DejaVu fonts, and Latin-1 text for the built-in Helvetica.

Used by the surveillance report (`agent/surveil/report_pdf.py`) and the app's answer export (`app/exports_pdf.py`).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["FONT_DIRS", "latin1"]

# Folders that hold DejaVuSans.ttf on Linux, macOS and Windows; without it a PDF falls back to Helvetica.
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/Library/Fonts"),
    Path("C:/Windows/Fonts"),
)
_LATIN = (
    ("\u2026", "..."),
    ("\u2013", "-"),
    ("\u2014", "-"),
    ("\u2192", "->"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u2019", "'"),
    ("\u00b7", "-"),
    ("\u2265", ">="),
)


def latin1(s: str) -> str:
    """`s` in Latin-1 for Helvetica: dashes, quotes, arrows and ellipses spelled in ASCII, anything else as '?'."""
    for a, b in _LATIN:
        s = s.replace(a, b)
    return s.encode("latin-1", "replace").decode("latin-1")
