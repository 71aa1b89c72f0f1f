"""A scope's records in a period, for the periodic report: events by month and type, top problem terms, recalls
and enforcement reports with their class (a recall's from its event's enforcement reports), 510(k) and PMA
decisions; each with the SQL that produced it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ..store.files import Store
from .scope import Scope

__all__ = ["period_counts", "PeriodCounts", "Figure"]


@dataclass
class Figure:
    title: str
    dataset: str
    columns: list[str]
    rows: list[tuple]
    query: str
    ids: list[str] = field(default_factory=list)  # record IDs cited (capped)


@dataclass
class PeriodCounts:
    start: date
    end: date  # inclusive
    figures: list[Figure]


_FIGURES = (  # (title, dataset, SELECT ... with {where}, id column or None)
    (
        "Adverse event reports by month and event type",
        "event",
        "SELECT strftime(t.date_received, '%Y-%m') AS month, coalesce(t.event_type, '(none)') AS event_type, "
        "count(*) AS reports FROM device_event t WHERE {where} AND t.date_received BETWEEN $start AND $end "
        "GROUP BY ALL ORDER BY month, reports DESC",
        None,
    ),
    (
        "Top device problem terms",
        "event",
        "SELECT term, count(*) AS reports FROM (SELECT unnest(list_distinct(t.product_problems)) AS term "
        "FROM device_event t WHERE {where} AND t.date_received BETWEEN $start AND $end) GROUP BY term "
        "ORDER BY reports DESC, term LIMIT 15",
        None,
    ),
    (
        "Adverse event reports (deaths first)",
        "event",
        "SELECT t.mdr_report_key, t.event_type, t.date_received FROM device_event t WHERE {where} "
        "AND t.date_received BETWEEN $start AND $end ORDER BY (t.event_type = 'Death') DESC, t.date_received "
        "LIMIT 200",
        "mdr_report_key",
    ),
    (
        "Recalls initiated",
        "recall",
        "SELECT t.product_res_number, {recall_class} AS recall_class, t.recalling_firm, t.product_code, "
        "t.event_date_initiated, t.recall_status FROM device_recall t "
        "WHERE {where} AND t.event_date_initiated BETWEEN $start AND $end ORDER BY t.event_date_initiated",
        "product_res_number",
    ),
    (
        "Enforcement reports",
        "enforcement",
        "SELECT t.recall_number, t.classification, t.recalling_firm, t.report_date, t.status "
        "FROM device_enforcement t WHERE {where} AND t.report_date BETWEEN $start AND $end ORDER BY t.report_date",
        "recall_number",
    ),
    (
        "510(k) decisions",
        "510k",
        "SELECT t.k_number, t.applicant, t.device_name, t.product_code, t.decision_date, t.decision_code "
        "FROM device_510k t WHERE {where} AND t.decision_date BETWEEN $start AND $end ORDER BY t.decision_date",
        "k_number",
    ),
    (
        "PMA decisions (originals and supplements)",
        "pma",
        "SELECT t.pma_number, t.supplement_number, t.applicant, t.trade_name, t.product_code, t.decision_date "
        "FROM device_pma t WHERE {where} AND t.decision_date BETWEEN $start AND $end ORDER BY t.decision_date",
        "pma_number",
    ),
)


# A recall's class is in the enforcement reports of its recall event (the recall dataset does not carry it).
_RECALL_CLASS = (
    "coalesce((SELECT any_value(e.classification) FROM device_enforcement e WHERE e.event_id = t.res_event_number), '')"
)


def period_counts(store: Store, scope: Scope, start: date, end: date) -> PeriodCounts:
    """Every figure of the report whose dataset is in the mirror (see `_FIGURES`)."""
    con = store.connect()
    try:
        have = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
        figures = []
        for title, dataset, sql, id_col in _FIGURES:
            if f"device_{dataset}" not in have:
                continue
            query = sql.format(
                where=scope.where(dataset, "t"), recall_class=_RECALL_CLASS if "device_enforcement" in have else "''"
            )
            cur = con.execute(query, {**scope.params(query), "start": start, "end": end})
            columns = [d[0] for d in cur.description]
            rows = cur.fetchall()
            ids = [str(r[columns.index(id_col)]) for r in rows if r[columns.index(id_col)]] if id_col else []
            figures.append(Figure(title, dataset, columns, rows, query, ids))
    finally:
        con.close()
    return PeriodCounts(start, end, figures)
