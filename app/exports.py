"""Exports of an answer, its evidence and audit log (Markdown, CSV, XLSX, PDF), stamped with its as-of dates."""

from __future__ import annotations

import csv
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from .labels import dataset_label, display_value, field_label, tool_label
from .reading import split_answer
from .results import Chart, ResultTable
from .timeline import result_title

__all__ = ["Export", "FORMATS", "CHART_FORMAT", "write_export", "file_name", "columns_of", "available_formats"]

FORMATS = ("xlsx", "csv", "md", "pdf")
CHART_FORMAT = "png"  # an image of the answer's chart, offered when it has one
CSV_META = ["Part", "Dataset", "Data as of", "Query", "Text"]


@dataclass
class Export:
    """Everything an export holds, taken from one answered question."""

    question: str
    answer: str
    citations: list[dict]
    tables: list[ResultTable]
    tool_calls: list[dict]
    as_of: dict[str, str]  # dataset -> data as of, for the datasets whose records the answer shows
    session: str
    model: str
    audit_path: str = ""
    interpretation: str = ""  # the reading of the question, on one line
    searched: dict[str, str] = field(default_factory=dict)  # every dataset the answer read -> as of
    exported_at: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M:%S %Z").strip())
    chart: Chart | None = None

    @property
    def stamp(self) -> str:
        """The as-of date(s) in the file name: one date, two joined, or the oldest and newest of more."""
        dates = sorted({d for d in self.as_of.values() if d})
        if not dates:
            return "unknown"
        return "_".join(dates) if len(dates) <= 2 else f"{dates[0]}-to-{dates[-1]}"

    def as_of_line(self) -> str:
        return "; ".join(f"{dataset_label(k)} {v}" for k, v in sorted(self.as_of.items())) or "unknown"

    @property
    def body(self) -> str:
        """The answer without its 'Interpreted as' paragraph (the exports give the reading on its own line)."""
        return split_answer(self.answer)[1]

    def audit(self) -> dict:
        try:
            return json.loads(Path(self.audit_path).read_text(encoding="utf-8")) if self.audit_path else {}
        except (OSError, ValueError):
            return {}

    def header(self) -> list[tuple[str, str]]:
        """The cover lines every format starts with."""
        rows = [
            ("Question", self.question),
            ("Interpreted as", self.interpretation or "(not recorded)"),
            ("Data as of", self.as_of_line()),
        ]
        others = {k: v for k, v in self.searched.items() if k not in self.as_of}
        if others:
            rows.append(
                (
                    "Also searched (no rows shown)",
                    "; ".join(f"{dataset_label(k)} {v}" for k, v in sorted(others.items())),
                )
            )
        return rows + [
            ("Model", self.model or "none"),
            ("Session", self.session),
            ("Exported", self.exported_at),
            ("Audit log", self.audit_path or "(none)"),
        ]


def available_formats() -> tuple[str, ...]:
    """The formats this installation can write (PDF needs the fpdf2 package)."""
    from importlib.util import find_spec

    return tuple(f for f in FORMATS if f != "pdf" or find_spec("fpdf") is not None)


def _slug(text: str, limit: int = 40) -> str:
    """Whole words of the question, at most `limit` characters (never cut mid-word)."""
    out = ""
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if len(out) + len(word) + 1 > limit:
            break
        out = f"{out}-{word}" if out else word
    return out or "answer"


def file_name(ex: Export, fmt: str, index: int = 1) -> str:
    return f"fda-{_slug(ex.question)}-{ex.session}-{index}-asof-{ex.stamp}.{fmt}"


def write_export(ex: Export, fmt: str, folder: Path, index: int = 1) -> Path:
    """Write one export into `folder` (created if needed) atomically; returns its path."""
    if fmt not in FORMATS + (CHART_FORMAT,):
        raise ValueError(f"unknown export format {fmt!r}: choose one of {', '.join(FORMATS + (CHART_FORMAT,))}")
    if fmt == CHART_FORMAT and ex.chart is None:
        raise ValueError("this answer has no chart to export as an image: export its table instead")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(ex, fmt, index)
    tmp = path.with_name(path.name + ".part")
    if fmt == "xlsx":
        from .exports_xlsx import write_xlsx as writer
    elif fmt == "pdf":
        from .exports_pdf import write_pdf as writer
    elif fmt == CHART_FORMAT:
        from .chart_png import write_png as writer
    else:
        writer = {"md": _markdown, "csv": _csv}[fmt]
    writer(ex, tmp)
    os.replace(tmp, path)
    return path


