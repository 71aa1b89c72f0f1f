"""Disproportionality tables from MAUDE reports: a scope against all other devices, by event type and by device
problem term, for each year and for all years together (formulas and zero cells in `stats`).

Counting unit: one MAUDE report (`device_event`, mdr_report_key). The population is every report that names at
least one product code, or that the scope matches; a report is "the product" when the scope matches it (any of its
devices' product codes, its manufacturer, a brand or a UDI-DI), "other devices" otherwise. A report counts once per
distinct problem term it carries. Years are the year the FDA received the report (date_received).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import MirrorError
from ..store.files import Store
from .scope import Scope
from .stats import Measures, Thresholds, TwoByTwo, measures

__all__ = ["signals", "SignalRow", "SignalTable", "DIMENSIONS"]

DIMENSIONS = ("event_type", "problem")


@dataclass(frozen=True)
class SignalRow:
    dimension: str        # event_type | problem
    term: str
    year: int | None      # None: all years
    table: TwoByTwo
    measures: Measures


@dataclass
class SignalTable:
    scope: Scope
    thresholds: Thresholds
    rows: list[SignalRow]
    reports_in_scope: dict[int | None, int]      # year (None: all) -> reports
    reports_other: dict[int | None, int]
    as_of: str                                   # device_event export date
    queries: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> list[SignalRow]:
        return [r for r in self.rows if r.measures.flagged]


_BASE = """
WITH r AS MATERIALIZED (
  SELECT yr, et, probs, inp FROM (
    SELECT year(t.date_received) AS yr, coalesce(nullif(trim(t.event_type), ''), '(none)') AS et,
           list_distinct(t.product_problems) AS probs, {inscope} AS inp, len(t.product_code_list) > 0 AS coded
    FROM device_event t
    WHERE t.date_received IS NOT NULL {years})
  WHERE inp OR coded
)"""

_TERMS = _BASE + """,
x AS (SELECT yr, inp, 'event_type' AS dim, et AS term FROM r
      UNION ALL SELECT yr, inp, 'problem', unnest(probs) FROM r)
SELECT dim, term, yr, count(*) FILTER (WHERE inp) AS a, count(*) FILTER (WHERE NOT inp) AS c
FROM x GROUP BY GROUPING SETS ((dim, term, yr), (dim, term))
HAVING count(*) FILTER (WHERE inp) > 0 OR dim = 'event_type'"""


def signals(store: Store, scope: Scope, *, year_from: int | None = None, year_to: int | None = None,
            thresholds: Thresholds = Thresholds()) -> SignalTable:
    """PRR, ROR (95% CI) and chi-square for every event type and problem term the scope's reports carry, per year
    and for all years, rows flagged against `thresholds`. Raises MirrorError when there is no event dataset."""
    if "event" not in store.published():
        raise MirrorError(f"{store.data_dir}: no adverse events (device/event) in the mirror; "
                          "run `mirror sync` with the event dataset")
    years = "".join([f" AND year(t.date_received) >= {int(year_from)}" if year_from else "",
                     f" AND year(t.date_received) <= {int(year_to)}" if year_to else ""])
    fill = {"inscope": scope.where("event", "t")}
    base_years = years
    terms_sql = _TERMS.format(inscope=fill["inscope"], years=base_years)
    con = store.connect()
    try:
        counts = con.execute(terms_sql, scope.params(terms_sql)).fetchall()
        as_of = _as_of(con)
    finally:
        con.close()
    n_in: dict[int | None, int] = {}       # every report has one event type: its rows sum to the totals
    n_out: dict[int | None, int] = {}
    for dim, _, yr, a, c in counts:
        if dim == "event_type":
            n_in[yr] = n_in.get(yr, 0) + int(a)
            n_out[yr] = n_out.get(yr, 0) + int(c)
    rows = []
    for dim, term, yr, a, c in counts:
        if not a:
            continue
        t = TwoByTwo(int(a), n_in.get(yr, 0) - int(a), int(c), n_out.get(yr, 0) - int(c))
        rows.append(SignalRow(dim, term, yr, t, measures(t, thresholds)))
    rows.sort(key=lambda r: (r.dimension != "event_type", r.year is not None, r.year or 0,
                             -(r.measures.prr or 0), r.term))
    return SignalTable(scope, thresholds, rows, n_in, n_out, as_of, [terms_sql.strip()])


def _as_of(con) -> str:
    try:
        return con.execute("SELECT value FROM ds_event.main._sync_meta WHERE key = 'export_date'").fetchone()[0]
    except Exception:          # an older file without the key: the date is unknown, not an error
        return ""
