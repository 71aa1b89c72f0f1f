"""The Sessions screen: saved conversations, a search box, resume and delete."""

from __future__ import annotations

import flet as ft

from ..controller import Controller
from .widgets import caption

__all__ = ["SessionsView"]


class SessionsView:
    def __init__(self, c: Controller) -> None:
        self.c = c
        self.search = ft.TextField(
            hint_text="Search questions and answers",
            prefix_icon=ft.Icons.SEARCH,
            on_change=lambda e: self.c.sessions.search(e.control.value or ""),
            expand=True,
        )
        self.summary = caption("")
        self.confirm = ft.Row()  # emptied, not hidden: the list below never moves under the pointer
        self.items = ft.ListView(expand=True, spacing=4)
        self.root = ft.Column(
            [
                ft.Text("Sessions", size=18, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        self.search,
                        ft.IconButton(
                            ft.Icons.REFRESH,
                            tooltip="Read the list again",
                            on_click=lambda e: self.c.sessions.refresh(),
                        ),
                    ]
                ),
                self.summary,
                ft.Container(self.confirm, height=44),
                self.items,
            ],
            expand=True,
        )

    def render(self) -> None:
        s = self.c.sessions
        shown = s.visible
        self.summary.value = (
            "Loading…"
            if s.loading
            else f"{len(shown)} of {len(s.items)} conversations" + (f" matching “{s.query}”" if s.query else "")
        )
        self.items.controls = [
            ft.ListTile(
                leading=ft.Icon(ft.Icons.FORUM_OUTLINED),
                title=ft.Text(item.title or "(empty)", max_lines=2),
                subtitle=caption(
                    f"{item.turns} question{'s' if item.turns != 1 else ''} · last asked "
                    f"{item.updated}" + (f"\nFound in: {s.matched(item)}" if s.query else "")
                ),
                tooltip=f"Session {item.session}",
                on_click=lambda e, sid=item.session: self.c.resume(sid),
                trailing=ft.IconButton(
                    ft.Icons.DELETE_OUTLINE,
                    tooltip="Delete this conversation",
                    on_click=lambda e, sid=item.session: self.c.sessions.request_delete(sid),
                ),
            )
            for item in shown
        ]
        sid = s.confirming
        title = next((i.title for i in s.items if i.session == sid), "")
        self.confirm.controls = (
            []
            if sid is None
            else [
                ft.Text(
                    f"Delete the conversation \u201c{title[:80]}\u201d? Its answers' audit logs are kept.",
                    color=ft.Colors.ERROR,
                ),
                ft.FilledButton("Delete", on_click=lambda e: self.c.sessions.delete(sid)),
                ft.TextButton("Keep", on_click=lambda e: self.c.sessions.keep()),
            ]
        )
