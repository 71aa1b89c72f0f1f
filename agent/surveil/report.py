"""The periodic surveillance report of a watchlist: figures for the period (events by month and type, top problem
terms, recalls and enforcement reports with their class, 510(k)/PMA decisions), the signal table with its caveats,
changes since the last sync, and provenance (every figure's query and its dataset's as-of date), with an appendix
of the record IDs cited.

`build_report` gathers it once as a list of `Block`s; `render_markdown` writes Markdown, `report_pdf` the PDF and
`report_docx` the DOCX from the same blocks, so the three formats say the same things. `write_report` picks the
format from the file's suffix (.md, .pdf, .docx) and writes atomically.
"""

from __future__ import annotations

import calendar
import os
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Literal

from mirror.errors import MirrorError
from mirror.store.files import Store
from mirror.surveil.asof import as_of_dates
from mirror.surveil.counts import period_counts
from mirror.surveil.digest import changes_since
from mirror.surveil.scope import Scope
from mirror.surveil.signals import signals

from .errors import SurveilError
from .signals import CAVEATS, format_row
from .watchlists import Watchlists

__all__ = [
    "parse_period",
    "build_report",
    "render_markdown",
    "render_report",
    "write_report",
    "Report",
    "Block",
    "FORMATS",
    "ROWS_SHOWN",
    "SIGNAL_ROWS",
]

FORMATS = (".md", ".pdf", ".docx")
ROWS_SHOWN = 50  # rows of a record list shown in a figure (every ID is in the appendix)
SIGNAL_ROWS = 30  # all-years signal rows shown, flagged first


def parse_period(text: str) -> tuple[date, date]:
    """2023Q3, 2023-07 or 2023 -> (first day, last day)."""
    t = text.strip().upper()
    if m := re.fullmatch(r"(\d{4})-?Q([1-4])", t):
        y, q = int(m[1]), int(m[2])
        return date(y, 3 * q - 2, 1), date(y, 3 * q, calendar.monthrange(y, 3 * q)[1])
    if m := re.fullmatch(r"(\d{4})-(\d{2})", t):
        y, mo = int(m[1]), int(m[2])
        if 1 <= mo <= 12:
            return date(y, mo, 1), date(y, mo, calendar.monthrange(y, mo)[1])
    if re.fullmatch(r"\d{4}", t):
        return date(int(t), 1, 1), date(int(t), 12, 31)
    raise SurveilError(f"period {text!r} is not a quarter (2023Q3), a month (2023-07) or a year (2023)")


@dataclass
class Block:
    """One piece of the report. kind: h1 | h2 | p (a paragraph) | note (small print) | table | code | bullets."""

    kind: Literal["h1", "h2", "p", "note", "table", "code", "bullets"]
    text: str = ""
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


@dataclass
class Report:
    title: str
    watch: str
    period: str
    start: date
    end: date
    written: str  # ISO time (UTC)
    blocks: list[Block]


def _cell(v: object) -> str:
    return "" if v is None else " ".join(str(v).split())


def build_report(store: Store, watch: str, period: str) -> Report:
    """Every figure, table and note of the report, in order."""
    wl = Watchlists(store.data_dir).get(watch)
    start, end = parse_period(period)
    scope = wl.scope()
    counts = period_counts(store, scope, start, end)
    as_of = as_of_dates(store)
    now = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    title = f"Surveillance report: {watch}, {period.upper()} ({start} to {end})"
    b: list[Block] = [
        Block("h1", title),
        Block("p", f"Written {now} (UTC) from the offline mirror at {store.data_dir}."),
        Block(
            "p",
            f"Watchlist: product codes {', '.join(wl.codes) or '-'}; firms "
            f"{'; '.join(f.name or f.query for f in wl.firms) or '-'}; brands {', '.join(wl.brands) or '-'}; "
            f"UDI-DIs {', '.join(wl.dis) or '-'}.",
        ),
    ]
    for n, fig in enumerate(counts.figures, start=1):
        shown = fig.rows[:ROWS_SHOWN] if fig.ids else fig.rows
        more = f" The first {len(shown)} are listed; every ID is in the appendix." if len(shown) < len(fig.rows) else ""
        b += [
            Block("h2", f"{n}. {fig.title}"),
            Block(
                "p",
                f"Source: {fig.dataset}, data as of {as_of.get(fig.dataset, '?')}. Records: {len(fig.rows)}."
                f"{more} Query: Q{n} under Provenance.",
            ),
        ]
        b.append(
            Block("table", columns=list(fig.columns), rows=[[_cell(v) for v in r] for r in shown])
            if shown
            else Block("p", "None in this period.")
        )
    b += _signals(store, scope, start, end, len(counts.figures) + 1)
    b += _changes(store, scope)
    b += [
        Block("h2", "Caveats"),
        Block("bullets", items=list(CAVEATS)),
        Block("h2", "Provenance"),
        Block("p", "Data as of: " + ", ".join(f"{d} {v}" for d, v in sorted(as_of.items()))),
        Block(
            "p",
            "Query parameters (the watchlist, upper-cased; firms with every resolved spelling): "
            + "; ".join(f"${k} = {v}" for k, v in scope.params().items()),
        ),
    ]
    for n, fig in enumerate(counts.figures, start=1):
        b += [
            Block(
                "p",
                f"Q{n}: figure {n} ({fig.title}), {fig.dataset} as of {as_of.get(fig.dataset, '?')}, "
                f"with start = {start} and end = {end}:",
            ),
            Block("code", fig.query),
        ]
    b.append(Block("h2", "Appendix: record IDs cited"))
    listed = [f for f in counts.figures if f.ids]
    b.append(
        Block("bullets", items=[f"{f.title}: {', '.join(f.ids)}" for f in listed])
        if listed
        else Block("p", "No records cited in this period.")
    )
    return Report(title, watch, period.upper(), start, end, now, b)


