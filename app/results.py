"""Result tables and charts made from an answer's evidence: plain data the view draws and the exports write."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ResultTable", "Chart", "tables_of", "chart_of", "cell_text", "as_of_of"]

TREND_FIELDS = ("year", "month", "day")


@dataclass
class ResultTable:
    """One tool result: its rows (capped by the agent), the full total, and how it is sorted."""

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
    as_of_by: dict[str, str] = field(default_factory=dict)   # every dataset the result read -> its as-of date

    @property
    def as_of_text(self) -> str:
        """The as-of date, per dataset when the result read several."""
        if len(self.as_of_by) > 1:
            return "; ".join(f"{k} {v}" for k, v in self.as_of_by.items())
        return self.as_of or "unknown"

    def row_source(self, row: dict[str, Any]) -> tuple[str, str]:
        """(dataset, as of) of one row: its own `dataset` column when it has one (a resolver reads several)."""
        own = row.get("dataset")
        if isinstance(own, str) and own in self.as_of_by:
            return own, self.as_of_by[own]
        return self.dataset, self.as_of

    @property
    def capped(self) -> bool:
        return self.tool != "count_by" and self.total > len(self.rows)

    @property
    def footer(self) -> str:
        unit = "matching records" if self.tool == "count_by" else "records"
        text = f"{len(self.rows):,} rows shown; total {self.total:,} {unit} (as of {self.as_of or 'unknown'})"
        if self.capped:
            text += (f". Rows are capped at {len(self.rows):,} (FDAX_ROW_CAP); the total counts every match: "
                     "ask a narrower question to see the others")
        return text

    def sort(self, column: int, ascending: bool) -> None:
        """Sort rows by a column: numbers as numbers, empty values last."""
        name = self.columns[column]
        filled = [r for r in self.rows if r.get(name) not in (None, "")]
        empty = [r for r in self.rows if r.get(name) in (None, "")]
        numeric = all(isinstance(r[name], (int, float)) and not isinstance(r[name], bool) for r in filled)
        key = (lambda r: r[name]) if numeric else (lambda r: cell_text(r[name]).lower())
        self.rows = sorted(filled, key=key, reverse=not ascending) + empty
        self.sort_column, self.ascending = column, ascending

    def cells(self) -> list[list[str]]:
        return [[cell_text(r.get(c)) for c in self.columns] for r in self.rows]


@dataclass
class Chart:
    """A line (a trend by year, month or day) or bars (counts by a category), with its points in order."""

    kind: str                                  # line | bar
    title: str
    x: str
    points: list[tuple[str, int]]
    as_of: str = ""

    @property
    def peak(self) -> int:
        return max((v for _, v in self.points), default=0)

    def describe(self) -> str:
        """A one-line text of the chart (its accessible label)."""
        shown = "; ".join(f"{k}: {v:,}" for k, v in self.points[:12])
        more = f"; and {len(self.points) - 12} more" if len(self.points) > 12 else ""
        return f"{self.kind} chart, {self.title}: {shown}{more}"


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value}"
    return str(value)


def _first_provenance(e: dict) -> dict:
    prov = e.get("provenance") or [{}]
    return prov[0]


def tables_of(evidence: list[dict]) -> list[ResultTable]:
    """A table per tool result that has rows, columns in the order the rows give them."""
    out = []
    for e in evidence:
        rows = e.get("rows") or []
        if not rows:
            continue
        columns: list[str] = []
        for r in rows:
            columns += [k for k in r if k not in columns]
        prov = [p for p in e.get("provenance") or [] if p.get("dataset")]
        as_of_by = {p["dataset"]: p.get("as_of", "") for p in prov}
        dataset = "; ".join(as_of_by)
        dates = sorted(d for d in as_of_by.values() if d)
        queries = list(dict.fromkeys(p.get("query", "") for p in prov if p.get("query")))
        out.append(ResultTable(title=f"{e.get('tool', '')} · {dataset}", tool=e.get("tool", ""), dataset=dataset,
                               as_of=dates[0] if dates else "", query="; ".join(queries), columns=columns,
                               rows=[dict(r) for r in rows], total=int(e.get("total") or 0),
                               notes=list(e.get("notes") or []), as_of_by=as_of_by))
    return out


def chart_of(evidence: list[dict]) -> Chart | None:
    """A chart for the first count: a line for a trend (gaps filled with 0), bars for a category."""
    for e in evidence:
        rows = e.get("rows") or []
        if e.get("tool") != "count_by" or not rows or not e.get("id_fields"):
            continue
        x = e["id_fields"][0]
        points = [(str(r.get(x, "")), int(r.get("count") or 0)) for r in rows]
        p = _first_provenance(e)
        title = f"{p.get('dataset', 'records')} by {x}"
        if x in TREND_FIELDS:
            return Chart("line", title, x, _fill_gaps(points, x), p.get("as_of", ""))
        return Chart("bar", title, x, points, p.get("as_of", ""))
    return None


def _fill_gaps(points: list[tuple[str, int]], x: str) -> list[tuple[str, int]]:
    """Years or months with no record count as 0 (days are left as they come)."""
    have = dict(points)
    keys = sorted(have)
    if not keys or x == "day":
        return sorted(points)
    try:
        if x == "year":
            span = [str(y) for y in range(int(keys[0]), int(keys[-1]) + 1)]
        else:
            (y0, m0), (y1, m1) = (map(int, keys[0].split("-")), map(int, keys[-1].split("-")))
            span = [f"{i // 12:04d}-{i % 12 + 1:02d}" for i in range(y0 * 12 + m0 - 1, y1 * 12 + m1)]
    except ValueError:
        return sorted(points)
    if len(span) > 600:
        return sorted(points)
    return [(k, have.get(k, 0)) for k in span]


def as_of_of(payload: dict) -> dict[str, str]:
    """Dataset -> as-of date of the data an answer used (from its provenance; all datasets if none)."""
    used = {p["dataset"]: p.get("as_of", "") for p in payload.get("provenance", []) if p.get("dataset")}
    return used or {f"device/{k}" if k != "gudid" else k: v for k, v in (payload.get("as_of") or {}).items()}
