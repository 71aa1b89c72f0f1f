"""One row of a query that always yields one (an aggregate without GROUP BY), typed for callers."""

from __future__ import annotations

from typing import Any

from duckdb import DuckDBPyConnection

__all__ = ["one"]


def one(cur: DuckDBPyConnection) -> tuple[Any, ...]:
    """The row an executed aggregate query returned (`con.execute("SELECT count(*) ...")`); DuckDB's stubs say
    `fetchone()` may return None, which such a query never does."""
    row = cur.fetchone()
    if row is None:
        raise LookupError("an aggregate query returned no row; report this as a bug in the mirror")
    return row
