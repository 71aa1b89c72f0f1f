"""The Data screen: per dataset the records, as-of date, last sync and freshness; sync, cancel, bundle import, disk use."""

from __future__ import annotations

import flet as ft

from ..banners import dialog_unavailable
from ..controller import Controller
from ..data import human_bytes
from .widgets import badge, caption

__all__ = ["DataView"]

SOURCES = {"online": "openFDA download site (internet)", "sample": "Sample data shipped with the app",
           "folder": "A folder: air-gap bundle (`mirror export`) or download-site copy"}
BADGES = {"fresh": ft.Colors.GREEN_700, "stale": ft.Colors.ORANGE_800, "incomplete": ft.Colors.RED_700}


class DataView:
    def __init__(self, c: Controller, page: ft.Page) -> None:
        self.c, self.page = c, page
        self.where = caption("")
        self.table = ft.DataTable(columns=[ft.DataColumn(ft.Text(h)) for h in
                                           ("Dataset", "Records", "Data as of", "Last sync", "Freshness", "Size")],
                                  column_spacing=24, heading_row_height=36, data_row_min_height=32)
        self.empty = ft.Text("", visible=False)
        self.source = ft.Dropdown(label="Sync from", width=440, value="online",
                                  options=[ft.DropdownOption(key=k, text=v) for k, v in SOURCES.items()],
                                  on_select=lambda e: self.c.data.set_source(e.control.value or "online",
                                                                             self.folder.value or ""))
        self.folder = ft.TextField(label="Bundle folder", expand=True, visible=False,
                                   on_change=lambda e: self.c.data.set_source("folder", e.control.value or ""))
        self.browse = ft.OutlinedButton("Browse…", icon=ft.Icons.FOLDER_OPEN, visible=False, on_click=self._browse)
        self.sync_button = ft.FilledButton("Sync now", icon=ft.Icons.SYNC, on_click=lambda e: self.c.data.sync_now())
        self.cancel_button = ft.OutlinedButton("Cancel sync", icon=ft.Icons.STOP, visible=False,
                                               on_click=lambda e: self.c.data.cancel_sync())
        self.sample_button = ft.TextButton("Load the sample mirror", icon=ft.Icons.DOWNLOAD_FOR_OFFLINE,
                                           on_click=lambda e: self.c.data.load_sample())
        self.progress = ft.ProgressBar(value=None, visible=False)
        self.run_text = ft.Text("")
        self.run_rows = ft.Column(spacing=2)
        self.root = ft.Column([
            ft.Row([ft.Text("Data", size=18, weight=ft.FontWeight.BOLD, expand=True),
                    ft.IconButton(ft.Icons.REFRESH, tooltip="Reload the status", on_click=lambda e: self.c.data.refresh())]),
            self.where, self.empty, ft.Row([self.table], scroll=ft.ScrollMode.AUTO), ft.Divider(),
            ft.Text("Sync", size=16, weight=ft.FontWeight.BOLD),
            ft.Row([self.source, self.folder, self.browse]),
            ft.Row([self.sync_button, self.cancel_button, self.sample_button]),
            self.progress, self.run_text, self.run_rows,
        ], expand=True, scroll=ft.ScrollMode.AUTO)

    async def _browse(self, e) -> None:
        try:
            path = await ft.FilePicker().get_directory_path(dialog_title="Choose the bundle folder")
        except RuntimeError as error:          # no file-chooser portal on this desktop
            self.c.report(dialog_unavailable(error))
            return
        if path:
            self.folder.value = path
            self.c.data.set_source("folder", path)

    def render(self) -> None:
        d = self.c.data
        self.where.value = (f"Data folder {self.c.config.data_dir}: mirror {human_bytes(d.mirror_bytes)}, "
                            f"{human_bytes(d.disk_use)} in all (databases, downloads, sessions, audit logs, exports)")
        self.empty.visible = d.empty is True
        self.empty.value = "The mirror is empty: load the sample, or sync / import the real data below."
        self.table.rows = [ft.DataRow([ft.DataCell(ft.Text(r.name)), ft.DataCell(ft.Text(f"{r.records:,}")),
                                       ft.DataCell(ft.Text(r.as_of)), ft.DataCell(ft.Text(r.synced_at)),
                                       ft.DataCell(badge(r.badge + (f" ({r.age_days} d)" if r.badge == "stale" else ""),
                                                         BADGES[r.badge], r.warning or None)),
                                       ft.DataCell(ft.Text(human_bytes(r.bytes)))]) for r in d.rows]
        self.source.value = d.source.kind
        self.folder.visible = d.source.kind == "folder"
        self.browse.visible = self.folder.visible and not self.page.web
        if d.source.kind == "folder" and (self.folder.value or "") != d.source.folder:
            self.folder.value = d.source.folder
        self._render_run()

    def _render_run(self) -> None:
        run = self.c.data.run
        running = run is not None and run.running
        self.progress.visible = running
        self.progress.value = run.fraction if run is not None else None   # None: indeterminate (planning)
        self.sync_button.disabled = self.sample_button.disabled = running
        self.cancel_button.visible = running
        if run is None:
            self.run_text.value, self.run_rows.controls = "", []
            return
        phase = {"planning": "Planning…", "running": f"Syncing from {run.source.describe()}…", "done": "Done.",
                 "failed": "Failed.", "cancelled": "Cancelled."}[run.phase]
        self.run_text.value = f"{phase} {run.message}".strip()
        if running and run.phase == "running":
            files = [caption(f"{name.rsplit('/', 1)[-1]}: {human_bytes(done)}"
                             + (f" of {human_bytes(total)} ({100 * done // max(total, 1)}%)" if total else ""))
                     for name, done, total in run.in_flight()[:6]]
            self.run_rows.controls = [caption(
                f"Downloaded {human_bytes(run.bytes_done)} of about {human_bytes(run.bytes_total)}; "
                f"{run.files_loaded} of {sum(p['files'] for p in run.plan)} file(s) loaded, "
                f"{run.records_done:,} of {run.records_total:,} records")] + files
        elif run.results:
            self.run_rows.controls = [caption(f"{r['dataset']}: {r['status']}, {r['records']:,} records as of "
                                              f"{r['as_of']}" + (f" ({r['error']})" if r["error"] else ""))
                                      for r in run.results]
        else:
            self.run_rows.controls = [caption(f"{p['dataset']}: {p['status']}, {p['files']} file(s) to fetch, "
                                              f"{human_bytes(p['bytes'])}") for p in run.plan]
