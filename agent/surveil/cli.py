"""`fda-explorer watch|changes|inventory|signals|report`: thin commands over agent.surveil and mirror.surveil."""

from __future__ import annotations

import sys

import click

from mirror.errors import MirrorError

from .errors import SurveilError

__all__ = ["surveil_cli", "COMMANDS"]

COMMANDS = ("watch", "changes", "inventory", "signals", "report")


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
