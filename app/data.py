"""The Data screen without a window: what the mirror holds and how fresh it is, sync (with cancel) and bundle import."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .backend import Backend, SyncSource
from .banners import IMPORT_FOLDER, Banner, banner_for, info, one_line
from .folders import bundle_folders, check_folder, has_route
from .jobs import Jobs
from .labels import count, dataset_label

__all__ = ["DataModel", "DatasetRow", "SyncRun", "human_bytes"]


def finished(seconds: float, results: list[dict]) -> str:
    """'Sync finished in 1.9 s: 2 datasets updated, 7 already up to date, 1 skipped.' A dataset skipped by choice
    (GUDID with a manifest of one's own: its note says how to add it) is not a failure."""
    updated = sum(r["status"] == "updated" for r in results)
    failed = sum(bool(r["error"]) or r["status"] == "failed" for r in results)
    skipped = sum(r["status"] == "skipped" and not r["error"] for r in results)
    current = len(results) - updated - failed - skipped
    parts = (
        [count(updated, "dataset") + " updated"]
        + ([f"{current:,} already up to date"] if current else [])
        + ([f"{skipped:,} skipped"] if skipped else [])
        + ([f"{failed:,} failed"] if failed else [])
    )
    return f"Sync finished in {seconds:.1f} s: " + ", ".join(parts) + "."


def human_bytes(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024:
            break
        size /= 1024
    else:
        unit = "TB"
    return f"{size:,.0f} {unit}" if unit == "B" else f"{size:,.1f} {unit}"


@dataclass
class DatasetRow:
    name: str
    records: int
    as_of: str
    synced_at: str
    age_days: int | None
    stale: bool
    bytes: int
    warning: str = ""

    @property
    def badge(self) -> str:
        """fresh, stale or incomplete, as the freshness badge shows it."""
        return "incomplete" if self.warning else "stale" if self.stale else "fresh"


@dataclass
class SyncRun:
    """One sync: its plan (datasets, files, bytes), then each dataset's result."""

    source: SyncSource
    phase: str = "planning"  # planning | running | done | failed | cancelled
    plan: list[dict] = field(default_factory=list)
    results: list[dict] = field(default_factory=list)
    message: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)
    cancelled: bool = False  # the person cancelled it (the mirror may also set `cancel` to stop its threads)
    files: dict[str, list] = field(default_factory=dict)  # file -> [bytes done, bytes total or None, loaded]
    bytes_done: int = 0
    bytes_total: int = 0  # the manifest's estimate: the fraction is clamped at 1
    records_done: int = 0
    records_total: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)  # sync threads write

    @property
    def running(self) -> bool:
        return self.phase in ("planning", "running")

    @property
    def fraction(self) -> float | None:
        """Overall progress 0..1 (bytes fetched, then records loaded), None before anything is known."""
        parts = [min(1.0, self.bytes_done / self.bytes_total)] if self.bytes_total else []
        parts += [min(1.0, self.records_done / self.records_total)] if self.records_total else []
        return sum(parts) / len(parts) if parts else None

    def in_flight(self) -> list[tuple[str, int, int | None]]:
        """Files downloading now: (name, bytes done, bytes total)."""
        with self._lock:
            return [(name, f[0], f[1]) for name, f in self.files.items() if not f[2] and (f[1] is None or f[0] < f[1])]

    @property
    def files_loaded(self) -> int:
        with self._lock:
            return sum(1 for f in self.files.values() if f[2])

    def on_progress(self, e) -> None:
        """`SyncOptions.on_progress`: called from the sync's threads with a `mirror.progress.ProgressEvent`."""
        with self._lock:
            if e.kind == "file":
                self.files.setdefault(e.name, [0, None, False])[:2] = [e.done, e.total]
                self.bytes_done, self.bytes_total = e.overall_done, e.overall_total
            elif e.kind == "loaded":
                self.files.setdefault(e.name, [0, None, False])[2] = True
                self.records_done, self.records_total = e.records_done, e.records_total


