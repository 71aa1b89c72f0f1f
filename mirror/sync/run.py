"""`mirror sync`: plan from the manifest, fetch in parallel, load into staging, publish each dataset atomically."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

import httpx

from ..errors import DiskFullError, ManifestError, MirrorError, PartitionError, SourceError, SyncCancelled, first_line
from ..schema.datasets import DATASETS
from ..settings import DEFAULT_GUDID_URL, Settings
from ..store.files import STORAGE_VERSION, Store, older_storage
from ..store.paths import contained, inside, remove
from ..store.state import DatasetState, dataset_state, set_meta
from .chunks import ChunkStream, records_digest
from .download import RetryPolicy, make_client
from .fetch import FolderSource, HttpSource, Source, fetch_cached, is_url, read_location
from .fetchlist import PlanReport, device_items, gudid_item, manifest_item
from .guard import check_entry, previous_records, shrank
from .gudid import run as gudid_sync
from .indexes import Refresh, copy_upgraded, finish, outdated
from .load import Fetched, drop_partition, ensure_tables, keep_partition, load_partition, open_stream
from .plan import ENDPOINTS, Manifest, Partition, parse_manifest, plan
from .progress import Progress, ProgressEvent
from .report import FAILURES, DatasetReport, SyncReport
from .unpack import BulkFile

__all__ = ["SyncOptions", "SyncReport", "DatasetReport", "sync", "SAMPLE_DIR"]

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "sample"
# The checkpoint of each partition's commit would merge the row groups it wrote with the previous partition's into
# fuller ones, compressing the same rows again at every commit (2 to 3 times each; 5.1 of a 1 GiB sync's 24 s went
# to commits, 3.3 s without the merges). A fresh build keeps a partition's rows in row groups of their own; a build
# that deletes rows (a copy of the published file) merges again in its last checkpoint.
NO_MERGE = "SET max_vacuum_tasks=0"
MERGE = "RESET max_vacuum_tasks"


@dataclass
class SyncOptions:
    manifest: str | None = None
    only: list[str] | None = None
    since: int | None = None
    source_dir: Path | None = None
    gudid: str | None = None
    dry_run: bool = False
    allow_shrink: bool = False  # publish a dataset even when it drops below half its records (mirror/guard.py)
    quiet: bool = False
    cancel: threading.Event | None = None  # set it (from another thread) to stop the sync
    on_progress: Callable[[ProgressEvent], None] | None = None  # called from sync threads: bytes, loads, notes


@dataclass
class _Work:
    dataset: str
    export_date: str
    planned: list[Partition]
    to_load: list[Partition]
    to_drop: list[str]
    base: str  # fresh | copy | resume | upgrade (copy, adding the listed columns)
    lacks: tuple[str, ...] = ()  # what the published file lacks of the current layout (mirror/upgrade.py)
    manifest_total: int = 0  # the endpoint's total_records in the manifest
    since: int | None = None
    previous: int | None = None  # records the published dataset held in the same --since slice (None: none)
    reuse: dict[str, str] = field(default_factory=dict)  # partition path -> digest of the records the file holds


def _source(settings: Settings, options: SyncOptions, client: httpx.Client | None) -> Source:
    if options.source_dir is not None:
        src: Source = FolderSource(options.source_dir)
    else:
        assert client is not None, "sync() makes a client whenever there is no source folder"
        src = HttpSource(client, _policy(settings, options), settings.manifest_url, settings.gudid_url)
    if options.manifest:
        src.manifest_location = options.manifest
    if options.gudid:
        src.gudid_location = " ".join(
            loc if is_url(loc) else os.path.abspath(os.path.expanduser(loc)) for loc in options.gudid.split()
        )
    elif options.manifest and src.gudid_location == DEFAULT_GUDID_URL:
        src.gudid_location = ""  # a manifest of one's own (an internal mirror): no internet default for GUDID
    return src


def _policy(settings: Settings, options: SyncOptions) -> RetryPolicy:
    return RetryPolicy(settings.retries, settings.backoff, cancel=options.cancel)


def _decide(
    store: Store, cur: DatasetState | None, dataset: str, export_date: str, planned: list[Partition], dry_run: bool
) -> _Work | None:
    want = {(p.path, p.records) for p in planned}
    ds = DATASETS[dataset]
    lacks = outdated(store, store.current(dataset), ds) if cur else []
    rewrite = bool(cur) and older_storage(store.file_storage(store.current(dataset)))  # storage migration
    if rewrite:
        lacks.append(f"storage {STORAGE_VERSION}")
    old = bool(lacks)
    if cur and cur.export_date == export_date and cur.complete and set(cur.partitions.items()) == want and not old:
        return None
    base, state = "fresh", None
    staging = store.staging(dataset)
    stg = None if dry_run else dataset_state(store, staging, writable=True)
    if (
        stg
        and stg.export_date == export_date
        and not outdated(store, staging, ds, indexes=False)
        and not older_storage(store.file_storage(staging))
    ):
        base, state = "resume", stg
    else:
        if not dry_run:
            store.discard_staging(dataset)
        if cur and cur.export_date == export_date:
            base, state = ("upgrade" if rewrite or set(lacks) & set(ds.listed) else "copy"), cur
        elif cur and cur.complete and not old:
            base, state = "copy", cur  # a re-export: partitions whose records are unchanged are kept (_reusable)
    rows = {r["partition"]: r for r in state.rows} if state else {}
    loaded = {path: r["records"] for path, r in rows.items() if r["export_date"] == export_date}
    to_load = [p for p in planned if loaded.get(p.path) != p.records]
    to_drop = [path for path in rows if path not in {p.path for p in planned}]
    return _Work(dataset, export_date, planned, to_load, to_drop, base, tuple(lacks), reuse=_reusable(rows, to_load))


def _reusable(rows: dict[str, dict], to_load: list[Partition]) -> dict[str, str]:
    """Partitions to load that the file holds from an earlier export, with the same count: their records' digest.
    A new download of one is digested first; the same digest keeps the rows instead of loading them again."""
    out = {}
    for p in to_load:
        row = rows.get(p.path)
        if row and row.get("digest") and row["records"] == p.records:
            out[p.path] = row["digest"]
    return out


def sync(settings: Settings, options: SyncOptions, client: httpx.Client | None = None) -> SyncReport:
    """Bring the mirror in `settings.data_dir` up to the manifest; the report says what happened."""
    started = time.monotonic()
    store = Store(settings.data_dir, settings.duckdb_memory_limit)
    own_client = client is None and options.source_dir is None
    client = make_client(settings.timeout, offline=settings.offline) if own_client else client
    try:
        with store.sync_lock():
            report = _run(settings, options, store, client)
            if not options.dry_run and any(d.status == "updated" for d in report.datasets.values()):
                _record_changes(store, report)
    finally:
        if own_client and client is not None:
            client.close()
    report.seconds = round(time.monotonic() - started, 3)
    return report


def _record_changes(store: Store, report: SyncReport) -> None:
    """Keep the record keys added, changed and removed by this sync (`fda-explorer changes` reads them). The data is
    already published: a failure here is one line in the report, and the differences are recorded by the next sync
    that updates a dataset, or by `fda-explorer changes --record`."""
    from ..surveil.changes import record_changes

    try:
        record_changes(store)
    except FAILURES as e:
        first = first_line(e, 200)
        report.errors.append(
            f"the data was updated, but the list of changed records was not ({first}); "
            "record it with `fda-explorer changes --record`"
        )


def _run(settings: Settings, options: SyncOptions, store: Store, client: httpx.Client | None) -> SyncReport:
    source = _source(settings, options, client)
    where = source.manifest_location
    report = (PlanReport if options.dry_run else SyncReport)(str(settings.data_dir), where, options.dry_run)
    selected = options.only or [*ENDPOINTS, "gudid"]
    try:
        manifest = parse_manifest(read_location(where, client, _policy(settings, options)), where)
    except (ManifestError, SourceError) as e:  # openFDA's manifest unusable: its datasets fail, GUDID goes on
        _fail_all(report, [n for n in selected if n != "gudid"], e)
        manifest = None
    works = _plan_device(store, manifest, options, report) if manifest is not None else []
    gwork = _plan_gudid(store, source, client, _policy(settings, options), report) if "gudid" in selected else None
    if isinstance(report, PlanReport):
        report.fetch = (
            manifest_item(where)
            + [i for w in works for i in device_items(w.dataset, w.to_load)]
            + [gudid_item(rel.url, rel.name, rel.date) for rel in (gwork.releases if gwork else [])]
        )
        return report
    source.verify([p.file for w in works for p in w.planned] + [rel.url for rel in (gwork.releases if gwork else [])])
    total = sum(p.bytes for w in works for p in w.to_load)
    progress = Progress(
        total,
        quiet=options.quiet,
        cancel=options.cancel,
        total_records=sum(p.records for w in works for p in w.to_load),
        on_event=options.on_progress,
    )
    pool = ThreadPoolExecutor(settings.concurrency, thread_name_prefix="fetch")
    try:
        futures = {
            p.path: pool.submit(_fetch, store, source, p, progress, p.path in w.reuse) for w in works for p in w.to_load
        }
        stop = False
        for w in works:
            progress.check()
            if isinstance(_build(store, settings, w, futures, report, progress), (DiskFullError, SyncCancelled)):
                stop = True
                break
        if gwork is not None and not stop:
            progress.check()
            gudid_sync.build(store, settings, source, gwork, report, progress)
    except BaseException:
        progress.cancel.set()  # running downloads stop at their next block; .part files are kept
        raise
    finally:
        if report.errors:
            progress.cancel.set()  # stop downloads still running for failed datasets
        pool.shutdown(wait=True, cancel_futures=True)
        progress.close()
    if options.cancel is not None and options.cancel.is_set():
        raise SyncCancelled()
    return report


def _fail_all(report: SyncReport, names: list[str], e: MirrorError) -> None:
    """Every dataset of one failed source fails with its (one) error."""
    for name in names:
        report.datasets[name] = DatasetReport(name, status="failed", error=str(e))
    report.errors.append(str(e))


def _plan_gudid(store: Store, source: Source, client, policy, report: SyncReport) -> gudid_sync.GudidWork | None:
    """GUDID's plan; a source that cannot be listed (AccessGUDID unreachable) fails GUDID alone."""
    try:
        work = gudid_sync.plan(store, source, client, policy, report)
        return work
    except MirrorError as e:
        report.datasets.setdefault("gudid", DatasetReport("gudid"))
        report.fail("gudid", e, store.staging("gudid"))
        return None


