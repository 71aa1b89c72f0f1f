"""`fda-explorer watch|changes|inventory|signals|report`: thin commands over agent.surveil and mirror.surveil."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mirror.errors import MirrorError
from mirror.settings import Settings

from .errors import SurveilError

__all__ = ["surveil_cli", "COMMANDS"]

COMMANDS = ("watch", "changes", "inventory", "signals", "report")
_DATA_DIR = click.option("--data-dir", type=click.Path(path_type=Path), default=None,
                         help="Mirror data folder (default: FDAX_DATA_DIR).")


def _settings(data_dir: Path | None) -> Settings:
    settings = Settings()
    return settings.model_copy(update={"data_dir": data_dir}) if data_dir else settings


def _fail(message: str, code: int = 1):
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


class _Group(click.Group):
    """Turns the library's errors into one line and a non-zero exit."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (SurveilError, MirrorError) as e:
            _fail(str(e))


@click.group("fda-explorer", cls=_Group)
def surveil_cli() -> None:
    """Post-market surveillance on the mirror: watchlists, changes since the last sync, inventory checks,
    disproportionality signals and the periodic report."""


def _register() -> None:
    from .cli_changes import changes_command, report_command
    from .cli_inventory import inventory_command
    from .cli_signals import signals_command
    from .cli_watch import watch_group
    for cmd in (watch_group, changes_command, inventory_command, signals_command, report_command):
        surveil_cli.add_command(cmd)


_register()
