"""`fda-explorer changes` (what the last syncs added or changed, for a watchlist) and `fda-explorer report`."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import click

from mirror.store.files import Store
from mirror.surveil.changes import record_changes
from mirror.surveil.digest import changes_since

from .errors import SurveilError
from .options import DATA_DIR, settings_for
from .watchlists import Watchlists

__all__ = ["changes_command", "report_command", "parse_since"]


def parse_since(value: str | None) -> tuple[date | None, int | None]:
    """--since: a date (YYYY-MM-DD) or a sync number (as `changes` lists them)."""
    if not value:
        return None, None
    if value.isdigit():
        return None, int(value)
    try:
        return date.fromisoformat(value), None
    except ValueError:
        raise SurveilError(f"--since {value!r} is neither a date (2024-05-01) nor a sync number (e.g. 3)") from None


@click.command("changes")
@click.option("--watch", default=None, help="Only records of this watchlist (default: every record).")
@click.option(
    "--since",
    default=None,
    help="Syncs recorded on or after this date (YYYY-MM-DD), or one sync number (default: the latest sync).",
)
@click.option("--limit", type=int, default=20, show_default=True, help="Records listed per dataset.")
@click.option(
    "--record",
    is_flag=True,
    help="First record the current mirror against the previous snapshot (what a sync does after publishing).",
)
@DATA_DIR
def changes_command(watch, since, limit, record, data_dir) -> None:
    """New and changed records per dataset since the last sync (or a date): recalls with their class, enforcement
    reports, 510(k)s, PMA supplements, adverse events (deaths first) and UDI records.

    Example: fda-explorer changes --watch cardiac --since 2024-05-01
    """
    settings = settings_for(data_dir)
    store = Store(settings.data_dir, settings.duckdb_memory_limit)
    if record:
        digest = record_changes(store)
        click.echo(
            f"recorded sync {digest.sync_id}: "
            + ", ".join(f"{r.dataset} {r.status} (+{r.added} ~{r.changed} -{r.removed})" for r in digest.datasets)
        )
    scope = Watchlists(settings.data_dir).get(watch).scope() if watch else None
    day, sync_id = parse_since(since)
    report = changes_since(store, scope, since=day, sync_id=sync_id, limit=limit)
    syncs = ", ".join(f"#{s} at {t}" for s, t in report.syncs) or "none"
    click.echo(f"Changes{' for watchlist ' + watch if watch else ''} in syncs {syncs}")
    for d in report.datasets:
        click.echo(
            f"\n{d.dataset} (as of {d.as_of or '?'}): {d.added} new, {d.changed} changed, "
            f"{d.removed} removed from the dataset"
        )
        for row in d.rows:
            click.echo("  " + "  ".join(f"{v}" for v in row.values() if v != ""))
        if d.added + d.changed > len(d.rows):
            click.echo(f"  ... {d.added + d.changed - len(d.rows)} more (--limit)")


@click.command("report")
@click.option("--watch", required=True, help="The watchlist to report on.")
@click.option("--period", required=True, help="A quarter (2023Q3), a month (2023-07) or a year (2023).")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="File to write: .md (Markdown), .pdf or .docx (default: surveillance-NAME-PERIOD.md in the current folder).",
)
@DATA_DIR
def report_command(watch, period, out, data_dir) -> None:
    """Write the surveillance report of a watchlist for a period, as PDF, DOCX or Markdown: events by month and
    type, top problem terms, recalls and enforcement reports with their class, 510(k)/PMA decisions, the signal
    table with its caveats, changes, every figure's query and as-of date, and an appendix of the record IDs cited.

    Example: fda-explorer report --watch cardiac --period 2023Q3 --out cardiac-2023Q3.pdf
    """
    from .report import write_report

    settings = settings_for(data_dir)
    path = out or Path(f"surveillance-{watch}-{period}.md")
    click.echo(f"wrote {write_report(Store(settings.data_dir, settings.duckdb_memory_limit), watch, period, path)}")
