"""Hostile AccessGUDID files (review D15, D20): a bad XML update no longer blocks GUDID, and a device.txt that
DuckDB's parallel CSV reader refuses is read single-threaded.

A bad update (billion laughs, an undefined external entity, invalid XML) stops the run there: the full release
and the good updates before it are published, the bad one is named in one line (exit 1), kept, and not
fetched again by the next sync, which says the same without copying GUDID. Updates after it are not applied
(they apply in date order). All files here are SYNTHETIC (devices built from the XML structure fixture).
"""

from __future__ import annotations

import logging
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from mirror import Store, status
from mirror.cli import cli
from mirror.errors import UnloadableFileError
from mirror.sync import SyncOptions, sync
from mirror.sync.gudid.full import ParallelReadRefused, load_full_release
from tests.mirror.test_gudid import DEVICE_HEADER, NEW_KEY, delta_zip, device_xml, write_zip

FULL = "AccessGUDID_Delimited_Full_Release_20251001.zip"
KEY2 = "5c0e7f3a-1b2d-4c6e-8f90-a1b2c3d4e5f6"  # synthetic
LOL = "".join(f'<!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">' for i in range(2, 10))
BILLION_LAUGHS = (
    f'<?xml version="1.0"?><!DOCTYPE gudid [<!ENTITY lol1 "lol">{LOL}]>'
    '<gudid xmlns="http://www.fda.gov/cdrh/gudid"><device>&lol9;</device></gudid>'
)
XXE = (
    '<?xml version="1.0"?><!DOCTYPE gudid [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>'
    '<gudid xmlns="http://www.fda.gov/cdrh/gudid"><device>&xxe;</device></gudid>'
)
BROKEN = '<?xml version="1.0"?><gudid xmlns="http://www.fda.gov/cdrh/gudid"><device><brandName>x'


def updates(gudid_dir: Path, srv_url: str, bad_xml: str) -> str:
    """Three daily updates, the middle one bad, and an RSS feed naming them; returns the listing to sync."""
    delta_zip(
        gudid_dir / "gudid_daily_update_20251002.zip",
        device_xml(NEW_KEY, "New", 1, "00844588018923", "Good update before"),
    )
    write_zip(gudid_dir / "gudid_daily_update_20251003.zip", {"update.xml": bad_xml})
    delta_zip(
        gudid_dir / "gudid_daily_update_20251004.zip", device_xml(KEY2, "New", 1, "00844588019999", "Good update after")
    )
    items = "".join(f"<item><link>{srv_url}/gudid/gudid_daily_update_2025100{d}.zip</link></item>" for d in (2, 3, 4))
    (gudid_dir / "daily.rss").write_text(f'<?xml version="1.0"?><rss version="2.0"><channel>{items}</channel></rss>')
    return f"{srv_url}/gudid/index.html {srv_url}/gudid/daily.rss"


def cli_sync(manifest: str, listing: str, data: Path) -> tuple[int, list[str]]:
    r = CliRunner().invoke(
        cli,
        ["sync", "--manifest", manifest, "--only", "gudid", "--gudid", listing, "--data-dir", str(data), "--quiet"],
        catch_exceptions=False,
    )
    return r.exit_code, [ln for ln in r.stderr.splitlines() if ln.strip()]


def brands(data: Path) -> set[str]:
    con = Store(data).connect()
    return {b for (b,) in con.execute('SELECT "brandName" FROM gudid_device').fetchall()}


def zip_requests(srv) -> list[str]:
    return [p for p, _ in srv.requests if p.endswith(".zip")]


@pytest.mark.parametrize(
    "bad_xml,why",
    [(BILLION_LAUGHS, "amplification"), (XXE, "undefined entity"), (BROKEN, "invalid XML")],
    ids=["billion-laughs", "xxe", "truncated"],
)
def test_a_bad_update_does_not_block_the_full_release(http_source, sample_copy, settings, bad_xml, why):
    srv, manifest = http_source
    listing = updates(sample_copy / "gudid", srv.url, bad_xml)
    code, lines = cli_sync(manifest, listing, settings.data_dir)
    assert code == 1 and len(lines) == 1 and lines[0].startswith("Error:"), lines
    line = lines[0]
    assert "gudid_daily_update_20251003.zip!update.xml" in line and why in line
    assert "cannot be applied by this version" in line and "the file is kept" in line
    assert "GUDID was updated up to 2025-10-02 without it" in line
    st = status(Store(settings.data_dir))["gudid"]
    assert st["export_date"] == "2025-10-02" and st["records"] == 6  # the full release (5) + the good update
    assert "Good update before" in brands(settings.data_dir)
    assert "Good update after" not in brands(settings.data_dir)  # later updates wait for the bad one

    # the next sync names it again, without fetching it again and without copying GUDID into a staging file
    srv.requests.clear()
    code, again = cli_sync(manifest, listing, settings.data_dir)
    assert code == 1 and len(again) == 1
    assert "gudid_daily_update_20251003.zip!update.xml" in again[0] and "GUDID stays as it was" in again[0]
    assert zip_requests(srv) == []
    assert not Store(settings.data_dir).staging("gudid").exists()
    assert status(Store(settings.data_dir))["gudid"]["export_date"] == "2025-10-02"
    assert len(brands(settings.data_dir)) == 6  # still queryable, unchanged

    # a newer full release replaces the stuck chain (the bad update is older than it): all is well again
    newer = sample_copy / "gudid" / "AccessGUDID_Delimited_Full_Release_20251005.zip"
    newer.write_bytes((sample_copy / "gudid" / FULL).read_bytes())
    (sample_copy / "gudid" / "index.html").write_text(f'<a href="{newer.name}">{newer.name}</a>')
    code, lines = cli_sync(manifest, listing, settings.data_dir)
    assert code == 0, lines
    assert status(Store(settings.data_dir))["gudid"]["export_date"] == "2025-10-05"


