"""The live timeline of an answer: each agent event becomes an entry with a plain title and expandable details."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .labels import tool_label

__all__ = ["Entry", "entry_of", "attach_queries", "entries_of_calls", "result_title"]

ROUTES = {
    "ask": "",
    "greeting": "a greeting",
    "help": "a request for help",
    "medical": "a personal medical question",
    "off_topic": "not about FDA device data",
    "out_of_scope": "about data this app does not hold",
    "empty": "an empty question",
}


@dataclass
class Entry:
    """One line of the timeline; `details` are (label, text) pairs shown when it is expanded."""

    kind: str  # step | tool | result | note | error
    title: str
    details: list[tuple[str, str]] = field(default_factory=list)
    ok: bool | None = None
    seconds: float = 0.0  # since the question was sent
    tool: str = ""


def _args(args: dict) -> str:
    return json.dumps(args, ensure_ascii=False, default=str)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('h') else 's'}"


def _step(ev: dict) -> Entry:
    name = ev.get("step", "")
    details: list[tuple[str, str]] = []
    if name == "guard":
        kind = ROUTES.get(ev.get("route", ""), ev.get("route", ""))
        title = "Read the question" + (f": {kind}" if kind else "")
    elif name == "understand":
        title = "Asked which reading you mean" if ev.get("clarify") else "Understood the question"
    elif name == "clarify":
        title = f"You chose: {ev.get('picked', '')}"
    elif name == "plan":
        calls = ev.get("calls") or []
        title = f"Planned {_plural(len(calls), 'search')}"
        details = [(tool_label(c["tool"]), _args(c.get("args", {}))) for c in calls]
    elif name == "reflect":
        decision = str(ev.get("decision", ""))
        title = "Checked the evidence: " + ("enough to answer" if decision == "answer" else "searching again")
        details = [("decision", decision)] if decision != "answer" else []
    else:
        title = name.capitalize() or "Step"
    return Entry("step", title, details)


def result_title(tool: str, summary: str, ok: bool) -> str:
    """'Searched recalls: total 0' from the tool's summary 'search_recalls: total 0'."""
    if not ok:
        return f"{tool_label(tool)}: failed"
    rest = summary.split(":", 1)[1].strip() if summary.startswith(f"{tool}:") else summary
    return f"{tool_label(tool)}: {rest}" if rest else tool_label(tool)


def entry_of(ev: dict, seconds: float = 0.0) -> Entry | None:
    """The timeline entry of an agent event (None for events that are not shown: tokens, the answer)."""
    kind = ev.get("type")
    if kind == "step":
        entry = _step(ev)
    elif kind == "tool_call":
        tool = ev.get("tool", "")
        entry = Entry(
            "tool", f"{tool_label(tool)}…", [("tool", tool), ("arguments", _args(ev.get("args", {})))], tool=tool
        )
    elif kind == "tool_result":
        ok, tool = bool(ev.get("ok")), ev.get("tool", "")
        entry = Entry(
            "result",
            result_title(tool, ev.get("summary", ""), ok),
            [("result", ev.get("summary", ""))],
            ok=ok,
            tool=tool,
        )
    elif kind == "note":  # the assistant's notes are about the model: said plainly, the words kept inside
        entry = Entry("note", "A note about the model (open for details)", [("note", ev.get("message", ""))])
    elif kind == "error":
        where = str(ev.get("where", ""))
        title = "The model could not help with this step" if where.startswith("model") else "The assistant failed"
        entry = Entry("error", title, [("details", f"{where}: {ev.get('message', '')}")], ok=False)
    else:
        return None
    entry.seconds = round(seconds, 3)
    return entry


def attach_queries(entries: list[Entry], tool_calls: list[dict]) -> None:
    """Add each call's exact openFDA queries (known once the answer arrives) to its result entry, in order."""
    results = [e for e in entries if e.kind == "result"]
    for entry, call in zip(results, tool_calls):
        if call.get("tool") == entry.tool:
            entry.details += [("query", q) for q in call.get("queries", [])]


def entries_of_calls(tool_calls: list[dict], seconds: float = 0.0) -> list[Entry]:
    """A timeline rebuilt from an audit log's tool calls (its steps' times were not kept: each shows the total)."""
    out = [Entry("step", "Read the question", seconds=0.0)]
    for c in tool_calls:
        tool, ok = c.get("tool", ""), bool(c.get("ok"))
        out.append(
            Entry(
                "result",
                result_title(tool, c.get("summary", ""), ok),
                [("arguments", _args(c.get("args", {}))), ("result", c.get("summary", ""))]
                + [("query", q) for q in c.get("queries", [])],
                ok=ok,
                seconds=seconds,
                tool=tool,
            )
        )
    return out
