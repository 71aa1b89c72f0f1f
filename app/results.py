"""Result tables and charts made from an answer's evidence: plain data the view draws and the exports write."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .labels import HIDDEN_COLUMNS, count, dataset_label, field_label, tool_label

__all__ = ["ResultTable", "Chart", "tables_of", "chart_of", "cell_text", "as_of_of", "contributing_as_of", "PAGE_SIZE"]

TREND_FIELDS = ("year", "month", "day")
PAGE_SIZE = 10
MAX_POINTS = 600


@dataclass
class ResultTable:
    """One tool result: its rows (capped by the agent, or all of them once fetched), the full total, its paging."""

    title: str
    tool: str
    dataset: str
    as_of: str
    query: str
    columns: list[str]
    rows: list[dict[str, Any]]
    total: int
    notes: list[str] = field(default_factory=list)
    sort_column: int | None = None
    ascending: bool = True
    as_of_by: dict[str, str] = field(default_factory=dict)  # every dataset the result read -> its as-of date
    rows_from: list[str] = field(default_factory=list)  # the datasets its rows came from
    call: dict = field(default_factory=dict)  # the tool call behind it: {"tool", "args"}
    page: int = 0
    loading: bool = False  # every matching record is being fetched
    hidden: list[str] = field(default_factory=list)  # columns the person chose to hide (screen and exports)

    @property
    def as_of_text(self) -> str:
        """The as-of date of the data its rows came from, per dataset when several."""
        used = self.used_as_of
        if len(used) > 1:
            return "; ".join(f"{dataset_label(k)} {v}" for k, v in used.items())
        return next(iter(used.values()), "") or self.as_of or "unknown"

    @property
    def used_as_of(self) -> dict[str, str]:
        return {k: v for k, v in self.as_of_by.items() if k in self.rows_from} or dict(self.as_of_by)

    def row_source(self, row: dict[str, Any]) -> tuple[str, str]:
        """(dataset, as of) of one row: its own `dataset` column when it has one (a resolver reads several)."""
        own = row.get("dataset")
        if isinstance(own, str) and own in self.as_of_by:
            return own, self.as_of_by[own]
        first = self.rows_from[0] if self.rows_from else self.dataset
        return first, self.as_of_by.get(first, self.as_of)

    @property
    def counted(self) -> bool:
        return self.tool == "count_by"

    @property
    def capped(self) -> bool:
        """More records match than the rows held (the agent keeps the first ones)."""
        return not self.counted and self.total > len(self.rows)

    @property
    def can_load_all(self) -> bool:
        return self.capped and bool(self.call.get("tool")) and len(self.rows) < min(self.total, 1000)

    @property
    def shown_columns(self) -> list[int]:
        """Indexes of the columns shown on screen (bookkeeping columns are kept for the exports only)."""
        return [i for i, c in enumerate(self.columns) if c not in HIDDEN_COLUMNS and c not in self.hidden]

    @property
    def choosable(self) -> list[str]:
        """The columns the column chooser lists (every column but the bookkeeping ones)."""
        return [c for c in self.columns if c not in HIDDEN_COLUMNS]

    @property
    def exported(self) -> list[str]:
        """The columns an export writes: all of them but those the person hid."""
        return [c for c in self.columns if c not in self.hidden]

    def toggle_column(self, name: str) -> bool:
        """Hide a shown column or show a hidden one; False (nothing changed) when it would hide the last one."""
        if name in self.hidden:
            self.hidden.remove(name)
            return True
        if name not in self.choosable or len([c for c in self.choosable if c not in self.hidden]) <= 1:
            return False
        self.hidden.append(name)
        return True

    # -- paging ---------------------------------------------------------------------------------------------
    @property
    def pages(self) -> int:
        return max(1, -(-len(self.rows) // PAGE_SIZE))

    def page_rows(self) -> list[dict[str, Any]]:
        self.page = min(self.page, self.pages - 1)
        return self.rows[self.page * PAGE_SIZE : (self.page + 1) * PAGE_SIZE]

    def turn_page(self, step: int) -> None:
        self.page = max(0, min(self.pages - 1, self.page + step))

    @property
    def footer(self) -> str:
        first = self.page * PAGE_SIZE + 1 if self.rows else 0
        last = min(len(self.rows), (self.page + 1) * PAGE_SIZE)
        shown = (
            f"Rows {first:,}–{last:,} of {len(self.rows):,}"
            if len(self.rows) > PAGE_SIZE
            else count(len(self.rows), "row")
        )
        if self.counted:
            text = f"{shown}; {count(self.total, 'matching record')} in all"
        else:
            text = f"{shown} of {count(self.total, 'matching record')}"
        text += f". Data as of {self.as_of_text}."
        if self.capped:
            text += (
                " The assistant keeps the first rows; Show all fetches every matching record"
                if self.can_load_all
                else " Ask a narrower question to see the others"
            )
            text += " (up to 1,000)." if self.total > 1000 else "."
        return text

    def sort(self, column: int, ascending: bool) -> None:
        """Sort rows by a column: numbers as numbers, empty values last."""
        name = self.columns[column]
        filled = [r for r in self.rows if r.get(name) not in (None, "")]
        empty = [r for r in self.rows if r.get(name) in (None, "")]
        numeric = all(isinstance(r[name], (int, float)) and not isinstance(r[name], bool) for r in filled)
        key = (lambda r: r[name]) if numeric else (lambda r: cell_text(r[name]).lower())
        self.rows = sorted(filled, key=key, reverse=not ascending) + empty
        self.sort_column, self.ascending, self.page = column, ascending, 0

    def cells(self) -> list[list[str]]:
        return [[cell_text(r.get(c)) for c in self.columns] for r in self.rows]


@dataclass
class Chart:
    """A line (a trend by year, month or day) or bars (counts by a category), with its points in order."""

    kind: str  # line | bar
    title: str
    x: str
    points: list[tuple[str, int]]
    as_of: str = ""
    y: str = "records"

    @property
    def peak(self) -> int:
        return max((v for _, v in self.points), default=0)

    def describe(self) -> str:
        """A one-line text of the chart (its accessible label)."""
        shown = "; ".join(f"{k}: {v:,}" for k, v in self.points[:12])
        more = f"; and {len(self.points) - 12} more" if len(self.points) > 12 else ""
        return f"{'Line' if self.kind == 'line' else 'Bar'} chart, {self.title}: {shown}{more}"


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _rows_from(e: dict, rows: list[dict]) -> list[str]:
    """The datasets a result's rows came from: the rows' own `dataset` column, else the queries that asked for rows
    (a `limit=0` query only counts: its dataset contributed a total, not rows)."""
    prov = [p for p in e.get("provenance") or [] if p.get("dataset")]
    known = {p["dataset"] for p in prov}
    own = [str(r["dataset"]) for r in rows if isinstance(r.get("dataset"), str) and r["dataset"] in known]
    if own:
        return list(dict.fromkeys(own))
    fetched = [p["dataset"] for p in prov if "limit=0" not in str(p.get("query", "")).split("&")]
    return list(dict.fromkeys(fetched or [p["dataset"] for p in prov]))


def _title(e: dict, call: dict, used: list[str]) -> str:
    """'Recalls', 'MAUDE adverse events by month', 'Looked up the firm's names'."""
    data = ", ".join(dataset_label(d) for d in used)
    if e.get("tool") == "count_by":
        by = (call.get("args") or {}).get("field") or next(iter(e.get("id_fields") or []), "")
        return f"{data} by {field_label(by).lower()}" if by else data
    if str(e.get("tool", "")).startswith("resolve_"):
        return tool_label(e.get("tool", ""))
    return data or tool_label(e.get("tool", ""))


