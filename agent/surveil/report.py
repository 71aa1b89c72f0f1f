"""The periodic surveillance report of a watchlist, as Markdown: figures for the period, signals, changes since the
last sync, and provenance (every figure's query and the datasets' as-of dates), with an appendix of record IDs."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timezone
from pathlib import Path

from mirror.errors import MirrorError
from mirror.store.files import Store
from mirror.surveil.asof import as_of_dates
from mirror.surveil.counts import period_counts
from mirror.surveil.digest import changes_since
from mirror.surveil.signals import signals

from .errors import SurveilError
from .signals import CAVEATS, format_row
from .watchlists import Watchlists

__all__ = ["parse_period", "render_report", "write_report"]


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


def _table(columns: list[str], rows: list[tuple]) -> list[str]:
    if not rows:
        return ["_None in this period._", ""]
    cell = lambda v: "" if v is None else str(v).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    return (["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
            + ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows] + [""])


def render_report(store: Store, watch: str, period: str) -> str:
    wl = Watchlists(store.data_dir).get(watch)
    start, end = parse_period(period)
    scope = wl.scope()
    counts = period_counts(store, scope, start, end)
    as_of = as_of_dates(store)
    now = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    out = [f"# Surveillance report: {watch}, {period.upper()} ({start} to {end})", "",
           f"Written {now} (UTC) from the offline mirror at `{store.data_dir}`.", "",
           f"Watchlist: product codes {', '.join(wl.codes) or '-'}; firms "
           f"{'; '.join(f.name or f.query for f in wl.firms) or '-'}; brands {', '.join(wl.brands) or '-'}; "
           f"UDI-DIs {', '.join(wl.dis) or '-'}.", ""]
    listed = [f for f in counts.figures if f.ids]
    for n, fig in enumerate(counts.figures, start=1):
        out += [f"## {n}. {fig.title}", "",
                f"Source: {fig.dataset}, data as of {as_of.get(fig.dataset, '?')}. Records: {len(fig.rows)}.", ""]
        out += _table(fig.columns, fig.rows[:50] if fig.ids else fig.rows)
    out += _signals(store, scope, start, end)
    out += _changes(store, scope)
    out += ["## Provenance", "", "Data as of: " + ", ".join(f"{d} {v}" for d, v in sorted(as_of.items())), "",
            "Query parameters (the watchlist, upper-cased; firms with every resolved spelling): "
            + "; ".join(f"${k} = {v}" for k, v in scope.params().items()), ""]
    for n, fig in enumerate(counts.figures, start=1):
        out += [f"Figure {n} ({fig.title}), with start = {start} and end = {end}:", "", "```sql", fig.query, "```", ""]
    out += ["## Appendix: record IDs cited", ""]
    for fig in listed:
        out += [f"- {fig.title}: {', '.join(fig.ids)}"]
    return "\n".join(out) + "\n"


def _signals(store: Store, scope, start: date, end: date) -> list[str]:
    out = ["## Signals (disproportionality, MAUDE)", ""]
    try:
        table = signals(store, scope, year_from=start.year, year_to=end.year)
    except MirrorError as e:
        return out + [f"_Not computed: {e}_", ""]
    rows = [format_row(r) for r in table.rows if r.year is None][:30]
    out += [f"Years {start.year}-{end.year} (whole years), MAUDE as of {table.as_of}. Flagged when "
            f"{table.thresholds.describe()}; chi-square with Yates' correction; zero cells +0.5 (Haldane).", ""]
    out += _table(list(rows[0]) if rows else [], [tuple(r.values()) for r in rows])
    out += [f"- {c}" for c in CAVEATS] + ["", "Queries:", "", "```sql", *table.queries, "```", ""]
    return out


def _changes(store: Store, scope) -> list[str]:
    out = ["## Changes in the latest sync", ""]
    try:
        report = changes_since(store, scope, limit=20)
    except MirrorError as e:
        return out + [f"_Not available: {e}_", ""]
    for d in report.datasets:
        out += [f"- {d.dataset} (as of {d.as_of or '?'}): {d.added} new, {d.changed} changed, {d.removed} removed"]
    return out + [""]


def write_report(store: Store, watch: str, period: str, path: Path) -> Path:
    text = render_report(store, watch, period)
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
