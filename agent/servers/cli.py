"""`fda-explorer mcp` and `fda-explorer serve`: the mirror's tools for MCP hosts, and the assistant over HTTP."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from mirror.errors import MirrorError
from mirror.settings import Settings

from ..modelspec import MODEL_HELP

__all__ = ["servers_cli", "mcp_command", "serve_command"]

data_option = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=None, help="Mirror data folder (default: FDAX_DATA_DIR)."
)


def whole_option(*decls: str, span: tuple[int, int], default: int | None, text: str, **more: Any) -> Callable:
    """A whole-number option within `span` (both ends allowed), its default shown in --help when it has one."""
    kind = click.IntRange(*span)
    return click.option(*decls, type=kind, default=default, show_default=default is not None, help=text, **more)


def repeatable_option(flag: str, dest: str, text: str) -> Callable:
    """An option that may be given several times; the command receives a tuple of the values as `dest`."""
    return click.option(flag, dest, multiple=True, help=text)


def _fail(message: str, code: int = 1):
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def _settings(data_dir: Path | None) -> Settings:
    settings = Settings()
    return settings.model_copy(update={"data_dir": data_dir}) if data_dir else settings


@click.command("mcp")
@whole_option(
    "--http",
    "http_port",
    span=(0, 65535),
    default=None,
    metavar="PORT",
    text="Serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio (0 picks a free port).",
)
@data_option
def mcp_command(http_port: int | None, data_dir: Path | None) -> None:
    """Serve the mirror's tools and resources to an MCP host (LM Studio, Jan, Claude Desktop, IDEs): stdio by
    default; docs/servers.md has the host configuration.

    Example: fda-explorer mcp --data-dir ~/fda-data
    """
    from .mcp import run_http, run_stdio

    settings = _settings(data_dir)
    try:
        if http_port is None:
            run_stdio(settings)
        else:
            run_http(settings, http_port)
    except MirrorError as e:
        _fail(str(e))
    except KeyboardInterrupt:
        pass


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; any other than loopback needs --token.",
)
@whole_option("--port", span=(0, 65535), default=8765, text="Port to listen on (0 picks a free one).")
@click.option(
    "--token",
    envvar="FDAX_SERVE_TOKEN",
    default=None,
    help="Bearer token every request must carry (or FDAX_SERVE_TOKEN); required off loopback.",
)
@repeatable_option(
    "--cors-origin", "origins", "A web page origin allowed to call the API (repeatable); none by default."
)
@repeatable_option(
    "--allow-host",
    "allow_hosts",
    "Another name clients reach this server by, accepted in the Host header (repeatable).",
)
@whole_option(
    "--concurrency",
    span=(1, 16),
    default=1,
    text="Questions answered at once (each holds its own model instance).",
)
@click.option("--model", default=None, help=f"The model: {MODEL_HELP} (default: the model setting).")
@click.option("--ollama-url", default=None, help="Ollama server for ollama:NAME (default: FDAX_OLLAMA_URL).")
@data_option
def serve_command(host, port, token, origins, allow_hosts, concurrency, model, ollama_url, data_dir) -> None:
    """Serve the assistant over HTTP: threads and runs, answers as JSON or streamed as Server-Sent Events.

    Example: fda-explorer serve --port 8765 --model none
    """
    from .guard import Access, is_loopback

    if not is_loopback(host) and not token:
        _fail(
            f"listening on {host} would let other computers ask questions without a password; add --token "
            "SECRET (clients send 'Authorization: Bearer SECRET'), or keep the default --host 127.0.0.1",
            2,
        )
    from mirror.api.server import bind

    from ..assistant import Assistant
    from ..settings import AgentSettings
    from .http import ServerState, serve
    from .runs import AssistantPool

    settings = _settings(data_dir)
    agent = AgentSettings().model_copy(update={k: v for k, v in (("model", model), ("ollama_url", ollama_url)) if v})
    try:
        state = ServerState(
            AssistantPool(lambda: Assistant(settings, agent), concurrency), Assistant(settings, agent, model=None)
        )
        sock = bind(host, port)
    except MirrorError as e:
        _fail(str(e))
    real = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    try:
        serve(
            state,
            Access.for_bind(host, token or "", origins, allow_hosts),
            sock,
            f"serving the assistant (model {state.pool.members[0].model_name}) from {settings.data_dir} on "
            f"http://{shown}:{real}/ (routes: /openapi.json); Ctrl+C stops",
        )
    except KeyboardInterrupt:
        pass
    finally:
        state.pool.close()
        state.admin.close()
        sock.close()


@click.group()
def servers_cli() -> None:
    """The assistant's servers: mcp, serve."""


servers_cli.add_command(mcp_command)
servers_cli.add_command(serve_command)
