"""The per-version tables of `mirror.surveil.aggregates` (per-code MAUDE counts, recall and enforcement tokens) and
the paths that read them, checked against the paths that read the records: signals, the inventory's counts per
product code, and the event digest through the row index. Also: a new event file (another sync) rebuilds the
tables, and rows passed to DuckDB as one string per column come back exactly (SYNTHETIC data, or the sample)."""

from __future__ import annotations

import json

import duckdb
import pytest

from mirror.store.files import Store
from mirror.store.state import record_loaded
from mirror.surveil import linked
from mirror.surveil.aggregates import aggregate_path, build_aggregates
from mirror.surveil.changes import key_sql, open_snapshot, record_changes
from mirror.surveil.digest import changes_since
from mirror.surveil.inventory import DeviceMatch
from mirror.surveil.rowsets import temp_table
from mirror.surveil.scope import Scope
from mirror.surveil.signals import signals

from .synthetic import EVENTS, event_rows, publish, publish_events
from .test_signals_speed_paths import brute

NOTHING = ("NO SUCH BRAND 0000",)  # a brand no report names: the same reports, through the filter over every report


def multi_rows() -> list[tuple]:
    """SYNTHETIC: the hand-made events plus reports naming two or three codes, some with no date received."""
    rows = event_rows()
    extra = event_rows([("AAA", 2023, "Death", ["Crack"], 4), ("BBB", 2022, "Injury", ["Leak"], 3)], start=900)
    rows += [(*r[:4], ["AAA", "BBB"] if i % 2 else ["AAA", "BBB", "CCC"], *r[5:]) for i, r in enumerate(extra)]
    rows += [(r[0], r[1], None, *r[3:]) for r in event_rows([("CCC", 2023, "Death", ["Leak"], 2)], start=950)]
    rows += event_rows([("DDD", 2023, "Malfunction", ["Crack"], 2)], start=970)
    rows[-1] = (*rows[-1][:4], ["DDD", "DDD"], *rows[-1][5:])  # a code listed twice counts once
    return rows


def tables(table) -> dict[tuple, tuple[int, int, int, int]]:
    return {(r.dimension, r.term, r.year): (r.table.a, r.table.b, r.table.c, r.table.d) for r in table.rows}


@pytest.mark.parametrize("codes", [("AAA",), ("AAA", "BBB"), ("AAA", "BBB", "CCC"), ("CCC",), ("DDD",), ("ZZZ",)])
def test_signals_from_code_counts_equal_the_count_over_reports(tmp_path, codes):
    store = publish_events(tmp_path / "data", multi_rows())
    fast = signals(store, Scope(codes=codes))
    assert fast.queries[3].startswith("-- run: WITH base")  # the per-code tables were read
    slow = signals(store, Scope(codes=codes, brands=NOTHING))
    assert "WITH base" not in " ".join(slow.queries)
    assert tables(fast) == tables(slow)
    assert {k: v for k, v in tables(fast).items() if k[2] is None} == brute(store, set(codes))
    assert fast.reports_in_scope == slow.reports_in_scope and fast.reports_other == slow.reports_other
    for years in ((2023, 2023), (2022, None), (None, 2022)):
        a = signals(store, Scope(codes=codes), year_from=years[0], year_to=years[1])
        b = signals(store, Scope(codes=codes, brands=NOTHING), year_from=years[0], year_to=years[1])
        assert tables(a) == tables(b)


def test_a_report_of_two_watched_codes_counts_once(tmp_path):
    store = publish_events(tmp_path / "data", multi_rows())
    table = signals(store, Scope(codes=("AAA", "BBB")))
    # AAA and BBB alone: 11 + 100 reports with a date; the 7 reports naming both (and CCC) once each
    assert table.reports_in_scope[None] == sum(n for code, *_, n in EVENTS if code in ("AAA", "BBB")) + 7


def test_a_new_event_file_rebuilds_the_tables(tmp_path):
    store = publish_events(tmp_path / "data", multi_rows())
    signals(store, Scope(codes=("AAA",)))
    old = {name: aggregate_path(store, name) for name in ("code-terms", "multi-code", "signal-totals")}
    assert all(p.exists() for p in old.values())
    stamps = {name: p.stat().st_mtime_ns for name, p in old.items()}
    signals(store, Scope(codes=("AAA",)))
    assert {name: p.stat().st_mtime_ns for name, p in old.items()} == stamps  # read, not rebuilt
    publish_events(tmp_path / "data", multi_rows() + event_rows(start=2000)[:10])  # another sync: 10 AAA added
    after = signals(store, Scope(codes=("AAA",)))
    for name, path in old.items():
        assert not path.exists() and aggregate_path(store, name).exists() and aggregate_path(store, name) != path
    assert after.reports_in_scope[None] == signals(store, Scope(codes=("AAA",), brands=NOTHING)).reports_in_scope[None]
    assert tables(after) == tables(signals(store, Scope(codes=("AAA",), brands=NOTHING)))
    assert not list((tmp_path / "data" / "surveil").glob(".*tmp"))  # no temporary file left


