"""`fda-explorer inventory FILE`: check a device list against GUDID/UDI, recalls, enforcement and events."""

from __future__ import annotations

from pathlib import Path

import click

from mirror.store.files import Store

from .inventory import check_inventory, read_inventory, write_report
from .options import DATA_DIR, settings_for

__all__ = ["inventory_command"]


@click.command("inventory")
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the result to this .xlsx or .csv file (CSV: UTF-8 with a BOM); default: print a summary.",
)
@DATA_DIR
def inventory_command(file: Path, out: Path | None, data_dir: Path | None) -> None:
    """Match each device of a CSV/XLSX list (UDI, DI, product code, brand, model or catalog number columns) to
    UDI records, recalls, enforcement reports and adverse events; one row per device, with how it matched.

    Example: fda-explorer inventory devices.xlsx --out checked.xlsx
    """
    settings = settings_for(data_dir)
    report = check_inventory(Store(settings.data_dir, settings.duckdb_memory_limit), read_inventory(file))
    for r in report.rows:
        click.echo(
            f"row {r['row']}: {r['match']}; {r['found_brand'] or r['brand'] or '-'} "
            f"[{r['product_codes'] or '-'}]; recalls naming it: {r['recalls_naming_device'] or 'none'}; "
            f"events naming it: {r['events_naming_device']} ({r['deaths_naming_device']} deaths)"
        )
    click.echo("Data as of: " + ", ".join(f"{d} {v}" for d, v in sorted(report.as_of.items())))
    if out:
        click.echo(f"wrote {write_report(report, out)}")
