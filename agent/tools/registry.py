"""The tool registry: each tool is a typed function with a pydantic argument model, run by name."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel, ValidationError

from .base import ToolError, ToolResult
from .context import ToolContext

__all__ = ["Tool", "TOOLS", "tool", "run_tool", "describe", "validate"]


@dataclass(frozen=True)
class Tool:
    name: str
    kind: str  # resolver | searcher | surveillance
    description: str
    args: type[BaseModel]
    fn: Callable[[ToolContext, Any], ToolResult]

    def params(self) -> list[dict]:
        schema = self.args.model_json_schema()
        required = set(schema.get("required", []))
        out = []
        for name, prop in schema.get("properties", {}).items():
            typ = prop.get("type") or " | ".join(p.get("type", "?") for p in prop.get("anyOf", []))
            if prop.get("enum"):
                typ = " | ".join(map(str, prop["enum"]))
            out.append(
                {
                    "name": name,
                    "type": typ,
                    "required": name in required,
                    "default": prop.get("default"),
                    "description": prop.get("description", ""),
                }
            )
        return out


TOOLS: dict[str, Tool] = {}


def tool(name: str, args: type[BaseModel], kind: str):
    """Register `fn(ctx, args) -> ToolResult` under `name`; its docstring's first paragraph describes it."""

    def register(fn):
        doc = (fn.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        TOOLS[name] = Tool(name, kind, " ".join(doc.split()), args, fn)
        return fn

    return register


def validate(name: str, arguments: dict[str, Any] | None) -> BaseModel:
    """The tool's argument model, or a ToolError that names the problem and the valid arguments."""
    if name not in TOOLS:
        raise ToolError(f"unknown tool {name!r}; tools are: {', '.join(sorted(TOOLS))}")
    t = TOOLS[name]
    if arguments is not None and not isinstance(arguments, dict):
        raise ToolError(f"{name}: arguments must be a JSON object; valid arguments: {_valid(t)}")
    try:
        return t.args.model_validate(arguments or {})
    except ValidationError as e:
        problems = []
        for err in e.errors():
            where = ".".join(str(x) for x in err["loc"]) or "arguments"
            problems.append(f"{where}: {'unknown argument' if err['type'] == 'extra_forbidden' else err['msg']}")
        raise ToolError(f"{name}: {'; '.join(problems)}; valid arguments: {_valid(t)}") from None


def run_tool(ctx: ToolContext, name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
    args = validate(name, arguments)  # a ToolError for an unknown tool or bad arguments
    return TOOLS[name].fn(ctx, args)


def describe() -> list[dict]:
    return [
        {"name": t.name, "kind": t.kind, "description": t.description, "params": t.params()} for t in TOOLS.values()
    ]


def _valid(t: Tool) -> str:
    return ", ".join(f"{p['name']} ({p['type']}{', required' if p['required'] else ''})" for p in t.params())


def _register_surveillance() -> None:
    """The `signals` tool of agent/surveil (imported here, once `Tool` and `TOOLS` exist): a surveillance tool, run
    when a model, an MCP host, an HTTP client or the CLI asks for it by name."""
    loading = sys.modules.get("agent.surveil.tools")
    if loading is not None and not hasattr(loading, "SIGNALS_TOOL"):
        return  # agent.surveil.tools is being imported first: it registers itself at its end
    from ..surveil.tools import SIGNALS_TOOL

    TOOLS[SIGNALS_TOOL.name] = SIGNALS_TOOL


_register_surveillance()
