"""The sync's cheaper load (issue 15 item 6): records flattened in two passes give the same NDJSON bytes as the four
passes before; a fresh build keeps each partition's rows in row groups of their own (no merge at every commit), while
a refresh that deletes rows still compacts them; the next partition is unzipped once the current one's chunks are
all taken. SYNTHETIC event sites (copies of real sample records, tests/mirror/synth.py)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import duckdb

from mirror import Store, verify
from mirror.settings import Settings
from mirror.sync import SyncOptions, run, sync
from mirror.sync.chunks import ChunkStream
from mirror.sync.unpack import _SEP, BulkFile, _flatten
from tests.mirror.synth import write_event_site

QUARTERS = ["2022q1", "2022q2", "2022q3"]


def _four_passes(block: bytes) -> bytes:
    """The definition the load used before: mark the separators, drop every newline, the marks become newlines."""
    return block.replace(_SEP, b"}\x1e{").replace(b"\n", b"").replace(b"\x1e", b"\n") + b"\n"


def test_c9_flatten_gives_the_bytes_of_the_four_pass_definition():
    records = [
        {"a": "x\\n    },\n", "b": [1, {"c": "    },    {"}]},
        {"text": "line one\nline two", "n": None, "e": ""},
        {"nested": {"deep": [[], {}, "\u00e9\u4e2d"]}},
    ]
    doc = json.dumps({"meta": {}, "results": records}, indent=2)
    body = doc[doc.index('"results": [') + len('"results": [') : doc.rindex("\n  ]")].encode()
    for block in (body, body[: body.rindex(_SEP) + len(_SEP) - 6], b'{\n      "a": 1\n    }\x1e'):
        got = _flatten(bytearray(block))
        assert bytes(got) == _four_passes(block)
    lines = bytes(_flatten(bytearray(body))).decode().splitlines()
    assert [json.loads(line) for line in lines] == json.loads(doc)["results"]


def _row_groups(path: Path) -> tuple[int, int, int]:
    with duckdb.connect(str(path), read_only=True) as con:
        groups = con.execute("SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('device_event')").fetchone()
        n, top = con.execute("SELECT count(*), max(rowid) + 1 FROM device_event").fetchone()
    return groups[0], n, top


def test_c9_fresh_build_keeps_partition_row_groups_and_a_refresh_compacts(tmp_path, settings, monkeypatch):
    v1, v2 = tmp_path / "v1", tmp_path / "v2"
    pad = {"pad": "p" * (64 << 10)}  # each partition's commit then writes more than DuckDB's 16 MB: a checkpoint
    write_event_site(v1, QUARTERS, 300, "2025-01-01", pad, revised=False)
    write_event_site(v2, QUARTERS, 300, "2025-02-01", pad, revised=False, changed=("2022q1",))
    merged = Settings(data_dir=tmp_path / "merged")
    with monkeypatch.context() as m:
        m.setattr(run, "NO_MERGE", run.MERGE)  # as before: each commit's checkpoint merges the row groups
        assert sync(merged, SyncOptions(source_dir=v1, only=["event"], quiet=True)).ok
    assert sync(settings, SyncOptions(source_dir=v1, only=["event"], quiet=True)).ok
    path = settings.data_dir / "db" / "device_event.duckdb"
    groups, n, top = _row_groups(path)
    assert _row_groups(merged.data_dir / "db" / "device_event.duckdb") == (1, 900, 900)
    assert (groups, n, top) == (2, 900, 900)  # the partitions' row groups are not merged at each commit
    report = sync(settings, SyncOptions(source_dir=v2, only=["event"], quiet=True))
    assert report.ok and report.datasets["event"].files_unchanged == 2
    groups, n, top = _row_groups(path)
    assert (n, top) == (900, 900)  # the first quarter's old rows deleted and vacuumed: no rowid gap left
    assert verify(Store(settings.data_dir))["ok"]


def _zip(path: Path, n: int, start: int) -> BulkFile:
    member = "device-event-0001-of-0001.json"
    recs = [{"mdr_report_key": str(start + i), "text": "x" * 2000} for i in range(n)]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, json.dumps({"meta": {}, "results": recs}, indent=2) + "\n")
    return BulkFile(path, member, records=n, key="mdr_report_key")


def test_c9_next_partition_unzips_once_the_current_chunks_are_taken(tmp_path):
    first = ChunkStream(_zip(tmp_path / "a.zip", 2000, 0), tmp_path / "a", 64 << 10)
    second = ChunkStream(_zip(tmp_path / "b.zip", 2000, 5000), tmp_path / "b", 64 << 10, after=first)
    try:
        taken = []
        for path in first:
            taken.append(path.read_bytes().count(b"\n"))
            assert not second.produced.is_set() and not (tmp_path / "b").exists()  # waits for the last chunk
        assert sum(taken) == 2000 and len(taken) > 2 and first.consumed.is_set()
        lines = [path.read_bytes().count(b"\n") for path in second]
        assert sum(lines) == 2000 and second.digest is not None
    finally:
        first.close()
        second.close()