def _plan_device(store: Store, manifest: Manifest, options: SyncOptions, report: SyncReport) -> list[_Work]:
    works = []
    for name, parts in plan(manifest, options.only, options.since).items():
        entry = manifest.endpoints[name]
        r = report.datasets[name] = DatasetReport(
            name,
            export_date=entry.export_date,
            files=len(parts),
            records=sum(p.records for p in parts),
            bytes_planned=sum(p.bytes for p in parts),
        )
        cur = dataset_state(store, store.current(name))
        previous = previous_records(cur, name, options.since)
        try:
            check_entry(report.manifest, entry, previous, r.records, options.allow_shrink)
        except MirrorError as e:
            report.fail(name, e, store.staging(name))
            continue
        w = _decide(store, cur, name, entry.export_date, parts, options.dry_run)
        if w is None:
            r.status = "up-to-date"
            continue
        r.files_to_fetch = len(w.to_load)
        w.manifest_total, w.since, w.previous = entry.total_records, options.since, previous
        works.append(w)
    return works


def download_path(store: Store, p: Partition) -> Path:
    """Where a partition's download goes: DATA_DIR/downloads/<export date>/<URL path>, checked to stay inside."""
    return contained(store.data_dir / "downloads", f"{p.export_date}/{p.path}", f"{p.endpoint} partition {p.file}")


