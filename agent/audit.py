"""The audit log of each answer: question, plan, tool calls with exact queries, as-of dates, model, answer."""

from __future__ import annotations

import json
import time
from pathlib import Path

from .sessions import inside

__all__ = ["write_audit", "to_markdown"]


def write_audit(folder: Path, payload: dict, settings: dict) -> Path:
    """Write `<folder>/<session>/<time>.json` and `.md`; returns the JSON path. The session id must be a plain
    name whose folder stays directly under `folder` (InvalidSessionId otherwise), checked before anything is written."""
    record = {
        "question": payload["question"],
        "session": payload["session"],
        "route": payload["route"],
        "plan": payload["plan"],
        "tool_calls": payload["tool_calls"],
        "as_of": payload["as_of"],
        "model": payload["model"],
        "model_calls": payload["model_calls"],
        "settings": settings,
        "answer": payload["answer"],
        "citations": payload["citations"],
        "provenance": payload["provenance"],
        "seconds": payload["seconds"],
        "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    d = inside(folder, payload["session"])
    d.mkdir(parents=True, exist_ok=True)
    stem = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"-{int(time.time() * 1000) % 1000:03d}"
    path = _new_file(d, stem, json.dumps(record, indent=2, default=str))
    path.with_suffix(".md").write_text(to_markdown(record), encoding="utf-8")
    return path


def _new_file(folder: Path, stem: str, text: str) -> Path:
    """`<folder>/<stem>.json`, or `<stem>-2.json`, ...: never over an audit written in the same millisecond."""
    for n in range(1, 1000):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
            return path
        except FileExistsError:
            continue
    raise FileExistsError(f"{folder}: too many audit files named {stem}*")


def to_markdown(record: dict) -> str:
    lines = [
        f"# Audit: {record['question']}",
        "",
        f"- session: `{record['session']}`",
        f"- written: {record['written_at']}",
        f"- model: {record['model']} ({record['model_calls']} calls)",
        "- data as of: " + ", ".join(f"{k} {v}" for k, v in sorted(record["as_of"].items())),
        "",
        "## Answer",
        "",
        record["answer"],
        "",
        "## Tool calls",
        "",
    ]
    for c in record["tool_calls"]:
        lines.append(
            f"- `{c['tool']}` {json.dumps(c['args'], default=str)}: {'ok' if c['ok'] else 'failed'}, {c['summary']}"
        )
        lines += [f"  - query: `{q}`" for q in c.get("queries", [])]
    lines += ["", "## Citations", ""] + [f"- {c['dataset']}: {c['id']}" for c in record["citations"]]
    lines += ["", "## Settings", "", "```json", json.dumps(record["settings"], indent=2, default=str), "```", ""]
    return "\n".join(lines)
