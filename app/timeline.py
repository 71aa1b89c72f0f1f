"""The live timeline of an answer: each agent event becomes an entry with a title and expandable details."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

__all__ = ["Entry", "entry_of", "attach_queries"]

STEP_TITLES = {"guard": "Read the question", "plan": "Planned the search", "reflect": "Checked the evidence"}


@dataclass
class Entry:
    """One line of the timeline; `details` are (label, text) pairs shown when it is expanded."""

    kind: str                      # step | tool | result | note | error
    title: str
    details: list[tuple[str, str]] = field(default_factory=list)
    ok: bool | None = None
    seconds: float = 0.0           # since the question was sent
    tool: str = ""


def _args(args: dict) -> str:
    return json.dumps(args, ensure_ascii=False, default=str)


def _step(ev: dict) -> Entry:
    name = ev.get("step", "")
    title = STEP_TITLES.get(name, name.capitalize() or "Step")
    details: list[tuple[str, str]] = []
    if name == "guard":
        title += f": {ev.get('route', '')}"
    elif name == "plan":
        calls = ev.get("calls") or []
        title += f": {len(calls)} tool call{'s' if len(calls) != 1 else ''}" + (
            f" ({', '.join(c['tool'] for c in calls)})" if calls else "")
        details = [(c["tool"], _args(c.get("args", {}))) for c in calls]
    elif name == "reflect":
        title += f": {ev.get('decision', '')}"
    return Entry("step", title, details)


def entry_of(ev: dict, seconds: float = 0.0) -> Entry | None:
    """The timeline entry of an agent event (None for events that are not shown: tokens, the answer)."""
    kind = ev.get("type")
    if kind == "step":
        entry = _step(ev)
    elif kind == "tool_call":
        entry = Entry("tool", f"Calling {ev.get('tool', '')}", [("arguments", _args(ev.get("args", {})))],
                      tool=ev.get("tool", ""))
    elif kind == "tool_result":
        ok = bool(ev.get("ok"))
        entry = Entry("result", f"{ev.get('summary', '')}" if ok else f"{ev.get('tool', '')} failed",
                      [("result", ev.get("summary", ""))], ok=ok, tool=ev.get("tool", ""))
    elif kind == "note":
        entry = Entry("note", ev.get("message", ""))
    elif kind == "error":
        entry = Entry("error", f"{ev.get('where', 'agent')}: {ev.get('message', '')}", ok=False)
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
