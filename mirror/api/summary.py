"""Counts answered from the summary tables that sync builds (mirror/upgrade.py), when they are the same count."""

from __future__ import annotations

import re

from .sql import Access

__all__ = ["MEMBER", "summary_count", "summary_total"]

# the translator's whole search when it is "the listed column holds this one value"
MEMBER = re.compile(r'coalesce\(list_contains\(t\."(\w+)", (\$p\d+)\), FALSE\)')

Summaries = dict[tuple[str, "str | None"], str]   # (listed column, date column or None) -> qualified table


def summary_count(summaries: Summaries, a: Access, where: str, is_date: bool, tokens: bool, limit: int) -> str | None:
    """The SQL of a count from a summary: whole values of a listed column over all records, or days of the
    summary's date column over the records whose listed column holds one value (None: not such a count)."""
    if a.kind == "list" and not is_date and not tokens and where == "TRUE":
        table = summaries.get((_column(a.expr), None))
        return table and f"SELECT term, n FROM {table} ORDER BY n DESC, term ASC LIMIT {int(limit)}"
    m = MEMBER.fullmatch(where)
    if a.kind == "scalar" and is_date and a.is_date and m:
        table = summaries.get((m.group(1), _column(a.expr)))
        return table and f"SELECT strftime(day, '%Y%m%d'), n FROM {table} WHERE term = {m.group(2)} ORDER BY day"
    return None


def summary_total(con, summaries: Summaries, where: str, params: dict) -> int | None:
    """How many records' listed column holds one value, from its summary (None: not that search)."""
    m = MEMBER.fullmatch(where)
    table = summaries.get((m.group(1), None)) if m else None
    if table is None:
        return None
    return con.execute(f"SELECT coalesce(max(n), 0) FROM {table} WHERE term = {m.group(2)}", params).fetchone()[0]


def _column(expr: str) -> str:
    return expr.removeprefix('t."').removesuffix('"')
