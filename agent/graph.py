"""Graph wiring only.

start -> direct -> end                                  (greetings, help, off-topic, medical advice)
start -> understand -> clarify (interrupt) -> plan        (a weak or tied reading: the person picks)
start -> understand -> plan -> tools -> reflect -> (plan | answer) -> end
answer -> clarify (interrupt) -> plan                   (no records for a doubtful reading: the person confirms it)
understand -> answer                                    (not understood: said so, nothing searched)
clarify -> end                                          (the person asked something else instead of choosing)
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from .nodes import Nodes
from .state import AgentState

__all__ = ["build_graph"]


def _after_start(state: AgentState) -> str:
    return "understand" if state["route"] == "ask" else "direct"


def _after_understand(state: AgentState) -> str:
    if state.get("clarify"):
        return "clarify"
    return "plan" if state.get("interpretation", {}).get("understood", True) else "answer"


def _after_clarify(state: AgentState) -> str:
    return END if state.get("skipped") else "plan"


def _after_answer(state: AgentState) -> str:
    return "clarify" if state.get("clarify") else END


def _after_plan(state: AgentState) -> str:
    return "tools" if state.get("plan") else "answer"


def _after_reflect(state: AgentState) -> str:
    return "answer" if state.get("phase") == "done" else "plan"


def build_graph(nodes: Nodes, checkpointer=None):
    g = StateGraph(AgentState)
    for name in ("start", "direct", "understand", "clarify", "plan", "tools", "reflect", "answer"):
        g.add_node(name, getattr(nodes, name))
    g.add_edge(START, "start")
    g.add_conditional_edges("start", _after_start, ["understand", "direct"])
    g.add_edge("direct", END)
    g.add_conditional_edges("understand", _after_understand, ["clarify", "plan", "answer"])
    g.add_conditional_edges("clarify", _after_clarify, ["plan", END])
    g.add_conditional_edges("plan", _after_plan, ["tools", "answer"])
    g.add_edge("tools", "reflect")
    g.add_conditional_edges("reflect", _after_reflect, ["plan", "answer"])
    g.add_conditional_edges("answer", _after_answer, ["clarify", END])
    return g.compile(checkpointer=checkpointer)