def _fetch(store: Store, source: Source, p: Partition, progress: Progress, digest: bool) -> Fetched:
    """Download a partition; `digest`: then take its records' digest too (in this worker thread, beside the loads),
    so that an unchanged re-export is known before its turn to load. A file that cannot be digested gets none: its
    load meets the same fault and reports it."""
    fetched = fetch_cached(source, p.file, download_path(store, p), progress, p.path)
    if not digest:
        return fetched
    try:
        ds = DATASETS.get(p.endpoint)
        bulk = BulkFile(fetched.path, p.member, records=p.records, key=ds.key[0] if ds else None)
        return replace(fetched, digest=records_digest(bulk))
    except MirrorError:
        return fetched


def _unchanged(w: _Work, p: Partition, future: Future) -> bool:
    """Whether the downloaded partition holds the records the file already has (same digest)."""
    if not future.done() or future.exception() is not None or p.path not in w.reuse:
        return False
    return future.result().digest == w.reuse[p.path]


def _build(
    store: Store, settings: Settings, w: _Work, futures: dict[str, Future], report: SyncReport, progress: Progress
) -> MirrorError | None:
    r = report.datasets[w.dataset]
    started = time.monotonic()
    ds = DATASETS[w.dataset]
    published = False
    con = None
    try:
        con = store.open_staging(w.dataset, copy_current=(w.base == "copy"))
        con.execute(NO_MERGE)
        if w.base == "upgrade":
            copy_upgraded(con, store.current(w.dataset), ds)
        ensure_tables(con, ds)
        set_meta(con, export_date=w.export_date, status="building", dataset=w.dataset)
        streams: dict[str, tuple[Fetched, ChunkStream | PartitionError]] = {}
        loaded: list[str] = []
        try:
            for i, p in enumerate(w.to_load):
                futures[p.path].result()  # waits for the download (and digest); raises its failure
                if _unchanged(w, p, futures[p.path]):
                    fetched = futures[p.path].result()
                    r.bytes_fetched += fetched.bytes
                    keep_partition(con, p, fetched)
                    r.files_unchanged += 1
                    progress.note(f"unchanged {p.path}: {p.records:,} records kept")
                    progress.loaded(p.records, p.path)
                    continue
                _open(store, settings, w, i, futures, streams)
                fetched, stream = streams[p.path]
                r.bytes_fetched += fetched.bytes
                try:
                    if isinstance(stream, PartitionError):
                        raise stream
                    nxt = w.to_load[i + 1] if i + 1 < len(w.to_load) else None
                    if nxt and futures[nxt.path].done() and not _unchanged(w, nxt, futures[nxt.path]):
                        _prefetch(store, settings, w, i + 1, futures, streams, after=stream)
                    load_partition(con, ds, p, fetched, stream.work, stream=stream)
                    loaded.append(p.path)
                except PartitionError:
                    remove(store.data_dir / "downloads", fetched.path)  # a bad download is fetched anew next time
                    raise
                progress.note(f"loaded {p.path}: {p.records:,} records")
                progress.loaded(p.records, p.path)
        finally:
            for _, s in streams.values():
                if isinstance(s, ChunkStream):
                    s.close()
        con.execute("BEGIN TRANSACTION")
        for path in w.to_drop:
            drop_partition(con, ds, path)
        planned = sum(p.records for p in w.planned)
        set_meta(
            con,
            status="complete",
            synced_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            manifest_total_records=w.manifest_total,
            since=w.since or "",
            planned_records=planned,
            previous_records="" if w.previous is None else w.previous,
            shrink_allowed=str(w.previous is not None and shrank(w.previous, planned)).lower(),
        )
        con.execute("COMMIT")
        refresh = None
        if w.base == "copy" and not w.lacks:  # a copy of the published file: its word index is updated in place
            refresh = Refresh(store.current(w.dataset), tuple(loaded), tuple(loaded + w.to_drop))
        if w.base != "fresh":  # rows deleted from a copy are vacuumed by the checkpoint that starts `finish`
            con.execute(MERGE)
        finish(con, ds, set(w.lacks) if w.base == "copy" and not (loaded or w.to_drop) else None, refresh)
        store.publish(w.dataset, con)
        published = True
        r.status = "updated"
        _prune_downloads(store, w, settings.keep_downloads)
        return None
    except FAILURES as e:
        err = report.classify(e, store.staging(w.dataset))
        if isinstance(err, DiskFullError) and con is not None:
            con.close()
            con = None
            err = _free_staging(store, w.dataset, err)
        return report.fail(w.dataset, err, store.staging(w.dataset))
    finally:
        if not published and con is not None:
            con.close()
        r.seconds = round(time.monotonic() - started, 3)


