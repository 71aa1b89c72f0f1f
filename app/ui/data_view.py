"""The Data screen: each dataset's records, as-of date, last sync, freshness; sync, cancel, folder import, disk use."""

from __future__ import annotations

import flet as ft

from ..banners import dialog_unavailable
from ..controller import Controller
from ..data import human_bytes
from ..labels import dataset_label
from .home_panel import BADGES
from .widgets import badge, caption

__all__ = ["DataView"]

SOURCES = {
    "online": "The openFDA download site (needs the internet)",
    "folder": "A folder: a data bundle on a USB drive or a copy of the download site",
    "sample": "The sample data shipped with the app",
}
SCROLL_EVENTS_MS = 50  # throttled: the last position of a fast scroll must still arrive


class DataView:
    def __init__(self, c: Controller, page: ft.Page) -> None:
        self.c, self.page = c, page
        self.where = caption("")
        self.table = ft.DataTable(
            columns=[
                ft.DataColumn(label=ft.Text(h))
                for h in ("Dataset", "Records", "Data as of", "Last sync", "Freshness", "Size")
            ],
            column_spacing=24,
            heading_row_height=36,
            data_row_min_height=32,
        )
        self.empty = ft.Text("")
        self.sources = ft.Column(spacing=0)
        self.source = ft.RadioGroup(
            self.sources,
            value=c.data.source.kind,
            on_change=lambda e: self.c.data.set_source(e.control.value or "online"),
        )
        self.offline_note = caption("")
        # The folder is held as typed: the box is never written back while typing; it is read on Sync now.
        self.folder = ft.TextField(
            label="Bundle folder (type or paste its path)", expand=True, on_submit=lambda e: self._sync()
        )
        self.browse = ft.OutlinedButton("Browse…", icon=ft.Icons.FOLDER_OPEN, on_click=self._browse)
        self.found = ft.Column(spacing=2)
        self.folder_box = ft.Column([ft.Row([self.folder, self.browse]), self.found], spacing=4)
        self.sync_button = ft.FilledButton("Sync now", icon=ft.Icons.SYNC, on_click=lambda e: self._sync())
        self.cancel_button = ft.OutlinedButton(
            "Cancel sync", icon=ft.Icons.STOP, visible=False, on_click=lambda e: self.c.data.cancel_sync()
        )
        self.sample_button = ft.TextButton(
            "Load the sample mirror", icon=ft.Icons.DOWNLOAD_FOR_OFFLINE, on_click=lambda e: self.c.data.load_sample()
        )
        self.progress = ft.ProgressBar(value=None, visible=False)
        self.run_text = ft.Text("")
        self.run_rows = ft.Column(spacing=2)
        self.offset = 0.0
        self._restore: float | None = None
        self.root = ft.Column(
            [
                ft.Row(
                    [
                        ft.Text("Data", size=18, weight=ft.FontWeight.BOLD, expand=True),
                        ft.IconButton(
                            ft.Icons.REFRESH, tooltip="Read the status again", on_click=lambda e: self.c.data.refresh()
                        ),
                    ]
                ),
                self.where,
                self.empty,
                ft.Row([self.table], scroll=ft.ScrollMode.AUTO),
                ft.Divider(),
                ft.Text("Sync", size=16, weight=ft.FontWeight.BOLD),
                caption("Sync from"),
                self.source,
                self.offline_note,
                self.folder_box,
                ft.Row([self.sync_button, self.cancel_button, self.sample_button]),
                self.progress,
                self.run_text,
                self.run_rows,
            ],
            expand=True,
            scroll=ft.ScrollMode.AUTO,
            scroll_interval=SCROLL_EVENTS_MS,
            on_scroll=self._scrolled,
        )

    def _scrolled(self, e: ft.OnScrollEvent) -> None:
        """Remember where the reader is; not while the screen is away or coming back (Flutter reports 0 then)."""
        if self.c.screen == "data" and self._restore is None:
            self.offset = float(e.pixels)

    def restore(self) -> None:
        self._restore = self.offset if self.offset > 0 else None

    async def settle(self) -> None:
        target = self._restore
        if target:
            try:
                await self.root.scroll_to(offset=target)
            finally:
                self._restore = None

    def _sync(self) -> None:
        self.c.data.sync_now(self.folder.value or "")

    def _use(self, path: str) -> None:
        self.folder.value = path
        self.page.update()

    async def _browse(self, e) -> None:
        try:
            path = await ft.FilePicker().get_directory_path(dialog_title="Choose the bundle's folder")
        except RuntimeError as error:  # no file-chooser portal on this desktop
            self.c.report(dialog_unavailable(error))
            return
        if path:
            self.folder.value = path
            self.page.update()

    def render(self) -> None:
        d = self.c.data
        self.where.value = (
            f"Data folder {self.c.config.data_dir}: the mirror takes {human_bytes(d.mirror_bytes)}, "
            f"{human_bytes(d.disk_use)} in all (with downloads, saved conversations, audit logs and "
            "exports)."
        )
        self.empty.value = (
            "The mirror is empty: load the sample, or sync or import the real data below." if d.empty is True else ""
        )
        self.table.rows = [
            ft.DataRow(
                [
                    ft.DataCell(ft.Text(dataset_label(r.name), tooltip=f"openFDA dataset {r.name}")),
                    ft.DataCell(ft.Text(f"{r.records:,}")),
                    ft.DataCell(ft.Text(r.as_of)),
                    ft.DataCell(ft.Text(r.synced_at)),
                    ft.DataCell(
                        badge(
                            {"fresh": "fresh", "incomplete": "incomplete"}.get(
                                r.badge, f"{r.age_days} days old" if r.age_days is not None else "stale"
                            ),
                            BADGES[r.badge],
                            r.warning or None,
                        )
                    ),
                    ft.DataCell(ft.Text(human_bytes(r.bytes))),
                ]
            )
            for r in d.rows
        ]
        order = d.sources()
        if [getattr(r, "value", None) for r in self.sources.controls] != order:
            self.sources.controls = [ft.Radio(value=k, label=SOURCES[k]) for k in order]
        self.source.value = d.source.kind
        self.offline_note.value = (
            "This computer seems to be offline: import the data from a folder (a bundle "
            "exported on a connected computer)."
            if d.offline
            else ""
        )
        folder = d.source.kind == "folder"
        self.folder_box.visible = folder
        self.browse.visible = not self.page.web
        if folder and d.searched and not d.folders:
            self.found.controls = [
                caption(
                    "No bundle found in the usual places (USB drives, home, downloads): type or paste its folder above."
                ),
                ft.TextButton("Look again", on_click=lambda e: self.c.data.find_folders()),
            ]
        elif folder:
            self.found.controls = ([caption("Bundles found on this computer:")] if d.folders else []) + [
                ft.TextButton(p, icon=ft.Icons.FOLDER, on_click=lambda e, p=p: self._use(p)) for p in d.folders
            ]
        self._render_run()

    def _render_run(self) -> None:
        run = self.c.data.run
        running = run is not None and run.running
        self.progress.visible = running
        self.progress.value = run.fraction if run is not None else None  # None: indeterminate (planning)
        self.sync_button.disabled = self.sample_button.disabled = running
        self.cancel_button.visible = running
        if run is None:
            self.run_text.value, self.run_rows.controls = "", []
            return
        phase = {
            "planning": "Checking what to fetch…",
            "running": f"Syncing from {run.source.describe()}…",
            "done": "Done.",
            "failed": "Not finished.",
            "cancelled": "Cancelled.",
        }[run.phase]
        self.run_text.value = f"{phase} {run.message}".strip()
        if running and run.phase == "running":
            files: list[ft.Control] = [
                caption(
                    f"{name.rsplit('/', 1)[-1]}: {human_bytes(done)}"
                    + (f" of {human_bytes(total)} ({min(100, 100 * done // max(total, 1))}%)" if total else "")
                )
                for name, done, total in run.in_flight()[:6]
            ]
            total = max(run.bytes_total, run.bytes_done)
            self.run_rows.controls = [
                caption(
                    f"Fetched {human_bytes(run.bytes_done)} of about {human_bytes(total)}; "
                    f"{run.files_loaded} of {sum(p['files'] for p in run.plan)} files loaded, "
                    f"{run.records_done:,} of {run.records_total:,} records"
                )
            ] + files
        elif run.results:
            self.run_rows.controls = [
                caption(
                    f"{dataset_label(r['dataset'])}: {r['status'].replace('-', ' ')}"
                    f", {r['records']:,} records as of {r['as_of']}"
                    + (" (not updated: sync again)" if r["error"] else "")
                    + (f" ({r['note']})" if r.get("note") else ""),
                    tooltip=r["error"] or None,
                )
                for r in run.results
            ]
        else:
            self.run_rows.controls = [
                caption(
                    f"{dataset_label(p['dataset'])}: {p['status']}, "
                    f"{p['files']} files to fetch, {human_bytes(p['bytes'])}"
                )
                for p in run.plan
            ]
