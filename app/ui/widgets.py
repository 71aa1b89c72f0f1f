"""Drawing helpers: timeline entries, result tables, charts (line and bars), badges; no state, no logic."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft
import flet.canvas as cv

from ..results import Chart, ResultTable
from ..timeline import Entry

__all__ = ["timeline_tile", "timeline_folded", "result_table", "chart_view", "badge", "caption", "copyable"]

ICONS = {"step": ft.Icons.ROUTE, "tool": ft.Icons.BUILD_OUTLINED, "result": ft.Icons.CHECK_CIRCLE_OUTLINE,
         "note": ft.Icons.INFO_OUTLINE, "error": ft.Icons.ERROR_OUTLINE}


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
        return ft.ListTile(leading=leading, title=title, subtitle=subtitle, dense=True,
                           content_padding=ft.Padding.symmetric(horizontal=8))
    details = [copyable(f"{label}: {text}", font_family="monospace")
               for label, text in entry.details]
    return ft.ExpansionTile(leading=leading, title=title, subtitle=subtitle, dense=True, controls=details,
                            controls_padding=ft.Padding.only(left=48, right=8, bottom=6),
                            expanded_cross_axis_alignment=ft.CrossAxisAlignment.START,
                            expanded_alignment=ft.Alignment.TOP_LEFT,
                            tile_padding=ft.Padding.symmetric(horizontal=8))


def timeline_folded(turn, tiles: list[ft.Control]) -> ft.Control:
    """The timeline of an answered question, folded into one line that expands to its steps."""
    took = turn.entries[-1].seconds * 1000 if turn.entries else 0
    return ft.ExpansionTile(leading=ft.Icon(ft.Icons.TIMELINE, size=18, color=ft.Colors.PRIMARY),
                            title=ft.Text(f"How this was answered: {len(turn.entries)} steps, {took:,.0f} ms", size=13),
                            subtitle=caption("tool calls, their arguments, exact queries and results"), dense=True,
                            controls=tiles, tile_padding=ft.Padding.symmetric(horizontal=8),
                            controls_padding=ft.Padding.only(left=16))


def result_table(table: ResultTable, on_sort: Callable[[int, bool], None]) -> ft.Control:
    """A sortable table with its title, query and footer (total, as-of, capped note)."""
    columns = [ft.DataColumn(ft.Text(c, weight=ft.FontWeight.BOLD), numeric=c == "count",
                             on_sort=lambda e: on_sort(e.column_index, e.ascending)) for c in table.columns]
    rows = [ft.DataRow([ft.DataCell(ft.Text(v[:120], size=12)) for v in row])
            for row in table.cells()]
    grid = ft.DataTable(columns=columns, rows=rows, sort_column_index=table.sort_column,
                        sort_ascending=table.ascending, column_spacing=18, heading_row_height=36,
                        data_row_min_height=30, data_row_max_height=48)
    return ft.Column([
        ft.Text(f"Table: {table.title}", weight=ft.FontWeight.BOLD),
        copyable(f"query: {table.query}", color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Row([grid], scroll=ft.ScrollMode.AUTO),
        caption(table.footer, color=ft.Colors.TERTIARY if table.capped else None),
    ], spacing=4)


def chart_view(chart: Chart) -> ft.Control:
    body = _line(chart) if chart.kind == "line" else _bars(chart)
    title = f"Chart: {chart.title} ({'line' if chart.kind == 'line' else 'bars'}, as of {chart.as_of})"
    head = ft.Text(title, weight=ft.FontWeight.BOLD, semantics_label=f"{title}. {chart.describe()}")
    return ft.Column([head, body], spacing=6)


def _bars(chart: Chart, width: int = 360) -> ft.Control:
    peak = max(chart.peak, 1)
    rows = [ft.Row([ft.Text(label or "(none)", size=12, width=240, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                            tooltip=label),
                    ft.Container(width=max(2, width * value / peak), height=16, bgcolor=ft.Colors.PRIMARY,
                                 border_radius=3),
                    ft.Text(f"{value:,}", size=12)], spacing=8)
            for label, value in chart.points[:25]]
    return ft.Column(rows, spacing=4)


def _line(chart: Chart, width: int = 560, height: int = 180) -> ft.Control:
    pts, peak = chart.points, max(chart.peak, 1)
    left, bottom, top = 40, 24, 10
    span = max(len(pts) - 1, 1)

    def xy(i: int, v: int) -> tuple[float, float]:
        return left + (width - left - 10) * (i / span if len(pts) > 1 else 0.5), top + (height - top - bottom) * (1 - v / peak)

    axis = ft.Paint(color=ft.Colors.OUTLINE, stroke_width=1)
    stroke = ft.Paint(color=ft.Colors.PRIMARY, stroke_width=2.5, style=ft.PaintingStyle.STROKE)
    shapes: list[cv.Shape] = [cv.Line(left, top, left, height - bottom, paint=axis),
                              cv.Line(left, height - bottom, width - 10, height - bottom, paint=axis)]
    path = [cv.Path.MoveTo(*xy(0, pts[0][1]))] + [cv.Path.LineTo(*xy(i, v)) for i, (_, v) in enumerate(pts)][1:]
    shapes.append(cv.Path(path, paint=stroke))
    shapes += [cv.Circle(*xy(i, v), 3, paint=ft.Paint(color=ft.Colors.PRIMARY)) for i, (_, v) in enumerate(pts)]
    style = ft.TextStyle(size=11, color=ft.Colors.ON_SURFACE_VARIANT)
    shapes += [cv.Text(2, top - 6, f"{peak:,}", style=style), cv.Text(2, height - bottom - 8, "0", style=style)]
    step, last = max(1, len(pts) // 6), len(pts) - 1
    labelled = [i for i in range(len(pts)) if i % step == 0 and last - i >= step] + [last]
    shapes += [cv.Text(xy(i, 0)[0] - (28 if i == last and i else 14), height - bottom + 4, pts[i][0], style=style)
               for i in labelled]
    return ft.Container(cv.Canvas(shapes, width=width, height=height), width=width, height=height)


def badge(text: str, color: str, tooltip: str | None = None) -> ft.Control:
    return ft.Container(ft.Text(text, size=11, color=ft.Colors.WHITE, weight=ft.FontWeight.BOLD),
                        bgcolor=color, border_radius=10, padding=ft.Padding.symmetric(horizontal=8, vertical=2),
                        tooltip=tooltip)
