"""The assistant's tools: resolvers (names to FDA keys) and searchers over the mirror, usable without a model."""

from . import count, gudid, resolve_device, resolve_firm, resolve_location, search  # noqa: F401  (register the tools)
from .base import Provenance, ToolError, ToolResult
from .context import ResolverContext, ToolContext
from .registry import TOOLS, describe, run_tool, validate

__all__ = [
    "TOOLS",
    "run_tool",
    "validate",
    "describe",
    "ToolContext",
    "ResolverContext",
    "ToolResult",
    "Provenance",
    "ToolError",
]