def _free_staging(store: Store, dataset: str, err: DiskFullError) -> DiskFullError:
    """On a full disk the staging file and its WAL go (a rerun starts the dataset afresh instead of failing the same
    way); the message says so."""
    staging = store.staging(dataset)
    store.discard_staging(dataset)
    shutil.rmtree(store.tmp_dir / dataset, ignore_errors=True)
    return DiskFullError(f"{err}; the unfinished {staging.name} and its .wal were deleted to give their space back")


def _open(
    store: Store,
    settings: Settings,
    w: _Work,
    i: int,
    futures: dict[str, Future],
    streams: dict,
    after: ChunkStream | None = None,
) -> None:
    """Start unzipping the i-th partition to load (once); a bad zip is kept as its error until its turn."""
    p = w.to_load[i]
    if p.path in streams:
        return
    fetched = futures[p.path].result()
    stream: ChunkStream | PartitionError
    try:
        stream = open_stream(p, fetched, store.tmp_dir / w.dataset / str(i), settings.chunk_mb << 20, after=after)
    except PartitionError as e:
        stream = e
    streams[p.path] = (fetched, stream)


def _prefetch(store, settings, w, i, futures, streams, after) -> None:
    """Start unzipping the next partition once the current one is unzipped (errors wait for its turn)."""
    try:
        _open(store, settings, w, i, futures, streams, after=after)
    except MirrorError:
        pass


def _prune_downloads(store: Store, w: _Work, keep: bool) -> None:
    """Drop this endpoint's downloads of other export dates (or all of them when downloads are not kept)."""
    root = store.data_dir / "downloads"
    for dated in root.iterdir() if root.exists() else ():
        target = dated / "device" / w.dataset
        if (dated.name != w.export_date or not keep) and not dated.is_symlink() and inside(root, target):
            shutil.rmtree(target, ignore_errors=True)  # never through a link leading out of the downloads
