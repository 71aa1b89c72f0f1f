"""The window: navigation, the banner and the five screens, redrawn on the UI loop whenever the controller changes."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

import flet as ft

from ..controller import SCREENS, Controller
from .ask_view import AskView
from .data_view import DataView
from .sessions_view import SessionsView
from .settings_view import SettingsView
from .watch_view import WatchView
from .window import close_window

__all__ = ["Shell"]

RAIL = [
    (ft.Icons.QUESTION_ANSWER_OUTLINED, ft.Icons.QUESTION_ANSWER, "Ask"),
    (ft.Icons.HISTORY, ft.Icons.HISTORY, "Sessions"),
    (ft.Icons.STORAGE_OUTLINED, ft.Icons.STORAGE, "Data"),
    (ft.Icons.QUERY_STATS_OUTLINED, ft.Icons.QUERY_STATS, "Surveillance"),
    (ft.Icons.SETTINGS_OUTLINED, ft.Icons.SETTINGS, "Settings"),
]
LEVELS = {
    "error": (ft.Colors.ERROR_CONTAINER, ft.Icons.ERROR_OUTLINE),
    "warning": (ft.Colors.TERTIARY_CONTAINER, ft.Icons.WARNING_AMBER),
    "info": (ft.Colors.SECONDARY_CONTAINER, ft.Icons.INFO_OUTLINE),
}
THEMES = {"system": ft.ThemeMode.SYSTEM, "light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}


class Shell:
    """Controller changes arrive on any thread; they are batched and drawn by one task on the page's loop."""

    def __init__(self, page: ft.Page, c: Controller, trace: Callable[..., None]) -> None:
        self.page, self.c, self.trace = page, c, trace
        self.views: dict[str, Any] = {
            "ask": AskView(c, page, trace),
            "sessions": SessionsView(c),
            "data": DataView(c, page),
            "surveil": WatchView(c, page),
            "settings": SettingsView(c, page),
        }
        self.rail = ft.NavigationRail(
            selected_index=0,
            label_type=ft.NavigationRailLabelType.ALL,
            min_width=88,
            destinations=[ft.NavigationRailDestination(icon=i, selected_icon=s, label=t) for i, s, t in RAIL],
            on_change=lambda e: self.c.go(SCREENS[e.control.selected_index]),
        )
        self.banner_text = ft.Text("", expand=True, selectable=True)  # its semantics label repeats it
        self.banner_icon = ft.Icon(ft.Icons.INFO_OUTLINE)
        self.banner_details = ft.Icon(ft.Icons.HELP_OUTLINE, size=18, visible=False)
        self.banner_action = ft.TextButton("", on_click=lambda e: self.c.banner_action())
        # The banner floats over the screen (a Stack): showing or hiding it never moves what the reader sees.
        self.banner = ft.Container(
            ft.Row(
                [
                    self.banner_icon,
                    self.banner_text,
                    self.banner_details,
                    self.banner_action,
                    ft.IconButton(ft.Icons.CLOSE, tooltip="Dismiss", on_click=lambda e: self.c.dismiss_banner()),
                ]
            ),
            padding=ft.Padding.symmetric(horizontal=12, vertical=4),
            border_radius=8,
            visible=False,
            left=12,
            right=12,
            top=4,
            shadow=ft.BoxShadow(blur_radius=12, color=ft.Colors.with_opacity(0.35, "black")),
        )
        self.body = ft.Container(expand=True)
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._dirty = set(SCREENS)
        page.title = "FDA Explorer Offline"
        page.padding = 8
        page.on_keyboard_event = self._key
        page.add(
            ft.Row(
                [self.rail, ft.VerticalDivider(width=1), ft.Stack([self.body, self.banner], expand=True)], expand=True
            )
        )
        c.subscribe(self._changed)
        self.draw({"theme", "screen", "banner"})

    def _key(self, e: ft.KeyboardEvent) -> None:
        """A key reaches the controller without a redraw of the whole page after it: Flet's auto-update would diff
        every control after every keystroke (a typed question is dozens of diffs, and under load the question's
        Enter waited behind them: about 300-600 ms in the browser). The app redraws what changed itself (_flush)."""
        ft.context.disable_auto_update()  # for this event only (each event gets its own context)
        if self.c.key(e.key, ctrl=e.ctrl, shift=e.shift, meta=e.meta) == "quit":
            self.page.run_task(close_window, self.page)

    # -- drawing ------------------------------------------------------------------------------------------
    def _changed(self, topic: str) -> None:
        with self._lock:
            first = not self._pending
            self._pending.add(topic)
        if first:
            try:
                self.page.run_task(self._flush)
            except (RuntimeError, AttributeError):  # the page's session has ended (a closed browser tab):
                pass  # Flet raises one or the other, depending on the moment

    async def _flush(self) -> None:
        with self._lock:
            topics, self._pending = self._pending, set()
        try:
            self.draw(topics)
        except Exception:  # a drawing bug must not stop later redraws; it is logged
            traceback.print_exc()
        try:
            self.page.update()
            view = self.views[self.c.screen]
            if hasattr(view, "settle"):
                await view.settle()
        except (RuntimeError, AttributeError) as e:  # the window or tab closed while this redraw was on its way
            if not self._closed(e):
                raise

    def _closed(self, error: BaseException) -> bool:
        """Flet's errors when its session has ended: "Session closed", or no connection any more."""
        session = getattr(self.page, "session", None)
        return "Session closed" in str(error) or getattr(session, "connection", None) is None

    def draw(self, topics: set[str]) -> None:
        if "warm" in topics:
            self.trace("assistant_ready", model=self.c.backend.model_name)
        self._dirty |= topics & set(SCREENS)
        if topics & {"data", "warm"}:
            self._dirty.add("ask")  # the home shows the data's freshness and the model
        if "theme" in topics:
            self._theme()
        if "banner" in topics:
            self._banner()
        if "screen" in topics:
            self.rail.selected_index = SCREENS.index(self.c.screen)
            view = self.views[self.c.screen]
            if self.body.content is not view.root:
                self.body.content = view.root
                if hasattr(view, "restore"):
                    view.restore()  # each screen comes back where its reader left it
            self._dirty.add(self.c.screen)
        if self.c.screen in self._dirty:
            self._dirty.discard(self.c.screen)
            self.views[self.c.screen].render()

    def _theme(self) -> None:
        cfg = self.c.config
        self.page.theme_mode = THEMES.get(cfg.theme, ft.ThemeMode.SYSTEM)
        seed = getattr(ft.Colors, cfg.color.upper(), ft.Colors.INDIGO)
        self.page.theme, self.page.dark_theme = ft.Theme(color_scheme_seed=seed), ft.Theme(color_scheme_seed=seed)

    def _banner(self) -> None:
        b = self.c.banner
        self.banner.visible = b is not None
        if b is None:
            return
        self.banner.bgcolor, self.banner_icon.icon = LEVELS.get(b.level, LEVELS["info"])
        self.banner_text.value = self.banner_text.semantics_label = b.message
        self.banner_action.content = b.action
        self.banner_action.visible = bool(b.action)
        self.banner_details.visible = bool(b.details)
        self.banner_details.tooltip = f"Details: {b.details}" if b.details else None
        self.trace("banner_shown", level=b.level, message=b.message)
