"""Events the agent streams to interfaces while it works (CLI, desktop app): plain dicts with a `type`."""

from __future__ import annotations

import time
from typing import Any

__all__ = [
    "event",
    "STEP",
    "TOOL_CALL",
    "TOOL_RESULT",
    "TOKEN",
    "ANSWER",
    "ERROR",
    "NOTE",
    "CANCELLED",
    "CLARIFICATION",
    "ANSWER_KEYS",
]

STEP, TOOL_CALL, TOOL_RESULT, TOKEN, ANSWER, ERROR, NOTE, CANCELLED, CLARIFICATION = (
    "step",
    "tool_call",
    "tool_result",
    "token",
    "answer",
    "error",
    "note",
    "cancelled",
    "clarification",
)


def event(kind: str, **data: Any) -> dict[str, Any]:
    """One event: `{"type": kind, "t": unix seconds, **data}`."""
    return {"type": kind, "t": round(time.time(), 3), **data}


# The fields of an answer event that `fda-explorer ask --json` prints and the HTTP API's run returns (one list)
ANSWER_KEYS = (
    "answer",
    "clarify",
    "interpretation",
    "citations",
    "evidence",
    "provenance",
    "tool_calls",
    "model_calls",
    "session",
    "model",
    "audit",
)
