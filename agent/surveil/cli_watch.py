"""`fda-explorer watch create|show|edit|delete|list`: named watchlists in the data folder."""

from __future__ import annotations

from pathlib import Path

import click
import orjson

from mirror.errors import MirrorMissingError

from .options import settings_for
from .watchlists import Watchlist, Watchlists

__all__ = ["watch_group", "open_watchlists"]


def open_watchlists(data_dir: Path | None, resolve: bool = False) -> Watchlists:
    """The data folder's watchlists; with `resolve`, firm names are resolved on the mirror when there is one."""
    settings = settings_for(data_dir)
    resolver = None
    if resolve:
        from .firms import firm_resolver

        try:
            from mirror.api import Api

            resolver = firm_resolver(Api(settings))
        except MirrorMissingError:
            resolver = firm_resolver(None)
    return Watchlists(settings.data_dir, resolver)


def _print(wl: Watchlist, as_json: bool) -> None:
    if as_json:
        click.echo(orjson.dumps(wl.model_dump(), option=orjson.OPT_INDENT_2).decode())
        return
    click.echo(f"{wl.name}  (created {wl.created}, updated {wl.updated})")
    click.echo(f"  product codes: {', '.join(wl.codes) or '-'}")
    for f in wl.firms:
        shown = (
            f"{f.query} -> {f.name} ({len(f.variants)} spellings: {'; '.join(f.variants)})"
            if f.name
            else f"{f.query} (not found in the mirror: matched as typed)"
        )
        click.echo(f"  firm: {shown}")
    click.echo(f"  brands: {', '.join(wl.brands) or '-'}")
    click.echo(f"  UDI-DIs: {', '.join(wl.dis) or '-'}")


_DATA = click.option(
    "--data-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Mirror data folder (default: FDAX_DATA_DIR); watchlists live in its watchlists/ folder.",
)
_JSON = click.option("--json", "as_json", is_flag=True, help="Print the watchlist as JSON.")


@click.group("watch")
def watch_group() -> None:
    """Create, show, edit, delete and list watchlists (product codes, firms, brands, UDI-DIs).

    Example: fda-explorer watch create cardiac --code DXY --firm "Medtronic"
    """


@watch_group.command("create")
@click.argument("name")
@click.option("--code", "codes", multiple=True, help="A product code to watch (repeatable), e.g. DXY.")
@click.option(
    "--firm", "firms", multiple=True, help="A firm to watch (repeatable); resolved to every spelling in the mirror."
)
@click.option("--brand", "brands", multiple=True, help="A brand name to watch (repeatable), matched whole, any case.")
@click.option("--di", "dis", multiple=True, help="A UDI device identifier (DI) to watch (repeatable).")
@_DATA
@_JSON
def create_command(name, codes, firms, brands, dis, data_dir, as_json) -> None:
    """Create a watchlist NAME.

    Example: fda-explorer watch create cardiac --code DXY --code DTB --firm "Medtronic" --brand "Azure"
    """
    _print(
        open_watchlists(data_dir, resolve=True).create(name, codes=codes, firms=firms, brands=brands, dis=dis), as_json
    )


@watch_group.command("show")
@click.argument("name")
@_DATA
@_JSON
def show_command(name, data_dir, as_json) -> None:
    """Show a watchlist, with each firm's resolved spellings.

    Example: fda-explorer watch show cardiac
    """
    _print(open_watchlists(data_dir).get(name), as_json)


@watch_group.command("edit")
@click.argument("name")
@click.option("--add-code", multiple=True, help="Add a product code (repeatable).")
@click.option("--remove-code", multiple=True, help="Remove a product code (repeatable).")
@click.option("--add-firm", multiple=True, help="Add a firm, resolved on the mirror (repeatable).")
@click.option("--remove-firm", multiple=True, help="Remove a firm, by the name typed or resolved (repeatable).")
@click.option("--add-brand", multiple=True, help="Add a brand (repeatable).")
@click.option("--remove-brand", multiple=True, help="Remove a brand (repeatable).")
@click.option("--add-di", multiple=True, help="Add a UDI-DI (repeatable).")
@click.option("--remove-di", multiple=True, help="Remove a UDI-DI (repeatable).")
@_DATA
@_JSON
def edit_command(
    name, add_code, remove_code, add_firm, remove_firm, add_brand, remove_brand, add_di, remove_di, data_dir, as_json
) -> None:
    """Add or remove product codes, firms, brands or UDI-DIs of a watchlist.

    Example: fda-explorer watch edit cardiac --add-code LWS --remove-firm "Medtronic"
    """
    wl = open_watchlists(data_dir, resolve=bool(add_firm)).edit(
        name,
        add_codes=add_code,
        remove_codes=remove_code,
        add_firms=add_firm,
        remove_firms=remove_firm,
        add_brands=add_brand,
        remove_brands=remove_brand,
        add_dis=add_di,
        remove_dis=remove_di,
    )
    _print(wl, as_json)


@watch_group.command("delete")
@click.argument("name")
@_DATA
def delete_command(name, data_dir) -> None:
    """Delete a watchlist.

    Example: fda-explorer watch delete cardiac
    """
    open_watchlists(data_dir).delete(name)
    click.echo(f"deleted watchlist {name}")


@watch_group.command("list")
@_DATA
def list_command(data_dir) -> None:
    """List the watchlists of the data folder.

    Example: fda-explorer watch list
    """
    lists = open_watchlists(data_dir)
    for name in lists.names():
        wl = lists.get(name)
        click.echo(
            f"{name}: {len(wl.codes)} codes, {len(wl.firms)} firms, {len(wl.brands)} brands, {len(wl.dis)} UDI-DIs"
        )
