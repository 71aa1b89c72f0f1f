"""bench/storage_size.py reads a published file's layout (storage version, record compression, free blocks, size per
table) and makes a compacting copy; bench/query_latency.py --url times real HTTP GETs to a `mirror serve` and gets
the same answers as the API in process. Both on the sample mirror (real DuckDB files, real HTTP on 127.0.0.1)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from mirror import Store
from mirror.api import Api
from mirror.settings import Settings
from mirror.store.files import STORAGE_VERSION
from tests.conftest import mirror_serve

ROOT = Path(__file__).resolve().parents[2]


def _bench(name: str):
    spec = importlib.util.spec_from_file_location(f"fdax_test_{name}", ROOT / "bench" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


storage_size = _bench("storage_size")
query_latency = _bench("query_latency")


def test_storage_size_reads_the_published_layout_and_times_a_compacting_copy(sample_dir: Path, tmp_path: Path):
    rows = storage_size.measure(sample_dir, old=False, only={"event", "udi"}, work=tmp_path)
    by = {r["dataset"]: r for r in rows}
    assert set(by) == {"event", "udi", "total"}
    assert by["total"]["records"] == by["event"]["records"] + by["udi"]["records"] > 0
    for name in ("event", "udi"):
        r, pub = by[name], by[name]["published"]
        assert pub["storage_version"] == f"{STORAGE_VERSION}+"
        assert pub["file_bytes"] == Store(sample_dir).published()[name].stat().st_size
        assert pub["used_blocks"] + pub["free_blocks"] == pub["total_blocks"]
        tables = pub["tables"]
        assert sum(t["bytes"] for t in tables) <= pub["used_blocks"] * pub["block_size"]
        assert [t["kind"] for t in tables].count("main") == 1
        assert r["new_bytes"] > 0 and r["compact_seconds"] >= 0 and r["old_bytes"] == 0
    kinds = {t["table"]: t["kind"] for t in by["event"]["published"]["tables"]}
    assert kinds["device_event"] == "main" and kinds["_sync_state"] == "state"
    assert kinds["device_event_text_terms"] == "index" and kinds["device_event_product_code_list_rows"] == "index"
    assert "ZSTD" in by["event"]["published"]["record_compression"]
    assert not list(tmp_path.iterdir())  # the copies are gone


def test_storage_size_still_copies_at_the_old_storage_version(sample_dir: Path, tmp_path: Path):
    (row, total) = storage_size.measure(sample_dir, old=True, only={"recall"}, work=tmp_path)
    assert row["dataset"] == "recall" and row["old_bytes"] > 0 and row["old_record"] != ""
    assert total["old_bytes"] == row["old_bytes"]


@pytest.fixture
def server(sample_dir: Path):
    with mirror_serve(sample_dir) as base:
        api = query_latency.HttpApi(base)
        try:
            yield api
        finally:
            api.close()


def test_http_requests_answer_like_the_api_in_process(server, sample_dir: Path):
    local = Api(Settings(data_dir=sample_dir))
    try:
        q = "search=device.device_report_product_code:OZP+AND+date_received:[20230101+TO+20231231]&limit=1"
        over_http, in_process = server.get("/device/event.json", q), local.get("/device/event.json", q)
        assert over_http.status == in_process.status == 200
        assert over_http.json()["results"] == in_process.json()["results"]
        assert over_http.json()["meta"]["results"]["total"] == 2
        nxt = query_latency.next_link(over_http, "/device/event.json")  # the walk follows the Link header
        assert nxt is not None and nxt[0] == "/device/event.json" and "search_after=" in nxt[1]
        second = server.get(*nxt)
        assert second.status == 200
        assert second.json()["results"][0]["mdr_report_key"] != over_http.json()["results"][0]["mdr_report_key"]
        missing = server.get("/device/event.json", "search=device.device_report_product_code:DXY")
        assert missing.status == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    finally:
        local.close()


def test_the_extrapolation_is_bytes_per_record_times_the_manifest_records(sample_dir: Path, tmp_path: Path):
    rows = storage_size.measure(sample_dir, old=False, only={"event", "recall"}, work=tmp_path)
    ex = storage_size.extrapolate(rows, event_growth=1_000_000)
    by = {(r["when"], r["dataset"]): r for r in ex["rows"]}
    event = next(r for r in rows if r["dataset"] == "event")
    assert by["2023-07 manifest", "event"]["records"] == 16_938_964  # the real 2023-07 manifest
    assert by["today", "event"]["records"] == 17_938_964
    assert by["today", "recall"]["records"] == by["2023-07 manifest", "recall"]["records"] == 49_680
    assert by["today", "event"]["published"] == round(event["published_per_record"] * 17_938_964)
    assert ex["today"]["records"] == 17_938_964 + 49_680  # the "total" row is not counted again
    assert ex["today"]["compacted"] > ex["2023-07 manifest"]["compacted"] > 0


def test_try_zstd_copies_one_table_with_the_column_declared_zstd(sample_dir: Path, tmp_path: Path):
    z = storage_size.try_zstd(sample_dir, "event:device_event_text.text", work=tmp_path)
    assert z["zstd"]["compression"] == "ZSTD" and z["as_is"]["compression"] != "ZSTD"
    assert z["saved_bytes"] == z["as_is"]["bytes"] - z["zstd"]["bytes"] and z["zstd"]["bytes"] > 0
    with pytest.raises(SystemExit, match="has no column nope in device_event_text"):
        storage_size.try_zstd(sample_dir, "event:device_event_text.nope", work=tmp_path)
    assert not list(tmp_path.iterdir())
