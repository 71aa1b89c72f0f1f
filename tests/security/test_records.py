"""Hostile records (review D7, D11, D16): huge records, zip bombs, deep nesting and non-object records.

Every bad file gives one line naming the file (and the record), exit 1, and the previous mirror stays
queryable; the other datasets of the sync still update. A download that cannot load is kept when fetching it
again cannot help (an intact zip) and dropped when it can (a damaged zip, a count that disagrees with the
manifest). All data here is SYNTHETIC: real sample records with a field made huge, deep or replaced.
"""

from __future__ import annotations

import json
import time
import tracemalloc
import zipfile
from pathlib import Path

import orjson
import pytest

from mirror import Store, status
from mirror.errors import CorruptFileError, RecordCountError, UnloadableFileError
from mirror.sync.unpack import MAX_RECORD_BYTES, BulkFile
from tests.mirror.test_bad_input import EVENT_2023, baseline, bump, member_of, run

ZIP_NAME = "device-event-0001-of-0001.json.zip"


def pretty(doc: dict) -> bytes:
    """openFDA's layout: json.dumps(indent=2)."""
    return (json.dumps(doc, indent=2) + "\n").encode()


def rewrite(path: Path, body: bytes, method: int = zipfile.ZIP_DEFLATED) -> None:
    name = member_of(path)[0]
    with zipfile.ZipFile(path, "w", method) as zf:
        zf.writestr(name, body)


def event_doc(source: Path) -> dict:
    return orjson.loads(member_of(source / EVENT_2023)[1])


def sync_fails(source: Path, data: Path, before: dict) -> str:
    """Sync event, pma and recall; event must fail in one line and keep its data; pma (bumped) must update."""
    code, _, err = run("sync", "--from", str(source), "--only", "event,pma,recall", "--data-dir", str(data), "--quiet")
    assert code == 3  # partial: the other datasets updated
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), err
    assert ZIP_NAME in lines[0] and "Traceback" not in err
    after = status(Store(data))["endpoints"]
    assert after["event"]["records"] == before["endpoints"]["event"]["records"]
    assert after["event"]["export_date"] == before["endpoints"]["event"]["export_date"]
    assert after["pma"]["export_date"] == "2026-01-01", "the other datasets of the sync still update"
    con = Store(data).connect()
    assert con.execute("SELECT count(*) FROM device_event").fetchone()[0] == before["endpoints"]["event"]["records"]
    return lines[0]


def kept_download(data: Path) -> Path | None:
    """The download of the new (bumped) export of the event partition, if it is still there."""
    path = data / "downloads" / "2026-01-01" / EVENT_2023
    return path if path.is_file() else None


@pytest.fixture
def bumped(sample_copy: Path, tmp_path: Path) -> tuple[Path, Path, dict]:
    """A synced mirror, then a new export of event and pma in the source."""
    data = tmp_path / "data"
    before = baseline(sample_copy, data)
    bump(sample_copy, "event")
    bump(sample_copy, "pma")
    return sample_copy, data, before


# --- D7: record sizes --------------------------------------------------------------------------------


def test_a_record_over_the_limit_is_named_and_its_download_kept(bumped):
    """SYNTHETIC: one real event record whose narrative is made 17 MB long (over the 16 MB limit)."""
    source, data, before = bumped
    doc = event_doc(source)
    key = doc["results"][1]["mdr_report_key"]
    doc["results"][1]["mdr_text"] = [{"text": "x" * (MAX_RECORD_BYTES + (1 << 20))}]
    rewrite(source / EVENT_2023, pretty(doc))
    line = sync_fails(source, data, before)
    assert f"record mdr_report_key {key} (number 2, at byte" in line
    assert "over the 16 MB a record may hold" in line
    assert "cannot be loaded by this version" in line and "previous data is kept" in line
    assert "again" not in line.replace("fetching it again would not help", "")  # no advice to rerun
    kept = kept_download(data)
    assert kept is not None, "an intact download that cannot load is kept"
    stamp = (kept.stat().st_ino, kept.stat().st_mtime_ns)
    assert sync_fails(source, data, before) == line  # the rerun says the same ...
    assert (kept.stat().st_ino, kept.stat().st_mtime_ns) == stamp  # ... without fetching the file again


