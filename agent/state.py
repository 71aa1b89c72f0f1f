"""The graph's state: the conversation, what the previous answer found, and per question its reading and evidence."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

__all__ = ["AgentState", "TURN_RESET", "Phase"]

Phase = Literal["search", "done"]


class AgentState(TypedDict, total=False):
    messages: Annotated[list[dict[str, Any]], operator.add]  # {"role": "user"|"assistant", "content"}
    session_id: str
    question: str
    route: str  # guard's verdict: ask | help | greeting | empty | off_topic | medical
    interpretation: dict[str, Any]  # understand.types.Interpretation, dumped (the checkpoint keeps JSON)
    clarify: dict[str, Any]  # understand.types.Clarification while a choice is pending, else {}
    picked: str  # the choice the person made, if any
    skipped: bool  # the person asked something else instead of choosing
    last: dict[str, Any]  # understand.types.LastResult of the previous answer ("those")
    plan: list[dict[str, Any]]  # tool calls to run next: {"tool", "args", "dataset", "label"}
    calls: list[dict[str, Any]]  # tool calls run for this question: {"tool", "args", "ok", "summary", "key", ...}
    evidence: list[dict[str, Any]]  # ToolResult dumps for this question
    dropped: list[str]  # filters a dataset could not apply, dropped on the retry (said in a note)
    phase: Phase
    iteration: int
    model_calls: int
    answer: str
    citations: list[dict[str, str]]
    notes: list[str]


# Fields that start empty for every new question (the rest carries over between turns).
TURN_RESET: dict[str, Any] = {
    "route": "",
    "interpretation": {},
    "clarify": {},
    "picked": "",
    "skipped": False,
    "plan": [],
    "calls": [],
    "evidence": [],
    "dropped": [],
    "phase": "search",
    "iteration": 0,
    "model_calls": 0,
    "answer": "",
    "citations": [],
    "notes": [],
}
