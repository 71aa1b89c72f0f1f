"""Exports of an answer with its evidence and audit log as Markdown, CSV and XLSX, stamped with the data's as-of date."""

from __future__ import annotations

import csv
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .results import ResultTable, cell_text

__all__ = ["Export", "FORMATS", "write_export", "file_name"]

FORMATS = ("md", "csv", "xlsx")


@dataclass
class Export:
    """Everything an export holds, taken from one answered question."""

    question: str
    answer: str
    citations: list[dict]
    tables: list[ResultTable]
    tool_calls: list[dict]
    as_of: dict[str, str]              # dataset -> data as of
    session: str
    model: str
    audit_path: str = ""

    @property
    def stamp(self) -> str:
        """The oldest as-of date among the datasets used (the whole answer is at least this fresh)."""
        dates = sorted(d for d in self.as_of.values() if d)
        return dates[0] if dates else "unknown"

    def as_of_line(self) -> str:
        return "; ".join(f"{k} {v}" for k, v in sorted(self.as_of.items())) or "unknown"

    def audit_text(self) -> str:
        md = Path(self.audit_path).with_suffix(".md") if self.audit_path else None
        try:
            return md.read_text(encoding="utf-8") if md else ""
        except OSError:
            return ""


def file_name(ex: Export, fmt: str, index: int = 1) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", ex.question.lower()).strip("-")[:40].strip("-") or "answer"
    return f"fda-{words}-{ex.session}-{index}-asof-{ex.stamp}.{fmt}"


def write_export(ex: Export, fmt: str, folder: Path, index: int = 1) -> Path:
    """Write one export into `folder` (created if needed) atomically; returns its path."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}: choose one of {', '.join(FORMATS)}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(ex, fmt, index)
    tmp = path.with_name(path.name + ".part")
    {"md": _markdown, "csv": _csv, "xlsx": _xlsx}[fmt](ex, tmp)
    os.replace(tmp, path)
    return path


def _header(ex: Export) -> list[tuple[str, str]]:
    return [("question", ex.question), ("data as of", ex.as_of_line()), ("session", ex.session),
            ("model", ex.model), ("exported", time.strftime("%Y-%m-%dT%H:%M:%S%z")), ("audit log", ex.audit_path)]


def _markdown(ex: Export, path: Path) -> None:
    lines = [f"# {ex.question}", "", f"**Data as of {ex.stamp}** ({ex.as_of_line()})", ""]
    lines += [f"- {k}: {v}" for k, v in _header(ex)[2:]] + ["", "## Answer", "", ex.answer, "", "## Citations", ""]
    lines += [f"- {c['dataset']}: `{c['id']}`" for c in ex.citations] or ["(none)"]
    lines += ["", "## Evidence", ""]
    for t in ex.tables:
        lines += [f"### {t.title} (as of {t.as_of_text})", "", f"Query: `{t.query}`", "",
                  "| " + " | ".join(t.columns) + " |", "|" + "---|" * len(t.columns)]
        lines += ["| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in row) + " |" for row in t.cells()]
        lines += ["", t.footer, ""]
    lines += ["## Audit log", "", ex.audit_text() or _calls_markdown(ex.tool_calls), ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def _calls_markdown(calls: list[dict]) -> str:
    out = []
    for c in calls:
        out.append(f"- `{c.get('tool')}` {json.dumps(c.get('args', {}), default=str)}: {c.get('summary', '')}")
        out += [f"  - query: `{q}`" for q in c.get("queries", [])]
    return "\n".join(out)


def _csv(ex: Export, path: Path) -> None:
    """One sheet, a `part` column to filter on: the answer, citations, evidence rows, tool calls."""
    fields: list[str] = []
    for t in ex.tables:
        fields += [c for c in t.columns if c not in fields]
    head = ["part", "dataset", "as_of", "query", "text"]
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(head + fields)
        blank = [""] * len(fields)
        w.writerow(["answer", "", ex.as_of_line(), "", ex.answer] + blank)
        w.writerow(["question", "", ex.as_of_line(), "", ex.question] + blank)
        for c in ex.citations:
            w.writerow(["citation", c["dataset"], ex.as_of.get(c["dataset"], ""), "", c["id"]] + blank)
        for t in ex.tables:
            for r in t.rows:
                dataset, as_of = t.row_source(r)
                w.writerow(["evidence", dataset, as_of, t.query, t.tool] + [cell_text(r.get(k)) for k in fields])
        for c in ex.tool_calls:
            for q in c.get("queries") or [""]:
                w.writerow(["tool_call", "", "", q, f"{c.get('tool')} {json.dumps(c.get('args', {}), default=str)}: "
                            f"{c.get('summary', '')}"] + blank)


def _sheet_name(i: int, t: ResultTable, used: set[str]) -> str:
    name = re.sub(r"[\[\]:*?/\\]", "-", f"{i} {t.tool} {t.dataset.split('/')[-1]}")[:31]
    while name in used:
        name = name[:28] + f"~{len(used)}"
    used.add(name)
    return name


def _xlsx(ex: Export, path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    wb = Workbook()
    ws = wb.active
    ws.title = "Answer"
    for k, v in _header(ex) + [("answer", ex.answer)]:
        ws.append([k, v])
    ws.append([])
    ws.append(["dataset", "data as of"])
    for k, v in sorted(ex.as_of.items()):
        ws.append([k, v])
    ws.column_dimensions["A"].width, ws.column_dimensions["B"].width = 14, 100
    cites = wb.create_sheet("Citations")
    cites.append(["dataset", "id", "data as of"])
    for c in ex.citations:
        cites.append([c["dataset"], c["id"], ex.as_of.get(c["dataset"], "")])
    used: set[str] = {"Answer", "Citations", "Tool calls", "Audit"}
    for i, t in enumerate(ex.tables, 1):
        ws = wb.create_sheet(_sheet_name(i, t, used))
        ws.append([t.title])
        ws.append(["data as of", t.as_of_text])
        ws.append(["query", t.query])
        ws.append(t.columns)
        for cell in ws[4]:
            cell.font = Font(bold=True)
        for r in t.rows:
            ws.append([r.get(c) if isinstance(r.get(c), (int, float)) else cell_text(r.get(c)) for c in t.columns])
        ws.append([t.footer])
    calls = wb.create_sheet("Tool calls")
    calls.append(["tool", "arguments", "ok", "summary", "query"])
    for c in ex.tool_calls:
        for q in c.get("queries") or [""]:
            calls.append([c.get("tool"), json.dumps(c.get("args", {}), default=str), c.get("ok"), c.get("summary"), q])
    audit = wb.create_sheet("Audit")
    for line in (ex.audit_text() or _calls_markdown(ex.tool_calls)).splitlines():
        audit.append([line])
    wb.save(path)
