"""What every tool returns: the full total, capped compact rows keyed by record ID, and provenance.

A `ToolResult` is what the agent reasons over and what a person sees from `fda-explorer tool`. Its
`render()` is the compact text given to a model: it always keeps each row's record ID (traceability)
and the data's as-of date, and stays within a character budget by dropping rows, never IDs.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..errors import AgentError

__all__ = ["Provenance", "ToolResult", "ToolError", "ROW_CAP", "RENDER_BUDGET"]

ROW_CAP = 25  # rows a result carries by default (the total is always the full count)
RENDER_BUDGET = 1800  # characters of the text a model sees per result


class ToolError(AgentError, ValueError):
    """A request a tool cannot answer as asked (bad or unsupported argument); the message says what to do."""


class Provenance(BaseModel):
    dataset: str = Field(description="Mirror dataset: device/event, device/510k, ..., gudid, or several")
    as_of: str = Field(description="The dataset's export date in the mirror (data as of)")
    query: str = Field(
        description="The exact request: an openFDA query string (replay it with "
        "`mirror query ENDPOINT 'QUERY'` or on api.fda.gov), or the named lookup"
    )
    params: dict[str, Any] = Field(default_factory=dict, description="The tool arguments behind the query")

    def cite(self) -> str:
        return f"{self.dataset} (as of {self.as_of or 'unknown'}): {self.query}"


class ToolResult(BaseModel):
    tool: str
    total: int = Field(description="Full count over the whole mirror, never a sample")
    rows: list[dict[str, Any]] = Field(default_factory=list)
    truncated: bool = Field(False, description="True when rows hold fewer items than total")
    id_fields: list[str] = Field(default_factory=list, description="Row keys that identify records")
    provenance: list[Provenance] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="Ambiguities, warnings, next steps")
    related: dict[str, int] = Field(
        default_factory=dict,
        description="Totals of related records matching the same filters, by dataset (e.g. enforcement)",
    )

    def ids(self) -> list[str]:
        """Every record ID in the rows, as `field=value`."""
        out = []
        for r in self.rows:
            for f in self.id_fields:
                if r.get(f) not in (None, ""):
                    out.append(f"{f}={r[f]}")
        return out

    def render(self, budget: int = RENDER_BUDGET) -> str:
        """Compact text for a model: header, provenance, then rows (IDs first) until the budget is used."""
        head = [f"{self.tool}: total {self.total}" + (f", showing {len(self.rows)}" if self.truncated else "")]
        head += [f"source {p.cite()}" for p in self.provenance]
        head += [f"note: {n}" for n in self.notes]
        used = sum(len(h) + 1 for h in head)
        full, short = [], []
        for r in self.rows:
            ids = [f"{k}={r[k]}" for k in self.id_fields if r.get(k) not in (None, "")]
            rest = [f"{k}={_short(v)}" for k, v in r.items() if k not in self.id_fields and v not in (None, "", [])]
            full.append("- " + "; ".join(ids + rest))
            short.append("- " + "; ".join(ids))
        room = budget - used - 48  # keep room for the "more rows" line
        if sum(len(x) + 1 for x in full) <= room + 48:  # everything fits
            return "\n".join(head + full)
        lines, spent = [], 0
        for line in full:  # details for the first rows, half the room at most
            if spent + len(line) + 1 > room // 2:
                break
            lines.append(line)
            spent += len(line) + 1
        for line in short[len(lines) :]:  # then the IDs of as many rows as fit
            if spent + len(line) + 1 > room:
                break
            lines.append(line)
            spent += len(line) + 1
        if len(lines) < len(self.rows):
            lines.append(f"- ... {len(self.rows) - len(lines)} more rows not shown (budget)")
        return "\n".join(head + lines)


def _short(v: Any, n: int = 120) -> str:
    s = ", ".join(map(str, v)) if isinstance(v, list) else str(v)
    return s if len(s) <= n else s[: n - 1] + "…"
