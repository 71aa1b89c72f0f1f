"""`fda-explorer tools` and `fda-explorer tool NAME --args JSON`: the assistant's tools without a model."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click
import orjson

from mirror.errors import MirrorError
from mirror.settings import Settings

from .events import ANSWER_KEYS
from .modelspec import MODEL_HELP
from .tools import ToolContext, ToolError, describe, run_tool, validate

__all__ = ["tools_cli", "tools_command", "tool_command", "ask_command", "chat_command", "sessions_command"]


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
@click.option(
    "--args", "arguments", default="{}", help='Arguments as a JSON object, e.g. \'{"product_codes":["DXY"]}\'.'
)
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option(
    "--data-dir", type=click.Path(path_type=Path), default=None, help="Mirror data folder (default: FDAX_DATA_DIR)."
)
@click.option("--budget", type=int, default=4000, show_default=True, help="Characters of the text rendering.")
def tool_command(name: str, arguments: str, as_json: bool, data_dir: Path | None, budget: int) -> None:
    """Run one tool on the mirror and print its result (the text a model sees, or JSON).

    Example: fda-explorer tool search_events --args '{"product_codes":["DXY"],"date_from":"2020-01-01"}'
    """
    try:
        args = orjson.loads(arguments)
    except orjson.JSONDecodeError as e:
        _fail(f'--args is not valid JSON ({e}); write an object such as \'{{"product_codes": ["DXY"]}}\'', 2)
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


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def _session_id(value: str | None) -> str | None:
    """A --session/--show/--delete value checked before anything runs: a one-line error (exit 2) if not a plain name."""
    from .sessions import InvalidSessionId, check_session_id

    if value is None:
        return None
    try:
        return check_session_id(value)
    except InvalidSessionId as e:
        _fail(str(e), 2)


def _assistant(model: str | None, data_dir: Path | None, ollama_url: str | None):
    from .assistant import Assistant
    from .settings import AgentSettings

    settings = Settings()
    if data_dir:
        settings = settings.model_copy(update={"data_dir": data_dir})
    agent_settings = AgentSettings()
    update = {k: v for k, v in (("model", model), ("ollama_url", ollama_url)) if v}
    if update:
        agent_settings = agent_settings.model_copy(update=update)
    try:
        return Assistant(settings, agent_settings)
    except MirrorError as e:
        _fail(str(e), 1)


model_option = click.option("--model", default=None, help=f"{MODEL_HELP} (default: FDAX_MODEL).")
ollama_option = click.option(
    "--ollama-url", default=None, help="Ollama server for ollama:NAME (default: FDAX_OLLAMA_URL)."
)
data_option = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=None, help="Mirror data folder (default: FDAX_DATA_DIR)."
)


def _print_events(events, as_json: bool) -> dict:
    final: dict = {}
    for ev in events:
        kind = ev["type"]
        if kind == "answer":
            final = ev
        elif as_json:
            continue
        elif kind == "tool_call":
            click.echo(f"  -> {ev['tool']} {orjson.dumps(ev['args']).decode()}", err=True)
        elif kind == "tool_result":
            click.echo(f"  <- {ev['summary']}", err=True)
        elif kind in ("note", "error"):
            click.echo(f"  ! {ev.get('message')}", err=True)
    return final


CLARIFY_EXIT = 4  # `ask` asked a clarifying question instead of answering: pick with --choose N


@click.command("ask")
@click.argument("question", required=False, default="")
@model_option
@ollama_option
@click.option("--session", default=None, help="Continue this session (default: a new one).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer, citations, evidence and tool calls as JSON.")
@click.option(
    "--choose",
    type=int,
    default=None,
    help="Answer the session's clarifying question with choice N (needs --session; no QUESTION).",
)
@data_option
def ask_command(question, model, ollama_url, session, as_json, choose, data_dir) -> None:
    """Ask one question about the mirrored FDA device data; the answer cites record IDs and as-of dates.

    When a question can be read in several ways, the assistant asks which one instead of answering: it prints
    the question and numbered choices and exits with status 4 (with --json: "clarify" holds the question and
    choices). Pick one with `ask --session ID --choose N`.

    Example: fda-explorer ask "How many adverse events for product code FRN?" --model none
    """
    if choose is not None:
        if not session or question:
            _fail("--choose needs --session (the session that asked) and no question", 2)
        question = str(choose)
    if not question.strip() and choose is None:
        _fail('give a question, e.g. fda-explorer ask "recalls for product code DXY"', 2)
    session = _session_id(session)
    a = _assistant(model, data_dir, ollama_url)
    try:
        final = _print_events(a.stream(question, session), as_json)
    finally:
        a.close()
    if not final:
        _fail("the assistant stopped without an answer; run again, or with --model none", 1)
    if as_json:
        click.echo(orjson.dumps({k: final.get(k) for k in ANSWER_KEYS}, option=orjson.OPT_INDENT_2).decode())
    else:
        click.echo(final["answer"])
        click.echo(f"\n(session {final['session']}; model {final['model']}; audit {final['audit']})", err=True)
    if final.get("clarify"):
        if not as_json:
            click.echo(f"(choose with: fda-explorer ask --session {final['session']} --choose N)", err=True)
        sys.exit(CLARIFY_EXIT)


@click.command("chat")
@model_option
@ollama_option
@click.option("--session", default=None, help="Resume this session.")
@data_option
def chat_command(model, ollama_url, session, data_dir) -> None:
    """A conversation in the terminal (empty line or Ctrl+D to quit, Ctrl+C stops an answer); follow-ups reuse
    earlier answers.

    Example: fda-explorer chat --model none
    """
    import uuid

    session = _session_id(session)
    a = _assistant(model, data_dir, ollama_url)
    session = session or uuid.uuid4().hex[:12]
    click.echo(f"session {session}; model {a.model_name}. Ask about FDA device data; empty line to quit.")
    try:
        while True:
            try:
                q = input("> ").strip()
            except EOFError:
                break
            if not q:
                break
            events = a.stream(q, session)
            try:
                final = _print_events(events, False)
            except KeyboardInterrupt:  # Ctrl+C stops this answer, not the conversation
                events.close()
                click.echo("\n(answer stopped; ask again, or an empty line to quit)\n")
                continue
            click.echo(final.get("answer", "(no answer)") + "\n")
    finally:
        a.close()


@click.command("sessions")
@click.option("--delete", "delete", default=None, help="Delete this session.")
@click.option("--show", default=None, help="Print this session's conversation.")
@data_option
def sessions_command(delete, show, data_dir) -> None:
    """List saved conversations (newest first), show one, or delete one.

    Example: fda-explorer sessions --show 3f2a9c1b7d0e
    """
    from .errors import AgentError

    delete, show = _session_id(delete), _session_id(show)
    a = _assistant("none", data_dir, None)
    try:
        if delete:
            a.delete_session(delete)
            click.echo(f"deleted session {delete}")
        elif show:
            for m in a.history(show):
                click.echo(f"{m['role']}: {m['content']}\n")
        else:
            for s in a.sessions():
                click.echo(f"{s['session']}  {s['updated'][:19]}  {s['turns']} turns  {s['first_question'][:70]}")
    except AgentError as e:
        _fail(str(e), 1)
    finally:
        a.close()


@click.group()
def tools_cli() -> None:
    """The assistant's commands: ask, chat, sessions, tools, tool."""


for _cmd in (tools_command, tool_command, ask_command, chat_command, sessions_command):
    tools_cli.add_command(_cmd)
