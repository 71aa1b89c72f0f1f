"""Graph wiring only: start -> (direct | plan -> tools -> reflect -> (plan | answer)) -> end."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from .nodes import Nodes
from .state import AgentState

__all__ = ["build_graph"]


def _after_start(state: AgentState) -> str:
    return "plan" if state["route"] == "ask" else "direct"


def _after_plan(state: AgentState) -> str:
    return "tools" if state.get("plan") else "answer"


def _after_reflect(state: AgentState) -> str:
    return "answer" if state.get("phase") == "done" else "plan"


def build_graph(nodes: Nodes, checkpointer=None):
    g = StateGraph(AgentState)
    g.add_node("start", nodes.start)
    g.add_node("direct", nodes.direct)
    g.add_node("plan", nodes.plan)
    g.add_node("tools", nodes.tools)
    g.add_node("reflect", nodes.reflect)
    g.add_node("answer", nodes.answer)
    g.add_edge(START, "start")
    g.add_conditional_edges("start", _after_start, ["plan", "direct"])
    g.add_edge("direct", END)
    g.add_conditional_edges("plan", _after_plan, ["tools", "answer"])
    g.add_edge("tools", "reflect")
    g.add_conditional_edges("reflect", _after_reflect, ["plan", "answer"])
    g.add_edge("answer", END)
    return g.compile(checkpointer=checkpointer)
