"""Recalls, enforcement reports and adverse events linked to matched inventory rows, each counted in one
set-based query over all rows (a row's device: its DIs, model/catalog numbers, brand + model; its product codes).

A model number or DI names a recall or enforcement report when it is a whole word of its description or code
information (a GS1 DI also as 01 followed by the DI, as written after the application identifier); a word with
other characters (a space, a comma) is looked for as a substring. Counts per product code come from the per-code
tables of `aggregates`, built once per event file; a report naming several of a row's codes counts once."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from .aggregates import AGGREGATES, TOKEN_TRIM, parquet
from .rowsets import temp_table
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


_DEATH = "event_type = 'Death'"


def _table(con, name: str, columns: str, rows: list[tuple]) -> None:
    temp_table(con, name, columns, rows, {"row": "INTEGER"})


def link_rows(
    con,
    have: set[str],
    rows: list[RowKeys],
    words: dict[int, list[str]],
    dis: dict[int, list[str]],
    brand_models: dict[int, tuple[str, list[str]]],
    aggregates: dict[str, Path] | None = None,
) -> None:
    """Fill each row's recall, enforcement and event fields. `words`: model/catalog numbers (upper case, 3+
    characters) searched in recall and enforcement text; `dis`: device identifiers; `brand_models`: (brand,
    models) compared with the event reports' devices; `aggregates`: the tables of `aggregates` when built (else
    the counts are made over the records themselves, slower but the same but for whole-token matching)."""
    by_row = {r.row: r for r in rows}
    _table(con, "l_codes", "row, code", [(r.row, c) for r in rows for c in r.codes])
    _table(
        con,
        "l_words",
        "row, w",
        [(k, w) for k, ws in words.items() for w in ws]
        + [(k, d.upper()) for k, ds in dis.items() for d in ds if len(d) >= 6]
        # a GS1 DI is often written behind its application identifier, (01) or 01, in recall text
        + [(k, "01" + d) for k, ds in dis.items() for d in ds if len(d) == 14 and d.isdigit()],
    )
    _table(con, "l_dis", "row, di", [(k, d) for k, ds in dis.items() for d in ds])
    _table(con, "l_bm", "row, brand, model", [(k, b, m) for k, (b, ms) in brand_models.items() if b for m in ms])
    if "device_recall" in have:
        for row, n in con.execute(
            "SELECT row, count(*) FROM l_codes JOIN device_recall t ON t.product_code = l_codes.code GROUP BY row"
        ).fetchall():
            by_row[row].recalls_code = int(n)
        for row, ids in _named(con, "recall", aggregates).fetchall():
            by_row[row].recalls_device = ids
    if "device_enforcement" in have:
        for row, ids in _named(con, "enforcement", aggregates).fetchall():
            by_row[row].enforcement_device = ids
    if "device_event" in have:
        _events(con, by_row, aggregates)


_INLINE = {  # the text without the tables of `aggregates` (read out of each record's JSON once)
    "recall": AGGREGATES["recall-text"],
    "enforcement": AGGREGATES["enforcement-text"],
}


def _named(con, dataset: str, aggregates: dict[str, Path] | None):
    """(row, sorted record labels) of the recall or enforcement records whose text names a row's word. With the
    token table, a word that is one token (letters, digits, . _ / -) matches a whole token of the text, found
    through a join; any other word, and every word without the tables, is looked for as a substring."""
    word = f"trim(l_words.w, '{TOKEN_TRIM}')"
    simple = f"regexp_full_match({word}, '[A-Z0-9._/-]{{3,}}')"
    if aggregates and f"{dataset}-tokens" in aggregates:
        return con.execute(f"""
            SELECT row, list_sort(list(DISTINCT id)) FROM (
              SELECT l_words.row, k.id FROM l_words JOIN {parquet(aggregates[f"{dataset}-tokens"])} k
                ON k.tok = {word} WHERE {simple}
              UNION ALL
              SELECT l_words.row, x.id FROM l_words JOIN {parquet(aggregates[f"{dataset}-text"])} x
                ON contains(x.txt, l_words.w) WHERE NOT {simple})
            GROUP BY row""")
    return con.execute(
        f"WITH x AS MATERIALIZED ({_INLINE[dataset]}) SELECT row, list_sort(list(DISTINCT x.id)) "
        "FROM l_words JOIN x ON contains(x.txt, l_words.w) GROUP BY row"
    )


def _events(con, by_row: dict[int, RowKeys], aggregates: dict[str, Path] | None) -> None:
    if aggregates:  # each code's counts, built once per event file: a few rows per code, whatever its reports
        by_code = con.execute(f"""
            WITH lc AS (SELECT DISTINCT row, code FROM l_codes),
            per AS (SELECT lc.row, sum(c.n) AS n, coalesce(sum(c.n) FILTER (WHERE c.term = 'Death'), 0) AS deaths
                    FROM lc JOIN {parquet(aggregates["code-terms"])} c ON c.code = lc.code AND c.dim = 'event_type'
                    GROUP BY lc.row),
            rc AS (SELECT row, list(code) AS codes FROM lc GROUP BY row HAVING count(*) >= 2),
            extra AS (SELECT rc.row, sum(len(list_intersect(m.codes, rc.codes)) - 1) AS n,
                             coalesce(sum(len(list_intersect(m.codes, rc.codes)) - 1) FILTER (WHERE m.et = 'Death'), 0)
                             AS deaths
                      FROM rc JOIN {parquet(aggregates["multi-code"])} m ON len(list_intersect(m.codes, rc.codes)) >= 2
                      GROUP BY rc.row)
            SELECT per.row, per.n - coalesce(extra.n, 0), per.deaths - coalesce(extra.deaths, 0)
            FROM per LEFT JOIN extra USING (row)""")
    else:
        by_code = _events_by_code(con)
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


def _events_by_code(con):
    """Each row's reports for its product codes, counted over the reports (no per-code tables)."""
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
    return by_code
