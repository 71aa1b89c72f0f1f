"""Recalls, enforcement reports and adverse events linked to matched inventory rows, each counted in one
set-based query over all rows (a row's device: its DIs, model/catalog numbers, brand + model; its product codes)."""

from __future__ import annotations

from typing import Protocol

from .signals import code_rows_index

__all__ = ["link_rows", "RowKeys"]


class RowKeys(Protocol):
    """What linking reads of a row (DeviceMatch fields filled from the query and the match)."""

    row: int
    codes: list[str]
    recalls_device: list[str]
    recalls_code: int
    enforcement_device: list[str]
    events_device: int
    deaths_device: int
    events_code: int
    deaths_code: int


_TEXT = "upper(coalesce(t.record->>'product_description', '') || ' ' || coalesce(t.record->>'code_info', ''))"
_DEATH = "event_type = 'Death'"


def _table(con, name: str, columns: str, rows: list[tuple]) -> None:
    cols = [c.strip() for c in columns.split(",")]
    data = {f"c{i}": [r[i] for r in rows] for i in range(len(cols))}
    select = ", ".join(f"unnest($c{i}) AS {c}" for i, c in enumerate(cols))
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM (SELECT {select}) WHERE {cols[0]} IS NOT NULL",
        data if rows else {k: [None] for k in data},
    )


def link_rows(
    con,
    have: set[str],
    rows: list[RowKeys],
    words: dict[int, list[str]],
    dis: dict[int, list[str]],
    brand_models: dict[int, tuple[str, list[str]]],
) -> None:
    """Fill each row's recall, enforcement and event fields. `words`: model/catalog numbers (upper case, 3+
    characters) searched in recall and enforcement text; `dis`: device identifiers; `brand_models`: (brand,
    models) compared with the event reports' devices."""
    by_row = {r.row: r for r in rows}
    _table(con, "l_codes", "row, code", [(r.row, c) for r in rows for c in r.codes])
    _table(
        con,
        "l_words",
        "row, w",
        [(k, w) for k, ws in words.items() for w in ws]
        + [(k, d.upper()) for k, ds in dis.items() for d in ds if len(d) >= 6],
    )
    _table(con, "l_dis", "row, di", [(k, d) for k, ds in dis.items() for d in ds])
    _table(con, "l_bm", "row, brand, model", [(k, b, m) for k, (b, ms) in brand_models.items() if b for m in ms])
    if "device_recall" in have:
        for row, n in con.execute(
            "SELECT row, count(*) FROM l_codes JOIN device_recall t ON t.product_code = l_codes.code GROUP BY row"
        ).fetchall():
            by_row[row].recalls_code = int(n)
        # the text is read out of each record's JSON once (in the join it was read for every word and record)
        for row, ids in con.execute(
            f"WITH t AS MATERIALIZED (SELECT t.product_res_number, {_TEXT} AS txt "
            f"FROM device_recall t) SELECT row, list_sort(list(DISTINCT t.product_res_number)) "
            f"FROM l_words JOIN t ON contains(t.txt, l_words.w) GROUP BY row"
        ).fetchall():
            by_row[row].recalls_device = ids
    if "device_enforcement" in have:
        for row, ids in con.execute(
            f"WITH t AS MATERIALIZED (SELECT coalesce(t.recall_number, t.event_id) || ' (' || "
            f"coalesce(t.classification, 'class not given') || ')' AS label, {_TEXT} AS txt "
            "FROM device_enforcement t) SELECT row, list_sort(list(DISTINCT t.label)) FROM l_words JOIN t "
            "ON contains(t.txt, l_words.w) GROUP BY row"
        ).fetchall():
            by_row[row].enforcement_device = ids
    if "device_event" in have:
        _events(con, by_row)


def _events(con, by_row: dict[int, RowKeys]) -> None:
    index = code_rows_index(con)
    if index:  # the sync's product-code row index: each report's rowid and event type by code, no table scan
        # (one row per report and distinct code: a row of one code takes its code's counts; a row of several
        # codes counts its reports once)
        by_code = con.execute(f"""
            WITH one AS (SELECT row, any_value(code) AS code FROM l_codes GROUP BY row HAVING count(DISTINCT code) = 1),
            per AS (SELECT i.term, count(*) AS n, count(*) FILTER (WHERE i.{_DEATH}) AS deaths FROM {index} i
                    WHERE i.term IN (SELECT code FROM one) GROUP BY i.term)
            SELECT one.row, per.n, per.deaths FROM one JOIN per ON per.term = one.code
            UNION ALL
            SELECT l.row, count(DISTINCT i.rowid), count(DISTINCT i.rowid) FILTER (WHERE i.{_DEATH})
            FROM l_codes l JOIN {index} i ON i.term = l.code WHERE l.row NOT IN (SELECT row FROM one) GROUP BY l.row""")
    else:
        by_code = con.execute(f"""
            WITH e AS (SELECT t.mdr_report_key, t.event_type, unnest(list_distinct(t.product_code_list)) AS code
                       FROM device_event t)
            SELECT row, count(DISTINCT mdr_report_key), count(DISTINCT mdr_report_key) FILTER (WHERE {_DEATH})
            FROM e JOIN l_codes USING (code) GROUP BY row""")
    for row, n, deaths in by_code.fetchall():
        by_row[row].events_code, by_row[row].deaths_code = int(n), int(deaths)
    for row, n, deaths in con.execute(f"""
            WITH d AS (SELECT l_dis.row, x.mdr_report_key FROM l_dis JOIN device_event_device x
                         ON x.udi_di <> '' AND x.udi_di = l_dis.di
                       UNION SELECT l_bm.row, x.mdr_report_key FROM l_bm JOIN device_event_device x
                         ON upper(trim(x.brand_name)) = l_bm.brand AND upper(trim(x.model_number)) = l_bm.model
                       UNION SELECT l_bm.row, x.mdr_report_key FROM l_bm JOIN device_event_device x
                         ON upper(trim(x.brand_name)) = l_bm.brand AND upper(trim(x.catalog_number)) = l_bm.model)
            SELECT d.row, count(DISTINCT d.mdr_report_key),
                   count(DISTINCT d.mdr_report_key) FILTER (WHERE t.{_DEATH})
            FROM d JOIN device_event t USING (mdr_report_key) GROUP BY d.row""").fetchall():
        by_row[row].events_device, by_row[row].deaths_device = int(n), int(deaths)
