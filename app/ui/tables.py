"""Drawing result tables: friendly column labels (the field name in a tooltip), pages of rows, wrapped wide cells."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ..labels import display_value, field_label
from ..results import ResultTable
from .widgets import caption, copyable

__all__ = ["result_table", "column_chooser"]

CHAR_PX, PAD_PX, MIN_PX, MAX_PX = 8, 12, 48, 340


def _numeric(table: ResultTable, column: str) -> bool:
    values = [r.get(column) for r in table.rows if r.get(column) not in (None, "")]
    return bool(values) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _width(label: str, values: list[str]) -> int:
    longest = max([len(label)] + [len(v) for v in values])
    return max(MIN_PX, min(MAX_PX, longest * CHAR_PX + PAD_PX))


def column_chooser(table: ResultTable, on_column: Callable[[str], None]) -> ft.Control | None:
    """A menu of the table's columns, each checked when shown: a click shows or hides it on screen and in the
    exports of the answer (None for a table of one column)."""
    names = table.choosable
    if len(names) < 2:
        return None
    shown = [c for c in names if c not in table.hidden]
    items = [
        ft.PopupMenuItem(
            content=f"{field_label(c)}", checked=c not in table.hidden, on_click=lambda e, c=c: on_column(c)
        )
        for c in names
    ]
    return ft.PopupMenuButton(
        content=ft.Row(
            [
                ft.Icon(ft.Icons.VIEW_COLUMN, size=16, color=ft.Colors.PRIMARY),
                ft.Text(f"Columns: {len(shown)} of {len(names)} shown", size=12, color=ft.Colors.PRIMARY),
            ],
            spacing=4,
            tight=True,
        ),
        items=items,
        tooltip="Choose the columns to show (the exports of this answer hold the same columns)",
        menu_position=ft.PopupMenuPosition.UNDER,
    )


def result_table(
    table: ResultTable,
    on_sort: Callable[[int, bool], None],
    on_page: Callable[[int], None],
    on_all: Callable[[], None],
    on_column: Callable[[str], None] | None = None,
) -> ft.Control:
    """A sortable table of one page of rows, with its title, column chooser, query, paging and footer (total,
    as-of date)."""
    shown = table.shown_columns
    rows = table.page_rows()
    texts = {i: [display_value(table.columns[i], r.get(table.columns[i])) for r in rows] for i in shown}
    columns: list[ft.DataColumn] = []
    for i in shown:
        name = table.columns[i]
        columns.append(
            ft.DataColumn(
                label=ft.Text(field_label(name), weight=ft.FontWeight.BOLD, size=13),
                numeric=_numeric(table, name),
                tooltip=f"Field {name}",
                on_sort=lambda e, i=i: on_sort(i, e.ascending),
            )
        )
    widths = {i: _width(field_label(table.columns[i]), texts[i]) for i in shown}
    grid_rows = [
        ft.DataRow(
            [
                ft.DataCell(
                    ft.Text(
                        texts[i][k],
                        size=12,
                        max_lines=4,
                        width=widths[i],
                        overflow=ft.TextOverflow.ELLIPSIS,
                        tooltip=texts[i][k] if len(texts[i][k]) > 120 else None,
                    )
                )
                for i in shown
            ]
        )
        for k in range(len(rows))
    ]
    sort_index = shown.index(table.sort_column) if table.sort_column in shown else None
    wraps = any(len(v) * CHAR_PX + PAD_PX > widths[i] for i in shown for v in texts[i])
    grid = ft.DataTable(
        columns=columns,
        rows=grid_rows,
        sort_column_index=sort_index,
        sort_ascending=table.ascending,
        column_spacing=20,
        heading_row_height=40,
        data_row_min_height=32,
        data_row_max_height=76 if wraps else 36,
    )  # rows take the most height allowed
    paging: list[ft.Control] = []
    if table.pages > 1:
        paging = [
            ft.IconButton(
                ft.Icons.CHEVRON_LEFT, tooltip="Previous rows", disabled=table.page == 0, on_click=lambda e: on_page(-1)
            ),
            caption(f"Page {table.page + 1} of {table.pages}"),
            ft.IconButton(
                ft.Icons.CHEVRON_RIGHT,
                tooltip="Next rows",
                disabled=table.page >= table.pages - 1,
                on_click=lambda e: on_page(1),
            ),
        ]
    if table.loading:
        paging += [ft.ProgressRing(width=16, height=16, stroke_width=2), caption("Fetching every matching record…")]
    elif table.can_load_all:
        paging.append(
            ft.TextButton(
                f"Show all {min(table.total, 1000):,} matching records",
                icon=ft.Icons.UNFOLD_MORE,
                on_click=lambda e: on_all(),
            )
        )
    chooser = column_chooser(table, on_column) if on_column is not None else None
    head: list[ft.Control] = [ft.Text(f"Table: {table.title}", weight=ft.FontWeight.BOLD)]
    if chooser is not None:
        head.append(chooser)
    footer = table.footer
    if table.hidden:
        hidden = ", ".join(field_label(c) for c in table.hidden)
        footer += f" Hidden here and in the exports: {hidden}."
    return ft.Column(
        [
            ft.Row(head, spacing=16, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            copyable(f"openFDA query: {table.query}", color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Row([grid], scroll=ft.ScrollMode.ALWAYS),
            ft.Row([caption(footer, expand=True)] + paging, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ],
        spacing=4,
    )
