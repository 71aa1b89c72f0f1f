"""Answers kept whole: what the Ask screen shows of each answer, saved beside its audit log and read back on resume.

Each answer the app receives is saved as `<data folder>/app/answers/<session>/<audit name>.json`: the assistant's
answer payload (answer, interpretation, clarifying question, citations, evidence rows, tool calls, as-of dates,
model, audit path) and its timeline. A conversation asked elsewhere (`fda-explorer ask`, the MCP server) has only
its audit log (`<data folder>/agent/audit/<session>/*.json`): it is rebuilt from that, without the evidence rows,
which the caller may fetch again (`SavedAnswer.complete` is False).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .timeline import Entry, entries_of_calls

__all__ = ["SavedAnswer", "save_answer", "load_answers", "forget_session", "answers_root", "same_as_of"]

VERSION = 1
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


@dataclass
class SavedAnswer:
    """One answered question as the Ask screen showed it; `complete` is False when its evidence rows were not kept."""

    question: str
    payload: dict
    entries: list[Entry] = field(default_factory=list)
    complete: bool = True


def answers_root(data_dir: Path) -> Path:
    return Path(data_dir) / "app" / "answers"


def _folder(root: Path, session: str) -> Path | None:
    """`root/session`, or None for a session id that is not a plain name (it is never a path)."""
    return Path(root) / session if isinstance(session, str) and _SAFE.fullmatch(session) else None


def save_answer(root: Path, payload: dict, entries: list[Entry]) -> Path | None:
    """Write one answer (atomically: a temporary file, then a rename); None when it has no session to go with."""
    folder = _folder(root, payload.get("session", ""))
    if folder is None:
        return None
    audit = payload.get("audit") or ""
    stem = Path(audit).stem if audit else time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-app"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.json"
    record = {
        "version": VERSION,
        "question": payload.get("question", ""),
        "payload": {k: v for k, v in payload.items() if k != "type"},
        "entries": [asdict(e) for e in entries],
    }
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(record, ensure_ascii=False, default=str), encoding="utf-8")
    os.replace(tmp, path)
    return path


def load_answers(root: Path, audit_root: Path, session: str) -> list[SavedAnswer]:
    """Every answer of `session` in the order asked: the app's own record where it has one, else the audit log."""
    mine, audits = _folder(root, session), _folder(audit_root, session)
    if mine is None or audits is None:
        return []
    names = {p.name: p for p in sorted(audits.glob("*.json"))} if audits.is_dir() else {}
    names.update({p.name: p for p in sorted(mine.glob("*.json"))} if mine.is_dir() else {})
    out = []
    for name in sorted(names):
        path = names[name]
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a file being written or damaged: the others still show
        out.append(_from_view(record) if path.parent == mine else _from_audit(record, str(path)))
    return out


def _from_view(record: dict) -> SavedAnswer:
    entries = [Entry(**{**e, "details": [tuple(d) for d in e.get("details", [])]}) for e in record.get("entries", [])]
    return SavedAnswer(record.get("question", ""), record.get("payload", {}), entries)


def _from_audit(record: dict, path: str) -> SavedAnswer:
    """The audit log keeps all but the evidence rows (and a clarifying question's choices)."""
    payload = {
        "question": record.get("question", ""),
        "session": record.get("session", ""),
        "answer": record.get("answer", ""),
        "interpretation": record.get("plan") or {},
        "citations": record.get("citations", []),
        "provenance": record.get("provenance", []),
        "tool_calls": record.get("tool_calls", []),
        "as_of": record.get("as_of", {}),
        "model": record.get("model", ""),
        "model_calls": record.get("model_calls", 0),
        "seconds": record.get("seconds", 0),
        "route": record.get("route", ""),
        "evidence": [],
        "audit": path,
    }
    return SavedAnswer(
        payload["question"],
        payload,
        entries_of_calls(payload["tool_calls"], payload.get("seconds") or 0),
        complete=False,
    )


def same_as_of(old: list[dict], new: list[dict]) -> bool:
    """Whether evidence fetched again reads every dataset at the as-of date the answer read it."""
    before = {p.get("dataset"): p.get("as_of") for p in old if p.get("dataset")}
    after = {p.get("dataset"): p.get("as_of") for e in new for p in e.get("provenance", []) if p.get("dataset")}
    return bool(after) and all(before.get(k) == v for k, v in after.items())


def forget_session(root: Path, session: str) -> None:
    """Remove the app's records of a deleted session (the audit log stays: it is the record of what was said)."""
    folder = _folder(root, session)
    if folder is not None and folder.is_dir():
        shutil.rmtree(folder, ignore_errors=True)
