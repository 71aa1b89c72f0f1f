"""The assistant's surveillance tool: `signals` (PRR/ROR/chi-square of a product code or watchlist against all other
devices), as a `Tool` that agent/tools/registry.py adds to the assistant's tools. Its kind is "surveillance": run when
asked for by name (a model's plan, MCP, HTTP, `fda-explorer` tools), not planned from a question's reading."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mirror.errors import MirrorError

from ..tools.base import Provenance, ToolError, ToolResult
from ..tools.context import ToolContext
from ..tools.registry import TOOLS, Tool
from .errors import SurveilError
from .signals import CAVEATS, format_row, run_signals

__all__ = ["SignalArgs", "signals_tool", "SIGNALS_TOOL"]


class SignalArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    product_codes: list[str] = Field(default_factory=list, description="FDA product codes (three letters), e.g. DXY")
    watchlist: str | None = Field(None, description="A saved watchlist name (fda-explorer watch list)")
    year_from: int | None = Field(None, description="First year the FDA received the reports")
    year_to: int | None = Field(None, description="Last year the FDA received the reports")
    by: Literal["event_type", "problem", "all"] = Field("all", description="Cut by event type, problem term or both")
    flagged_only: bool = Field(False, description="Only rows passing PRR >= 2, chi-square >= 4, n >= 3")


def signals_tool(ctx: ToolContext, args: SignalArgs) -> ToolResult:
    """Disproportionality of MAUDE adverse event reports for product codes or a watchlist against all other devices:
    PRR and ROR with 95% confidence intervals and the Yates chi-square, by event type and device problem term, over
    all years and per year. Rows are flagged by PRR >= 2, chi-square >= 4 and at least 3 reports.

    Use for 'is this problem reported more for X than for other devices'."""
    settings = ctx.api.settings
    try:
        table, label = run_signals(
            settings.data_dir,
            settings.duckdb_memory_limit,
            args.watchlist,
            tuple(args.product_codes) or tuple(ctx.resolved.product_codes()),
            args.year_from,
            args.year_to,
        )
    except (SurveilError, MirrorError) as e:
        raise ToolError(str(e)) from None
    rows = [
        r
        for r in table.rows
        if (args.by == "all" or r.dimension == args.by) and (not args.flagged_only or r.measures.flagged)
    ]
    rows.sort(key=lambda r: (not r.measures.flagged, r.year is not None, -(r.measures.prr or 0)))
    shown = [format_row(r) for r in rows[: ctx.row_cap]]
    notes = [
        f"scope: {label}; {table.reports_in_scope.get(None, 0)} reports vs "
        f"{table.reports_other.get(None, 0)} for all other devices",
        f"thresholds: {table.thresholds.describe()}; chi-square with Yates' correction; zero cells +0.5",
        *CAVEATS,
    ]
    prov = Provenance(
        dataset="device/event", as_of=table.as_of, query="signals: " + table.queries[0][:400], params=args.model_dump()
    )
    return ToolResult(
        tool="signals",
        total=len(rows),
        rows=shown,
        truncated=len(rows) > len(shown),
        id_fields=["term"],
        provenance=[prov],
        notes=notes,
    )


SIGNALS_TOOL = Tool(
    "signals", "surveillance", " ".join((signals_tool.__doc__ or "").split("\n\n")[0].split()), SignalArgs, signals_tool
)
TOOLS.setdefault(SIGNALS_TOOL.name, SIGNALS_TOOL)  # when this module is imported before agent.tools (see registry)
