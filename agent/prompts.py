"""Prompts (constants and the two message builders): planning with tools, and a short grounded answer."""

from __future__ import annotations

from .tools import TOOLS

__all__ = [
    "PLAN_SYSTEM",
    "ANSWER_SYSTEM",
    "CHOOSE_SYSTEM",
    "FILL_SYSTEM",
    "FILL_SCHEMA",
    "DATASET_WORDS",
    "plan_messages",
    "answer_messages",
    "choose_messages",
    "fill_messages",
]

PLAN_SYSTEM = (
    'You plan searches of FDA medical-device data held locally. Reply with JSON: {"calls": [...]} of at most 3 '
    'tool calls, each {"tool": NAME, "args": {...}}. Resolve names first (resolve_device for device words, '
    "resolve_manufacturer for companies, resolve_location for places), then search or count. Tools:\n"
)
ANSWER_SYSTEM = (
    "You write a two-sentence summary of FDA device data for a regulatory professional. Use ONLY the facts given; "
    "copy numbers and record IDs exactly; never add a number that is not in the facts; no medical advice."
)


CHOOSE_SYSTEM = (
    "A person asked a question about FDA medical-device data. It can be read in several ways, listed by number. "
    'Reply with JSON {"choice": N}: the number of the reading the person most likely meant.'
)


# the datasets a model may choose, and the words the rules read each by
DATASET_WORDS = {
    "event": "adverse events",
    "recall": "recalls",
    "enforcement": "enforcement reports",
    "510k": "510(k) clearances",
    "pma": "PMA approvals",
    "classification": "classification",
    "udi": "UDI records",
    "registrationlisting": "registrations",
}
FILL_SYSTEM = (
    "Read a question about FDA medical-device data. Reply with JSON: the dataset it asks about (one of "
    + ", ".join(DATASET_WORDS)
    + "), and, copied exactly from the question, the device words, the company name "
    "and the record number it names (empty strings when it names none)."
)
FILL_SCHEMA = {
    "type": "object",
    "properties": {
        "dataset": {"type": "string", "enum": list(DATASET_WORDS)},
        "device": {"type": "string", "maxLength": 60},
        "firm": {"type": "string", "maxLength": 60},
        "record": {"type": "string", "maxLength": 20},
    },
    "required": ["dataset", "device", "firm", "record"],
}


def fill_messages(question: str) -> list[dict]:
    return [{"role": "system", "content": FILL_SYSTEM}, {"role": "user", "content": question}]


def choose_messages(question: str, ask: str, choices: list[str]) -> list[dict]:
    listed = "\n".join(f"{i}. {c}" for i, c in enumerate(choices, 1))
    return [
        {"role": "system", "content": CHOOSE_SYSTEM},
        {"role": "user", "content": f"Question: {question}\n{ask}\n{listed}"},
    ]


def plan_messages(question: str) -> list[dict]:
    tools = "\n".join(f"- {t.name}: {t.description}" for t in TOOLS.values())
    return [{"role": "system", "content": PLAN_SYSTEM + tools}, {"role": "user", "content": question}]


def answer_messages(question: str, facts: str) -> list[dict]:
    return [
        {"role": "system", "content": ANSWER_SYSTEM},
        {"role": "user", "content": f"Question: {question}\n\nFacts:\n{facts[:3000]}\n\nSummary:"},
    ]
