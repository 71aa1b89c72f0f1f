"""The assistant's `signals` tool through the assistant's registry (agent.tools), on the sample mirror: listed with
the other tools, validated and run by name as the planner, the CLI, MCP and HTTP run tools (no understanding or
model involved), its figures equal to the library's."""

from __future__ import annotations

import pytest

from agent.surveil.tools import SIGNALS_TOOL
from agent.tools import TOOLS, ToolContext, ToolError, describe, run_tool
from mirror import Settings
from mirror.store.files import Store
from mirror.surveil.scope import Scope
from mirror.surveil.signals import signals


@pytest.fixture
def ctx(sample_dir):
    c = ToolContext.open(Settings(data_dir=sample_dir))
    yield c
    c.close()


def test_signals_is_registered_and_described():
    assert TOOLS["signals"] is SIGNALS_TOOL and SIGNALS_TOOL.kind == "surveillance"
    [listed] = [t for t in describe() if t["name"] == "signals"]
    assert listed["description"].startswith("Disproportionality of MAUDE")
    assert {p["name"] for p in listed["params"]} == {
        "product_codes",
        "watchlist",
        "year_from",
        "year_to",
        "by",
        "flagged_only",
    }


def test_signals_tool_runs_through_the_registry(ctx, sample_dir):
    res = run_tool(ctx, "signals", {"product_codes": ["OZP"], "by": "problem"})
    want = signals(Store(sample_dir), Scope(codes=("OZP",)))
    problems = [r for r in want.rows if r.dimension == "problem"]
    assert res.tool == "signals" and res.total == len(problems) == 4 and res.provenance[0].as_of == "2025-09-23"
    assert {r["term"] for r in res.rows} == {"No Display/Image", "Wireless Communication Problem"}
    row = next(r for r in res.rows if r["term"] == "No Display/Image" and r["year"] == "all")
    assert (row["a"], row["b"], row["c"], row["d"], row["PRR"]) == ("1", "1", "1", "4", "2.50")
    assert "MAUDE counts are reports, not incidence." in res.notes and "total 4" in res.render()
    assert res.provenance[0].query.startswith("signals: ") and "device_event" in res.provenance[0].query


def test_signals_tool_errors_go_back_as_text(ctx):
    with pytest.raises(ToolError, match="no watchlist named 'nope'"):
        run_tool(ctx, "signals", {"watchlist": "nope"})
    with pytest.raises(ToolError, match=r"signals: codes: unknown argument; valid arguments: product_codes"):
        run_tool(ctx, "signals", {"codes": ["DXY"]})
    with pytest.raises(ToolError, match="say what to look at"):
        run_tool(ctx, "signals", {})