def test_a_damaged_zip_with_a_huge_record_is_dropped_for_a_new_download(bumped):
    """SYNTHETIC: the same 17 MB record in a stored zip with one byte flipped after it (a bad CRC)."""
    source, data, before = bumped
    doc = event_doc(source)
    doc["results"][0]["mdr_text"] = [{"text": "x" * (MAX_RECORD_BYTES + (1 << 20))}]
    doc["results"][-1]["report_number"] = "FLIPME"
    rewrite(source / EVENT_2023, pretty(doc), zipfile.ZIP_STORED)
    raw = bytearray((source / EVENT_2023).read_bytes())
    raw[raw.index(b"FLIPME")] = ord("Q")
    (source / EVENT_2023).write_bytes(bytes(raw))
    line = sync_fails(source, data, before)
    assert "CRC" in line and "run `mirror sync` again" in line
    assert kept_download(data) is None, "a damaged download is dropped, so that the next sync fetches it anew"


def test_a_zip_bomb_of_small_records_stops_at_once(bumped):
    """SYNTHETIC: 64 MB of copies of real event records under the manifest's count for the file (5)."""
    source, data, before = bumped
    doc = event_doc(source)
    copies = (64 << 20) // len(pretty({"r": doc["results"][0]}))
    doc["results"] = [dict(doc["results"][i % 3], mdr_report_key=str(90_000_000 + i)) for i in range(copies)]
    rewrite(source / EVENT_2023, pretty(doc))
    started = time.monotonic()
    line = sync_fails(source, data, before)
    assert time.monotonic() - started < 20  # the old code loaded every record first (1.84 M in 9 s for 512 MB)
    assert "holds at least" in line and "records but the manifest says 5" in line
    assert kept_download(data) is None  # a count that disagrees with the manifest: fetched anew next time


def _huge_zip(tmp_path: Path, record_mb: int, records: int = 2) -> Path:
    """SYNTHETIC: an openFDA-layout zip whose second record holds `record_mb` MB of 'x' (deflates to little)."""
    path = tmp_path / "huge.json.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf, zf.open("huge.json", "w", force_zip64=True) as out:
        out.write(
            b'{\n  "meta": {},\n  "results": [\n    {\n      "k": "small"\n    },\n    {\n      "k": "big",\n'
            b'      "t": "'
        )
        block = b"x" * (1 << 20)
        for _ in range(record_mb):
            out.write(block)
        out.write(b'"\n    }' + b',\n    {\n      "k": "small"\n    }' * (records - 2) + b"\n  ]\n}\n")
    return path


def test_memory_stays_bounded_for_a_huge_record(tmp_path):
    """SYNTHETIC: one 96 MB record. The old reader grew one bytes buffer (+= per block: ~3x the record, quadratic
    copies); now at most the limit is held, and the zip's declared size stops it from inflating the rest."""
    path = _huge_zip(tmp_path, 96)
    tracemalloc.start()
    try:
        with pytest.raises(UnloadableFileError, match=r"record k big \(number 2, at byte \d+ of huge.json\) is over"):
            for _ in BulkFile(path, "huge.json", records=2, key="k").chunks():
                pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_RECORD_BYTES, f"{peak / 1048576:.0f} MB held for a 96 MB record"


