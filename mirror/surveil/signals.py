"""Disproportionality tables from MAUDE reports: a scope against all other devices, by event type and by device
problem term, for each year and for all years together (formulas and zero cells in `stats`).

Counting unit: one MAUDE report (`device_event`, mdr_report_key). The population is every report that names at
least one product code, or that the scope matches; a report is "the product" when the scope matches it (any of its
devices' product codes, its manufacturer, a brand or a UDI-DI), "other devices" otherwise. A report counts once per
distinct problem term it carries. Years are the year the FDA received the report (date_received).

Speed: the counts of all devices do not depend on the scope, so they are counted once per published event file
(per term and year, over every report that names a product code) and kept in `<data folder>/surveil/
signal-totals-<fingerprint>.parquet` (the fingerprint: the event file's name, size and modification time, so a
sync that publishes a new file starts a new cache; older caches are deleted). A signal query then reads only the
scope's reports: c = all coded reports with the term - the scope's coded reports with it. A scope of product codes
alone does not read the reports at all: it sums the per-code counts built with the totals (`aggregates`), so its
time grows with the number of its codes' terms and years, not with their reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ..errors import MirrorError
from ..store.files import Store
from ..store.state import rowid_stamp
from .aggregates import AGGREGATES, aggregate_path, build_aggregates, parquet
from .scope import Scope
from .stats import Measures, Thresholds, TwoByTwo, measures

__all__ = ["signals", "SignalRow", "SignalTable", "DIMENSIONS", "cache_totals", "totals_path", "code_rows_index"]

DIMENSIONS = ("event_type", "problem")


@dataclass(frozen=True)
class SignalRow:
    dimension: str  # event_type | problem
    term: str
    year: int | None  # None: all years
    table: TwoByTwo
    measures: Measures


@dataclass
class SignalTable:
    scope: Scope
    thresholds: Thresholds
    rows: list[SignalRow]
    reports_in_scope: dict[int | None, int]  # year (None: all) -> reports
    reports_other: dict[int | None, int]
    as_of: str  # device_event export date
    queries: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> list[SignalRow]:
        return [r for r in self.rows if r.measures.flagged]


_SCOPE = """
WITH r AS MATERIALIZED (
  SELECT year(t.date_received) AS yr, coalesce(nullif(trim(t.event_type), ''), '(none)') AS et,
         list_distinct(t.product_problems) AS probs, len(t.product_code_list) > 0 AS coded
  FROM device_event t
  WHERE t.date_received IS NOT NULL {years} AND {inscope}
),
x AS (SELECT yr, coded, 'event_type' AS dim, et AS term FROM r
      UNION ALL SELECT yr, coded, 'problem', unnest(probs) FROM r)
SELECT dim, term, yr, count(*) AS a, count(*) FILTER (WHERE coded) AS a_coded FROM x GROUP BY dim, term, yr"""
_TABLE = "ds_event.main.device_event t"
_SCOPE = _SCOPE.replace("FROM device_event t", f"FROM {_TABLE}")  # rowid: the table itself

_TOTALS = AGGREGATES["signal-totals"]

# a scope of product codes alone, from the per-code counts (see `aggregates`): each code's reports, less the reports
# counted more than once because they name several of the scope's codes
_CODES = """
WITH base AS (SELECT dim, term, yr, n FROM {code_terms}
      WHERE code IN (SELECT unnest($s_codes)) AND yr IS NOT NULL{rng}),
m AS MATERIALIZED (SELECT yr, et, probs, len(list_intersect(codes, $s_codes)) - 1 AS extra FROM {multi}
      WHERE yr IS NOT NULL{rng} AND len(list_intersect(codes, $s_codes)) >= 2),
x AS (SELECT dim, term, yr, n FROM base
      UNION ALL SELECT 'event_type', et, yr, -extra FROM m
      UNION ALL SELECT 'problem', unnest(probs), yr, -extra FROM m)
SELECT dim, term, yr, sum(n) AS a, sum(n) AS a_coded FROM x GROUP BY dim, term, yr HAVING sum(n) > 0"""


def totals_path(store: Store) -> Path:
    """The cache of all devices' counts for the published event file (see the module doc)."""
    return aggregate_path(store, "signal-totals")


def cache_totals(store: Store, con=None) -> Path:
    """Count all devices' reports per term and year, and each product code's, once for this event file (a no-op
    when the tables exist; see `aggregates`). Returns the all-devices table."""
    return build_aggregates(store, con)["signal-totals"]