def _signals(store: Store, scope: Scope, start: date, end: date, n: int) -> list[Block]:
    out = [Block("h2", f"{n}. Signals (disproportionality, MAUDE)")]
    try:
        table = signals(store, scope, year_from=start.year, year_to=end.year)
    except MirrorError as e:
        return out + [Block("p", f"Not computed: {e}")]
    rows = [
        format_row(r)
        for r in sorted(
            (r for r in table.rows if r.year is None),
            key=lambda r: (not r.measures.flagged, r.dimension != "event_type"),
        )
    ]
    shown = rows[:SIGNAL_ROWS]
    out.append(
        Block(
            "p",
            f"Years {start.year}-{end.year} (whole years), MAUDE as of {table.as_of}: "
            f"{table.reports_in_scope.get(None, 0)} reports of the watchlist against "
            f"{table.reports_other.get(None, 0)} of all other devices. Flagged (SIGNAL) when "
            f"{table.thresholds.describe()}; chi-square with Yates' correction; zero cells +0.5 "
            f"(Haldane). a: the watchlist's reports with the term, b: without; c, d: the same for all "
            f"other devices. {len(shown)} of {len(rows)} rows shown, flagged first. Query: under "
            f"Provenance.",
        )
    )
    if shown:
        out.append(Block("table", columns=list(shown[0]), rows=[list(r.values()) for r in shown]))
    else:
        out.append(Block("p", "No reports of the watchlist in these years."))
    out += [Block("bullets", items=list(CAVEATS))]
    return out + [
        Block("p", f"Signal query, device_event as of {table.as_of}:"),
        *[Block("code", q) for q in table.queries],
    ]


def _changes(store: Store, scope: Scope) -> list[Block]:
    out = [Block("h2", "Changes in the latest sync")]
    try:
        report = changes_since(store, scope, limit=20)
    except MirrorError as e:
        return out + [Block("p", f"Not available: {e}")]
    syncs = ", ".join(f"#{s} at {t}" for s, t in report.syncs) or "none"
    return out + [
        Block(
            "bullets",
            items=[
                f"{d.dataset} (as of {d.as_of or '?'}): {d.added} new, {d.changed} changed, {d.removed} removed"
                for d in report.datasets
            ],
        ),
        Block(
            "note",
            f"Sync {syncs}; new and changed records counted within the watchlist, removed ones across the dataset.",
        ),
    ]


def _md_table(columns: list[str], rows: list[list[str]]) -> list[str]:
    esc = lambda v: v.replace("|", "\\|")  # noqa: E731
    return ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)] + [
        "| " + " | ".join(esc(v) for v in r) + " |" for r in rows
    ]


def render_markdown(report: Report) -> str:
    out: list[str] = []
    for blk in report.blocks:
        if blk.kind == "h1":
            out += [f"# {blk.text}", ""]
        elif blk.kind == "h2":
            out += [f"## {blk.text}", ""]
        elif blk.kind in ("p", "note"):
            out += [blk.text if blk.kind == "p" else f"_{blk.text}_", ""]
        elif blk.kind == "table":
            out += _md_table(blk.columns, blk.rows) + [""]
        elif blk.kind == "code":
            out += ["```sql", blk.text, "```", ""]
        elif blk.kind == "bullets":
            out += [f"- {x}" for x in blk.items] + [""]
    return "\n".join(out)


def render_report(store: Store, watch: str, period: str) -> str:
    """The report as Markdown."""
    return render_markdown(build_report(store, watch, period))


def write_report(store: Store, watch: str, period: str, path: Path) -> Path:
    """Write the report as Markdown, PDF or DOCX (by `path`'s suffix), through a temporary file in the same folder."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise SurveilError(
            f"{path.name}: the report is written as {', '.join(FORMATS)}; "
            "give --out a file name with one of these endings"
        )
    if not path.parent.is_dir():
        raise SurveilError(f"{path.parent}: no such folder; create it or give --out another place")
    report = build_report(store, watch, period)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if suffix == ".pdf":
            from .report_pdf import write_pdf

            write_pdf(report, tmp)
        elif suffix == ".docx":
            from .report_docx import write_docx

            write_docx(report, tmp)
        else:
            tmp.write_text(render_markdown(report), encoding="utf-8")
        tmp.replace(path)
    except OSError as e:
        raise SurveilError(
            f"{path}: cannot be written ({e.strerror or e}); check the folder's space and "
            "permissions, or give --out another place"
        ) from None
    finally:
        tmp.unlink(missing_ok=True)
    return path
