"""Listed columns and key indexes: what they hold, and a mirror synced before them (still answered, then upgraded)."""

from __future__ import annotations

import duckdb
import pytest

from mirror import Store
from mirror.api import Api
from mirror.schema.datasets import DATASETS
from mirror.settings import Settings
from mirror.sync import SAMPLE_DIR, SyncOptions, sync
from mirror.sync.indexes import outdated
from mirror.sync.loadsql import listed_sql

LISTED = [name for name, ds in DATASETS.items() if ds.listed]
QUERIES = [
    ("event", "search=device.device_report_product_code:JAA&limit=100"),
    ("event", "search=NOT+device.device_report_product_code:JAA+AND+date_received:[20230101+TO+20230131]&limit=100"),
    ("event", "count=device.device_report_product_code.exact&limit=1000"),
    ("event", "search=device.device_report_product_code:ozo&count=date_received"),
    (
        "event",
        "search=_exists_:device.device_report_product_code&sort=device.device_report_product_code.exact:desc&limit=100",
    ),
    ("udi", "search=product_codes.code:DSA&limit=100"),
    ("udi", "count=product_codes.code&limit=1000"),
    ("registrationlisting", "search=products.product_code:LZG&limit=100"),
    ("registrationlisting", "count=products.product_code&limit=1000"),
    ("510k", "search=k_number:K192028"),
]


@pytest.fixture(scope="module")
def synced(sample_dir):
    """The session's sample mirror (read only here; tests that change a mirror copy it)."""
    return Settings(data_dir=sample_dir)


def _answers(settings) -> list[tuple[int, bytes]]:
    api = Api(settings)
    try:
        return [(r.status, r.body) for r in (api.get(f"/device/{ep}.json", q) for ep, q in QUERIES)]
    finally:
        api.close()


def _con(settings, name: str, read_only: bool = True):
    return duckdb.connect(str(Store(settings.data_dir).current(name)), read_only=read_only)


@pytest.mark.parametrize("name", LISTED)
def test_listed_column_holds_every_value_at_its_path(synced, name):
    """The column equals the values the JSON fallback reads, and the child table's values, record by record."""
    ds = DATASETS[name]
    con = _con(synced, name)
    try:
        for col, (ch, c) in ds.listed.items():
            differ = con.execute(
                f'SELECT count(*) FROM "{ds.table}" WHERE "{col}" IS DISTINCT FROM {listed_sql(ds, col, "record")}'
            ).fetchone()[0]
            assert differ == 0
            key = ds.key[0]
            value = f'CAST("{c.name}" AS VARCHAR)' if c.kind == "date" else f'"{c.name}"'  # ISO dates: as written
            child = con.execute(
                f'SELECT "{key}", list_sort(list({value})) FROM "{ds.table}_{ch.suffix}" '
                f'WHERE "{c.name}" IS NOT NULL GROUP BY 1'
            ).fetchall()
            mine = con.execute(
                f'SELECT "{key}", list_sort("{col}") FROM "{ds.table}" WHERE len("{col}") > 0'
            ).fetchall()
            assert dict(child) == dict(mine) and child
    finally:
        con.close()


def test_a_mirror_synced_before_the_listed_columns_is_answered_the_same_then_upgraded(tmp_path):
    old = Settings(data_dir=tmp_path / "old")
    assert sync(old, SyncOptions(source_dir=SAMPLE_DIR, quiet=True)).ok
    want = _answers(old)
    order = {}
    for name, ds in DATASETS.items():
        if not (ds.listed or ds.key_index):
            continue
        con = _con(old, name, read_only=False)
        try:
            con.execute(f'DROP INDEX IF EXISTS "{ds.table}_key"')
            for table in list(ds.summaries) + list(ds.words_tables or ()):
                con.execute(f'DROP TABLE "{table}"')
            for col in ds.listed:
                con.execute(f'ALTER TABLE "{ds.table}" DROP COLUMN "{col}"')
            order[name] = con.execute(f'SELECT "{ds.key[0]}" FROM "{ds.table}" ORDER BY rowid').fetchall()
        finally:
            con.close()
        assert outdated(Store(old.data_dir), Store(old.data_dir).current(name), ds)
    assert sum(status == 200 for status, _ in want) >= len(QUERIES) - 1
    assert _answers(old) == want  # the API falls back to the child tables and the JSON
    report = sync(old, SyncOptions(source_dir=SAMPLE_DIR, quiet=True))
    assert report.ok, report.errors
    for name, ds in DATASETS.items():
        upgraded = name in order
        assert report.datasets[name].status == ("updated" if upgraded else "up-to-date")
        if upgraded:
            assert not outdated(Store(old.data_dir), Store(old.data_dir).current(name), ds)
            con = _con(old, name)
            try:
                assert con.execute(f'SELECT "{ds.key[0]}" FROM "{ds.table}" ORDER BY rowid').fetchall() == order[name]
            finally:
                con.close()
    assert _answers(old) == want
    again = sync(old, SyncOptions(source_dir=SAMPLE_DIR, quiet=True))
    assert {r.status for n, r in again.datasets.items() if n != "gudid"} == {"up-to-date"}


