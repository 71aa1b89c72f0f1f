"""The Data screen without a window: what the mirror holds and how fresh it is, sync (with cancel) and bundle import."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .backend import Backend, SyncSource
from .banners import Banner, banner_for, info, one_line
from .jobs import Jobs

__all__ = ["DataModel", "DatasetRow", "SyncRun", "human_bytes"]


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
    phase: str = "planning"           # planning | running | done | failed | cancelled
    plan: list[dict] = field(default_factory=list)
    results: list[dict] = field(default_factory=list)
    message: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)
    files: dict[str, list] = field(default_factory=dict)   # file -> [bytes done, bytes total or None, loaded]
    bytes_done: int = 0
    bytes_total: int = 0             # the manifest's estimate: the fraction is clamped at 1
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
            return [(name, f[0], f[1]) for name, f in self.files.items()
                    if not f[2] and (f[1] is None or f[0] < f[1])]

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
    def __init__(self, backend: Backend, jobs: Jobs, changed: Callable[[str], None],
                 report: Callable[[Banner], None]) -> None:
        self.backend, self.jobs, self._changed, self._report = backend, jobs, changed, report
        self.rows: list[DatasetRow] = []
        self.empty: bool | None = None       # None until the first status is read
        self.disk_use = 0
        self.mirror_bytes = 0
        self.source = SyncSource("online")
        self.run: SyncRun | None = None

    def changed(self) -> None:
        self._changed("data")

    # -- status ---------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        self.jobs.submit("io", self._load, doing="reading the mirror status")

    def _load(self) -> None:
        st = self.backend.status()
        self.empty = st is None
        self.rows = [] if st is None else [
            DatasetRow(name, d["records"], d["export_date"], d.get("synced_at", "")[:19].replace("T", " "),
                       d.get("age_days"), bool(d.get("stale")), d["bytes_on_disk"], d.get("warning", ""))
            for name, d in [*st["endpoints"].items(), *([("gudid", st["gudid"])] if "gudid" in st else [])]]
        self.mirror_bytes = 0 if st is None else st["bytes_on_disk"]
        self.disk_use = self.backend.disk_use()
        self.changed()

    # -- sync ---------------------------------------------------------------------------------------------------
    def set_source(self, kind: str, folder: str = "") -> None:
        self.source = SyncSource(kind, folder.strip())
        self.changed()

    def sync_now(self) -> None:
        if self.run is not None and self.run.running:
            self._report(info("A sync is already running: wait for it or cancel it."))
            return
        if self.source.kind == "folder" and not self.source.folder:
            self._report(Banner("Choose the folder of the bundle to import first (a `mirror export` folder).",
                                "warning"))
            return
        self.run = SyncRun(self.source)
        self.changed()
        self.jobs.submit("sync", self._sync, self.run, doing=f"syncing from {self.source.describe()}")

    def load_sample(self) -> None:
        self.set_source("sample")
        self.sync_now()

    def cancel_sync(self) -> None:
        if self.run is not None and self.run.running:
            self.run.cancel.set()
            self.run.message = "Cancelling: the mirror keeps its previous data; the next sync resumes."
            self.changed()

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
            run.plan = [{"dataset": d.dataset, "files": d.files_to_fetch, "bytes": d.bytes_planned,
                         "status": "to update" if d.status == "planned" else d.status}
                        for d in plan.datasets.values()]
            if run.cancel.is_set():
                run.phase, run.message = "cancelled", "Cancelled before it started: nothing changed."
                return
            run.phase = "running"
            self.changed()
            report = self.backend.sync(run.source, run.cancel, self._progress(run))
            run.results = [{"dataset": d.dataset, "status": d.status, "records": d.records, "as_of": d.export_date,
                            "seconds": d.seconds, "error": d.error} for d in report.datasets.values()]
            run.phase = "done" if report.ok else "failed"
            updated = sum(r["status"] == "updated" for r in run.results)
            run.message = (f"Sync finished in {report.seconds:.1f} s: {updated} dataset(s) updated, "
                           f"{len(run.results) - updated} unchanged or failed.")
            if not report.ok:
                self._report(Banner("Sync finished with errors: " + "; ".join(report.errors) + ". The mirror keeps "
                                    "its previous data for those datasets: run Sync again (it resumes where it stopped).",
                                    "error"))
        except Exception as e:
            run.phase = "cancelled" if run.cancel.is_set() else "failed"
            run.message = one_line(e)
            self._report(banner_for(e, f"syncing from {run.source.describe()}"))
        finally:
            self._load()
            self._changed("sessions")
