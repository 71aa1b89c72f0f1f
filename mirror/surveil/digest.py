"""Records a watchlist's datasets added or changed since a sync or a date, read from the change snapshot and joined
to the published mirror: recalls with their class, enforcement reports, 510(k)s, PMA supplements, adverse events
(deaths first) and UDI records."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import duckdb

from ..errors import MirrorError
from ..store.files import Store
from .changes import key_parts, open_snapshot, snapshot_path
from .scope import Scope
from .signals import code_rows_index

__all__ = ["changes_since", "DatasetChanges", "ChangeReport", "DETAIL", "ORDER"]

# dataset -> (columns shown, ORDER BY); the record's key is always shown first.
DETAIL: dict[str, tuple[str, str]] = {
    "recall": (
        "t.product_res_number AS recall, coalesce((SELECT any_value(e.classification) FROM device_enforcement e "
        "WHERE e.event_id = t.res_event_number), '') AS recall_class, t.recalling_firm AS firm, "
        "t.product_code, t.event_date_initiated AS initiated, t.recall_status AS status",
        "initiated DESC",
    ),
    "enforcement": (
        "t.recall_number AS recall, t.classification AS recall_class, t.recalling_firm AS firm, "
        "t.report_date, t.status",
        "report_date DESC",
    ),
    "510k": (
        "t.k_number, t.applicant, t.device_name, t.product_code, t.decision_date, t.decision_code",
        "decision_date DESC",
    ),
    "pma": (
        "t.pma_number, t.supplement_number, t.applicant, t.trade_name, t.product_code, t.supplement_type, "
        "t.decision_date",
        "decision_date DESC",
    ),
    "event": (
        "t.mdr_report_key AS report, t.event_type, t.date_received, t.manufacturer_name AS firm, "
        "array_to_string(t.product_code_list, ',') AS product_codes",
        "(event_type = 'Death') DESC, (event_type = 'Injury') DESC, date_received DESC, report DESC",
    ),
    "udi": (
        "t.public_device_record_key AS record_key, t.brand_name, t.version_or_model_number AS model, "
        "t.company_name AS firm, t.publish_date",
        "publish_date DESC",
    ),
}
ORDER = tuple(DETAIL)


@dataclass
class DatasetChanges:
    dataset: str
    as_of: str
    added: int  # in the scope (all records without a scope)
    changed: int
    removed: int  # keys gone from the dataset (not scoped: the record is no longer there)
    rows: list[dict] = field(default_factory=list)  # capped, ordered as in DETAIL; 'change' says added/changed
    query: str = ""


@dataclass
class ChangeReport:
    syncs: list[tuple[int, str]]  # (sync id, recorded at) covered
    datasets: list[DatasetChanges]


def changes_since(
    store: Store, scope: Scope | None = None, *, since: date | None = None, sync_id: int | None = None, limit: int = 50
) -> ChangeReport:
    """Changes of the syncs recorded on or after `since` (or the sync `sync_id`; default: the latest sync)."""
    snap = open_snapshot(store, read_only=True)
    try:
        syncs = _syncs(snap, since, sync_id)
        as_of = dict(
            snap.execute("SELECT dataset, arg_max(as_of, sync_id) FROM sync_datasets GROUP BY dataset").fetchall()
        )
    finally:
        snap.close()
    ids = [s for s, _ in syncs]
    con = store.connect()
    try:
        path = str(snapshot_path(store)).replace("'", "''")
        try:  # the keys stay in DuckDB (a list of 20,000 keys passed through Python took seconds)
            con.execute(f"ATTACH '{path}' AS snap (READ_ONLY)")
        except duckdb.Error as e:
            raise MirrorError(
                f"{snapshot_path(store)}: busy ({str(e).splitlines()[0][:120]}); try again when the sync has finished"
            ) from None
        have = {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
        removed = _change_keys(con, ids)
        out = [
            _dataset(con, d, removed, scope, as_of.get(d, ""), limit, "device_enforcement" in have)
            for d in ORDER
            if f"device_{d}" in have
        ]
    finally:
        con.close()
    return ChangeReport([(s, str(t)) for s, t in syncs], out)


def _syncs(snap, since: date | None, sync_id: int | None) -> list[tuple[int, object]]:
    if sync_id is not None:
        return snap.execute("SELECT sync_id, recorded_at FROM syncs WHERE sync_id = ?", [sync_id]).fetchall()
    if since is not None:
        return snap.execute(
            "SELECT sync_id, recorded_at FROM syncs WHERE recorded_at >= ? ORDER BY 1", [since]
        ).fetchall()
    return snap.execute("SELECT sync_id, recorded_at FROM syncs ORDER BY 1 DESC LIMIT 1").fetchall()


def _change_keys(con, ids: list[int]) -> dict[str, int]:
    """Temp table ck_all (dataset, key, change) of the syncs `ids`, a key's last change winning, read from the
    snapshot in one pass; returns the removed keys per dataset."""
    params: list[object]
    if len(ids) == 1:  # one sync records a key once per dataset (`changes._diff`): nothing to merge
        sql, params = "SELECT dataset, key, change FROM snap.changes WHERE sync_id = ?", [ids[0]]
    else:
        sql = (
            "SELECT dataset, key, arg_max(change, sync_id) AS change FROM snap.changes "
            "WHERE sync_id IN (SELECT unnest(CAST(? AS INTEGER[]))) GROUP BY dataset, key"
        )
        params = [ids]
    con.execute(f"CREATE OR REPLACE TEMP TABLE ck_all AS {sql}", params)
    return dict(con.execute("SELECT dataset, count(*) FROM ck_all WHERE change = 'removed' GROUP BY 1").fetchall())


def _dataset(
    con,
    dataset: str,
    removed_by_dataset: dict[str, int],
    scope: Scope | None,
    as_of: str,
    limit: int,
    enforcement: bool,
) -> DatasetChanges:
    con.execute(
        "CREATE OR REPLACE TEMP TABLE ck AS SELECT key, change FROM ck_all WHERE dataset = ? AND change <> 'removed'",
        [dataset],
    )
    removed = removed_by_dataset.get(dataset, 0)
    where = scope.where(dataset, "t") if scope is not None and not scope.empty else "TRUE"
    cols, order = DETAIL[dataset]
    if dataset == "recall" and not enforcement:  # recall classes come from the same event's enforcement reports
        cols = cols.replace(cols[cols.index("coalesce((SELECT") : cols.index(" AS recall_class")], "''")
    # two joins on plain keys, each projecting only what is shown (a CASE over the key columns in one join, or the
    # whole rows through a UNION, made the event digest 10-100x slower)
    plain, missing, digest = key_parts(dataset, "t")
    bases = [
        f"FROM device_{dataset} t JOIN ck ON ck.key = {plain} WHERE {where} AND NOT ({missing})",
        f"FROM device_{dataset} t JOIN ck ON ck.key = {digest} WHERE {where} AND {missing}",
    ]
    params = scope.params(bases[0]) if scope is not None else {}
    if dataset == "event" and scope is not None and _codes_only(scope) and (index := code_rows_index(con)):
        return _event_by_index(con, scope, index, cols, order, removed, as_of, limit)
    # the scope's changed records with what is shown, found once (one scan of the table), then counted and listed
    query = f"SELECT ck.change, {cols} {bases[0]} UNION ALL SELECT ck.change, {cols} {bases[1]}"
    con.execute(f"CREATE OR REPLACE TEMP TABLE hits AS {query}", params)
    counts = dict(con.execute("SELECT change, count(*) FROM hits GROUP BY 1").fetchall())
    query = f"SELECT * FROM ({query}) ORDER BY {order} LIMIT {int(limit)}"
    cur = con.execute(f"SELECT * FROM hits ORDER BY {order} LIMIT {int(limit)}")
    names = [d[0] for d in cur.description]
    rows = [{n: ("" if v is None else str(v)) for n, v in zip(names, r)} for r in cur.fetchall()]
    return DatasetChanges(dataset, as_of, counts.get("added", 0), counts.get("changed", 0), removed, rows, query)


def _codes_only(scope: Scope) -> bool:
    return bool(scope.codes) and not (scope.firms or scope.brands or scope.dis)


_EVENT = "ds_event.main.device_event"  # the table itself (rowids)


def _event_by_index(
    con, scope: Scope, index: str, cols: str, order: str, removed: int, as_of: str, limit: int
) -> DatasetChanges:
    """The event digest of a scope of product codes, without reading the reports of the whole table: the changed
    keys' rowids (one scan of the key column), kept when the sync's product-code row index names one of the
    scope's codes for them (the index also gives the event type and date to sort on); only the rows shown are read
    from the table. Counts and rows equal the general path's."""
    plain, missing, digest = key_parts("event", "t")
    con.execute(
        "CREATE OR REPLACE TEMP TABLE h0 AS SELECT ck.change, t.rowid AS rid, t.mdr_report_key AS report "
        f"FROM {_EVENT} t JOIN ck ON ck.key = {plain} WHERE NOT ({missing}) "
        f"UNION ALL SELECT ck.change, t.rowid, t.mdr_report_key FROM {_EVENT} t JOIN ck ON ck.key = {digest} "
        f"WHERE {missing}"
    )
    hits = (
        "SELECT DISTINCT h0.change, h0.rid, h0.report, i.event_type, i.date_received FROM h0 JOIN "
        f"{index} i ON i.rowid = h0.rid WHERE i.term IN (SELECT unnest($s_codes))"
    )
    con.execute(f"CREATE OR REPLACE TEMP TABLE hits AS {hits}", scope.params(hits))
    counts = dict(con.execute("SELECT change, count(*) FROM hits GROUP BY 1").fetchall())
    query = (
        f"SELECT ck.change, {cols} FROM {_EVENT} t JOIN (SELECT change, rid FROM hits ORDER BY {order} "
        f"LIMIT {int(limit)}) ck ON t.rowid = ck.rid ORDER BY {order}"
    )
    cur = con.execute(query)
    names = [d[0] for d in cur.description]
    rows = [{n: ("" if v is None else str(v)) for n, v in zip(names, r)} for r in cur.fetchall()]
    return DatasetChanges(
        "event", as_of, counts.get("added", 0), counts.get("changed", 0), removed, rows, f"{hits}; {query}"
    )
