"""The Ask screen without a window: the conversation, its live timeline, answers, records, tables, charts, exports."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .backend import Backend
from .banners import Banner, banner_for, info, model_problem, one_line
from .exports import Export, write_export
from .jobs import Jobs
from .results import Chart, ResultTable, as_of_of, chart_of, tables_of
from .timeline import Entry, attach_queries, entry_of

__all__ = ["AskModel", "Turn", "RecordView"]


@dataclass
class Turn:
    """One question and what came of it; `status` is running, done, cancelled or failed."""

    question: str
    status: str = "running"
    entries: list[Entry] = field(default_factory=list)
    draft: str = ""                          # the model's answer while it streams
    answer: str = ""
    citations: list[dict] = field(default_factory=list)
    tables: list[ResultTable] = field(default_factory=list)
    chart: Chart | None = None
    payload: dict = field(default_factory=dict)
    error: str = ""
    sent_at: float = 0.0
    exports: list[str] = field(default_factory=list)
    cancel: threading.Event = field(default_factory=threading.Event)   # stops the assistant at its next step
    waiting: Entry | None = None             # the "waiting for the cancelled answer" note, while queued

    @property
    def as_of(self) -> dict[str, str]:
        return as_of_of(self.payload) if self.payload else {}


@dataclass
class RecordView:
    """A cited record opened from its chip: the original JSON, pretty-printed."""

    dataset: str
    ident: str
    text: str = ""
    loading: bool = True


class AskModel:
    def __init__(self, backend: Backend, jobs: Jobs, changed: Callable[[str], None],
                 report: Callable[[Banner], None]) -> None:
        self.backend, self.jobs, self._changed, self._report = backend, jobs, changed, report
        self.session_id: str | None = None
        self.turns: list[Turn] = []
        self.draft = ""
        self.record: RecordView | None = None
        self._model_note_shown = ""
        self._draining: set[int] = set()     # ids of cancelled turns the assistant is still finishing
        # The UI thread (send, cancel, new conversation) and the "ask" lane (events, answer) both change turns:
        # every change of a turn's status, of `turns` and of `session_id` happens under this lock.
        self._lock = threading.RLock()

    @property
    def busy(self) -> bool:
        return any(t.status == "running" for t in self.turns)

    def changed(self) -> None:
        self._changed("ask")

    def take_draft(self) -> str:
        """Text to put back in the question box (a failed or cancelled question), once."""
        draft, self.draft = self.draft, ""
        return draft

    # -- asking ------------------------------------------------------------------------------------------------
    def send(self, text: str) -> bool:
        """Start answering `text` (False, with a hint, when it is empty or an answer is still running)."""
        question = text.strip()
        if not question:
            return False
        if self.busy:
            self._report(info("Wait for the current answer, or cancel it, before asking the next question."))
            return False
        turn = Turn(question, sent_at=time.perf_counter())
        with self._lock:
            if self._draining:
                turn.waiting = Entry("note", "Waiting for the cancelled answer to stop…")
                turn.entries.append(turn.waiting)
            self.turns.append(turn)
            self.draft = ""
        self.changed()
        self.jobs.submit("ask", self._run, turn, doing="answering")
        return True

    def _run(self, turn: Turn) -> None:
        with self._lock:
            if turn.waiting is not None:
                turn.entries = [e for e in turn.entries if e is not turn.waiting]
                turn.waiting = None
            if turn.status != "running":     # cancelled before it started: nothing to finish
                self._draining.discard(id(turn))
                return
            session_id = self.session_id
        try:
            for ev in self.backend.stream(turn.question, session_id, turn.cancel):
                with self._lock:
                    if turn.status != "running":
                        continue             # drain the stream so the assistant finishes cleanly
                    self._apply(turn, ev)
                self.changed()
        except Exception as e:
            self._fail(turn, e)
            return
        finally:
            with self._lock:
                self._draining.discard(id(turn))
        with self._lock:
            if turn.status == "running":     # the stream ended without an answer (an agent error)
                turn.status = "failed"
        self._check_model_note()
        self.changed()

    def _apply(self, turn: Turn, ev: dict) -> None:
        kind = ev.get("type")
        if kind == "token":
            turn.draft += ev.get("text", "")
            return
        if kind == "answer":
            self._answer(turn, ev)
            return
        entry = entry_of(ev, time.perf_counter() - turn.sent_at)
        if entry is not None:
            turn.entries.append(entry)
        if kind == "error" and ev.get("where") == "agent":
            turn.error = ev.get("message", "")
            self._report(Banner(f"The assistant failed: {turn.error}. Your question is kept: try again "
                                "(a simpler question or another model may help).", "error", "Open Settings", "settings"))
            self.draft = self.draft or turn.question
        elif kind == "error" and str(ev.get("where", "")).startswith("model"):
            self._report(model_problem(f"The model failed ({ev.get('message', '')})"))
        elif kind == "note":
            self._check_model_note()

    def _answer(self, turn: Turn, ev: dict) -> None:
        turn.payload = ev
        turn.answer, turn.citations = ev.get("answer", ""), list(ev.get("citations", []))
        turn.tables, turn.chart = tables_of(ev.get("evidence", [])), chart_of(ev.get("evidence", []))
        attach_queries(turn.entries, ev.get("tool_calls", []))
        if any(t is turn for t in self.turns):   # not after Ctrl+K or a resume replaced the conversation
            self.session_id = ev.get("session") or self.session_id
        turn.status = "done"
        self._changed("sessions")

    def _check_model_note(self) -> None:
        note = self.backend.model_note
        if note and note != self._model_note_shown:
            self._model_note_shown = note
            self._report(model_problem(f"The model {self.backend.config.model!r} is unavailable ({note})"))

    def _fail(self, turn: Turn, error: BaseException) -> None:
        with self._lock:
            if turn.status != "running":
                return
            turn.status, turn.error = "failed", one_line(error)
            self.draft = self.draft or turn.question
        self._report(banner_for(error, "answering"))
        self.changed()

    def cancel(self) -> None:
        """Stop showing the running answer at once and tell the assistant to stop at its next step (a tool
        query or model call already running finishes first, in the background)."""
        with self._lock:
            for t in self.turns:
                if t.status == "running":
                    t.status = "cancelled"
                    t.cancel.set()
                    self._draining.add(id(t))
                    t.entries.append(Entry("note", "Cancelled: the answer was stopped.",
                                           seconds=time.perf_counter() - t.sent_at))
                    self.draft = self.draft or t.question
        self.changed()

    def retry(self, index: int) -> None:
        turn = self.turns[index]
        if turn.status in ("failed", "cancelled"):
            self.send(turn.question)

    # -- conversations ---------------------------------------------------------------------------------------
    def new_conversation(self) -> None:
        with self._lock:
            self.cancel()
            self.session_id, self.turns, self.record = None, [], None
        self.changed()

    def resume(self, session_id: str) -> None:
        """Show a saved conversation and continue it (runs on a job lane: it reads the session store)."""
        messages = self.backend.history(session_id)
        turns: list[Turn] = []
        for m in messages:
            if m.get("role") == "user":
                turns.append(Turn(m.get("content", ""), status="done"))
            elif m.get("role") == "assistant" and turns:
                turns[-1].answer = m.get("content", "")
        with self._lock:
            self.cancel()
            self.session_id, self.turns, self.record = session_id, turns, None
        self.changed()

    # -- records, tables, exports ----------------------------------------------------------------------------------
    def open_citation(self, turn_index: int, citation_index: int) -> None:
        c = self.turns[turn_index].citations[citation_index]
        self.record = RecordView(c["dataset"], c["id"])
        self.changed()
        self.jobs.submit("io", self._load_record, self.record, doing=f"opening the record {c['id']}")

    def _load_record(self, view: RecordView) -> None:
        try:
            view.text = json.dumps(self.backend.record(view.dataset, view.ident), indent=2, ensure_ascii=False)
        except Exception as e:
            view.text = f"Cannot open this record: {' '.join(str(e).split())}"
            self._report(banner_for(e, f"opening the record {view.ident}"))
        view.loading = False
        self.changed()

    def close_record(self) -> None:
        self.record = None
        self.changed()

    def sort(self, turn_index: int, table_index: int, column: int, ascending: bool) -> None:
        self.turns[turn_index].tables[table_index].sort(column, ascending)
        self.changed()

    def export(self, turn_index: int, fmt: str) -> None:
        turn = self.turns[turn_index]          # taken now: Ctrl+K or a resume may replace the list meanwhile
        self.jobs.submit("io", self._export, turn, turn_index, fmt, doing=f"exporting {fmt.upper()}")

    def _export(self, turn: Turn, turn_index: int, fmt: str) -> Path:
        p = turn.payload
        ex = Export(turn.question, turn.answer, turn.citations, turn.tables, p.get("tool_calls", []), turn.as_of,
                    p.get("session", self.session_id or "session"), p.get("model", ""), p.get("audit", ""))
        path = write_export(ex, fmt, self.backend.config.exports, turn_index + 1)
        turn.exports.append(str(path))
        self._report(info(f"Exported {fmt.upper()} (data as of {ex.stamp}) to {path}"))
        self.changed()
        return path
