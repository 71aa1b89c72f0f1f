"""Drawing charts: a line over periods (with axis titles and a value on hover at each point) or labelled bars."""

from __future__ import annotations

import flet as ft
import flet.canvas as cv

from ..labels import field_label
from ..results import Chart

__all__ = ["chart_view"]

HOVER = 14  # the hover target around each point, in pixels


def chart_view(chart: Chart) -> ft.Control:
    body = _line(chart) if chart.kind == "line" else _bars(chart)
    title = f"Chart: {chart.title} (data as of {chart.as_of})"
    head = ft.Text(title, weight=ft.FontWeight.BOLD, semantics_label=f"{title}. {chart.describe()}")
    return ft.Column([head, body], spacing=6)


def _bars(chart: Chart, width: int = 420) -> ft.Control:
    peak = max(chart.peak, 1)
    rows: list[ft.Control] = [
        ft.Row(
            [
                ft.Text(
                    label or "(none)", size=12, width=340, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS, tooltip=label
                ),
                ft.Container(
                    width=max(2, width * value / peak),
                    height=16,
                    bgcolor=ft.Colors.PRIMARY,
                    border_radius=3,
                    tooltip=f"{label}: {value:,} {chart.y}",
                ),
                ft.Text(f"{value:,}", size=12),
            ],
            spacing=8,
        )
        for label, value in chart.points[:25]
    ]
    more: list[ft.Control] = (
        [ft.Text(f"and {len(chart.points) - 25} more (in the table)", size=12)] if len(chart.points) > 25 else []
    )
    return ft.Column(
        rows + more + [ft.Text(f"Number of {chart.y}", size=11, color=ft.Colors.ON_SURFACE_VARIANT)], spacing=4
    )


def _line(chart: Chart, width: int = 760, height: int = 230) -> ft.Control:
    pts, peak = chart.points, max(chart.peak, 1)
    left, bottom, top, right = 56, 40, 12, 36
    span = max(len(pts) - 1, 1)

    def xy(i: int, v: int) -> tuple[float, float]:
        x = left + (width - left - right) * (i / span if len(pts) > 1 else 0.5)
        return x, top + (height - top - bottom) * (1 - v / peak)

    axis = ft.Paint(color=ft.Colors.OUTLINE, stroke_width=1)
    stroke = ft.Paint(color=ft.Colors.PRIMARY, stroke_width=2.5, style=ft.PaintingStyle.STROKE)
    shapes: list[cv.Shape] = [
        cv.Line(left, top, left, height - bottom, paint=axis),
        cv.Line(left, height - bottom, width - right, height - bottom, paint=axis),
    ]
    if len(pts) > 1:
        path: list[cv.Path.PathElement] = [cv.Path.MoveTo(*xy(0, pts[0][1]))]
        path += [cv.Path.LineTo(*xy(i, v)) for i, (_, v) in enumerate(pts)][1:]
        shapes.append(cv.Path(path, paint=stroke))
    shapes += [cv.Circle(*xy(i, v), 3, paint=ft.Paint(color=ft.Colors.PRIMARY)) for i, (_, v) in enumerate(pts)]
    style = ft.TextStyle(size=11, color=ft.Colors.ON_SURFACE_VARIANT)
    shapes += [
        cv.Text(left - 8 - 7 * len(f"{peak:,}"), top - 6, f"{peak:,}", style=style),
        cv.Text(left - 16, height - bottom - 8, "0", style=style),
        cv.Text(4, top + (height - top - bottom) / 2 - 8, chart.y, style=style),
        cv.Text(left + (width - left - right) / 2 - 20, height - 16, field_label(chart.x).lower(), style=style),
    ]
    step, last = max(1, len(pts) // 8), len(pts) - 1
    labelled = [i for i in range(len(pts)) if i % step == 0 and last - i >= step] + [last]
    shapes += [
        cv.Text(xy(i, 0)[0] - 3.3 * len(pts[i][0]), height - bottom + 4, pts[i][0], style=style) for i in labelled
    ]
    hover: list[ft.Control] = [
        ft.Container(
            left=xy(i, v)[0] - HOVER / 2,
            top=xy(i, v)[1] - HOVER / 2,
            width=HOVER,
            height=HOVER,
            tooltip=f"{k}: {v:,} {chart.y}",
            border_radius=HOVER / 2,
        )
        for i, (k, v) in enumerate(pts)
    ]
    canvas: list[ft.Control] = [cv.Canvas(shapes, width=width, height=height)]
    return ft.Stack(canvas + hover, width=width, height=height)
