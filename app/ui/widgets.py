"""Drawing helpers: timeline entries, the reading of a question, a record's fields, badges; no state, no logic."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ..reading import Part
from ..records import RecordView
from ..timeline import Entry

__all__ = ["timeline_tile", "timeline_folded", "reading_row", "record_content", "badge", "caption", "copyable"]

ICONS = {
    "step": ft.Icons.ROUTE,
    "tool": ft.Icons.BUILD_OUTLINED,
    "result": ft.Icons.CHECK_CIRCLE_OUTLINE,
    "note": ft.Icons.INFO_OUTLINE,
    "error": ft.Icons.ERROR_OUTLINE,
}


def caption(text: str, color: str | None = None, **kw) -> ft.Text:
    return ft.Text(text, size=12, color=color or ft.Colors.ON_SURFACE_VARIANT, **kw)


def copyable(text: str, size: float = 12, **kw) -> ft.Text:
    """Selectable text; its semantics label repeats it (selectable text is otherwise invisible to screen readers)."""
    return ft.Text(text, size=size, selectable=True, semantics_label=text, **kw)


def timeline_tile(entry: Entry) -> ft.Control:
    """An expandable line: the title, its time, and (expanded) the arguments, queries and result summary."""
    icon = ft.Icons.ERROR_OUTLINE if entry.ok is False else ICONS.get(entry.kind, ft.Icons.CIRCLE)
    color = ft.Colors.ERROR if entry.ok is False else ft.Colors.PRIMARY
    title = ft.Text(entry.title, size=13, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
    subtitle = caption(f"{entry.seconds * 1000:,.0f} ms")
    leading = ft.Icon(icon, size=18, color=color)
    if not entry.details:
        return ft.ListTile(
            leading=leading,
            title=title,
            subtitle=subtitle,
            dense=True,
            content_padding=ft.Padding.symmetric(horizontal=8),
        )
    details: list[ft.Control] = [copyable(f"{label}: {text}", font_family="monospace") for label, text in entry.details]
    return ft.ExpansionTile(
        leading=leading,
        title=title,
        subtitle=subtitle,
        dense=True,
        controls=details,
        controls_padding=ft.Padding.only(left=48, right=8, bottom=6),
        expanded_cross_axis_alignment=ft.CrossAxisAlignment.START,
        expanded_alignment=ft.Alignment.TOP_LEFT,
        tile_padding=ft.Padding.symmetric(horizontal=8),
    )


def timeline_folded(turn, tiles: list[ft.Control]) -> ft.Control:
    """The timeline of an answered question, folded into one line that expands to its steps."""
    took = turn.payload.get("seconds") or (turn.entries[-1].seconds if turn.entries else 0)
    n = len(turn.entries)
    took_text = f"{took * 1000:,.0f} ms" if took < 10 else f"{took:,.1f} s"
    return ft.ExpansionTile(
        leading=ft.Icon(ft.Icons.TIMELINE, size=18, color=ft.Colors.PRIMARY),
        title=ft.Text(f"How this was answered: {n} step{'s' if n != 1 else ''}, {took_text}", size=13),
        subtitle=caption("the searches, their exact openFDA queries and what they found"),
        dense=True,
        controls=tiles,
        tile_padding=ft.Padding.symmetric(horizontal=8),
        controls_padding=ft.Padding.only(left=16),
    )


EDIT_TIPS = {
    "dataset": "Click to search other records with the same question",
    "device": "Click to change the device and ask again",
    "firm": "Click to change the firm and ask again",
    "dates": "Click to change the dates and ask again",
}


def _reading_chip(p: Part, on_edit: Callable[[Part], None] | None) -> ft.Control:
    unused = p.kind == "unused"
    text = ft.Text(p.text, size=12, color=ft.Colors.ON_ERROR_CONTAINER if unused else None)
    editable = on_edit is not None and p.editable
    tip = "\n".join(t for t in (p.detail, EDIT_TIPS.get(p.kind, "") if editable else "") if t) or None
    return ft.Container(
        ft.Row([text, ft.Icon(ft.Icons.EDIT, size=12, color=ft.Colors.ON_SURFACE_VARIANT)], spacing=4, tight=True)
        if editable
        else text,
        bgcolor=ft.Colors.ERROR_CONTAINER if unused else ft.Colors.SECONDARY_CONTAINER,
        border_radius=12,
        padding=ft.Padding.symmetric(horizontal=10, vertical=3),
        tooltip=tip,
        ink=editable,
        on_click=(lambda e: on_edit(p)) if editable and on_edit else None,
    )


def reading_row(parts: list[Part], on_edit: Callable[[Part], None] | None = None) -> ft.Control:
    """'Interpreted as' and the parts of the reading as chips (each one's details in its tooltip); with `on_edit`,
    a click on a dataset, device, firm or dates chip calls it (to change that part and ask again)."""
    chips = [_reading_chip(p, on_edit) for p in parts]
    return ft.Row(
        [caption("Interpreted as:")] + chips,
        wrap=True,
        spacing=6,
        run_spacing=4,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def record_content(view: RecordView) -> list[ft.Control]:
    """A record's groups: labelled fields (the field name in a tooltip) and narratives as paragraphs."""
    out: list[ft.Control] = []
    for g in view.groups:
        out.append(ft.Text(g.title, weight=ft.FontWeight.BOLD, size=14))
        for f in g.fields:
            label = ft.Text(f.label, size=12, color=ft.Colors.ON_SURFACE_VARIANT, width=190, tooltip=f"Field {f.name}")
            value = ft.Text(f.value, size=13, selectable=True, semantics_label=f"{f.label}: {f.value}")
            out.append(
                ft.Column([label, value], spacing=2)
                if f.narrative
                else ft.Row([label, ft.Container(value, expand=True)], vertical_alignment=ft.CrossAxisAlignment.START)
            )
        out.append(ft.Divider(height=8))
    return out


def badge(text: str, color: str, tooltip: str | None = None) -> ft.Control:
    return ft.Container(
        ft.Text(text, size=11, color=ft.Colors.WHITE, weight=ft.FontWeight.BOLD),
        bgcolor=color,
        border_radius=10,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        tooltip=tooltip,
    )
