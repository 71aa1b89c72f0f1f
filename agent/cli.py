"""`fda-explorer tools` and `fda-explorer tool NAME --args JSON`: the assistant's tools without a model."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson

from mirror.errors import MirrorError
from mirror.settings import Settings

from .tools import ToolContext, ToolError, describe, run_tool, validate

__all__ = ["tools_cli", "tools_command", "tool_command"]


@click.command("tools")
@click.option("--json", "as_json", is_flag=True, help="Print the tool list as JSON (names, parameters, types).")
def tools_command(as_json: bool) -> None:
    """List the assistant's tools and their parameters.

    Example: fda-explorer tools
    """
    info = describe()
    if as_json:
        click.echo(orjson.dumps(info, option=orjson.OPT_INDENT_2).decode())
        return
    for t in info:
        click.echo(f"{t['name']}  ({t['kind']})")
        click.echo(f"    {t['description']}")
        for p in t["params"]:
            req = ", required" if p["required"] else ""
            click.echo(f"    - {p['name']}: {p['type']}{req}. {p['description']}")


@click.command("tool")
@click.argument("name")
@click.option("--args", "arguments", default="{}", help='Arguments as a JSON object, e.g. \'{"product_codes":["DXY"]}\'.')
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option("--data-dir", type=click.Path(path_type=Path), default=None, help="Mirror data folder (default: FDAX_DATA_DIR).")
@click.option("--budget", type=int, default=4000, show_default=True, help="Characters of the text rendering.")
def tool_command(name: str, arguments: str, as_json: bool, data_dir: Path | None, budget: int) -> None:
    """Run one tool on the mirror and print its result (the text a model sees, or JSON).

    Example: fda-explorer tool search_events --args '{"product_codes":["DXY"],"date_from":"2020-01-01"}'
    """
    try:
        args = orjson.loads(arguments)
    except orjson.JSONDecodeError as e:
        _fail(f"--args is not valid JSON ({e}); write an object such as '{{\"product_codes\": [\"DXY\"]}}'", 2)
    try:
        validate(name, args)
        settings = Settings()
        if data_dir:
            settings = settings.model_copy(update={"data_dir": data_dir})
        ctx = ToolContext.open(settings)
    except ToolError as e:
        _fail(str(e), 2)
    except MirrorError as e:
        _fail(str(e), 1)
    try:
        result = run_tool(ctx, name, args)
    except ToolError as e:
        _fail(str(e), 2)
    finally:
        ctx.close()
    if as_json:
        click.echo(orjson.dumps(result.model_dump(mode="json"), option=orjson.OPT_INDENT_2).decode())
    else:
        click.echo(result.render(budget))


def _fail(message: str, code: int):
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


@click.group()
def tools_cli() -> None:
    """The assistant's tools."""


tools_cli.add_command(tools_command)
tools_cli.add_command(tool_command)

