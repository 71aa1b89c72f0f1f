"""Row indexes (product code -> rowid, with covered columns) and the rowid word index: the same answers as the scan.

The mirror here is SYNTHETIC: `bench/synth_mirror.py` (real records as templates, Zipf-skewed product codes, the
phrase "multiple myeloma" in ~0.1% of narratives) at a tiny scale, synced through the real CLI in several event
partitions. Every request is answered twice: on the mirror as synced, and on a copy whose row and word indexes are
dropped (the API then reads the main table, the child tables and the record JSON); the two must be byte-identical.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from mirror import Store
from mirror.api import Api
from mirror.ops.status import verify
from mirror.schema.datasets import DATASETS
from mirror.settings import Settings
from mirror.sync.indexes import index_problems

ROOT = Path(__file__).resolve().parents[2]
INDEXED = [name for name, ds in DATASETS.items() if ds.index_tables]


@pytest.fixture(scope="module")
def synth(tmp_path_factory) -> Path:
    """A SYNTHETIC site at scale 0.0005 (8,469 events in 126 quarters, 2,007 UDI, 159 registrations), synced."""
    root = tmp_path_factory.mktemp("synth-rows")
    site, data = root / "site", root / "data"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "synth_mirror.py"),
            "--scale",
            "0.0005",
            "--only",
            "event,udi,registrationlisting",
            "--out",
            str(site),
            "--workers",
            "1",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [sys.executable, "-m", "mirror", "sync", "--from", str(site), "--data-dir", str(data), "--quiet"],
        check=True,
        capture_output=True,
    )
    return data


@pytest.fixture(scope="module")
def plain(synth, tmp_path_factory) -> Path:
    """A copy of the synthetic mirror without its row and word indexes."""
    d = tmp_path_factory.mktemp("synth-plain") / "data"
    shutil.copytree(synth, d)
    for name in INDEXED:
        ds = DATASETS[name]
        con = duckdb.connect(str(Store(d).current(name)))
        try:
            for table in ds.index_tables:
                con.execute(f'DROP TABLE "{table}"')
        finally:
            con.close()
    return d


def _codes(data: Path, name: str) -> list[str]:
    """The most frequent, a middling and the rarest product codes of a dataset."""
    ds = DATASETS[name]
    con = duckdb.connect(str(Store(data).current(name)), read_only=True)
    try:
        terms = [
            t
            for (t,) in con.execute(
                f'SELECT term FROM "{ds.table}_product_code_list_counts" ORDER BY n DESC, term'
            ).fetchall()
        ]
    finally:
        con.close()
    return [terms[0], terms[len(terms) // 3], terms[-1]]


def _requests(data: Path) -> list[tuple[str, str]]:
    ev, udi, reg = _codes(data, "event"), _codes(data, "udi"), _codes(data, "registrationlisting")
    pc = "device.device_report_product_code"
    out = []
    for c in ev + ["DXY"]:
        out += [
            ("event", f"search={pc}:{c}&limit=100"),
            ("event", f"search={pc}:{c}+AND+date_received:[20150101+TO+20201231]&limit=25&sort=date_received:desc"),
            ("event", f"search={pc}.exact:{c}+AND+event_type:Death&limit=25&sort=date_received:desc"),
            ("event", f"search={pc}:{c}+AND+NOT+event_type:Malfunction&limit=10&sort=date_received:asc&skip=3"),
            ("event", f"search={pc}:{c}&count=event_type.exact"),
            ("event", f"search={pc}:{c}+AND+date_received:[20100101+TO+20231231]&count=date_received"),
            ("event", f"search={pc}:{c}&limit=0"),
            ("event", f"search={pc}:{c}+AND+device.brand_name:pump&limit=5"),  # not covered: main table
            ("event", f"search={pc}:{c}+OR+event_type:Death&limit=5&sort=date_received:desc"),
        ]
    out += [
        ("event", 'search=mdr_text.text:"multiple+myeloma"&limit=100'),
        ("event", "search=mdr_text.text:myeloma&limit=3&skip=2"),
        ("event", 'search=mdr_text.text:"multiple+myeloma"+AND+date_received:[20150101+TO+20231231]&limit=100'),
        ("event", f'search=mdr_text.text:"multiple+myeloma"+AND+{pc}:{ev[0]}&limit=100'),
        ("event", 'search=mdr_text.text:"multiple+myeloma"&count=event_type.exact'),
        ("event", 'search=mdr_text.text:"multiple+myeloma"&limit=7&sort=date_received:desc'),
        ("event", "search=mdr_text.text:myeloma+AND+date_received:[20150101+TO+20231231]&count=date_received"),
        ("event", 'search=mdr_text.text:(multiple+AND+myeloma)+AND+NOT+mdr_text.text:"multiple+myeloma"&limit=5'),
        ("event", "search=NOT+mdr_text.text:myeloma+AND+event_type:Death&limit=2"),
    ]
    for c in udi:
        out += [
            (
                "udi",
                f"search=product_codes.code:{c}+AND+publish_date:[20150101+TO+20231231]&limit=25"
                "&sort=publish_date:desc",
            ),
            ("udi", f"search=product_codes.code:{c}&limit=100"),
            ("udi", f"search=product_codes.code:{c}&count=publish_date"),
        ]
    for c in reg:
        out += [
            ("registrationlisting", f"search=products.product_code:{c}&limit=25&sort=products.created_date:desc"),
            ("registrationlisting", f"search=products.product_code:{c}&limit=100"),
        ]
    return out


def _answer(api: Api, endpoint: str, query: str) -> tuple[int, bytes, str]:
    r = api.get(f"/device/{endpoint}.json", query)
    return r.status, r.body, r.headers.get("Link", "")


def _walk(api: Api, endpoint: str, query: str) -> list[bytes]:
    """Every page of a search, following the Link header (search_after) to the end."""
    pages, link = [], query
    while link:
        status, body, header = _answer(api, endpoint, link)
        if status == 404 and pages:  # a Link after a full last page leads to "No matches found!"
            break
        assert status == 200
        pages.append(body)
        link = header.split("?", 1)[1].split(">", 1)[0] if header else ""
    return pages


def test_the_row_and_word_indexes_point_at_their_records(synth):
    for name in INDEXED:
        ds = DATASETS[name]
        con = duckdb.connect(str(Store(synth).current(name)), read_only=True)
        try:
            assert index_problems(con, ds) == []
            for table in ds.index_tables:
                assert con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] > 0
        finally:
            con.close()


def test_answers_are_the_same_with_and_without_the_indexes(synth, plain, monkeypatch):
    import mirror.api.engine as engine

    fast, slow = Api(Settings(data_dir=synth)), Api(Settings(data_dir=plain))
    try:
        assert fast.endpoints["event"].rows and fast.endpoints["event"].words
        assert not slow.endpoints["event"].rows and slow.endpoints["event"].words is None
        sources: list[str] = []
        real = engine.Api._source

        def spy(*a):
            out = real(*a)
            sources.append(out[0])
            return out

        monkeypatch.setattr(engine.Api, "_source", staticmethod(spy))
        requests = _requests(synth)
        statuses = []
        for endpoint, query in requests:
            want = _answer(slow, endpoint, query)
            assert _answer(fast, endpoint, query) == want, (endpoint, query)
            statuses.append(want[0])
        assert statuses.count(200) >= len(requests) * 3 // 4
        used = {s.rsplit(".", 1)[-1].strip('"') for s in sources}
        assert {
            "device_event_product_code_list_rows",
            "device_udi_product_code_list_rows",
            "device_registrationlisting_product_code_list_rows",
            "device_event_text_terms",
        } <= used
        for endpoint, query in [
            (
                "event",
                "search=device.device_report_product_code.exact:DXY+AND+event_type:Death"
                "+AND+date_received:[20000101+TO+20231231]&limit=5&sort=date_received:desc",
            ),
            (
                "udi",
                "search=product_codes.code:DXY+AND+publish_date:[20150101+TO+20231231]&limit=5&sort=publish_date:desc",
            ),
            ("registrationlisting", "search=products.product_code:DXY&limit=5&sort=products.created_date:desc"),
            ("event", 'search=mdr_text.text:"multiple+myeloma"&limit=5'),
            (
                "event",
                'search=mdr_text.text:"multiple+myeloma"+AND+date_received:[20150101+TO+'
                "20231231]&limit=5&sort=date_received:desc",
            ),
        ]:
            sources.clear()
            assert _answer(fast, endpoint, query)[0] == 200
            assert sources and all(s.endswith(('_rows"', '_terms"')) for s in sources), (query, sources)
        for endpoint, query in [
            (
                "event",
                f"search=device.device_report_product_code:{_codes(synth, 'event')[0]}"
                "+AND+date_received:[20000101+TO+20231231]&limit=90&sort=date_received:desc",
            ),
            ("event", "search=mdr_text.text:myeloma&limit=3"),
        ]:
            pages = _walk(fast, endpoint, query)
            assert pages == _walk(slow, endpoint, query) and len(pages) > 1
    finally:
        fast.close()
        slow.close()


def test_indexes_built_for_other_rowids_are_not_used_and_verify_says_so(synth, tmp_path):
    d = tmp_path / "data"
    shutil.copytree(synth, d)
    query = "search=device.device_report_product_code:DXY&limit=100"
    api = Api(Settings(data_dir=d))
    want = _answer(api, "event", query)
    api.close()
    con = duckdb.connect(str(Store(d).current("event")))
    try:
        con.execute("UPDATE device_event_product_code_list_rows SET rowid = rowid + 1 WHERE term = 'DXY'")
    finally:
        con.close()
    report = verify(Store(d))
    assert not report["ok"]
    assert any("device_event_product_code_list_rows" in p for p in report["datasets"]["event"]["problems"])
    con = duckdb.connect(str(Store(d).current("event")))
    try:
        con.execute("UPDATE _sync_meta SET value = '1:0' WHERE key = 'rowid_stamp'")
    finally:
        con.close()
    assert any("other rowids" in p for p in verify(Store(d))["datasets"]["event"]["problems"])
    api = Api(Settings(data_dir=d))
    try:
        ep = api.endpoints["event"]
        assert not ep.rows and ep.words is None  # the moved index is not trusted: the scan answers
        assert _answer(api, "event", query) == want
    finally:
        api.close()


def test_dropped_partitions_leave_the_indexes_right(tmp_path):
    """`--since` drops older event quarters (rows deleted in the staging file): the indexes are built after."""
    from mirror.sync import SAMPLE_DIR, SyncOptions, sync

    settings = Settings(data_dir=tmp_path / "data")
    assert sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=["event"], quiet=True)).ok
    assert sync(settings, SyncOptions(source_dir=SAMPLE_DIR, only=["event"], since=2020, quiet=True)).ok
    con = duckdb.connect(str(Store(settings.data_dir).current("event")), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM device_event").fetchone()[0] == 5
        assert con.execute("SELECT count(*) FROM device_event_product_code_list_rows").fetchone()[0] == 5
        assert index_problems(con, DATASETS["event"]) == []
    finally:
        con.close()
    api = Api(settings)
    try:
        body = api.get("/device/event.json", "search=device.device_report_product_code:OZP&limit=10").json()
        assert sorted(r["mdr_report_key"] for r in body["results"]) == ["16081314", "16081315"]
        assert api.get("/device/event.json", "search=device.device_report_product_code:JAA").status == 404
    finally:
        api.close()
