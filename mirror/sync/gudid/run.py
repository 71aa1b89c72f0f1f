"""The AccessGUDID part of a sync: discover releases, fetch them, load the full release and apply deltas."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import httpx
import orjson

from ...errors import MirrorError, PartitionError, SourceError, UnloadableFileError
from ...settings import Settings
from ...store.files import Store, older_storage
from ...store.paths import remove
from ...store.rows import one
from ...store.state import dataset_state, record_loaded, set_meta
from ..download import RetryPolicy
from ..fetch import FolderSource, Source, fetch_cached, is_url, read_location
from ..load import Fetched
from ..report import FAILURES, DatasetReport, SyncReport
from . import full as gudid

__all__ = ["GudidWork", "plan", "build"]

_log = logging.getLogger(__name__)

NO_GUDID_SOURCE = (
    "GUDID skipped: a manifest given with --manifest implies no internet default for GUDID; add it "
    "with --gudid URL|PATH (the AccessGUDID download page, a release zip or a folder of them)"
)


@dataclass
class GudidWork:
    releases: list[gudid.GudidRelease]
    full: bool


def _releases_at(
    loc: str, source: Source, client: httpx.Client | None, policy: RetryPolicy
) -> list[gudid.GudidRelease] | None:
    """The releases one location offers: a folder, a release zip, or a listing page/feed (None: no such folder)."""
    if not is_url(loc):
        path = Path(loc).expanduser()
        if path.is_dir():
            return [r for p in sorted(path.glob("*.zip")) if (r := gudid.parse_release_name(p.name, str(p)))]
        if not path.exists():
            if isinstance(source, FolderSource):
                return None  # a bundle or folder without GUDID
            raise SourceError(f"{path}: no such GUDID release or folder; check --gudid (FDAX_GUDID_URL)")
    if loc.lower().endswith(".zip"):
        release = gudid.parse_release_name(loc.rsplit("/", 1)[-1], loc)
        return [release] if release else []
    return gudid.list_releases(read_location(loc, client, policy).decode("utf-8", "replace"), loc)


def _listed(source: Source, client: httpx.Client | None, policy: RetryPolicy) -> list[gudid.GudidRelease] | None:
    """All releases the GUDID locations offer (space-separated: e.g. the delimited page and the daily feed)."""
    found = [_releases_at(loc, source, client, policy) for loc in source.gudid_location.split()]
    if all(f is None for f in found):
        return None
    return [r for f in found if f for r in f]


def plan(store: Store, source: Source, client, policy: RetryPolicy, report: SyncReport) -> GudidWork | None:
    cur = dataset_state(store, store.current("gudid"))
    applied = cur.meta.get("applied_through") if cur and cur.complete else None
    r = report.datasets["gudid"] = DatasetReport("gudid", export_date=applied or "")
    listed = _listed(source, client, policy)
    releases = [] if listed is None else gudid.choose(listed, applied, source.gudid_location)
    if not releases and cur is not None and older_storage(store.file_storage(store.current("gudid"))):
        return GudidWork([], full=False)  # nothing new: the file is rewritten at the current storage version
    if listed is None:
        r.status = "skipped"
        if not source.gudid_location.split():
            r.note = NO_GUDID_SOURCE  # a skip by choice, not a failure
        return None
    if not releases:
        r.status = "up-to-date"
        return None
    r.export_date, r.files, r.files_to_fetch = releases[-1].date, len(releases), len(releases)
    return GudidWork(releases, releases[0].kind == "full")


def build(store: Store, settings: Settings, source: Source, work: GudidWork, report: SyncReport, progress) -> None:
    """Apply the releases in order; a bad update stops the run there, and what came before it is published
    (updates apply in date order: the later ones wait for it, or for a newer full release)."""
    r = report.datasets["gudid"]
    started = time.monotonic()
    store.discard_staging("gudid")  # releases apply in order from the published copy; downloads are reused
    published = False
    con = None
    applied: list[gudid.GudidRelease] = []
    bad: MirrorError | None
    try:
        try:
            for rel in work.releases:
                dest = store.data_dir / "downloads" / "gudid" / rel.name
                fetched = fetch_cached(source, rel.url, dest, progress, rel.name)
                r.bytes_fetched += fetched.bytes
                _refuse_known_bad(store, fetched)
                con = con or store.open_staging("gudid", copy_current=not work.full)
                _apply(con, store, rel, fetched)
                applied.append(rel)
                progress.note(f"loaded gudid/{rel.name}")
        except _SKIPPABLE as e:
            if not applied or rel.kind == "full":
                raise _waiting(e, None) if rel.kind == "delta" else e
            bad = _waiting(e, applied[-1].date)
        else:
            bad = None
        con = con or store.open_staging("gudid", copy_current=True)  # a storage rewrite alone
        r.records = one(con.execute("SELECT count(*) FROM gudid_device"))[0]
        r.export_date = applied[-1].date if applied else r.export_date
        store.publish("gudid", con)
        published = True
        r.status = "updated"
        if bad is not None:
            raise bad
    except FAILURES as e:
        report.fail("gudid", e, store.staging("gudid"))
    finally:
        if not published and con is not None:
            con.close()
        r.seconds = round(time.monotonic() - started, 3)


# an update that fails for one of these stops the run at it; what came before it is still published
_SKIPPABLE = (PartitionError, UnloadableFileError, SourceError)


def _waiting(e: MirrorError, through: str | None) -> MirrorError:
    """The error of a bad update, saying what GUDID holds now."""
    now = f"GUDID was updated up to {through} without it" if through else "GUDID stays as it was"
    return type(e)(f"{e}; {now} (later updates wait for it, or for a newer full release)")


def _apply(con, store: Store, rel: gudid.GudidRelease, fetched: Fetched) -> None:
    """Load one release and its sync state in one transaction. A full release that DuckDB's parallel CSV reader
    refuses is loaded again single-threaded (the refusal aborts the transaction, so it starts over)."""
    for parallel in (True, False):
        con.execute("BEGIN TRANSACTION")
        try:
            counts = (
                gudid.load_full_release(con, fetched.path, store.tmp_dir / "gudid", parallel=parallel)
                if rel.kind == "full"
                else gudid.apply_delta(con, fetched.path)
            )
            rows = counts.get("gudid_device", sum(counts.values()))
            record_loaded(con, f"gudid/{rel.name}", rel.url, rel.date, rows, fetched.bytes, fetched.sha256)
            set_meta(
                con,
                dataset="gudid",
                export_date=rel.date,
                applied_through=rel.date,
                status="complete",
                synced_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            )
            con.execute("COMMIT")
            return
        except gudid.ParallelReadRefused as e:
            con.execute("ROLLBACK")
            _log.info("%s; reading it again single-threaded", e)
        except BaseException as e:
            con.execute("ROLLBACK")
            if isinstance(e, PartitionError):  # a bad release is fetched anew next time; others are kept
                remove(store.data_dir / "downloads", fetched.path)
            elif isinstance(e, UnloadableFileError):
                _remember_bad(fetched, e)
            raise


def _marker(fetched: Fetched) -> Path:
    return fetched.path.with_name(fetched.path.name + ".unloadable")


def _remember_bad(fetched: Fetched, e: UnloadableFileError) -> None:
    """Note beside a kept update that it cannot be applied, so the next sync says so without copying GUDID."""
    _marker(fetched).write_bytes(orjson.dumps({"sha256": fetched.sha256, "error": str(e)}))


def _refuse_known_bad(store: Store, fetched: Fetched) -> None:
    """Raise the remembered error of this very file (same sha256); a replaced file is tried again."""
    marker = _marker(fetched)
    try:
        note = orjson.loads(marker.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return
    if isinstance(note, dict) and note.get("sha256") == fetched.sha256 and isinstance(note.get("error"), str):
        raise UnloadableFileError(note["error"])
    remove(store.data_dir / "downloads", marker)