def columns_of(t: ResultTable) -> list[tuple[str, str]]:
    """(field, label) of the columns a table exports (those the person hid on screen are left out); a label two
    fields share gets the field name after it."""
    columns = t.exported
    labels = [field_label(c) for c in columns]
    return [(c, lab if labels.count(lab) == 1 else f"{lab} ({c})") for c, lab in zip(columns, labels)]


def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _markdown(ex: Export, path: Path) -> None:
    lines = [f"# {ex.question}", ""] + [f"- **{k}:** {v}" for k, v in ex.header()[1:]]
    lines += ["", "## Answer", "", ex.body.strip(), "", "## Citations", ""]
    lines += [f"- {dataset_label(c['dataset'])}: `{c['id']}`" for c in ex.citations] or ["(none)"]
    for t in ex.tables:
        cols = columns_of(t)
        lines += [
            "",
            f"## {t.title}",
            "",
            f"Data as of {t.as_of_text}. Query: `{t.query}`",
            "",
            "| " + " | ".join(_md_cell(lab) for _, lab in cols) + " |",
            "|" + "---|" * len(cols),
        ]
        lines += ["| " + " | ".join(_md_cell(display_value(c, r.get(c))) for c, _ in cols) + " |" for r in t.rows]
        lines += ["", t.footer]
    lines += ["", "## Audit log", "", f"Audit file: `{ex.audit_path or '(none)'}`", ""]
    for c in ex.tool_calls:
        lines.append(
            f"- {tool_label(c.get('tool', ''))} (`{c.get('tool')}` "
            f"{json.dumps(c.get('args', {}), default=str)}): {c.get('summary', '')}"
        )
        lines += [f"  - query: `{q}`" for q in c.get("queries", [])]
    settings = ex.audit().get("settings")
    if settings:
        lines += ["", "Settings:", "", "```json", json.dumps(settings, indent=2, default=str), "```"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _csv_value(name: str, value) -> object:
    """Numbers stay numbers (Excel sums them); dates read 2023-01-01; lists are joined."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return display_value(name, value)


def _csv(ex: Export, path: Path) -> None:
    """One sheet with a Part column to filter on: the question, answer, citations, evidence rows, tool calls.
    UTF-8 with a byte-order mark, so that Excel reads it as UTF-8."""
    fields: list[tuple[str, str]] = []
    for t in ex.tables:
        fields += [(c, lab) for c, lab in columns_of(t) if c != "dataset" and c not in {f for f, _ in fields}]
    labels = [lab if lab not in CSV_META else f"{lab} ({c})" for c, lab in fields]
    with path.open("w", newline="", encoding="utf-8-sig") as f:
        w = csv.writer(f)
        w.writerow(CSV_META + labels)
        blank = [""] * len(fields)
        w.writerow(["question", "", ex.as_of_line(), "", ex.question] + blank)
        w.writerow(["interpretation", "", "", "", ex.interpretation] + blank)
        w.writerow(["answer", "", ex.as_of_line(), "", ex.body.strip()] + blank)
        for c in ex.citations:
            w.writerow(
                [
                    "citation",
                    dataset_label(c["dataset"]),
                    ex.searched.get(c["dataset"], ex.as_of.get(c["dataset"], "")),
                    "",
                    c["id"],
                ]
                + blank
            )
        for t in ex.tables:
            for r in t.rows:
                dataset, as_of = t.row_source(r)
                w.writerow(
                    ["evidence", dataset_label(dataset), as_of, t.query, t.title]
                    + [_csv_value(k, r.get(k)) for k, _ in fields]
                )
        for c in ex.tool_calls:
            for q in c.get("queries") or [""]:
                step = result_title(c.get("tool", ""), c.get("summary", ""), bool(c.get("ok")))
                w.writerow(["tool call", "", "", q, step] + blank)
