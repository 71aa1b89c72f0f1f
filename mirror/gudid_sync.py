"""The AccessGUDID part of a sync: discover releases, fetch them, load the full release and apply deltas."""

from __future__ import annotations

import html
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urljoin

import duckdb
import httpx

from . import gudid
from .download import RetryPolicy
from .errors import MirrorError, SourceError
from .settings import Settings
from .source import FolderSource, Source, fetch_cached, is_url, read_location
from .state import dataset_state, set_meta
from .store import Store, db_error

__all__ = ["GudidWork", "plan", "build"]


@dataclass
class GudidWork:
    releases: list[gudid.GudidRelease]
    full: bool


_NAMES = re.compile(r"""[^\s"'<>]*?((?:AccessGUDID_Delimited_Full_Release|gudid_(?:daily|weekly|monthly)_update)_\d{8}\.zip)""",
                    re.IGNORECASE)


def _one_listing(loc: str, source: Source, client: httpx.Client | None, policy: RetryPolicy) -> list[str] | None:
    """Absolute URLs or paths of the releases one location lists (a page, a feed, a folder or a zip)."""
    if not is_url(loc):
        path = Path(loc).expanduser()
        if path.is_dir():
            return [str(p) for p in sorted(path.glob("*.zip"))]
        if not path.exists():
            return None if isinstance(source, FolderSource) else _missing(path)
    if loc.lower().endswith(".zip"):
        return [loc]
    text = html.unescape(read_location(loc, client, policy).decode("utf-8", "replace"))
    return [urljoin(loc, m.group(0).split("=", 1)[-1]) for m in _NAMES.finditer(text)]


def _listing(source: Source, client: httpx.Client | None, policy: RetryPolicy) -> tuple[str, str] | None:
    """All releases listed by the GUDID locations (whitespace-separated: e.g. the delimited page and a feed)."""
    found, any_listing = [], False
    for loc in source.gudid_location.split():
        urls = _one_listing(loc, source, client, policy)
        if urls is not None:
            any_listing = True
            found += urls
    return ("\n".join(found), "") if any_listing else None


def _missing(path: Path):
    raise SourceError(f"{path}: no such GUDID release or folder; check --gudid")


def plan(store: Store, source: Source, client, policy: RetryPolicy, report) -> GudidWork | None:
    from .sync import DatasetReport
    cur = dataset_state(store, store.current("gudid"))
    applied = cur.meta.get("applied_through") if cur and cur.complete else None
    r = report.datasets["gudid"] = DatasetReport("gudid", export_date=applied or "")
    listing = _listing(source, client, policy)
    if listing is None:
        r.status = "skipped"
        return None
    releases = gudid.discover(listing[0], listing[1], applied)
    if not releases:
        r.status = "up-to-date"
        return None
    r.export_date, r.files, r.files_to_fetch = releases[-1].date, len(releases), len(releases)
    return GudidWork(releases, releases[0].kind == "full")


def build(store: Store, settings: Settings, source: Source, work: GudidWork, report, progress) -> None:
    r = report.datasets["gudid"]
    started = time.monotonic()
    store.discard_staging("gudid")  # releases apply in order from the published copy; downloads are reused
    published = False
    con = None
    try:
        con = store.open_staging("gudid", copy_current=not work.full)
        for rel in work.releases:
            dest = store.data_dir / "downloads" / "gudid" / rel.name
            fetched = fetch_cached(source, rel.url, dest, progress, rel.name)
            r.bytes_fetched += fetched.bytes
            con.execute("BEGIN TRANSACTION")
            try:
                counts = (gudid.load_full_release(con, dest, store.tmp_dir / "gudid") if rel.kind == "full"
                          else gudid.apply_delta(con, dest))
                rows = counts.get("gudid_device", sum(counts.values()))
                con.execute("INSERT OR REPLACE INTO _sync_state VALUES (?, ?, ?, ?, ?, ?, ?)",
                            [f"gudid/{rel.name}", rel.url, rel.date, rows, fetched.bytes, fetched.sha256,
                             datetime.now(timezone.utc).replace(tzinfo=None)])
                set_meta(con, dataset="gudid", export_date=rel.date, applied_through=rel.date, status="complete",
                         synced_at=datetime.now(timezone.utc).isoformat(timespec="seconds"))
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                dest.unlink(missing_ok=True)  # fetched anew next time
                raise
            progress.note(f"loaded gudid/{rel.name}")
        r.records = con.execute("SELECT count(*) FROM gudid_device").fetchone()[0]
        store.publish("gudid", con)
        published = True
        r.status = "updated"
    except (MirrorError, OSError, duckdb.Error) as e:
        err = e if isinstance(e, MirrorError) else db_error(e, store.staging("gudid"))
        if err is None:
            raise
        r.status, r.error = "failed", str(err)
        report.errors.append(str(err))
    finally:
        if not published and con is not None:
            con.close()
        r.seconds = round(time.monotonic() - started, 3)
