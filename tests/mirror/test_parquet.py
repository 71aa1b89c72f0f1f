"""`mirror export --format parquet`: DuckDB reads the export back equal to the mirror."""

from __future__ import annotations

import json

import duckdb
import pytest
from click.testing import CliRunner

from mirror.cli import cli
from mirror.store.files import Store


@pytest.fixture(scope="module")
def exported(sample_dir, tmp_path_factory):
    dest = tmp_path_factory.mktemp("parquet") / "out"
    r = CliRunner().invoke(cli, ["export", "--format", "parquet", str(dest), "--data-dir", str(sample_dir)])
    assert r.exit_code == 0, r.output
    assert "exported 6,617 records" in r.output
    return dest


def test_the_manifest_lists_every_dataset_with_its_as_of_date(exported, sample_dir):
    manifest = json.loads((exported / "manifest.json").read_text())
    assert manifest["format"] == "fda-explorer-parquet/1"
    st = CliRunner().invoke(cli, ["status", "--json", "--data-dir", str(sample_dir)])
    status = json.loads(st.output)
    want = {**status["endpoints"], "gudid": status["gudid"]}
    assert set(manifest["datasets"]) == set(want)
    for name, d in manifest["datasets"].items():
        assert d["export_date"] == want[name]["export_date"] and d["records"] == want[name]["records"], name
    assert manifest["datasets"]["event"]["tables"]["device_event"]["partitioned_by"] == "year"
    years = sorted(p.name for p in (exported / "event" / "device_event").iterdir())
    assert years == ["year=2008", "year=2009", "year=2023"]
    assert not list(exported.glob(".*.part"))


def test_duckdb_reads_every_table_back_equal_to_the_mirror(exported, sample_dir):
    manifest = json.loads((exported / "manifest.json").read_text())
    con = Store(sample_dir).connect()
    checked = 0
    try:
        for name, d in manifest["datasets"].items():
            for table, t in d["tables"].items():
                read = t["read"].replace("read_parquet('", f"read_parquet('{exported}/")
                drop = f" EXCLUDE ({t['partitioned_by']})" if t["partitioned_by"] else ""
                assert con.execute(f"SELECT count(*) FROM {read}").fetchone()[0] == t["rows"]
                assert con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] == t["rows"], table
                for a, b in (
                    (f"SELECT *{drop} FROM {read}", f'SELECT * FROM "{table}"'),
                    (f'SELECT * FROM "{table}"', f"SELECT *{drop} FROM {read}"),
                ):
                    assert con.execute(f"SELECT count(*) FROM ({a} EXCEPT ALL {b})").fetchone()[0] == 0, table
                checked += 1
        events = f"read_parquet('{exported}/event/device_event/**/*.parquet', hive_partitioning = true)"
        assert con.execute(f"SELECT typeof(date_received) FROM {events} LIMIT 1").fetchone()[0] == "DATE"
        order = "ORDER BY mdr_report_key LIMIT 3"
        key = con.execute(f"SELECT mdr_report_key, record FROM device_event {order}").fetchall()
        back = con.execute(f"SELECT mdr_report_key, record FROM {events} {order}").fetchall()
        assert back == key and json.loads(back[0][1])["mdr_report_key"] == back[0][0]
    finally:
        con.close()
    assert checked >= 15


def test_a_second_export_replaces_the_first(exported, sample_dir):
    r = CliRunner().invoke(
        cli, ["export", "--format", "parquet", str(exported), "--only", "510k", "--data-dir", str(sample_dir)]
    )
    assert r.exit_code == 0, r.output
    manifest = json.loads((exported / "manifest.json").read_text())
    assert list(manifest["datasets"]) == ["510k"]
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{exported}/510k/device_510k/*.parquet')").fetchone()[0] == 7
