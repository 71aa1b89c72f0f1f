"""The Reader: the one read side of the mirror (attach, re-attach on publish, bounded cursors, derived caches)."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import duckdb
import pytest

from mirror.api import Api
from mirror.api.limits import QueryTooBroad
from mirror.settings import Settings
from mirror.store.files import Store
from mirror.store.reader import Reader


@pytest.fixture()
def data(sample_dir: Path, tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(sample_dir, d)
    return d


def _publish_with_export_date(data: Path, dataset: str, export_date: str) -> None:
    """What a sync does: a new file swapped in with os.replace (here a copy with another export date)."""
    store = Store(data)
    new = store.db_dir / f"{dataset}.new.tmp"
    shutil.copyfile(store.current(dataset), new)
    con = duckdb.connect(str(new))
    try:
        con.execute("UPDATE _sync_meta SET value = ? WHERE key = 'export_date'", [export_date])
    finally:
        con.close()
    os.replace(new, store.current(dataset))


def test_a_reader_reattaches_when_a_sync_publishes_and_rebuilds_what_it_derived(data: Path):
    reader = Reader(Settings(data_dir=data))
    try:
        reader.check()
        builds = []

        def build(cur):
            builds.append(1)
            cur.execute(
                "CREATE TABLE memory.main._derived_codes AS SELECT product_code FROM device_classification "
                "WHERE device_class = '3'"
            )
            return cur.execute("SELECT count(*) FROM memory.main._derived_codes").fetchone()[0]

        first, version = reader.derived("codes", build), reader.version
        assert first > 0 and reader.derived("codes", build) == first and len(builds) == 1  # built once
        assert reader.as_of("classification") == "2019-07-04" and "event" in reader.datasets()
        _publish_with_export_date(data, "classification", "2030-01-01")
        assert reader.version != version and reader.as_of("classification") == "2030-01-01"
        assert reader.derived("codes", build) == first and len(builds) == 2  # the new connection: built again
        with reader.cursor() as cur:
            assert cur.execute("SELECT count(*) FROM memory.main._derived_codes").fetchone()[0] == first
    finally:
        reader.close()


def test_a_failed_build_is_not_kept_and_one_build_serves_concurrent_callers(data: Path):
    reader = Reader(Settings(data_dir=data))
    try:
        with pytest.raises(duckdb.Error):
            reader.derived("broken", lambda cur: cur.execute("SELECT * FROM no_such_table").fetchall())
        assert reader.derived("broken", lambda cur: 7) == 7
        builds, gate = [], threading.Event()

        def slow(cur):
            builds.append(1)
            gate.wait(5)
            return cur.execute("SELECT count(*) FROM device_classification").fetchone()[0]

        out: list[int] = []
        threads = [threading.Thread(target=lambda: out.append(reader.derived("slow", slow))) for _ in range(4)]
        for t in threads:
            t.start()
        gate.set()
        for t in threads:
            t.join(10)
        assert out == [6530] * 4 and len(builds) == 1
    finally:
        reader.close()


def test_the_api_reads_through_a_given_reader(data: Path):
    reader = Reader(Settings(data_dir=data), timeout=0.2)
    api = Api(reader=reader)
    try:
        assert api.reader is reader and api.timeout == 0.2 and api.store is reader.store
        assert api.version == reader.version and api.datasets() == reader.datasets()
        assert api.get("/device/classification.json", "search=product_code:DXY").status == 200
        with pytest.raises(QueryTooBroad, match=r"^the lookup took longer than 0.2 s"):
            with api.cursor() as cur:
                cur.execute("SELECT count(*) FROM range(100000000000)").fetchall()
        _publish_with_export_date(data, "classification", "2030-01-01")
        body = api.get("/device/classification.json", "search=product_code:DXY").json()
        assert body["meta"]["last_updated"] == "2030-01-01" and api.as_of("classification") == "2030-01-01"
    finally:
        api.close()
