"""Work on an answer's files and rows: every matching record behind a table, and the Export an answer becomes."""

from __future__ import annotations

from .backend import Backend
from .exports import Export
from .reading import reading_text
from .results import ResultTable
from .saved import same_as_of
from .turn import Turn

__all__ = ["fetch_all", "export_of", "ALL_ROWS"]

ALL_ROWS = 1000  # the most rows a tool returns at once (Show all, exports)


def fetch_all(backend: Backend, table: ResultTable) -> bool:
    """Replace a capped table's rows by every matching record (up to ALL_ROWS); False, with the table unchanged,
    when the data is no longer as of the dates the answer read."""
    if not table.can_load_all:
        return True
    args = {**table.call.get("args", {}), "limit": min(table.total, ALL_ROWS)}
    evidence = backend.run_tool(table.call["tool"], args)
    if not same_as_of([{"dataset": k, "as_of": v} for k, v in table.as_of_by.items()], [evidence]):
        return False
    for r in evidence.get("rows", []):
        table.columns += [k for k in r if k not in table.columns]
    table.rows, table.total = [dict(r) for r in evidence.get("rows", [])], int(evidence.get("total") or 0)
    if table.sort_column is not None:
        table.sort(table.sort_column, table.ascending)
    return True


def export_of(turn: Turn, session: str) -> Export:
    """What an export of `turn` holds: its question, answer, reading, citations, tables, calls and as-of dates."""
    p = turn.payload
    return Export(
        turn.question,
        turn.answer,
        turn.citations,
        turn.tables,
        p.get("tool_calls", []),
        turn.as_of,
        p.get("session", session),
        p.get("model", ""),
        p.get("audit", ""),
        interpretation=reading_text(turn.interpretation),
        searched=turn.searched,
        chart=turn.chart,
    )