def publish_with_models(data_dir, rows: list[tuple]) -> Store:
    """`publish_events` with the device columns the inventory reads (model and catalog numbers)."""
    store = Store(data_dir)
    ddl = (
        "CREATE TABLE device_event (mdr_report_key VARCHAR, event_type VARCHAR, date_received DATE, "
        "product_problems VARCHAR[], product_code_list VARCHAR[], manufacturer_name VARCHAR, record JSON);"
        "CREATE TABLE device_event_device (mdr_report_key VARCHAR, brand_name VARCHAR, udi_di VARCHAR, "
        "model_number VARCHAR, catalog_number VARCHAR)"
    )
    ins = [("INSERT INTO device_event VALUES (?, ?, ?, ?, ?, ?, ?)", list(r[:7])) for r in rows]
    ins += [("INSERT INTO device_event_device VALUES (?, ?, ?, 'M1', 'C1')", [r[0], r[7], r[8]]) for r in rows]
    publish(store, "event", ddl, ins, "2024-01-01")
    return store


def test_inventory_counts_per_code_equal_the_count_over_reports(tmp_path):
    store = publish_with_models(tmp_path / "data", multi_rows())
    codes = [["AAA"], ["AAA", "BBB"], ["AAA", "BBB", "CCC"], ["CCC"], ["DDD"], ["ZZZ"], []]

    def run(aggregates):
        rows = [DeviceMatch(i, "product code only", codes=c) for i, c in enumerate(codes, start=1)]
        con = store.connect()
        try:
            linked.link_rows(con, {"device_event"}, rows, {}, {}, {}, aggregates)
        finally:
            con.close()
        return [(r.events_code, r.deaths_code) for r in rows]

    fast, slow = run(build_aggregates(store)), run(None)
    assert fast == slow
    # by hand (reports, deaths): AAA 11 (3) + the 7 naming AAA and BBB (4); BBB alone 100 (2); CCC 9 (0) + the 4
    # naming AAA, BBB and CCC (2) + 2 without a date (2); DDD listed twice in one report
    assert fast == [(18, 7), (118, 9), (129, 11), (15, 4), (2, 0), (0, 0), (0, 0)]


def test_event_digest_through_the_row_index_equals_the_general_path(mirror_copy):
    store = Store(mirror_copy)
    record_changes(store)  # baseline
    snap = open_snapshot(store, read_only=False)
    try:  # a made-up sync in which every report changed, the first half added
        path = str(store.published()["event"]).replace("'", "''")
        snap.execute(f"ATTACH '{path}' AS ev (READ_ONLY)")
        sync_id = snap.execute("SELECT max(sync_id) + 1 FROM syncs").fetchone()[0]
        snap.execute("INSERT INTO syncs VALUES (?, now()::TIMESTAMP)", [sync_id])
        snap.execute(
            f"INSERT INTO changes SELECT {int(sync_id)}, 'event', {key_sql('event')}, "
            "CASE WHEN row_number() OVER () % 2 = 0 THEN 'added' ELSE 'changed' END FROM ev.main.device_event t"
        )
        codes = snap.execute(
            "SELECT DISTINCT unnest(product_code_list) FROM ev.main.device_event ORDER BY 1 LIMIT 3"
        ).fetchall()
    finally:
        snap.close()
    codes = tuple(c[0] for c in codes)
    assert codes
    fast = {d.dataset: d for d in changes_since(store, Scope(codes=codes), sync_id=sync_id).datasets}["event"]
    slow = {d.dataset: d for d in changes_since(store, Scope(codes=codes, brands=NOTHING), sync_id=sync_id).datasets}
    assert "product_code_list_rows" in fast.query and "product_code_list_rows" not in slow["event"].query
    assert (fast.added, fast.changed, fast.rows) == (slow["event"].added, slow["event"].changed, slow["event"].rows)
    assert fast.added + fast.changed > 0


def test_rows_pass_through_one_string_per_column():
    con = duckdb.connect()
    rows = [(1, "a\x1fb", "x"), (2, None, ""), (3, "", None), (40, "Z-0053-2020 (Class II)", "\x1d01")]
    temp_table(con, "t", "row, w, v", rows, {"row": "INTEGER"})
    assert con.execute("SELECT * FROM t ORDER BY row").fetchall() == [
        (1, "a b", "x"),
        (2, None, ""),
        (3, "", None),
        (40, "Z-0053-2020 (Class II)", "\x1d01"),
    ]
    temp_table(con, "e", "row, w", [], {"row": "INTEGER"})
    assert con.execute("SELECT count(*) FROM e").fetchone() == (0,)
    assert [r[1] for r in con.execute("DESCRIBE t").fetchall()] == ["INTEGER", "VARCHAR", "VARCHAR"]


