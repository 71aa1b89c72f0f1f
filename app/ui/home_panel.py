"""The home of a new conversation: example questions the mirror can answer, its datasets' freshness, what the last
sync changed for each watchlist, the model."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ..banners import IMPORT_FOLDER
from ..controller import Controller
from ..labels import dataset_label
from .widgets import caption

__all__ = ["home_panel", "BADGES"]

BADGES = {"fresh": ft.Colors.GREEN_700, "stale": ft.Colors.ORANGE_800, "incomplete": ft.Colors.RED_700}
FIRST_RUN = (
    "There is no FDA data in {dir} yet. Load the sample (a few thousand real records, in seconds) to try "
    "the app. For the real data, open Data: sync from the openFDA download site (this needs the internet; "
    "the full device data is tens of GB), or import a data bundle from a folder, such as a USB drive "
    "(an air-gap bundle exported on a connected computer)."
)


def _welcome(c: Controller) -> ft.Control:
    run = c.data.run
    busy = run is not None and run.running
    buttons: list[ft.Control] = [
        ft.FilledButton(
            "Load the sample mirror",
            icon=ft.Icons.DOWNLOAD_FOR_OFFLINE,
            disabled=busy,
            on_click=lambda e: c.data.load_sample(),
        ),
        ft.TextButton("Import a folder", icon=ft.Icons.USB, on_click=lambda e: c.open_target(IMPORT_FOLDER)),
        ft.TextButton("Open Data", on_click=lambda e: c.go("data")),
    ]
    if busy:
        buttons += [ft.ProgressRing(width=18, height=18), caption("Loading the sample…")]
    return ft.Container(
        ft.Column(
            [
                ft.Text("Welcome to FDA Explorer Offline", weight=ft.FontWeight.BOLD, size=16),
                ft.Text(FIRST_RUN.format(dir=c.config.data_dir)),
                ft.Row(buttons),
            ]
        ),
        padding=16,
        border_radius=8,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
    )


def _datasets(c: Controller) -> ft.Control:
    """One line per dataset (few widgets: the home is drawn and taken away at every new conversation)."""
    lines: list[ft.Control] = []
    for r in c.data.rows:
        words = {
            "fresh": "fresh",
            "stale": f"{r.age_days} days old" if r.age_days is not None else "stale",
            "incomplete": "incomplete",
        }[r.badge]
        lines.append(
            ft.Text(
                spans=[
                    ft.TextSpan(dataset_label(r.name), ft.TextStyle(weight=ft.FontWeight.BOLD)),
                    ft.TextSpan(f"  as of {r.as_of}, "),
                    ft.TextSpan(words, ft.TextStyle(color=BADGES[r.badge])),
                ],
                size=12,
                width=380,
            )
        )
    return ft.Row(lines, wrap=True, spacing=12, run_spacing=4)


def _digest(c: Controller) -> list[ft.Control]:
    """What the latest sync added or changed for each watchlist (nothing when there are no watchlists)."""
    s = c.surveil
    if not s.digest:
        return []
    lines: list[ft.Control] = [
        ft.Text(
            spans=[
                ft.TextSpan(d.name, ft.TextStyle(weight=ft.FontWeight.BOLD)),
                ft.TextSpan(
                    ": " + (d.error or "; ".join(d.lines) or "nothing new or changed"),
                    ft.TextStyle(color=ft.Colors.ERROR) if d.error else None,
                ),
            ],
            size=12,
        )
        for d in s.digest
    ]
    return [
        ft.Divider(height=12),
        ft.Row(
            [
                ft.Text("What the last sync changed for your watchlists", size=13, weight=ft.FontWeight.BOLD),
                ft.TextButton("Open Surveillance", on_click=lambda e: c.go("surveil")),
            ]
        ),
        caption(
            f"Sync {s.digest_syncs}; new and changed records within each watchlist."
            if s.digest_syncs
            else "No sync recorded yet."
        ),
        *lines,
    ]


def home_panel(c: Controller, ask: Callable[[str], None]) -> ft.Control:
    if c.first_run:
        return _welcome(c)
    name, state = c.model
    examples: list[ft.Control] = [
        ft.OutlinedButton(q, icon=ft.Icons.CHAT_BUBBLE_OUTLINE, on_click=lambda e, q=q: ask(q)) for q in c.home.examples
    ]
    return ft.Column(
        [
            ft.Text("Ask about the FDA device data on this computer", size=16, weight=ft.FontWeight.BOLD),
            caption("Each answer names its records, the exact openFDA query and the date the data is as of."),
            ft.Text("Try one of these (each works on the data loaded here):", size=13)
            if examples
            else caption("Example questions appear once the data is read."),
            ft.Row(examples, wrap=True, spacing=8, run_spacing=8),
            ft.Divider(height=12),
            ft.Text("Data on this computer", size=13, weight=ft.FontWeight.BOLD),
            _datasets(c),
            *_digest(c),
            ft.Divider(height=12),
            ft.Row(
                [
                    ft.Icon(ft.Icons.SMART_TOY_OUTLINED, size=18),
                    ft.Text(f"{name}: {state}", size=13),
                    ft.TextButton("Change in Settings", on_click=lambda e: c.go("settings")),
                ]
            ),
        ],
        spacing=10,
    )