def test_a_deleted_bad_update_is_fetched_again(http_source, sample_copy, settings):
    srv, manifest = http_source
    listing = updates(sample_copy / "gudid", srv.url, BROKEN)
    assert cli_sync(manifest, listing, settings.data_dir)[0] == 1
    kept = settings.data_dir / "downloads" / "gudid" / "gudid_daily_update_20251003.zip"
    assert kept.is_file()
    kept.unlink()  # as the message says
    delta_zip(
        sample_copy / "gudid" / "gudid_daily_update_20251003.zip",  # the publisher fixed it meanwhile
        device_xml(KEY2[::-1], "New", 1, "00844588017777", "Fixed update"),
    )
    srv.requests.clear()
    code, lines = cli_sync(manifest, listing, settings.data_dir)
    assert code == 0, lines
    assert zip_requests(srv) == ["gudid/gudid_daily_update_20251003.zip", "gudid/gudid_daily_update_20251004.zip"]
    assert {"Fixed update", "Good update after"} <= brands(settings.data_dir)
    assert status(Store(settings.data_dir))["gudid"]["export_date"] == "2025-10-04"


def test_a_damaged_update_is_dropped_and_fetched_again(http_source, sample_copy, settings):
    """A stored zip with a flipped byte (bad CRC): the download is dropped; the next sync fetches it again."""
    srv, manifest = http_source
    listing = updates(sample_copy / "gudid", srv.url, BROKEN)
    bad = sample_copy / "gudid" / "gudid_daily_update_20251003.zip"
    with zipfile.ZipFile(bad, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("update.xml", BROKEN + " " * 64 + "FLIP")
    raw = bytearray(bad.read_bytes())
    raw[raw.index(b"FLIP")] = ord("Q")
    bad.write_bytes(bytes(raw))
    code, lines = cli_sync(manifest, listing, settings.data_dir)
    assert code == 1 and len(lines) == 1 and "CRC" in lines[0] and "run `mirror sync` again" in lines[0]
    assert "GUDID was updated up to 2025-10-02 without it" in lines[0]
    assert not (settings.data_dir / "downloads" / "gudid" / bad.name).exists()
    srv.requests.clear()
    assert cli_sync(manifest, listing, settings.data_dir)[0] == 1
    assert zip_requests(srv) == ["gudid/gudid_daily_update_20251003.zip"]


def test_a_bad_first_update_keeps_the_published_gudid(sample_copy, settings):
    """The full release is already published; the only new update is bad: nothing changes, one line, exit 1."""
    report = sync(settings, SyncOptions(source_dir=sample_copy, only=["gudid"], quiet=True))
    assert report.ok, report.errors
    write_zip(sample_copy / "gudid" / "gudid_daily_update_20251002.zip", {"update.xml": BILLION_LAUGHS})
    report = sync(settings, SyncOptions(source_dir=sample_copy, only=["gudid"], quiet=True))
    assert len(report.errors) == 1 and "GUDID stays as it was" in report.errors[0]
    st = status(Store(settings.data_dir))["gudid"]
    assert st["export_date"] == "2025-10-01" and st["records"] == 5 and len(brands(settings.data_dir)) == 5


# --- D20: DuckDB's parallel CSV reader refuses a device.txt ------------------------------------------------


def refused_release(folder: Path) -> tuple[Path, int]:
    """SYNTHETIC: a full release whose device.txt is 9 MB of one identical row holding a lone carriage return
    (CRLF line ends): DuckDB 1.5's parallel reader refuses such a file ("does not support a full read")."""
    row = "|".join(
        ["00811331018325", "4e81c6cb-6faa-494f-913f-7366334878e1", "New", "Published", "1", "x\ry"]
        + [""] * (len(DEVICE_HEADER) - 6)
    )
    n = (9 << 20) // (len(row) + 2)
    path = write_zip(folder / FULL, {"device.txt": "|".join(DEVICE_HEADER) + "\r\n" + (row + "\r\n") * n})
    return path, 2 * n  # DuckDB reads the lone CR as a line break, as the loader's line count does


def test_the_parallel_reader_refuses_the_synthetic_release(tmp_path):
    """Keeps the next test honest: this file does reach the fallback (if DuckDB stops refusing it, drop both)."""
    import duckdb

    path, _ = refused_release(tmp_path)
    con = duckdb.connect()
    con.execute("BEGIN TRANSACTION")
    with pytest.raises(ParallelReadRefused, match="device.txt"):
        load_full_release(con, path, tmp_path / "work")


def test_a_release_the_parallel_reader_refuses_is_read_single_threaded(sample_copy, settings, caplog):
    _, rows = refused_release(sample_copy / "gudid")
    with caplog.at_level(logging.INFO, logger="mirror.sync.gudid.run"):
        report = sync(settings, SyncOptions(source_dir=sample_copy, only=["gudid"], quiet=True))
    assert report.ok, report.errors
    assert "reading it again single-threaded" in caplog.text
    assert status(Store(settings.data_dir))["gudid"]["records"] == rows


def test_unloadable_update_error_is_not_a_partition_error():
    """The sync keeps a download whose error is not a PartitionError: UnloadableFileError must stay outside."""
    from mirror.errors import MirrorError, PartitionError

    assert issubclass(UnloadableFileError, MirrorError) and not issubclass(UnloadableFileError, PartitionError)