def tables_of(evidence: list[dict], tool_calls: list[dict] | None = None) -> list[ResultTable]:
    """A table per tool result that has rows, columns in the order the rows give them; each keeps the call behind it
    (the answer's successful tool calls, in the order of the evidence)."""
    calls = [c for c in tool_calls or [] if c.get("ok", True)]
    out = []
    for i, e in enumerate(evidence):
        rows = e.get("rows") or []
        if not rows:
            continue
        columns: list[str] = []
        for r in rows:
            columns += [k for k in r if k not in columns]
        prov = [p for p in e.get("provenance") or [] if p.get("dataset")]
        as_of_by = {p["dataset"]: p.get("as_of", "") for p in prov}
        used = _rows_from(e, rows)
        dates = sorted(as_of_by.get(d, "") for d in used if as_of_by.get(d))
        queries = list(dict.fromkeys(p.get("query", "") for p in prov if p.get("query")))
        call = calls[i] if i < len(calls) and calls[i].get("tool") == e.get("tool") else {}
        title = _title(e, call, used)
        out.append(
            ResultTable(
                title=title,
                tool=e.get("tool", ""),
                dataset="; ".join(as_of_by),
                as_of=dates[0] if dates else "",
                query="; ".join(queries),
                columns=columns,
                rows=[dict(r) for r in rows],
                total=int(e.get("total") or 0),
                notes=list(e.get("notes") or []),
                as_of_by=as_of_by,
                rows_from=used,
                call={"tool": call.get("tool", ""), "args": call.get("args", {})} if call else {},
            )
        )
    return out


