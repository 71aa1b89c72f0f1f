"""The graph's state: the conversation, the resolver context and, per question, the plan, calls and evidence."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

__all__ = ["AgentState", "TURN_RESET"]


class AgentState(TypedDict, total=False):
    messages: Annotated[list[dict[str, Any]], operator.add]   # {"role": "user"|"assistant", "content"}
    session_id: str
    question: str
    route: str                   # guard's verdict: ask | help | greeting | empty | off_topic | medical
    intent: dict[str, Any]       # what the deterministic parser read from the question
    resolved: dict[str, Any]     # ResolverContext, merged across turns
    plan: list[dict[str, Any]]   # tool calls to run next: {"tool", "args"}
    calls: list[dict[str, Any]]  # tool calls run for this question: {"tool", "args", "ok", "summary", "key"}
    evidence: list[dict[str, Any]]   # ToolResult dumps for this question
    phase: str                   # resolve | search | done
    iteration: int
    model_calls: int
    answer: str
    citations: list[dict[str, str]]
    notes: list[str]


# Fields that start empty for every new question (the rest carries over between turns).
TURN_RESET: dict[str, Any] = {"route": "", "intent": {}, "plan": [], "calls": [], "evidence": [], "phase": "resolve",
                              "iteration": 0, "model_calls": 0, "answer": "", "citations": [], "notes": []}
