"""The Sessions screen: saved conversations, a search box, resume and delete."""

from __future__ import annotations

import flet as ft

from ..controller import Controller
from .widgets import caption

__all__ = ["SessionsView"]


class SessionsView:
    def __init__(self, c: Controller) -> None:
        self.c = c
        self.search = ft.TextField(hint_text="Search questions and answers", prefix_icon=ft.Icons.SEARCH,
                                   on_change=lambda e: self.c.sessions.search(e.control.value or ""), expand=True)
        self.summary = caption("")
        self.confirm = ft.Row(visible=False)
        self.items = ft.ListView(expand=True, spacing=4)
        self.root = ft.Column([ft.Text("Sessions", size=18, weight=ft.FontWeight.BOLD),
                               ft.Row([self.search, ft.IconButton(ft.Icons.REFRESH, tooltip="Reload",
                                                                  on_click=lambda e: self.c.sessions.refresh())]),
                               self.summary, self.confirm, self.items], expand=True)

    def render(self) -> None:
        s = self.c.sessions
        shown = s.visible
        self.summary.value = ("Loading…" if s.loading else
                              f"{len(shown)} of {len(s.items)} sessions" + (f" matching “{s.query}”" if s.query else ""))
        self.items.controls = [
            ft.ListTile(leading=ft.Icon(ft.Icons.FORUM_OUTLINED), title=ft.Text(item.title or "(empty)", max_lines=2),
                        subtitle=caption(f"{item.session} · {item.turns} question(s) · {item.updated}"),
                        on_click=lambda e, sid=item.session: self.c.resume(sid),
                        trailing=ft.IconButton(ft.Icons.DELETE_OUTLINE, tooltip=f"Delete {item.session}",
                                               on_click=lambda e, sid=item.session: self.c.sessions.request_delete(sid)))
            for item in shown]
        sid = s.confirming
        self.confirm.visible = sid is not None
        self.confirm.controls = [] if sid is None else [
            ft.Text(f"Delete the session {sid} and its saved conversation?", color=ft.Colors.ERROR),
            ft.FilledButton("Delete", on_click=lambda e: self.c.sessions.delete(sid)),
            ft.TextButton("Keep", on_click=lambda e: self.c.sessions.keep())]
