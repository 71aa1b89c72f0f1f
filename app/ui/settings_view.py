"""The Settings screen: the model (none, embedded, a GGUF file, an Ollama server), the folders, appearance."""

from __future__ import annotations

import flet as ft

from ..banners import dialog_unavailable
from ..config import COLORS, THEMES
from ..controller import Controller
from ..settings_form import MODEL_KINDS, MODEL_NOTES
from .widgets import caption, copyable

__all__ = ["SettingsView"]


class SettingsView:
    def __init__(self, c: Controller, page: ft.Page) -> None:
        self.c, self.page = c, page
        f = self.c.settings

        def setter(name: str):
            return lambda e: f.set(name, e.control.value or "")

        self.kind = ft.RadioGroup(
            ft.Column([ft.Radio(value=k, label=v) for k, v in MODEL_KINDS.items()], spacing=0),
            on_change=setter("model_kind"),
        )
        self.embedded_note = caption("")
        self.gguf = ft.TextField(label="Model file (.gguf)", expand=True, on_change=setter("gguf_path"))
        self.gguf_browse = ft.OutlinedButton("Browse…", icon=ft.Icons.FILE_OPEN, on_click=self._pick_gguf)
        self.ollama_url = ft.TextField(label="Ollama address", expand=True, on_change=setter("ollama_url"))
        self.ollama_test = ft.OutlinedButton(
            "Test connection", icon=ft.Icons.NETWORK_CHECK, on_click=lambda e: f.test_ollama()
        )
        self.ollama_model = ft.Dropdown(
            label="Ollama model",
            editable=True,
            width=320,
            on_select=setter("ollama_model"),
            on_text_change=setter("ollama_model"),
        )
        self.ollama_status = caption("")
        self.data_dir = ft.TextField(label="Data folder", expand=True, on_change=setter("data_dir"))
        self.export_dir = ft.TextField(
            label="Export folder (empty: the exports folder inside the data folder)",
            expand=True,
            on_change=setter("export_dir"),
        )
        self.theme = ft.Dropdown(
            label="Theme",
            width=180,
            options=[ft.DropdownOption(key=t, text=t) for t in THEMES],
            on_select=setter("theme"),
        )
        self.color = ft.Dropdown(
            label="Accent colour",
            width=200,
            on_select=setter("color"),
            options=[ft.DropdownOption(key=k, text=k.replace("_", " ")) for k in COLORS],
        )
        self.where = caption("")
        self.advanced = ft.Column(spacing=2)
        self._asking = False  # the "another computer" confirmation dialog is open
        self._generation = -1  # the form's values last written into the fields
        self.gguf_row = ft.Row([self.gguf, self.gguf_browse])
        self.ollama_box = ft.Column(
            [ft.Row([self.ollama_url, self.ollama_test]), self.ollama_model, self.ollama_status]
        )
        self.root = ft.Column(
            [
                ft.Text("Settings", size=18, weight=ft.FontWeight.BOLD),
                ft.Text("Model", size=16, weight=ft.FontWeight.BOLD),
                self.kind,
                self.embedded_note,
                self.gguf_row,
                self.ollama_box,
                ft.Divider(),
                ft.Text("Folders", size=16, weight=ft.FontWeight.BOLD),
                self.data_dir,
                self.export_dir,
                ft.Divider(),
                ft.Text("Appearance", size=16, weight=ft.FontWeight.BOLD),
                ft.Row([self.theme, self.color]),
                ft.Divider(),
                ft.Row(
                    [
                        ft.FilledButton("Save", icon=ft.Icons.SAVE, on_click=lambda e: f.save()),
                        ft.TextButton("Revert", on_click=lambda e: self.c.go("settings")),
                    ]
                ),
                self.where,
                ft.ExpansionTile(
                    title=ft.Text("Advanced", size=14),
                    dense=True,
                    controls=[self.advanced],
                    subtitle=caption("the settings file, and the same settings for the command line"),
                    expanded_cross_axis_alignment=ft.CrossAxisAlignment.START,
                    controls_padding=ft.Padding.only(left=16, bottom=8),
                ),
            ],
            expand=True,
            scroll=ft.ScrollMode.AUTO,
        )

    async def _pick_gguf(self, e) -> None:
        try:
            files = await ft.FilePicker().pick_files(
                dialog_title="Choose a GGUF model", allowed_extensions=["gguf"], file_type=ft.FilePickerFileType.CUSTOM
            )
        except RuntimeError as error:  # no file-chooser portal on this desktop
            self.c.report(dialog_unavailable(error))
            return
        if files and files[0].path:
            self.c.settings.put("gguf_path", files[0].path)

    def _render_remote(self) -> None:
        """The dialog asking whether questions may go to an Ollama server on another computer."""
        f = self.c.settings
        if not f.remote:
            if self._asking:
                self._asking = False
                self.page.pop_dialog()
            return
        if self._asking:
            return
        self._asking = True
        self.page.show_dialog(
            ft.AlertDialog(
                modal=True,
                title=ft.Text("Send your questions to another computer?"),
                content=ft.Text(f.remote_question()),
                actions=[
                    ft.FilledButton(f"Send them to {f.remote}", on_click=lambda e: f.confirm_remote()),
                    ft.TextButton("Cancel", on_click=lambda e: f.cancel_remote()),
                ],
            )
        )

    def render(self) -> None:
        f = self.c.settings
        v = f.values
        self._render_remote()
        self.kind.value = v["model_kind"]
        self.gguf_row.visible = v["model_kind"] == "gguf"
        self.gguf_browse.visible = not self.page.web
        self.ollama_box.visible = v["model_kind"] == "ollama"
        note = MODEL_NOTES.get(v["model_kind"], "")
        if v["model_kind"] == "embedded" and not f.embedded_available:
            note = "The embedded model is not installed here: answers are written without a model until it is."
        self.embedded_note.value = note
        typed = self._generation == f.generation  # fields hold what was typed: never written back while typing
        self._generation = f.generation
        for control, name in (
            (self.gguf, "gguf_path"),
            (self.ollama_url, "ollama_url"),
            (self.data_dir, "data_dir"),
            (self.export_dir, "export_dir"),
        ):
            if not typed:
                control.value = v[name]
            control.error = f.errors.get(name)
        self.ollama_model.options = [ft.DropdownOption(key=m, text=m) for m in f.ollama_models]
        if not typed:
            self.ollama_model.value = v["ollama_model"]
        self.ollama_model.error_text = f.errors.get("ollama_model")
        self.ollama_status.value = f.ollama_status
        self.ollama_status.color = None if f.ollama_ok else ft.Colors.ERROR
        self.ollama_test.disabled = f.testing
        self.theme.value, self.color.value = v["theme"], v["color"]
        name, state = self.c.model
        self.where.value = f"Model in use: {name} ({state})."
        path = self.c.config_path
        saved = path is not None and path.exists()
        self.advanced.controls = [
            copyable(line, font_family="monospace")
            for line in [
                f"Settings file: {path} ({'saved' if saved else 'not written yet: Save writes it'})"
                if path
                else "Settings file: none (this run's settings are not saved)",
                f"model = {f.model_spec()}   (fda-explorer --model, FDAX_MODEL)",
                f"ollama_url = {v['ollama_url']}   (--ollama-url, FDAX_OLLAMA_URL)",
                f"data_dir = {v['data_dir']}   (--data-dir, FDAX_DATA_DIR)",
                f"export_dir = {v['export_dir'] or '(data folder)/exports'}",
                "Rows each search keeps for the assistant: FDAX_ROW_CAP (the tables' Show all fetches every row)",
            ]
        ]
