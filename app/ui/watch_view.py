"""The Surveillance screen: watchlists (new, edit, delete), and the signal table of a product code or a watchlist
with a chart of its PRRs, its thresholds and the caveats, which are shown every time."""

from __future__ import annotations

import flet as ft

from ..controller import Controller
from ..watch import SignalView
from .widgets import caption

__all__ = ["WatchView", "signals_chart"]

FORM_HELP = "Separate items with commas. Firms are matched with every spelling the mirror uses for them."
ROWS_SHOWN = 200


def signals_chart(sv: SignalView, width: int = 420) -> ft.Control:
    """One bar per outcome (all years): its PRR, a mark at the PRR threshold (2), flagged bars in the error colour."""
    peak = max([p for _, p, _ in sv.chart] + [2.5])
    rows: list[ft.Control] = []
    for term, prr, flagged in sv.chart:
        colour = ft.Colors.ERROR if flagged else ft.Colors.PRIMARY
        bar = ft.Stack(
            [
                ft.Container(width=width, height=16),
                ft.Container(width=max(2, width * prr / peak), height=16, bgcolor=colour, border_radius=3),
                ft.Container(width=2, height=20, left=width * 2 / peak, bgcolor=ft.Colors.ON_SURFACE),
            ],
            width=width,
            height=20,
        )
        rows.append(
            ft.Row(
                [
                    ft.Text(term, size=12, width=260, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS, tooltip=term),
                    ft.Container(bar, tooltip=f"{term}: PRR {prr:.2f}" + (" (SIGNAL)" if flagged else "")),
                    ft.Text(f"{prr:.2f}" + ("  SIGNAL" if flagged else ""), size=12),
                ],
                spacing=8,
            )
        )
    title = f"Chart: PRR by outcome, all years ({sv.label}; MAUDE as of {sv.as_of})"
    return ft.Column(
        [
            ft.Text(
                title, weight=ft.FontWeight.BOLD, semantics_label=f"{title}. {len(sv.chart)} bars; the mark is PRR 2."
            ),
            *rows,
            caption("The vertical mark is PRR = 2; red bars are flagged signals."),
        ],
        spacing=4,
    )


def _table(sv: SignalView) -> ft.Control:
    heads = list(sv.rows[0]) if sv.rows else []
    table = ft.DataTable(
        columns=[
            ft.DataColumn(label=ft.Text(h), numeric=h in ("a", "b", "c", "d", "PRR", "ROR", "chi2")) for h in heads
        ],
        column_spacing=14,
        heading_row_height=32,
        data_row_min_height=28,
        data_row_max_height=44,
        rows=[
            ft.DataRow(
                [
                    ft.DataCell(
                        ft.Text(v, size=12, weight=ft.FontWeight.BOLD if r["note"].endswith("SIGNAL") else None)
                    )
                    for v in r.values()
                ]
            )
            for r in sv.rows[:ROWS_SHOWN]
        ],
    )
    return ft.Row([table], scroll=ft.ScrollMode.AUTO)


