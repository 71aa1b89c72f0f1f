"""The XLSX export: a cover sheet, one sheet per result table (typed dates and numbers, a styled frozen header,
filters, column widths), citations, sources, tool calls and the audit log."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

from .exports import Export, columns_of
from .labels import dataset_label, display_value, is_date_field, iso_date, tool_label
from .timeline import result_title

__all__ = ["write_xlsx", "sheet_names"]

HEAD_FILL = "DCE6F1"
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def _typed(name: str, value: Any) -> Any:
    """A cell value Excel can sort and sum: dates as dates, numbers as numbers, the rest as readable text."""
    if isinstance(value, bool) or value is None:
        return display_value(name, value)
    if isinstance(value, (int, float)):
        return value
    if is_date_field(name) and isinstance(value, str):
        iso = iso_date(value)
        if _ISO.fullmatch(iso):
            try:
                return dt.date.fromisoformat(iso)
            except ValueError:
                pass
    return display_value(name, value)


def sheet_names(ex: Export) -> list[str]:
    """A readable, unique name (at most 31 characters) per table: its title."""
    used: set[str] = {"Cover", "Citations", "Sources", "Tool calls", "Audit"}
    out = []
    for t in ex.tables:
        base = re.sub(r"[\[\]:*?/\\]", "-", t.title or "Results")[:31].strip()
        name, n = base, 2
        while name in used:
            name = f"{base[:28]} {n}"
            n += 1
        used.add(name)
        out.append(name)
    return out


def _style_table(ws, header_row: int, ncols: int, nrows: int, widths: list[int]) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    for cell in ws[header_row]:
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor=HEAD_FILL)
        cell.alignment = Alignment(vertical="top", wrap_text=True)
    ws.freeze_panes = ws.cell(row=header_row + 1, column=1)
    last = get_column_letter(max(1, ncols))
    ws.auto_filter.ref = f"A{header_row}:{last}{header_row + max(nrows, 1)}"
    for i, w in enumerate(widths, 1):
        ws.column_dimensions[get_column_letter(i)].width = max(8, min(60, w + 2))


def _table(ws, header: list[str], rows: list[list[Any]]) -> None:
    ws.append(header)
    for r in rows:
        ws.append(r)
    widths = [
        max([len(str(h))] + [len(v.isoformat()) if isinstance(v, dt.date) else len(str(v)) for v in col])
        for h, col in zip(header, zip(*rows) if rows else [[] for _ in header])
    ]
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            if isinstance(cell.value, dt.date):
                cell.number_format = "yyyy-mm-dd"
    _style_table(ws, 1, len(header), len(rows), widths)


def _cover(wb, ex: Export) -> None:
    from openpyxl.styles import Alignment, Font

    ws = wb.active
    ws.title = "Cover"
    ws.append([ex.question])
    ws["A1"].font = Font(bold=True, size=14)
    ws.append([])
    for k, v in ex.header()[1:] + [("Answer", ex.body.strip())]:
        ws.append([k, v])
    ws.append([])
    ws.append(["Dataset", "Data as of"])
    for cell in ws[ws.max_row]:
        cell.font = Font(bold=True)
    for k, v in sorted(ex.as_of.items()):
        ws.append([dataset_label(k), _typed("date", v)])
        ws.cell(row=ws.max_row, column=2).number_format = "yyyy-mm-dd"
    for row in ws.iter_rows(min_row=3, max_col=1):
        row[0].font = Font(bold=True)
    for row in ws.iter_rows(min_row=3, min_col=2, max_col=2):
        row[0].alignment = Alignment(wrap_text=True, vertical="top")
    ws.column_dimensions["A"].width, ws.column_dimensions["B"].width = 28, 110


def write_xlsx(ex: Export, path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    _cover(wb, ex)
    for name, t in zip(sheet_names(ex), ex.tables):
        cols = columns_of(t)
        _table(
            wb.create_sheet(name), [lab for _, lab in cols], [[_typed(c, r.get(c)) for c, _ in cols] for r in t.rows]
        )
    _table(
        wb.create_sheet("Citations"),
        ["Dataset", "Record", "Data as of"],
        [
            [dataset_label(c["dataset"]), c["id"], _typed("date", ex.searched.get(c["dataset"], ""))]
            for c in ex.citations
        ],
    )
    _table(
        wb.create_sheet("Sources"),
        ["Sheet", "Result", "Rows", "Matching records", "Data as of", "Query"],
        [[n, t.title, len(t.rows), t.total, t.as_of_text, t.query] for n, t in zip(sheet_names(ex), ex.tables)],
    )
    _table(
        wb.create_sheet("Tool calls"),
        ["Step", "Tool", "Arguments", "Succeeded", "Result", "Query"],
        [
            [
                tool_label(c.get("tool", "")),
                c.get("tool", ""),
                json.dumps(c.get("args", {}), default=str),
                "yes" if c.get("ok") else "no",
                result_title(c.get("tool", ""), c.get("summary", ""), bool(c.get("ok"))),
                q,
            ]
            for c in ex.tool_calls
            for q in (c.get("queries") or [""])
        ],
    )
    audit = ex.audit()
    facts: list[list[Any]] = [["Audit file", ex.audit_path or "(none)"]]
    for k, v in audit.items():
        if k in ("tool_calls", "plan", "citations", "provenance", "answer"):
            continue  # on their own sheets
        items = v.items() if isinstance(v, dict) else [("", v)]
        facts += [
            [f"{k} {kk}".strip(), vv if isinstance(vv, (int, float, str)) else json.dumps(vv, default=str)]
            for kk, vv in items
        ]
    _table(wb.create_sheet("Audit"), ["Field", "Value"], facts)
    wb.save(path)
