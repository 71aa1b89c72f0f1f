"""The Ask screen: the conversation (reading, timeline, answer, sources, tables, chart, exports), the question box."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import flet as ft

from ..ask import FORMAT_NAMES, Turn
from ..banners import banner_for, info
from ..controller import Controller
from ..exports import CHART_FORMAT, available_formats
from ..labels import dataset_label
from ..reading import Part, reading_parts
from ..rephrase import edit_of, rephrase
from .charts import chart_view
from .home_panel import home_panel
from .tables import result_table
from .widgets import caption, copyable, reading_row, record_content, timeline_folded, timeline_tile

__all__ = ["AskView"]

SCROLL_EVENTS_MS = 50  # throttled: the last position of a fast scroll must still arrive


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

    def __init__(
        self, c: Controller, index: int, trace: Callable[..., None], on_edit: Callable[[int, Part], None] | None = None
    ) -> None:
        self.c, self.index, self.trace, self.on_edit = c, index, trace, on_edit
        self.question = ft.Text(weight=ft.FontWeight.BOLD, size=15)
        self.reading = ft.Container()
        self.timeline = ft.Column(spacing=0)
        self.status = ft.Row(spacing=8)
        self.draft = ft.Text(italic=True)
        self.answer = ft.Markdown("", selectable=True, extension_set=ft.MarkdownExtensionSet.GITHUB_WEB)
        self.clarify = ft.Column(spacing=6)
        self.note = caption("")
        self.chips = ft.Row(wrap=True, spacing=6, run_spacing=6)
        self.tables = ft.Column(spacing=16)
        self.chart = ft.Container()
        self.exports = ft.Row(wrap=True, spacing=8)
        # Parts are emptied rather than hidden: the list of children never changes, so nothing below remounts.
        self.root = ft.Container(
            ft.Column(
                [
                    self.question,
                    self.reading,
                    self.timeline,
                    self.status,
                    self.draft,
                    self.answer,
                    self.clarify,
                    self.note,
                    self.chips,
                    self.tables,
                    self.chart,
                    self.exports,
                ],
                spacing=8,
            ),
            padding=12,
            border_radius=8,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            key=ft.ScrollKey(f"turn-{index}"),
        )
        self._sig: dict[str, object] = {}
        self._turn: Turn | None = None

    def _changed(self, part: str, sig: object) -> bool:
        if self._sig.get(part) == sig:
            return False
        self._sig[part] = sig
        return True

    def sync(self, turn: Turn, last: bool, chosen: bool = False) -> None:
        if turn is not self._turn:  # another conversation in the same place: redraw it all
            self._turn, self._sig = turn, {}
        self.question.value = f"You: {turn.question}"
        if self._changed("reading", id(turn.payload)):
            parts = reading_parts(turn.interpretation)
            on_edit = self.on_edit
            edit = (lambda p: on_edit(self.index, p)) if on_edit is not None and not turn.clarify else None
            self.reading.content = reading_row(parts, edit) if parts else None
        if self._changed("timeline", (len(turn.entries), turn.status, bool(turn.answer))):
            tiles = [timeline_tile(e) for e in turn.entries]
            folded = turn.answer and tiles and turn.status != "running"
            self.timeline.controls = [timeline_folded(turn, tiles)] if folded else tiles
            if turn.entries and "first_step" not in self._sig:
                self._sig["first_step"] = True
                self.trace(
                    "first_step_shown",
                    index=self.index,
                    title=turn.entries[0].title,
                    ms=round((time.perf_counter() - turn.sent_at) * 1000, 1),
                )
        if self._changed("status", (turn.status, turn.error, bool(turn.draft))):
            self.status.controls = self._status(turn)
        self.draft.value = turn.draft if turn.draft and not turn.answer else ""
        if self._changed("answer", (turn.answer, id(turn.payload))):
            self.answer.value = "" if turn.clarify else turn.shown
            self._answer_parts(turn)
            if turn.answer and turn.payload and turn.sent_at:
                self.trace("answer_shown", index=self.index, ms=round((time.perf_counter() - turn.sent_at) * 1000, 1))
        if self._changed("clarify", (id(turn.payload), last, chosen)):
            self.clarify.controls = self._clarify(turn, last, chosen)
        self.note.value = turn.note
        if self._changed(
            "tables",
            (
                id(turn.payload),
                tuple(
                    (t.sort_column, t.ascending, t.page, len(t.rows), t.loading, tuple(t.hidden)) for t in turn.tables
                ),
            ),
        ):
            self.tables.controls = [
                result_table(t, self._sorter(i), self._pager(i), self._all(i), self._columns(i))
                for i, t in enumerate(turn.tables)
            ]
        if self._changed("exports", (id(turn.payload), len(turn.exports), turn.busy, turn.chart is not None)):
            self.exports.controls = self._export_row(turn)

    def _answer_parts(self, turn: Turn) -> None:
        i = self.index
        self.chips.controls = ([caption("Sources:")] if turn.citations else []) + [
            ft.Chip(
                label=ft.Text(
                    f"{dataset_label(cite['dataset'])} {cite['id'].partition('=')[2] or cite['id']}", size=12
                ),
                leading=ft.Icon(ft.Icons.DESCRIPTION, size=16),
                tooltip=f"Open the record ({cite['id']})",
                on_click=lambda e, k=k: self.c.ask.open_citation(i, k),
            )
            for k, cite in enumerate(turn.citations)
        ]
        self.chart.content = chart_view(turn.chart) if turn.chart else None

    def _clarify(self, turn: Turn, last: bool, chosen: bool) -> list[ft.Control]:
        c = turn.clarify
        if c is None:
            return []
        i = self.index
        buttons: list[ft.Control] = [
            ft.OutlinedButton(label, disabled=not last, on_click=lambda e, k=k: self.c.ask.choose(i, k))
            for k, label in enumerate(c["choices"])
        ]
        hint = (
            "Choose one, or ask again in other words."
            if last
            else "Answered below, with your choice."
            if chosen
            else "Not answered: another question was asked instead."
        )
        return [ft.Text(c["question"], size=14), ft.Row(buttons, wrap=True, spacing=8, run_spacing=8), caption(hint)]

    def _sorter(self, t: int) -> Callable[[int, bool], None]:
        return lambda column, ascending: self.c.ask.sort(self.index, t, column, ascending)

    def _pager(self, t: int) -> Callable[[int], None]:
        return lambda step: self.c.ask.turn_page(self.index, t, step)

    def _all(self, t: int) -> Callable[[], None]:
        return lambda: self.c.ask.show_all(self.index, t)

    def _columns(self, t: int) -> Callable[[str], None]:
        return lambda name: self.c.ask.toggle_column(self.index, t, name)

    def _status(self, turn: Turn) -> list[ft.Control]:
        i = self.index
        if turn.status == "running":
            doing = "The model is writing a summary…" if turn.draft else "Working…"
            return [
                ft.ProgressRing(width=16, height=16, stroke_width=2),
                caption(doing),
                ft.TextButton("Cancel", icon=ft.Icons.STOP, on_click=lambda e: self.c.ask.cancel()),
            ]
        if turn.status in ("failed", "cancelled"):
            text = f"Not answered: {turn.error}" if turn.status == "failed" else "Cancelled."
            return [
                ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ERROR, size=18),
                copyable(text, size=14, color=ft.Colors.ERROR, expand=True),
                ft.TextButton("Retry", icon=ft.Icons.REFRESH, on_click=lambda e: self.c.ask.retry(i)),
            ]
        return []

    def _export_row(self, turn: Turn) -> list[ft.Control]:
        if not turn.payload or turn.clarify or not turn.searched:
            return []
        i = self.index
        stamp = "; ".join(f"{dataset_label(k)} {v}" for k, v in sorted(turn.as_of.items())) or "unknown"
        buttons: list[ft.Control] = [
            ft.OutlinedButton(
                f"Export {f.upper()}",
                icon=ft.Icons.DOWNLOAD,
                tooltip=f"Save as a {FORMAT_NAMES[f]}",
                disabled=bool(turn.busy),
                on_click=lambda e, f=f: self.c.ask.export(i, f),
            )
            for f in available_formats()
        ]
        if turn.chart is not None:
            buttons.append(
                ft.OutlinedButton(
                    "Export PNG",
                    icon=ft.Icons.IMAGE_OUTLINED,
                    tooltip="Save the chart as a PNG image (with its as-of date)",
                    disabled=bool(turn.busy),
                    on_click=lambda e: self.c.ask.export(i, CHART_FORMAT),
                )
            )
        busy = [ft.ProgressRing(width=16, height=16, stroke_width=2), caption(turn.busy)] if turn.busy else []
        saved = [copyable(f"Saved: {p}") for p in turn.exports[-3:]]
        return buttons + busy + [caption(f"Data as of {stamp}")] + saved


class AskView:
    def __init__(self, c: Controller, page: ft.Page, trace: Callable[..., None]) -> None:
        self.c, self.page, self.trace = c, page, trace
        c.ask.in_browser = bool(page.web)
        self.turn_views: list[TurnView] = []
        self.title = ft.Text(
            "New conversation", size=18, weight=ft.FontWeight.BOLD, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS
        )
        self.model = caption("")
        self.conversation = ft.Column(
            expand=True,
            spacing=12,
            scroll=ft.ScrollMode.AUTO,
            scroll_interval=SCROLL_EVENTS_MS,
            on_scroll=self._scrolled,
        )
        self.offset = 0.0  # where the reader is, restored when the screen comes back
        self._returning = False
        self._shown_sig: tuple = ()
        self._home: ft.Control | None = None
        self._home_sig: tuple = ()
        self._scroll_sig: tuple = ()
        self._scroll: object = ""  # "end", a turn's scroll key, an offset, or nothing to do
        self.field = ft.TextField(
            hint_text="Ask about devices, adverse events, recalls, 510(k)s… (Enter sends, Shift+Enter for a new line)",
            multiline=True,
            shift_enter=True,
            min_lines=1,
            max_lines=6,
            expand=True,
            autofocus=True,
            on_submit=self._send,
        )
        self.send_button = ft.IconButton(ft.Icons.SEND, tooltip="Send (Enter)", on_click=self._send)
        self.cancel_button = ft.OutlinedButton(
            "Cancel", icon=ft.Icons.STOP, visible=False, on_click=lambda e: self.c.ask.cancel()
        )
        self._record_body = ft.Column(spacing=6)
        self.record_title = ft.Text("", size=16)
        self._dialog_open = False
        header = ft.Row(
            [
                ft.Column([self.title, self.model], spacing=0, expand=True),
                ft.TextButton(
                    "New conversation (Ctrl+K)",
                    icon=ft.Icons.ADD_COMMENT,
                    on_click=lambda e: self.c.key("K", ctrl=True),
                ),
            ]
        )
        self.root = ft.Column(
            [
                header,
                self.conversation,
                ft.Row(
                    [self.field, self.send_button, self.cancel_button], vertical_alignment=ft.CrossAxisAlignment.END
                ),
            ],
            expand=True,
        )

    def _scrolled(self, e: ft.OnScrollEvent) -> None:
        """Remember where the reader is; not while the screen is away or coming back (Flutter reports 0 then)."""
        if self.c.screen == "ask" and not self._returning:
            self.offset = float(e.pixels)

    async def _send(self) -> None:
        # The browser's input element holds its final text before Enter reaches the app (checked on fast typing);
        # only the desktop client may deliver Enter before the last keystroke's value.
        text = (self.field.value or "") if self.page.web else await settled(self.field)
        ft.context.disable_auto_update()  # the answer's first redraw (Shell._flush) also clears the box
        if self.c.ask.send(text):
            self.field.value = ""

    def ask_example(self, question: str) -> None:
        self.field.value = ""
        self.c.ask.send(question)

    def render(self) -> None:
        ask = self.c.ask
        self.title.value = ask.title
        name, state = self.c.model
        self.model.value = f"Model: {name} ({state})"
        if len(self.turn_views) > len(ask.turns) or any(tv.index >= len(ask.turns) for tv in self.turn_views):
            self.turn_views = []
        while len(self.turn_views) < len(ask.turns):
            self.turn_views.append(TurnView(self.c, len(self.turn_views), self.trace, self.edit_part))
        for k, (tv, turn) in enumerate(zip(self.turn_views, ask.turns)):
            following = ask.turns[k + 1].question if k + 1 < len(ask.turns) else None
            clarify = turn.clarify
            tv.sync(turn, last=following is None, chosen=clarify is not None and following in clarify["choices"])
        home = [self._home_panel()] if not ask.turns or self.c.first_run else []
        self.conversation.controls = home + [tv.root for tv in self.turn_views]
        self.cancel_button.visible = ask.busy
        self._trace_shown()
        last = ask.turns[-1] if ask.turns else None
        sig = (len(ask.turns), len(last.entries), bool(last.answer)) if last else ()
        if last is not None and sig != self._scroll_sig:  # follow a running answer; show an answer from its question
            self._scroll = f"turn-{len(ask.turns) - 1}" if last.answer else "end"
        self._scroll_sig = sig
        if not self.field.value:
            self.field.value = ask.take_draft()
        self._render_record()
        for path in ask.take_downloads():
            if self.page.web:  # the browser gets the file; it is also kept in the exports folder
                self.page.run_task(self._download, path)

    def _home_panel(self) -> ft.Control:
        """The home, built again only when what it shows has changed (a new tree costs the client a redraw)."""
        c = self.c
        run = c.data.run
        sig = (
            c.first_run,
            tuple(c.home.examples),
            tuple((r.name, r.as_of, r.badge) for r in c.data.rows),
            c.model,
            run is not None and run.running,
        )
        if sig != self._home_sig or self._home is None:
            self._home_sig, self._home = sig, home_panel(c, self.ask_example)
        return self._home

    def _trace_shown(self) -> None:
        """A milestone for the tests: a conversation drawn whole (after a resume, or once all its answers are in)."""
        ask = self.c.ask
        if not ask.turns or ask.busy:
            return
        sig = (ask.session_id, len(ask.turns), sum(len(t.tables) for t in ask.turns))
        if sig != self._shown_sig:
            self._shown_sig = sig
            self.trace(
                "conversation_shown",
                session=ask.session_id,
                turns=len(ask.turns),
                tables=sum(len(tv.tables.controls) for tv in self.turn_views),
                charts=sum(tv.chart.content is not None for tv in self.turn_views),
                exports=sum(bool(tv.exports.controls) for tv in self.turn_views),
            )

    def restore(self) -> None:
        """The screen came back: return to where the reader was (nothing to do at the top)."""
        if self.offset > 0:
            self._scroll, self._returning = self.offset, True

    async def settle(self) -> None:
        """After the page is updated: follow the conversation to its end when it grew at the bottom, show a new
        answer from its question, or return to the reader's place. Scrolls are instant: Flet fails on the answer to
        a scroll that arrives after its control left the page (the person switched screens meanwhile)."""
        target, self._scroll = self._scroll, ""
        if target == "end":
            await self.conversation.scroll_to(offset=-1)
        elif isinstance(target, float):
            try:
                await self.conversation.scroll_to(offset=target)
            finally:
                self._returning = False
            self.trace("scroll_restored", screen="ask", offset=round(target))
        elif isinstance(target, str) and target:
            await self.conversation.scroll_to(scroll_key=target)

    def _render_record(self) -> None:
        rec = self.c.ask.record
        if rec is None:
            if self._dialog_open:
                self._dialog_open = False
                self.page.pop_dialog()
            return
        if not self._dialog_open:
            self._dialog_open = True
            self.page.show_dialog(
                ft.AlertDialog(
                    title=self.record_title,
                    scrollable=True,
                    content=ft.Container(self._record_body, width=760),
                    actions=[
                        ft.TextButton("Copy the original record (JSON)", icon=ft.Icons.COPY, on_click=self._copy),
                        ft.TextButton("Close", on_click=lambda e: self.c.ask.close_record()),
                    ],
                    on_dismiss=lambda e: self.c.ask.close_record(),
                )
            )
        self.record_title.value = rec.title
        if rec.loading:
            self._record_body.controls = [caption("Loading…")]
        elif rec.error:
            self._record_body.controls = [ft.Text(rec.error, color=ft.Colors.ERROR)]
        else:
            link = rec.link
            self._record_body.controls = record_content(rec) + (
                [copyable(f"On fda.gov (when this computer is online): {link}")] if link else []
            )

    async def _copy(self, e) -> None:
        rec = self.c.ask.record
        if rec is not None and rec.text:
            await self.page.clipboard.set(rec.text)
            self.c.report(info("The original record was copied (JSON)."))

    async def _download(self, path: Path) -> None:
        """Hand an export to the browser as a download (the web build: the server's folder may be out of reach)."""
        try:
            await ft.FilePicker().save_file(file_name=path.name, src_bytes=path.read_bytes())
        except Exception as e:
            self.c.report(banner_for(e, f"handing {path.name} to the browser"))
            return
        self.trace("download_offered", file=path.name, bytes=path.stat().st_size)

    # -- changing a part of the reading and asking again ------------------------------------------------------------
    def edit_part(self, turn_index: int, part: Part) -> None:
        """A small editor for one part of an answer's reading; "Ask again" asks the changed question below."""
        turn = self.c.ask.turns[turn_index]
        edit = edit_of(part.kind, turn.interpretation, part.value)
        if edit is None or self._dialog_open:
            return
        preview = caption("")
        control: ft.RadioGroup | ft.TextField

        def question() -> str:
            return rephrase(turn.question, turn.interpretation, edit.kind, control.value or "", part.value)

        def changed(e=None) -> None:
            preview.value = f"Asks: \u201c{question()}\u201d"
            preview.update()

        async def ask_again(e=None) -> None:
            if isinstance(control, ft.TextField):
                await settled(control)
            self.page.pop_dialog()
            self.c.ask.rerun(turn_index, edit.kind, control.value or "", part.value)

        if edit.choices:
            control = ft.RadioGroup(
                ft.Column([ft.Radio(value=k, label=label) for k, label in edit.choices], spacing=0),
                value=edit.current,
                on_change=changed,
            )
        else:
            control = ft.TextField(
                value=edit.current,
                label=edit.title.removeprefix("Change the ").capitalize(),
                autofocus=True,
                on_change=changed,
                on_submit=ask_again,
            )
        preview.value = f"Asks: \u201c{question()}\u201d"
        self.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(edit.title),
                content=ft.Column([caption(edit.hint), control, preview], tight=True, width=520),
                actions=[
                    ft.TextButton("Cancel", on_click=lambda e: self.page.pop_dialog()),
                    ft.FilledButton("Ask again", icon=ft.Icons.REPLAY, on_click=ask_again),
                ],
            )
        )