def publish_recall_file(store: Store, keys: list[str], export_date: str, sha256: str, digest: str | None) -> None:
    """SYNTHETIC recall dataset with one partition row, as a sync leaves it (its zip's sha256, its records' digest)."""
    con = store.open_staging("recall")
    con.execute("CREATE TABLE device_recall (product_res_number VARCHAR, product_code VARCHAR, record JSON)")
    for k in keys:
        con.execute("INSERT INTO device_recall VALUES (?, 'AAA', ?)", [k, f'{{"product_res_number": "{k}"}}'])
    con.execute("INSERT OR REPLACE INTO _sync_meta VALUES ('export_date', ?)", [export_date])
    record_loaded(con, "device/recall/all.zip", "http://127.0.0.1/x", export_date, len(keys), 1, sha256, digest)
    con.execute("INSERT INTO _sync_meta VALUES ('status', 'complete')")
    store.publish("recall", con)


def test_a_re_export_of_the_same_records_is_not_digested_again(tmp_path):
    store = Store(tmp_path / "data")
    publish_recall_file(store, ["Z-1", "Z-2"], "2024-01-01", "zip-a", "sha256:same")
    assert [r.status for r in record_changes(store).datasets] == ["baseline"]
    # a new export date and zip, the same records (same digest): nothing to digest
    publish_recall_file(store, ["Z-1", "Z-2"], "2024-02-01", "zip-b", "sha256:same")
    again = record_changes(store).datasets[0]
    assert (again.status, again.as_of, again.added, again.changed, again.removed) == (
        "unchanged",
        "2024-02-01",
        0,
        0,
        0,
    )
    # other records: digested, and exact
    publish_recall_file(store, ["Z-1", "Z-3"], "2024-03-01", "zip-c", "sha256:other")
    third = record_changes(store).datasets[0]
    assert (third.status, third.added, third.changed, third.removed) == ("diffed", 1, 0, 1)
    # a partition without a records' digest (an older sync) falls back on its zip and export date
    publish_recall_file(store, ["Z-1", "Z-3"], "2024-04-01", "zip-d", None)
    assert record_changes(store).datasets[0].status == "diffed"


def publish_recall_texts(store: Store, texts: dict[str, tuple[str, str]]) -> None:
    """SYNTHETIC recalls: number -> (product description, code information)."""
    con = store.open_staging("recall")
    con.execute("CREATE TABLE device_recall (product_res_number VARCHAR, product_code VARCHAR, record JSON)")
    for k, (desc, code_info) in texts.items():
        rec = {"product_res_number": k, "product_description": desc, "code_info": code_info}
        con.execute("INSERT INTO device_recall VALUES (?, 'AAA', ?)", [k, json.dumps(rec)])
    con.execute("INSERT OR REPLACE INTO _sync_meta VALUES ('export_date', '2024-01-01')")
    con.execute("INSERT INTO _sync_meta VALUES ('status', 'complete')")
    store.publish("recall", con)


def test_recall_text_is_matched_on_whole_words_through_the_token_table(tmp_path):
    store = Store(tmp_path / "data")
    publish_recall_texts(
        store,
        {
            "Z-1": ("Infusion pump, Model ABC-123.", "Lot 5; UDI (01)00812345678901(17)261231"),
            "Z-2": ("Infusion pump, model XABC-1234", "GTIN 0100812345678902 lots all"),
            "Z-3": ("Catheter kit REF 77/200", "all serial numbers; model ab c9"),
        },
    )
    words = {1: ["ABC-123"], 2: ["00812345678901"], 3: ["00812345678902"], 4: ["77/200"], 5: ["AB C9"], 6: ["BC-12"]}
    dis = {3: ["00812345678902"]}  # also looked for behind the GS1 application identifier 01

    def run(aggregates):
        rows = [DeviceMatch(i, "brand + model") for i in words]
        con = store.connect()
        try:
            linked.link_rows(con, {"device_recall"}, rows, words, dis, {}, aggregates)
        finally:
            con.close()
        return {r.row: r.recalls_device for r in rows}

    names = ("recall-text", "recall-tokens")
    fast = run(build_aggregates(store, names=names))
    assert fast == {1: ["Z-1"], 2: ["Z-1"], 3: ["Z-2"], 4: ["Z-3"], 5: ["Z-3"], 6: []}
    slow = run(None)  # substring search without the tables: a part of a word matches too
    assert slow[6] == ["Z-1", "Z-2"] and {k: v for k, v in slow.items() if k != 6} == {
        k: v for k, v in fast.items() if k != 6
    } | {1: ["Z-1", "Z-2"]}
