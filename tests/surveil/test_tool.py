"""The assistant's `signals` tool on the sample mirror (called as the registry calls it, without adding it to the
shared registry: other tests compare the registry with the servers' tool lists)."""

from __future__ import annotations

import pytest

from agent.surveil.tools import SIGNALS_TOOL
from agent.tools import ToolContext, ToolError
from agent.tools.registry import TOOLS
from mirror import Settings


def run_tool(ctx, name, args):
    assert name == SIGNALS_TOOL.name and name not in TOOLS
    try:
        parsed = SIGNALS_TOOL.args.model_validate(args)
    except ValueError as e:
        raise ToolError("unknown argument" if "extra" in str(e).lower() else str(e)) from None
    return SIGNALS_TOOL.fn(ctx, parsed)


@pytest.fixture
def ctx(sample_dir):
    c = ToolContext.open(Settings(data_dir=sample_dir))
    yield c
    c.close()


def test_signals_tool(ctx):
    assert SIGNALS_TOOL.description.startswith("Disproportionality of MAUDE") and SIGNALS_TOOL.params()
    res = run_tool(ctx, "signals", {"product_codes": ["OZP"], "by": "problem"})
    assert res.total == 4 and res.provenance[0].as_of == "2025-09-23"
    assert {r["term"] for r in res.rows} == {"No Display/Image", "Wireless Communication Problem"}
    assert "MAUDE counts are reports, not incidence." in res.notes
    assert "total 4" in res.render()


def test_signals_tool_errors_go_back_as_text(ctx):
    with pytest.raises(ToolError, match="no watchlist named 'nope'"):
        run_tool(ctx, "signals", {"watchlist": "nope"})
    with pytest.raises(ToolError, match="unknown argument"):
        run_tool(ctx, "signals", {"codes": ["DXY"]})