def test_a_huge_record_in_a_zip_that_could_hold_it_is_checked_to_its_end(tmp_path):
    """SYNTHETIC: 24 MB record in a file the manifest gives 3 records (room for it): the CRC is checked first."""
    path = _huge_zip(tmp_path, 24, records=3)
    with pytest.raises(UnloadableFileError, match="cannot be loaded by this version"):
        list(BulkFile(path, "huge.json", records=3, key="k").chunks())
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("huge.json")
    at = (
        info.header_offset
        + 30
        + int.from_bytes(raw[info.header_offset + 26 : info.header_offset + 28], "little")
        + int.from_bytes(raw[info.header_offset + 28 : info.header_offset + 30], "little")
    )  # the deflated data
    raw[at + info.compress_size - 20] ^= 0xFF  # damage its tail
    path.write_bytes(bytes(raw))
    with pytest.raises(CorruptFileError, match="run `mirror sync` again"):
        list(BulkFile(path, "huge.json", records=3, key="k").chunks())


def test_every_record_is_checked_whatever_the_read_size(tmp_path):
    """SYNTHETIC: small records and a small limit: the record just over it is refused, one at it is loaded."""
    recs = [{"k": str(i), "t": "y" * (i * 37 % 300)} for i in range(40)]
    path = tmp_path / "r.json.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("r.json", pretty({"meta": {}, "results": recs}))
    sizes = [len(json.dumps(r, indent=2).replace("\n", "\n    ")) for r in recs]
    biggest = sizes.index(max(sizes))
    assert len(b"".join(BulkFile(path, "r.json", records=40, max_record=max(sizes)).chunks(500)).splitlines()) == 40
    with pytest.raises(UnloadableFileError, match=f"record k {biggest} "):
        list(BulkFile(path, "r.json", records=40, key="k", max_record=max(sizes) - 1).chunks(500))
    with pytest.raises(RecordCountError, match="holds at least 40 records but the manifest says 39"):
        list(BulkFile(path, "r.json", records=39).chunks(500))


# --- D11: deep nesting, D16: records that are not objects (compact layout) -----------------------------


def _compact(source: Path, records: list) -> None:
    doc = event_doc(source)
    doc["results"] = records
    rewrite(source / EVENT_2023, orjson.dumps(doc))


@pytest.mark.parametrize("depth", [300, 100_000])
def test_deep_nesting_in_the_compact_layout_is_one_line(bumped, depth):
    """SYNTHETIC: a real event record (compact JSON) with a field nested `depth` levels deep."""
    source, data, before = bumped
    doc = event_doc(source)
    records = doc["results"]
    deep: object = "bottom"
    for _ in range(min(depth, 200)):
        deep = [deep]
    records[0] = dict(records[0], deep=deep)
    doc["results"] = records
    body = orjson.dumps(doc)
    if depth > 200:  # orjson writes no deeper than 254: nest the rest by hand
        extra = depth - 200
        body = body.replace(b'"bottom"', b"[" * extra + b'"bottom"' + b"]" * extra, 1)
    rewrite(source / EVENT_2023, body)
    started = time.monotonic()
    line = sync_fails(source, data, before)
    assert time.monotonic() - started < 30  # ijson's own builder took 67 s for 100,000 levels
    assert "record number 1" in line and "nested deeper than 254 levels" in line
    assert "cannot be loaded by this version" in line
    assert kept_download(data) is not None


@pytest.mark.parametrize(
    "value,kind", [("just a string", "a string"), (42, "a number"), (None, "null"), ([1, 2], "an array")]
)
def test_a_record_that_is_not_an_object_is_refused(bumped, value, kind):
    """SYNTHETIC: the real records (compact JSON) with one of them replaced by a non-object value."""
    source, data, before = bumped
    records = event_doc(source)["results"]
    records[1] = value
    _compact(source, records)
    line = sync_fails(source, data, before)
    assert f"record number 2 is {kind}, not a JSON object" in line


def test_a_record_that_is_not_an_object_in_openfda_layout_is_refused(bumped):
    """SYNTHETIC: the same in the indent-2 layout: the record line is not valid NDJSON, so the file is refused."""
    source, data, before = bumped
    doc = event_doc(source)
    doc["results"][1] = 42
    rewrite(source / EVENT_2023, pretty(doc))
    line = sync_fails(source, data, before)
    assert "invalid JSON" in line
