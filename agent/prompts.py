"""Prompts (constants and the two message builders): planning with tools, and a short grounded answer."""

from __future__ import annotations

from .tools import TOOLS

__all__ = ["PLAN_SYSTEM", "ANSWER_SYSTEM", "plan_messages", "answer_messages"]

PLAN_SYSTEM = (
    "You plan searches of FDA medical-device data held locally. Reply with JSON: {\"calls\": [...]} of at most 3 "
    "tool calls, each {\"tool\": NAME, \"args\": {...}}. Resolve names first (resolve_device for device words, "
    "resolve_manufacturer for companies, resolve_location for places), then search or count. Tools:\n")
ANSWER_SYSTEM = (
    "You write a two-sentence summary of FDA device data for a regulatory professional. Use ONLY the facts given; "
    "copy numbers and record IDs exactly; never add a number that is not in the facts; no medical advice.")


def plan_messages(question: str) -> list[dict]:
    tools = "\n".join(f"- {t.name}: {t.description}" for t in TOOLS.values())
    return [{"role": "system", "content": PLAN_SYSTEM + tools}, {"role": "user", "content": question}]


def answer_messages(question: str, facts: str) -> list[dict]:
    return [{"role": "system", "content": ANSWER_SYSTEM},
            {"role": "user", "content": f"Question: {question}\n\nFacts:\n{facts[:3000]}\n\nSummary:"}]