class DataModel:
    def __init__(
        self,
        backend: Backend,
        jobs: Jobs,
        changed: Callable[[str], None],
        report: Callable[[Banner], None],
        online: Callable[[], bool] = has_route,
    ) -> None:
        self.backend, self.jobs, self._changed, self._report = backend, jobs, changed, report
        self.rows: list[DatasetRow] = []
        self.empty: bool | None = None  # None until the first status is read
        self.disk_use = 0
        self.mirror_bytes = 0
        self.run: SyncRun | None = None
        self.folders: list[str] = []  # bundles found on this computer (for the web, which has no Browse…)
        self.searched = False  # the usual places were looked through for bundles
        self._route = online()  # whether the computer has a route to the internet
        self._offline_seen = False  # the download site could not be reached
        self.source = SyncSource("folder" if self.offline else "online")
        self.on_synced: Callable[[], None] | None = None  # the controller refreshes the home's examples

    def changed(self) -> None:
        self._changed("data")

    # -- status ---------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        self.jobs.submit("io", self._load, doing="reading the mirror status")
        if self.source.kind == "folder" and not self.searched:
            self.find_folders()

    def _load(self) -> None:
        st = self.backend.status()
        self.empty = st is None
        self.rows = (
            []
            if st is None
            else [
                DatasetRow(
                    name,
                    d["records"],
                    d["export_date"],
                    d.get("synced_at", "")[:19].replace("T", " "),
                    d.get("age_days"),
                    bool(d.get("stale")),
                    d["bytes_on_disk"],
                    d.get("warning", ""),
                )
                for name, d in [*st["endpoints"].items(), *([("gudid", st["gudid"])] if "gudid" in st else [])]
            ]
        )
        self.mirror_bytes = 0 if st is None else st["bytes_on_disk"]
        self.disk_use = self.backend.disk_use()
        self.changed()

    # -- sync ---------------------------------------------------------------------------------------------------
    def set_source(self, kind: str) -> None:
        """Choose where the next sync reads from; a folder's path is given to `sync_now` as typed."""
        self.source = SyncSource(kind, self.source.folder)
        if kind == "folder" and not self.searched:
            self.find_folders()
        self.changed()

    def sync_now(self, folder: str | None = None) -> None:
        """Sync from the chosen source; for a folder, `folder` is the path as typed (checked here, not per key)."""
        if self.run is not None and self.run.running:
            self._report(info("A sync is already running: wait for it or cancel it."))
            return
        if self.source.kind == "folder":
            problem, path = check_folder(folder if folder is not None else self.source.folder)
            if problem:
                self._report(Banner(problem, "warning"))
                return
            self.source = SyncSource("folder", path)
        self.run = SyncRun(self.source)
        self.changed()
        self.jobs.submit("sync", self._sync, self.run, doing=f"syncing from {self.source.describe()}")

    def load_sample(self) -> None:
        self.set_source("sample")
        self.sync_now()

    @property
    def offline(self) -> bool:
        """No route to the internet, or the last sync from the download site could not reach it."""
        return self._offline_seen or not self._route

    def sources(self) -> list[str]:
        """The sources in the order offered: a folder first when the computer is offline."""
        return ["folder", "online", "sample"] if self.offline else ["online", "folder", "sample"]

    def find_folders(self) -> None:
        """Look for data bundles in the usual places (USB drives, home, downloads), in the background."""
        self.jobs.submit("io", self._find_folders, doing="looking for data bundles")

    def _find_folders(self) -> None:
        self.folders, self.searched = bundle_folders(), True
        self.changed()

    def cancel_sync(self) -> None:
        if self.run is not None and self.run.running:
            self.run.cancel.set()
            self.run.cancelled = True
            self.run.message = "Cancelling: the mirror keeps its previous data; the next sync resumes."
            self.changed()

    def _unreadable(self, run: SyncRun, errors: list[str]) -> None:
        """The source could not be read at all (a folder that is not a bundle, a site that cannot be reached)."""
        run.phase = "failed"
        if run.source.kind == "online":
            self._offline_seen = True
            self.source = SyncSource("folder", self.source.folder)
            run.message = (
                "The openFDA download site cannot be reached: this computer may be offline. Import the "
                "data from a folder instead. The mirror keeps its previous data."
            )
            self._report(Banner(run.message, "error", "Import a folder", IMPORT_FOLDER, "; ".join(errors)))
            return
        run.message = (
            "This folder's download.json cannot be read: it is not a data bundle the app can read. Choose "
            "the bundle's own folder, or copy the bundle again. The mirror keeps its previous data."
        )
        self._report(Banner(run.message, "error", details="; ".join(errors)))

    def _progress(self, run: SyncRun) -> Callable:
        """The sync's progress callback: updates the run, redraws at most 5 times a second."""
        last = [0.0]

        def on_progress(e) -> None:
            run.on_progress(e)
            now = time.monotonic()
            if now - last[0] >= 0.2 or e.kind == "loaded":
                last[0] = now
                self.changed()

        return on_progress

    def _sync(self, run: SyncRun) -> None:
        try:
            plan = self.backend.plan(run.source, run.cancel)
            run.plan = [
                {
                    "dataset": d.dataset,
                    "files": d.files_to_fetch,
                    "bytes": d.bytes_planned,
                    "status": "to update" if d.status == "planned" else d.status,
                }
                for d in plan.datasets.values()
            ]
            if run.cancelled:
                run.phase, run.message = "cancelled", "Cancelled before it started: nothing changed."
                return
            if not plan.ok and not any(p["status"] == "to update" for p in run.plan if p["dataset"] != "gudid"):
                self._unreadable(run, plan.errors)
                return
            run.phase = "running"
            self.changed()
            report = self.backend.sync(run.source, run.cancel, self._progress(run))
            run.results = [
                {
                    "dataset": d.dataset,
                    "status": d.status,
                    "records": d.records,
                    "as_of": d.export_date,
                    "seconds": d.seconds,
                    "error": d.error,
                    "note": d.note,
                }
                for d in report.datasets.values()
            ]
            run.phase = "done" if report.ok else "failed"
            run.message = finished(report.seconds, run.results)
            failed = [dataset_label(r["dataset"]) for r in run.results if r["error"] or r["status"] == "failed"]
            if report.ok:
                self._report(info(run.message))  # replaces a banner left by an earlier failed sync
            else:
                self._report(
                    Banner(
                        f"Sync finished, but {count(len(failed), 'dataset')} could not be updated "
                        f"({', '.join(failed) or 'see the list'}): sync again, it resumes where it "
                        "stopped. The mirror keeps their previous data.",
                        "error",
                        details="; ".join(report.errors),
                    )
                )
        except Exception as e:
            run.phase = "cancelled" if run.cancelled else "failed"
            banner = banner_for(e, f"syncing from {run.source.describe()}")
            if not run.cancelled and banner.level == "info":  # the mirror stopped itself: say it failed
                banner = Banner(
                    f"The sync from {run.source.describe()} stopped before it finished. The mirror "
                    "keeps its previous data: try again.",
                    "error",
                    details=one_line(e),
                )
            if run.source.kind == "online" and banner.target == IMPORT_FOLDER:
                self._offline_seen = True
                self.source = SyncSource("folder", self.source.folder)
            run.message = banner.message
            self._report(banner)
        finally:
            self._load()
            self._changed("sessions")
            if self.on_synced is not None:
                self.on_synced()
