"""`fda-explorer signals`: PRR, ROR and chi-square for a product code or a watchlist against all other devices."""

from __future__ import annotations

import click
import orjson

from .options import DATA_DIR, settings_for
from .signals import caveat_lines, format_row, run_signals

__all__ = ["signals_command"]


@click.command("signals")
@click.option("--code", "codes", multiple=True, help="Product code to compare against all other devices (repeatable).")
@click.option("--watch", default=None, help="A watchlist to compare against all other devices.")
@click.option("--from-year", type=int, default=None, help="First year (date the FDA received the report).")
@click.option("--to-year", type=int, default=None, help="Last year (date the FDA received the report).")
@click.option(
    "--by",
    "by",
    type=click.Choice(["event_type", "problem", "all"]),
    default="all",
    show_default=True,
    help="Cut by event type, by device problem term, or both.",
)
@click.option(
    "--years/--all-years-only",
    default=True,
    show_default=True,
    help="Show one row per year as well as the all-years row.",
)
@click.option("--flagged", is_flag=True, help="Show only rows that pass the thresholds.")
@click.option("--limit", type=int, default=50, show_default=True, help="Rows to print (0: all).")
@click.option("--json", "as_json", is_flag=True, help="Print rows, thresholds and caveats as JSON.")
@DATA_DIR
def signals_command(codes, watch, from_year, to_year, by, years, flagged, limit, as_json, data_dir) -> None:
    """Disproportionality of MAUDE reports: PRR and ROR (95% CI) and chi-square, by event type and problem term,
    by year.

    Example: fda-explorer signals --code DXY --by problem --flagged
    """
    settings = settings_for(data_dir)
    table, label = run_signals(settings.data_dir, settings.duckdb_memory_limit, watch, codes, from_year, to_year)
    rows = [
        r
        for r in table.rows
        if (by == "all" or r.dimension == by) and (years or r.year is None) and (not flagged or r.measures.flagged)
    ]
    shown = [format_row(r) for r in (rows if limit <= 0 else rows[:limit])]
    notes = caveat_lines(table)
    if as_json:
        click.echo(
            orjson.dumps(
                {"scope": label, "rows": shown, "total_rows": len(rows), "notes": notes, "queries": table.queries},
                option=orjson.OPT_INDENT_2,
            ).decode()
        )
        return
    click.echo(
        f"Signals for {label}: {table.reports_in_scope.get(None, 0):,} reports vs "
        f"{table.reports_other.get(None, 0):,} for all other devices"
    )
    if shown:
        cols = list(shown[0])
        widths = {c: max(len(c), *(len(s[c]) for s in shown)) for c in cols}
        widths["term"] = min(widths["term"], 40)
        click.echo("  ".join(c.ljust(widths[c]) for c in cols))
        for s in shown:
            click.echo("  ".join(s[c][: widths[c]].ljust(widths[c]) for c in cols))
    else:
        click.echo("(no rows)")
    if len(rows) > len(shown):
        click.echo(f"... {len(rows) - len(shown)} more rows (--limit 0 shows all)")
    for line in notes:
        click.echo(line)
