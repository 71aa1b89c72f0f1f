"""The Ask screen: the conversation (timeline, answer, citation chips, tables, chart, exports) and the question box."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import flet as ft

from ..ask import Turn
from ..controller import Controller
from ..exports import FORMATS
from .widgets import caption, chart_view, copyable, result_table, timeline_folded, timeline_tile

__all__ = ["AskView"]

FIRST_RUN = ("No data yet in {dir}. Load the sample mirror (a few thousand real records, seconds) to try the app. "
             "For the real data, open Data and run Sync now from the openFDA download site (needs the internet; "
             "the full device data is tens of GB), or import an air-gap bundle made with `mirror export`.")


async def settled(field: ft.TextField, quiet: float = 0.03, limit: int = 5) -> str:
    """The field's text once the client has sent its last keystrokes: the desktop client can deliver Enter
    before the final value update, so wait until the value holds still for `quiet` seconds (at most `limit` times)."""
    value = field.value or ""
    for _ in range(limit):
        await asyncio.sleep(quiet)
        if (field.value or "") == value:
            break
        value = field.value or ""
    return value


class TurnView:
    """One question and its answer; each part is redrawn only when what it shows has changed."""

    def __init__(self, c: Controller, index: int, trace: Callable[..., None]) -> None:
        self.c, self.index, self.trace = c, index, trace
        self.question = ft.Text(weight=ft.FontWeight.BOLD, size=15)
        self.timeline = ft.Column(spacing=0)
        self.status = ft.Row(spacing=8)
        self.draft = ft.Text(italic=True, visible=False)
        self.answer = ft.Markdown("", selectable=True, extension_set=ft.MarkdownExtensionSet.GITHUB_WEB, visible=False)
        self.chips = ft.Row(wrap=True, spacing=6, run_spacing=6)
        self.tables = ft.Column(spacing=16)
        self.chart = ft.Container()
        self.exports = ft.Row(wrap=True, spacing=8)
        self.root = ft.Container(ft.Column([self.question, self.timeline, self.status, self.draft, self.answer,
                                            self.chips, self.tables, self.chart, self.exports], spacing=8),
                                 padding=12, border_radius=8, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
                                 key=ft.ScrollKey(f"turn-{index}"))
        self._sig: dict[str, object] = {}
        self._turn: Turn | None = None

    def _changed(self, part: str, sig: object) -> bool:
        if self._sig.get(part) == sig:
            return False
        self._sig[part] = sig
        return True

    def sync(self, turn: Turn) -> None:
        if turn is not self._turn:                 # another conversation in the same place: redraw it all
            self._turn, self._sig = turn, {}
        self.question.value = f"You: {turn.question}"
        if self._changed("timeline", (len(turn.entries), turn.status)):
            tiles = [timeline_tile(e) for e in turn.entries]
            folded = turn.answer and tiles and turn.status != "running"
            self.timeline.controls = [timeline_folded(turn, tiles)] if folded else tiles
            if turn.entries and "first_step" not in self._sig:
                self._sig["first_step"] = True
                self.trace("first_step_shown", index=self.index, title=turn.entries[0].title,
                           ms=round((time.perf_counter() - turn.sent_at) * 1000, 1))
        if self._changed("status", (turn.status, turn.error)):
            self.status.controls = self._status(turn)
        self.draft.value, self.draft.visible = turn.draft, bool(turn.draft) and not turn.answer
        if self._changed("answer", turn.answer):
            self.answer.value, self.answer.visible = turn.answer, bool(turn.answer)
            self._answer_parts(turn)
            if turn.answer and turn.payload:
                self.trace("answer_shown", index=self.index, ms=round((time.perf_counter() - turn.sent_at) * 1000, 1))
        if self._changed("tables", tuple((t.sort_column, t.ascending) for t in turn.tables)):
            self.tables.controls = [result_table(t, self._sorter(i)) for i, t in enumerate(turn.tables)]
        if self._changed("exports", (bool(turn.payload), len(turn.exports))):
            self.exports.controls = self._export_row(turn)

    def _answer_parts(self, turn: Turn) -> None:
        i = self.index
        self.chips.controls = ([caption("Sources:")] if turn.citations else []) + [
            ft.Chip(label=ft.Text(f"{cite['dataset']} {cite['id']}", size=12), leading=ft.Icon(ft.Icons.DESCRIPTION, size=16),
                    on_click=lambda e, k=k: self.c.ask.open_citation(i, k))
            for k, cite in enumerate(turn.citations)]
        self.chart.content = chart_view(turn.chart) if turn.chart else None

    def _sorter(self, t: int) -> Callable[[int, bool], None]:
        return lambda column, ascending: self.c.ask.sort(self.index, t, column, ascending)

    def _status(self, turn: Turn) -> list[ft.Control]:
        i = self.index
        if turn.status == "running":
            return [ft.ProgressRing(width=16, height=16, stroke_width=2), caption("Working…"),
                    ft.TextButton("Cancel", icon=ft.Icons.STOP, on_click=lambda e: self.c.ask.cancel())]
        if turn.status in ("failed", "cancelled"):
            text = f"Failed: {turn.error}" if turn.status == "failed" else "Cancelled."
            return [ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ERROR, size=18),
                    copyable(text, size=14, color=ft.Colors.ERROR, expand=True),
                    ft.TextButton("Retry", icon=ft.Icons.REFRESH, on_click=lambda e: self.c.ask.retry(i))]
        return []

    def _export_row(self, turn: Turn) -> list[ft.Control]:
        if not turn.payload:
            return []
        i = self.index
        stamp = ", ".join(f"{k} {v}" for k, v in sorted(turn.as_of.items()))
        buttons: list[ft.Control] = [ft.OutlinedButton(f"Export {f.upper()}", icon=ft.Icons.DOWNLOAD,
                                                       on_click=lambda e, f=f: self.c.ask.export(i, f))
                                     for f in FORMATS]
        saved = [copyable(f"Saved: {p}") for p in turn.exports[-3:]]
        return buttons + [caption(f"Data as of {stamp}")] + saved


class AskView:
    def __init__(self, c: Controller, page: ft.Page, trace: Callable[..., None]) -> None:
        self.c, self.page, self.trace = c, page, trace
        self.turn_views: list[TurnView] = []
        self._draft_serial = 0
        self.title = ft.Text("New conversation", size=18, weight=ft.FontWeight.BOLD, expand=True)
        self.welcome = ft.Container(visible=False, padding=16, border_radius=8, bgcolor=ft.Colors.SECONDARY_CONTAINER)
        self.conversation = ft.Column(expand=True, spacing=12, scroll=ft.ScrollMode.AUTO)
        self._scroll_sig: tuple = ()
        self._scroll = ""                        # "end", a turn's scroll key, or nothing to do
        self.field = ft.TextField(hint_text="Ask about devices, adverse events, recalls, 510(k)s… "
                                            "(Enter sends, Shift+Enter for a new line)",
                                  multiline=True, shift_enter=True, min_lines=1, max_lines=6, expand=True,
                                  autofocus=True, on_submit=self._send)
        self.send_button = ft.IconButton(ft.Icons.SEND, tooltip="Send (Enter)", on_click=self._send)
        self.cancel_button = ft.OutlinedButton("Cancel", icon=ft.Icons.STOP, visible=False,
                                               on_click=lambda e: self.c.ask.cancel())
        self.record_title, self.record_text = ft.Text(""), ft.Text("")
        self._dialog_open = False
        header = ft.Row([self.title, ft.TextButton("New conversation (Ctrl+K)", icon=ft.Icons.ADD_COMMENT,
                                                   on_click=lambda e: self.c.key("K", ctrl=True))])
        self.root = ft.Column([header, self.welcome, self.conversation,
                               ft.Row([self.field, self.send_button, self.cancel_button],
                                      vertical_alignment=ft.CrossAxisAlignment.END)], expand=True)

    async def _send(self) -> None:
        if self.c.ask.send(await settled(self.field)):
            self.field.value = ""

    def render(self) -> None:
        ask = self.c.ask
        self.title.value = f"Session {ask.session_id}" if ask.session_id else "New conversation"
        self._render_welcome()
        if len(self.turn_views) > len(ask.turns) or any(tv.index >= len(ask.turns) for tv in self.turn_views):
            self.turn_views = []
        while len(self.turn_views) < len(ask.turns):
            self.turn_views.append(TurnView(self.c, len(self.turn_views), self.trace))
        for tv, turn in zip(self.turn_views, ask.turns):
            tv.sync(turn)
        self.conversation.controls = [tv.root for tv in self.turn_views]
        self.cancel_button.visible = ask.busy
        last = ask.turns[-1] if ask.turns else None
        sig = (len(ask.turns), len(last.entries), bool(last.answer)) if last else ()
        if sig and sig != self._scroll_sig:     # follow a running answer; show an answer from its question
            self._scroll = f"turn-{len(ask.turns) - 1}" if last.answer else "end"
        self._scroll_sig = sig
        if not self.field.value:
            self.field.value = ask.take_draft()
        self._render_record()

    async def settle(self) -> None:
        """After the page is updated: follow the conversation to its end when it grew at the bottom."""
        target, self._scroll = self._scroll, ""
        if target == "end":
            await self.conversation.scroll_to(offset=-1, duration=150)
        elif target:
            await self.conversation.scroll_to(scroll_key=target, duration=150)

    def _render_welcome(self) -> None:
        self.welcome.visible = self.c.first_run
        if not self.welcome.visible:
            return
        run = self.c.data.run
        busy = run is not None and run.running
        self.welcome.content = ft.Column([
            ft.Text("Welcome to FDA Explorer Offline", weight=ft.FontWeight.BOLD, size=16),
            ft.Text(FIRST_RUN.format(dir=self.c.config.data_dir)),
            ft.Row([ft.FilledButton("Load the sample mirror", icon=ft.Icons.DOWNLOAD_FOR_OFFLINE, disabled=busy,
                                    on_click=lambda e: self.c.data.load_sample()),
                    ft.TextButton("Open Data", on_click=lambda e: self.c.go("data"))]
                   + ([ft.ProgressRing(width=18, height=18), caption("Loading the sample…")] if busy else [])),
        ])

    def _render_record(self) -> None:
        rec = self.c.ask.record
        if rec is None:
            if self._dialog_open:
                self._dialog_open = False
                self.page.pop_dialog()
            return
        if not self._dialog_open:
            self._dialog_open = True
            self.record_title = ft.Text("", size=16)
            self.record_text = ft.Text("", selectable=True, font_family="monospace", size=12)
            self.page.show_dialog(ft.AlertDialog(
                title=self.record_title, scrollable=True, content=self.record_text,
                actions=[ft.TextButton("Close", on_click=lambda e: self.c.ask.close_record())],
                on_dismiss=lambda e: self.c.ask.close_record()))
        self.record_title.value = f"Record {rec.dataset} {rec.ident}"
        self.record_text.value = self.record_text.semantics_label = "Loading…" if rec.loading else rec.text