def signals(
    store: Store,
    scope: Scope,
    *,
    year_from: int | None = None,
    year_to: int | None = None,
    thresholds: Thresholds = Thresholds(),
) -> SignalTable:
    """PRR, ROR (95% CI) and chi-square for every event type and problem term the scope's reports carry, per year
    and for all years, rows flagged against `thresholds`. Raises MirrorError when there is no event dataset."""
    if "event" not in store.published():
        raise MirrorError(
            f"{store.data_dir}: no adverse events (device/event) in the mirror; "
            "run `mirror sync` with the event dataset"
        )
    years = "".join(
        [
            f" AND year(t.date_received) >= {int(year_from)}" if year_from else "",
            f" AND year(t.date_received) <= {int(year_to)}" if year_to else "",
        ]
    )
    in_range = "".join(
        [f" AND yr >= {int(year_from)}" if year_from else "", f" AND yr <= {int(year_to)}" if year_to else ""]
    )
    con = store.connect()
    try:
        tables = build_aggregates(store, con)
        cache = tables["signal-totals"]
        if scope.codes and not (scope.firms or scope.brands or scope.dis):
            scope_sql = _CODES.format(
                code_terms=parquet(tables["code-terms"]), multi=parquet(tables["multi-code"]), rng=in_range
            )
        else:
            scope_sql = _SCOPE.format(inscope=_in_scope(con, scope), years=years)
        totals_sql = f"SELECT dim, term, yr, n FROM {parquet(cache)} WHERE TRUE{in_range}"
        scoped = con.execute(scope_sql, scope.params(scope_sql)).fetchall()
        totals = con.execute(totals_sql).fetchall()
        as_of = _as_of(con)
    finally:
        con.close()
    queries = [scope_sql.strip(), totals_sql, _TOTALS.strip()]
    if scope_sql.lstrip().startswith("WITH base"):  # read from the per-code counts: first the same count over the
        # reports (what the counts stand for), then how the per-code tables were made
        same = _SCOPE.format(inscope=scope.where("event", "t"), years=years).replace(_TABLE, "device_event t")
        queries = [same.strip(), totals_sql, _TOTALS.strip(), "-- run: " + scope_sql.strip()]
        queries += [f"-- {name}: {AGGREGATES[name].strip()}" for name in ("code-terms", "multi-code")]
    return _table(scope, thresholds, scoped, totals, as_of, queries)


_ROWS = "ds_event.main.device_event_product_code_list_rows"


def code_rows_index(con) -> str | None:
    """The sync's row index of the reports' product codes (term, rowid, date_received, event_type), when the event
    file has one that still matches the table's rowids (`rowid_stamp`); else None."""
    try:
        meta = dict(con.execute("SELECT key, value FROM ds_event.main._sync_meta").fetchall())
        if meta.get("rowid_stamp") != rowid_stamp(con, "ds_event.main.device_event"):
            return None
        con.execute(f"SELECT term, rowid, event_type FROM {_ROWS} LIMIT 0")
    except duckdb.Error:  # no row index in this file (an older or hand-made mirror)
        return None
    return _ROWS


def _in_scope(con, scope: Scope) -> str:
    """The scope's filter on device_event. A scope of product codes alone reads the product-code row index (the
    rowids of the reports naming each code) when it is there and trusted; anything else filters every report."""
    if scope.codes and not (scope.firms or scope.brands or scope.dis) and code_rows_index(con):
        return f"t.rowid IN (SELECT i.rowid FROM {_ROWS} i WHERE i.term IN (SELECT unnest($s_codes)))"
    return scope.where("event", "t")


def _table(
    scope: Scope, thresholds: Thresholds, scoped: list, totals: list, as_of: str, queries: list[str]
) -> SignalTable:
    """The 2x2 tables from the scope's counts (a, a_coded) and all devices' counts, per year and for all years."""
    a: dict[tuple, int] = {}
    a_coded: dict[tuple, int] = {}
    for dim, term, yr, n, nc in scoped:
        for y in (yr, None):
            a[(dim, term, y)] = a.get((dim, term, y), 0) + int(n)
            a_coded[(dim, term, y)] = a_coded.get((dim, term, y), 0) + int(nc)
    total: dict[tuple, int] = {}
    for dim, term, yr, n in totals:
        for y in (yr, None):
            total[(dim, term, y)] = total.get((dim, term, y), 0) + int(n)
    n_in: dict[int | None, int] = {}  # every report has one event type: its rows sum to the totals
    n_out: dict[int | None, int] = {}
    for (dim, _, y), n in a.items():
        if dim == "event_type":
            n_in[y] = n_in.get(y, 0) + n
    for (dim, term, y), n in total.items():
        if dim == "event_type":
            n_out[y] = n_out.get(y, 0) + n - a_coded.get((dim, term, y), 0)
    rows = []
    for (dim, term, y), n in a.items():
        c = total.get((dim, term, y), 0) - a_coded[(dim, term, y)]
        t = TwoByTwo(n, n_in.get(y, 0) - n, c, n_out.get(y, 0) - c)
        rows.append(SignalRow(dim, term, y, t, measures(t, thresholds)))
    rows.sort(
        key=lambda r: (r.dimension != "event_type", r.year is not None, r.year or 0, -(r.measures.prr or 0), r.term)
    )
    return SignalTable(scope, thresholds, rows, n_in, n_out, as_of, queries)


def _as_of(con) -> str:
    try:
        return con.execute("SELECT value FROM ds_event.main._sync_meta WHERE key = 'export_date'").fetchone()[0]
    except Exception:  # an older file without the key: the date is unknown, not an error
        return ""
