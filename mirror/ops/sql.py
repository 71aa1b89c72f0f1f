"""`mirror sql`: one read-only SELECT on the published mirror, in a sealed DuckDB connection.

Three locks, any one of which keeps the published files as they are: the files are attached READ_ONLY; the
connection is sealed (Store.sealed: no file, network or extension access, configuration locked, so nothing can
be reattached writable or copied out); and only one statement is run, a SELECT (which takes in SHOW, DESCRIBE,
SUMMARIZE, WITH, FROM-first and VALUES), so DETACH, ATTACH, COPY, INSTALL, SET, PRAGMA, CREATE and UPDATE are
refused before DuckDB sees them.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from ..errors import MirrorError, first_line
from ..store.files import Store

__all__ = ["SqlRefused", "SqlResult", "run_sql"]

READ_ONLY = "`mirror sql` runs one SELECT on the mirror's tables, which are read-only"


class SqlRefused(MirrorError):
    """A `mirror sql` statement that is not one read-only SELECT on the mirror, or that DuckDB could not run."""


@dataclass(frozen=True)
class SqlResult:
    columns: list[str]
    rows: list[tuple]


def run_sql(store: Store, query: str) -> SqlResult:
    """The columns and rows of one SELECT on the published mirror; SqlRefused for anything else."""
    con = store.sealed()
    try:
        try:
            statements = con.extract_statements(query)
        except duckdb.Error as e:
            raise SqlRefused(f"query failed: {first_line(e)}") from None
        if len(statements) != 1:
            raise SqlRefused(
                f"{len(statements)} statements given; {READ_ONLY}: run them one call at a time"
                if statements
                else f"no statement given; {READ_ONLY}"
            )
        if statements[0].type != duckdb.StatementType.SELECT:
            verb = (statements[0].query.split(None, 1) or [statements[0].type.name])[0].upper()
            raise SqlRefused(f"{verb} refused: {READ_ONLY}")
        try:
            cur = con.execute(statements[0])
            return SqlResult([d[0] for d in cur.description], cur.fetchall())
        except duckdb.PermissionException as e:
            raise SqlRefused(
                f"refused ({first_line(e)}): `mirror sql` reads only the mirror's tables, "
                "no other files, network or extensions"
            ) from None
        except duckdb.Error as e:
            raise SqlRefused(f"query failed: {first_line(e)}") from None
    finally:
        con.close()