class WatchView:
    def __init__(self, c: Controller, page: ft.Page) -> None:
        self.c, self.page = c, page
        self.editing: str | None = None  # None: no form; "": a new watchlist; else the name being edited
        self.saving = ""  # the name being saved: the form closes once the model saved it
        self.confirming = ""
        self.name = ft.TextField(label="Name", width=260, hint_text="e.g. cardiac-2024")
        self.codes = ft.TextField(label="Product codes", hint_text="DXY, LZG", expand=True)
        self.firms = ft.TextField(label="Firms", hint_text="Medtronic", expand=True)
        self.brands = ft.TextField(label="Brands", expand=True)
        self.dis = ft.TextField(label="UDI-DIs", expand=True)
        self.form = ft.Container(
            padding=12, border_radius=8, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, visible=False
        )
        self.form.content = ft.Column(
            [
                ft.Row([self.name, self.codes]),
                ft.Row([self.firms, self.brands, self.dis]),
                caption(FORM_HELP),
                ft.Row(
                    [
                        ft.FilledButton("Save watchlist", icon=ft.Icons.SAVE, on_click=lambda e: self._save()),
                        ft.TextButton("Cancel", on_click=lambda e: self._close_form()),
                    ]
                ),
            ]
        )
        self.lists = ft.Column(spacing=2)
        self.confirm = ft.Row()
        self.code = ft.TextField(
            label="Product code", width=160, hint_text="DXY", on_submit=lambda e: self._code_signals()
        )
        self.error = ft.Text("", color=ft.Colors.ERROR)
        self.busy = ft.Row()
        self.result = ft.Column(spacing=10)
        self.root = ft.Column(
            [
                ft.Text("Surveillance", size=18, weight=ft.FontWeight.BOLD),
                caption(
                    "Watchlists of product codes, firms, brands or UDI-DIs (the same as `fda-explorer watch`), and "
                    "disproportionality signals from MAUDE reports against all other devices."
                ),
                ft.Row(
                    [
                        ft.Text("Watchlists", size=14, weight=ft.FontWeight.BOLD),
                        ft.TextButton("New watchlist", icon=ft.Icons.ADD, on_click=lambda e: self._open_form("")),
                    ]
                ),
                self.form,
                self.confirm,
                self.lists,
                ft.Divider(height=12),
                ft.Text("Signals", size=14, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        self.code,
                        ft.FilledButton(
                            "Show signals", icon=ft.Icons.QUERY_STATS, on_click=lambda e: self._code_signals()
                        ),
                        caption("or choose Signals of a watchlist above."),
                    ]
                ),
                self.error,
                self.busy,
                self.result,
            ],
            expand=True,
            scroll=ft.ScrollMode.AUTO,
            spacing=8,
        )

    # -- actions ----------------------------------------------------------------------------------------------
    def _open_form(self, name: str) -> None:
        self.editing = name
        wl = self.c.surveil.get(name) if name else None
        self.name.value, self.name.disabled = name, bool(name)
        self.codes.value = ", ".join(wl.codes) if wl else ""
        self.firms.value = ", ".join(f.query for f in wl.firms) if wl else ""
        self.brands.value = ", ".join(wl.brands) if wl else ""
        self.dis.value = ", ".join(wl.dis) if wl else ""
        self.render()
        self.page.update()

    def _close_form(self) -> None:
        self.editing = None
        self.render()
        self.page.update()

    def _save(self) -> None:
        editing = self.editing or ""
        self.saving = editing or (self.name.value or "").strip()
        self.c.surveil.save(
            self.name.value or "",
            self.codes.value or "",
            self.firms.value or "",
            self.brands.value or "",
            self.dis.value or "",
            editing,
        )

    def _ask_delete(self, name: str) -> None:
        self.confirming = name
        self.render()
        self.page.update()

    def _delete(self, name: str) -> None:
        self.confirming = ""
        self.c.surveil.delete(name)

    def _code_signals(self) -> None:
        if (self.code.value or "").strip():
            self.c.surveil.show_signals(code=self.code.value or "")

    # -- drawing ----------------------------------------------------------------------------------------------
    def render(self) -> None:
        s = self.c.surveil
        if self.saving and s.last_saved == self.saving:  # saved: the form closes (a refused save keeps it)
            self.editing, self.saving = None, ""
        self.form.visible = self.editing is not None
        self.lists.controls = [self._item(w) for w in s.lists] or [
            caption("No watchlists yet: choose New watchlist, or create one with `fda-explorer watch create`.")
        ]
        name = self.confirming
        self.confirm.controls = (
            []
            if not name
            else [
                ft.Text(f"Delete the watchlist {name}?", color=ft.Colors.ERROR),
                ft.FilledButton("Delete", on_click=lambda e: self._delete(name)),
                ft.TextButton("Keep", on_click=lambda e: self._ask_delete("")),
            ]
        )
        self.error.value = s.error
        self.busy.controls = [ft.ProgressRing(width=18, height=18), caption(s.busy)] if s.busy else []
        self.result.controls = self._result(s.signals) if s.signals is not None and not s.busy else []

    def _item(self, w) -> ft.Control:
        parts = [
            ("codes", ", ".join(w.codes)),
            ("firms", "; ".join(f.name or f.query for f in w.firms)),
            ("brands", ", ".join(w.brands)),
            ("UDI-DIs", ", ".join(w.dis)),
        ]
        what = "; ".join(f"{k} {v}" for k, v in parts if v)
        return ft.Row(
            [
                ft.Icon(ft.Icons.VISIBILITY_OUTLINED, size=18),
                ft.Text(w.name, weight=ft.FontWeight.BOLD, width=160),
                ft.Text(what, size=12, expand=True, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS, tooltip=what),
                ft.TextButton(
                    f"Signals of {w.name}",
                    icon=ft.Icons.QUERY_STATS,
                    on_click=lambda e, n=w.name: self.c.surveil.show_signals(watch=n),
                ),
                ft.IconButton(
                    ft.Icons.EDIT_OUTLINED, tooltip=f"Edit {w.name}", on_click=lambda e, n=w.name: self._open_form(n)
                ),
                ft.IconButton(
                    ft.Icons.DELETE_OUTLINE,
                    tooltip=f"Delete {w.name}",
                    on_click=lambda e, n=w.name: self._ask_delete(n),
                ),
            ]
        )

    @staticmethod
    def _result(sv: SignalView) -> list[ft.Control]:
        head = (
            f"Signals for {sv.label}: {sv.reports_in:,} reports against {sv.reports_out:,} for all other "
            f"devices (MAUDE as of {sv.as_of}); {sv.flagged} flagged rows of {len(sv.rows)}."
        )
        caveats: list[ft.Control] = [ft.Text(f"• {c}", size=12) for c in sv.caveats]
        out: list[ft.Control] = [
            ft.Text(head, size=13, weight=ft.FontWeight.BOLD),
            caption(
                f"Flagged (SIGNAL) when {sv.thresholds}; chi-square with Yates' correction; zero cells +0.5. "
                "a: the scope's reports with the outcome, b: without; c, d: the same for all other devices."
            ),
            ft.Container(
                ft.Column([ft.Text("Caveats", weight=ft.FontWeight.BOLD), *caveats], spacing=2),
                padding=10,
                border_radius=8,
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
            ),
        ]
        if not sv.rows:
            return out + [ft.Text("No reports in this scope.")]
        out.append(signals_chart(sv))
        out.append(_table(sv))
        if len(sv.rows) > ROWS_SHOWN:
            out.append(caption(f"The first {ROWS_SHOWN} of {len(sv.rows)} rows; `fda-explorer signals` lists all."))
        return out
