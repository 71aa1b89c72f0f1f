"""Counts answered from the summary tables that sync builds (mirror/sync/indexes.py), when they are the same count."""

from __future__ import annotations

from ..schema.openfda import DAY_FORMAT
from .sql import Access, Conjunct

__all__ = ["member", "summary_count", "summary_total"]

Summaries = dict[tuple[str, "str | None"], str]  # (listed column, date column or None) -> qualified table


def member(conj: list[Conjunct]) -> Conjunct | None:
    """The whole search when it is "the listed column holds this one value" (None: any other search)."""
    return conj[0] if len(conj) == 1 and conj[0].op == "member" else None


def summary_count(
    summaries: Summaries, a: Access, conj: list[Conjunct], is_date: bool, tokens: bool, limit: int
) -> tuple[str, str] | None:
    """The SQL of a count from a summary, and that summary table: whole values of a listed column over all records,
    or days of the summary's date column over the records whose listed column holds one value (None: not such a
    count)."""
    if a.kind == "list" and not is_date and not tokens and not conj and a.column is not None:
        table = summaries.get((a.column, None))
        return (f"SELECT term, n FROM {table} ORDER BY n DESC, term ASC LIMIT {int(limit)}", table) if table else None
    m = member(conj)
    if a.kind == "scalar" and is_date and a.is_date and m and m.column and a.column is not None:
        table = summaries.get((m.column, a.column))
        return (
            (f"SELECT strftime(day, '{DAY_FORMAT}'), n FROM {table} WHERE term = {m.param} ORDER BY day", table)
            if table
            else None
        )
    return None


def summary_total(con, summaries: Summaries, conj: list[Conjunct], params: dict) -> int | None:
    """How many records' listed column holds one value, from its summary (None: not that search)."""
    m = member(conj)
    table = summaries.get((m.column, None)) if m and m.column else None
    if m is None or table is None:
        return None
    return con.execute(f"SELECT coalesce(max(n), 0) FROM {table} WHERE term = {m.param}", params).fetchone()[0]