def test_counts_come_from_the_summaries_when_they_are_the_same_count(synced, monkeypatch):
    import mirror.api.engine as engine

    api = Api(synced)
    try:
        ep = api.endpoints["event"]
        assert set(ep.summaries) == {("product_code_list", None), ("product_code_list", "date_received")}
        seen = []
        real = engine.summary_count
        monkeypatch.setattr(engine, "summary_count", lambda *a: seen.append(real(*a)) or seen[-1])
        for q in (
            "count=device.device_report_product_code.exact",
            "count=date_received&search=device.device_report_product_code:ozo",
            "count=date_received&search=device.device_report_product_code.exact:OZO",
            "count=date_received&search=NOT+device.device_report_product_code:ozo",
            "count=device.device_report_product_code.exact&search=date_received:[20230101+TO+20231231]",
        ):
            assert api.get("/device/event.json", q).status in (200, 404)
        assert [s is not None for s in seen] == [True, True, True, False, False]
    finally:
        api.close()


def test_a_sync_indexes_the_udi_key(synced):
    con = _con(synced, "udi")
    try:
        assert con.execute("SELECT count(*) FROM duckdb_indexes() WHERE table_name = 'device_udi'").fetchone()[0] == 1
    finally:
        con.close()


TEXT = [
    "mdr_text.text:investigation",
    "mdr_text.text:Investigation's",
    'mdr_text.text:"the+investigation"',
    'mdr_text.text:"investigation+is"',
    'mdr_text.text:"is+investigation"',
    "mdr_text.text:nosuchword",
    'mdr_text.text:"component+issue"',
    'mdr_text.text:"to+the+device"',
    'mdr_text.text:"the+device"',
    "NOT+mdr_text.text:investigation",
    "mdr_text.text:issue+AND+date_received:[20200101+TO+20251231]",
    'mdr_text.text:"device+did"+OR+mdr_text.text:patient',
    "mdr_text.text:(component+issue)",
    "mdr_text.text:component*",
    "mdr_text.text_type_code:description",
]


def test_the_word_index_answers_as_the_scan(synced, tmp_path):
    """Built with a high common share (most words rare) on a copy: every text search answers as without it."""
    import shutil

    from mirror.sync.loadsql import words_sql

    d = tmp_path / "words"
    shutil.copytree(synced.data_dir, d)
    settings = Settings(data_dir=d)
    con = _con(settings, "event", read_only=False)
    try:
        for table in DATASETS["event"].words_tables:
            con.execute(f'DROP TABLE "{table}"')
    finally:
        con.close()
    queries = [("event", f"search={q}&limit=100") for q in TEXT]
    api = Api(settings)
    want = [(r.status, r.body) for r in (api.get(f"/device/{e}.json", q) for e, q in queries)]
    api.close()
    con = _con(settings, "event", read_only=False)
    try:
        rows = con.execute('SELECT count(*) FROM "device_event_text"').fetchone()[0]
        for sql in words_sql(DATASETS["event"], rows, common_share=0.5, batch=3):
            con.execute(sql)
        assert con.execute('SELECT count(*) FROM "device_event_text_terms"').fetchone()[0] > 0
        assert con.execute('SELECT count(*) FROM "device_event_text_common"').fetchone()[0] > 0
    finally:
        con.close()
    api = Api(settings)
    try:
        assert [(r.status, r.body) for r in (api.get(f"/device/{e}.json", q) for e, q in queries)] == want
        assert sum(s == 200 for s, _ in want) >= 8
        ep = api.endpoints["event"]
        assert ep.words is not None and api._rare(ep, ["investigation"]) == "investigation"
    finally:
        api.close()
