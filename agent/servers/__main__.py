"""`python -m agent.servers mcp|serve ...`: the same commands as `fda-explorer mcp|serve`."""

from .cli import servers_cli

servers_cli(prog_name="fda-explorer")