def chart_of(evidence: list[dict], interpretation: dict | None = None) -> Chart | None:
    """A chart for the first count: a line for a trend (zero-filled over the dates asked, else between the first
    and last period found), bars for a category."""
    it = interpretation or {}
    for e in evidence:
        rows = e.get("rows") or []
        if e.get("tool") != "count_by" or not rows or not e.get("id_fields"):
            continue
        x = e["id_fields"][0]
        points = [(str(r.get(x, "")), int(r.get("count") or 0)) for r in rows]
        p = (e.get("provenance") or [{}])[0]
        title = f"{dataset_label(p.get('dataset', 'records'))} by {field_label(x).lower()}"
        if x in TREND_FIELDS:
            span = (str(it.get("date_from") or ""), str(it.get("date_to") or ""))
            return Chart("line", title, x, _fill_gaps(points, x, span), p.get("as_of", ""))
        return Chart("bar", title, x, points, p.get("as_of", ""))
    return None


def _period(x: str, iso: str) -> str:
    return iso[:4] if x == "year" else iso[:7]


def _fill_gaps(points: list[tuple[str, int]], x: str, span: tuple[str, str] = ("", "")) -> list[tuple[str, int]]:
    """Years or months with no record count as 0, over the dates asked for when known (days are left as they come)."""
    have = dict(points)
    keys = sorted(have)
    if not keys or x == "day":
        return sorted(points)
    lo = min(keys[0], _period(x, span[0])) if span[0] else keys[0]
    hi = max(keys[-1], _period(x, span[1])) if span[1] else keys[-1]
    try:
        if x == "year":
            full = [str(y) for y in range(int(lo[:4]), int(hi[:4]) + 1)]
        else:
            (y0, m0), (y1, m1) = (map(int, lo.split("-")[:2]), map(int, hi.split("-")[:2]))
            full = [f"{i // 12:04d}-{i % 12 + 1:02d}" for i in range(y0 * 12 + m0 - 1, y1 * 12 + m1)]
    except ValueError:
        return sorted(points)
    if len(full) > MAX_POINTS:
        return sorted(points)
    return [(k, have.get(k, 0)) for k in full]


def as_of_of(payload: dict) -> dict[str, str]:
    """Dataset -> as-of date of the data an answer searched (from its provenance; all datasets if none)."""
    used = {p["dataset"]: p.get("as_of", "") for p in payload.get("provenance", []) if p.get("dataset")}
    return used or {f"device/{k}" if k != "gudid" else k: v for k, v in (payload.get("as_of") or {}).items()}


def contributing_as_of(tables: list[ResultTable], payload: dict) -> dict[str, str]:
    """The as-of dates of the datasets whose records an answer shows; when it shows none (a count of 0), those of
    the datasets it searched for records (not the ones only counted alongside)."""
    used: dict[str, str] = {}
    for t in tables:
        used.update(t.used_as_of)
    if used:
        return dict(sorted(used.items()))
    searched = {
        p["dataset"]: p.get("as_of", "")
        for p in payload.get("provenance", [])
        if p.get("dataset") and "limit=0" not in str(p.get("query", "")).split("&")
    }
    return dict(sorted(searched.items()))
