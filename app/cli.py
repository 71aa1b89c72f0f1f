"""`fda-explorer`: the desktop app (no arguments), the app in a browser (`--web`), or the mirror and assistant
commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click

# agent.modelspec.MODEL_HELP, written out: importing the agent package here would slow every `mirror` command
# (tests/app/test_cli.py checks the two agree)
MODEL_HELP = (
    "Model for this run: none, embedded (SmolLM2-135M in process), llamacpp:/path/to/model.gguf or ollama:NAME."
)

__all__ = ["main", "app_command"]

FORWARDED = ("tools", "tool", "ask", "chat", "sessions")
SERVERS = ("mcp", "serve")
SURVEIL = ("watch", "changes", "inventory", "signals", "report")


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["mirror"]:
        from mirror.cli import cli

        cli(args=args[1:], prog_name="fda-explorer mirror")
        return
    from pydantic import ValidationError

    try:
        if args[:1] and args[0] in SURVEIL:
            from agent.surveil.cli import surveil_cli

            surveil_cli(args=args, prog_name="fda-explorer")
            return
        if args[:1] and args[0] in SERVERS:
            from agent.servers.cli import servers_cli

            servers_cli(args=args, prog_name="fda-explorer")
            return
        if args[:1] and args[0] in FORWARDED:
            from agent.cli import tools_cli

            tools_cli(args=args, prog_name="fda-explorer")
            return
        app_command(args=args, prog_name="fda-explorer")
    except ValidationError as e:  # a bad FDAX_* variable: one line, not a stack trace
        from mirror.settings import env_problem

        click.echo(f"Error: {env_problem(e)}", err=True)
        sys.exit(1)


@click.command(
    "fda-explorer",
    epilog="Also: fda-explorer mirror ..., ask, chat, sessions, tools, tool, mcp, serve, "
    "watch, changes, inventory, signals, report (see README.md).",
)
@click.option("--web", is_flag=True, help="Serve the app on 127.0.0.1 for a browser instead of opening a window.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Port for --web (default FDAX_APP_PORT, 8550; 0 picks a free one).",
)
@click.option(
    "--data-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Mirror data folder for this run (default: the saved setting, else FDAX_DATA_DIR).",
)
@click.option("--model", default=None, help=MODEL_HELP)
@click.option("--ollama-url", default=None, help="Ollama server for ollama:NAME models, for this run.")
@click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Settings file the Settings screen reads and writes (default FDAX_APP_CONFIG).",
)
@click.option(
    "--trace",
    "trace_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Append one JSON line per UI milestone (ready, first step shown, answer shown) to this file.",
)
def app_command(
    web: bool,
    port: int | None,
    data_dir: Path | None,
    model: str | None,
    ollama_url: str | None,
    config_path: Path | None,
    trace_path: Path | None,
) -> None:
    """Open the FDA Explorer Offline window: ask questions, browse sessions, sync data, change settings.

    Example: fda-explorer --web --port 8550 --model none
    """
    options = {"data_dir": data_dir, "model": model, "ollama_url": ollama_url}
    early = None
    if not web:  # the desktop client starts first: it overlaps every import below
        from .ui.early_client import spawn

        early = spawn()
    from .launch import check_environment

    try:
        check_environment()  # a bad FDAX_* variable stops here, before the window is used
    except Exception:
        if early is not None:
            early.stop()
        raise
    if web:
        from .config import ConfigError
        from .launch import prepare

        try:
            launch = prepare(options, config_path, strict=True)
        except ConfigError as e:
            raise click.ClickException(str(e)) from None
    from .ui.run import Trace, run_desktop, run_web  # flet; the window's own imports wait for its start

    trace = Trace(trace_path)
    try:
        if web:
            code = run_web(launch, trace, launch.env.app_port if port is None else port)
        else:
            code = run_desktop(lambda: _prepare_window(options, config_path), trace, early)
    finally:
        trace.close()
    sys.exit(code)


def _prepare_window(options: dict, config_path: Path | None):
    """Runs while the window starts: the settings, the backend, and the views' imports."""
    from .launch import prepare
    from .ui import shell  # noqa: F401  (imported here, in parallel with the window's start-up)

    return prepare(options, config_path, strict=False)
