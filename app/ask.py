"""The Ask screen without a window: the conversation, its live timeline, answers, records, tables, charts, exports."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from .answer_files import export_of, fetch_all
from .backend import Backend
from .banners import Banner, banner_for, info, model_problem, one_line
from .exports import write_export
from .jobs import Jobs
from .records import RecordView, layout, original_json
from .rephrase import rephrase
from .results import ResultTable, chart_of, tables_of
from .saved import SavedAnswer, same_as_of
from .timeline import Entry, attach_queries, entry_of
from .turn import Turn

__all__ = ["AskModel", "Turn", "RecordView", "FORMAT_NAMES"]

FORMAT_NAMES = {
    "xlsx": "Excel workbook",
    "csv": "CSV",
    "md": "Markdown report",
    "pdf": "PDF report",
    "png": "PNG image of the chart",
}
SLOW_MODEL_SECONDS = 20


class AskModel:
    def __init__(
        self, backend: Backend, jobs: Jobs, changed: Callable[[str], None], report: Callable[[Banner], None]
    ) -> None:
        self.backend, self.jobs, self._changed, self._report = backend, jobs, changed, report
        self.session_id: str | None = None
        self.turns: list[Turn] = []
        self.draft = ""
        self.record: RecordView | None = None
        self._model_note_shown = ""
        self._slow_said = False
        self._draining: set[int] = set()  # ids of cancelled turns the assistant is still finishing
        self.downloads: list[Path] = []  # exports written, for the web build to hand to the browser
        self.in_browser = False  # the web build: each export is also downloaded by the browser
        # The UI thread (send, cancel, new conversation) and the "ask" lane (events, answer) both change turns:
        # every change of a turn's status, of `turns` and of `session_id` happens under this lock.
        self._lock = threading.RLock()

    @property
    def busy(self) -> bool:
        return any(t.status == "running" for t in self.turns)

    @property
    def title(self) -> str:
        """The conversation's name: its first question."""
        return self.turns[0].question if self.turns else "New conversation"

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

    def choose(self, turn_index: int, choice: int) -> bool:
        """Answer a clarifying question with one of its choices: the assistant resumes where it asked."""
        turn = self.turns[turn_index]
        if turn.clarify is None or turn is not self.turns[-1]:
            return False
        return self.send(turn.clarify["choices"][choice])

    def take_downloads(self) -> list[Path]:
        """The exports written since the last call (the web build hands each to the browser)."""
        with self._lock:
            files, self.downloads = self.downloads, []
        return files

    def rerun(self, turn_index: int, kind: str, new: str, old: str = "") -> bool:
        """Ask a question again with one part of its reading changed (dataset, device, firm, dates), in the same
        conversation: the new answer comes below the others."""
        turn = self.turns[turn_index]
        question = rephrase(turn.question, turn.interpretation, kind, new, old)
        if question.strip().lower() == turn.question.strip().lower():
            self._report(info("That is the question as it was asked: change the text, or ask in other words."))
            return False
        return self.send(question)

    def _run(self, turn: Turn) -> None:
        with self._lock:
            if turn.waiting is not None:
                turn.entries = [e for e in turn.entries if e is not turn.waiting]
                turn.waiting = None
            if turn.status != "running":  # cancelled before it started: nothing to finish
                self._draining.discard(id(turn))
                return
            session_id = self.session_id
        try:
            for ev in self.backend.stream(turn.question, session_id, turn.cancel):
                with self._lock:
                    if turn.status != "running":
                        continue  # drain the stream so the assistant finishes cleanly
                    self._apply(turn, ev)
                self.changed()
        except Exception as e:
            self._fail(turn, e)
            return
        finally:
            with self._lock:
                self._draining.discard(id(turn))
        with self._lock:
            if turn.status == "running":  # the stream ended without an answer (an agent error)
                turn.status = "failed"
        self._check_model_note()
        self._check_slow_model(turn)
        self.changed()

    def _check_slow_model(self, turn: Turn) -> None:
        """A model that makes answers slow is worth saying once: the figures are the same without it."""
        p = turn.payload
        if p.get("model_calls") and (p.get("seconds") or 0) > SLOW_MODEL_SECONDS and not self._slow_said:
            self._slow_said = True
            self._report(
                Banner(
                    f"The model took {p['seconds']:.0f} s on this answer. Without a model the same "
                    "figures come in under a second: choose No model in Settings on a slow computer.",
                    "info",
                    "Open Settings",
                    "settings",
                )
            )

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
            turn.error = "The assistant could not answer this question."
            self._report(
                Banner(
                    "The assistant could not answer this question. Your question is kept: try again, "
                    "in other words, or with another model.",
                    "error",
                    "Open Settings",
                    "settings",
                )
            )
            self.draft = self.draft or turn.question
        elif kind == "error" and str(ev.get("where", "")).startswith("model"):
            self._report(model_problem("The model could not help with this answer"))
        elif kind == "note":
            self._check_model_note()

    @staticmethod
    def _fill(turn: Turn, payload: dict) -> None:
        evidence = payload.get("evidence", [])
        turn.payload = payload
        turn.answer, turn.citations = payload.get("answer", ""), list(payload.get("citations", []))
        turn.tables = tables_of(evidence, payload.get("tool_calls", []))
        turn.chart = chart_of(evidence, payload.get("interpretation"))

    def _answer(self, turn: Turn, ev: dict) -> None:
        self._fill(turn, ev)
        attach_queries(turn.entries, ev.get("tool_calls", []))
        if any(t is turn for t in self.turns):  # not after Ctrl+K or a resume replaced the conversation
            self.session_id = ev.get("session") or self.session_id
        turn.status = "done"
        try:
            self.backend.save_answer(ev, turn.entries)
        except OSError as e:
            self._report(
                Banner(
                    f"This answer is shown but could not be kept for later ({one_line(e)}): "
                    "export it now, and check the free disk space.",
                    "warning",
                )
            )
        self._changed("sessions")

    def _check_model_note(self) -> None:
        note = self.backend.model_note
        if note and note != self._model_note_shown:
            self._model_note_shown = note
            self._report(model_problem(f"The chosen model ({self.backend.config.model}) is not available", note))

    def _fail(self, turn: Turn, error: BaseException) -> None:
        with self._lock:
            if turn.status != "running":
                return
            turn.status, turn.error = "failed", banner_for(error, "answering").message
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
                    t.entries.append(
                        Entry("note", "Cancelled: the answer was stopped.", seconds=time.perf_counter() - t.sent_at)
                    )
                    self.draft = self.draft or t.question
        self.changed()

    def retry(self, index: int) -> None:
        turn = self.turns[index]
        if turn.status in ("failed", "cancelled"):
            with self._lock:
                if turn in self.turns and not turn.answer:
                    self.turns.remove(turn)  # the new answer takes the failed card's place
            self.draft = ""
            self.send(turn.question)

    # -- conversations ---------------------------------------------------------------------------------------
    def new_conversation(self) -> None:
        with self._lock:
            self.cancel()
            self.session_id, self.turns, self.record = None, [], None
        self.changed()

    def resume(self, session_id: str) -> None:
        """Show a saved conversation whole and continue it (runs on a job lane: it reads the session's files).
        Answers asked elsewhere have only their audit log: their tables are fetched again when the data is still
        as of the same dates."""
        saved = self.backend.saved_answers(session_id)
        turns = [self._restored(s) for s in saved] if saved else self._from_history(session_id)
        with self._lock:
            self.cancel()
            self.session_id, self.turns, self.record = session_id, turns, None
        self.changed()
        for turn, s in zip(turns, saved):
            if not s.complete and s.payload.get("tool_calls"):
                self._refetch(turn)

    def _restored(self, s: SavedAnswer) -> Turn:
        turn = Turn(s.question, status="done", entries=s.entries)
        self._fill(turn, s.payload)
        return turn

    def _from_history(self, session_id: str) -> list[Turn]:
        turns: list[Turn] = []
        for m in self.backend.history(session_id):
            if m.get("role") == "user":
                turns.append(Turn(m.get("content", ""), status="done"))
            elif m.get("role") == "assistant" and turns:
                turns[-1].answer = m.get("content", "")
        return turns

    def _refetch(self, turn: Turn) -> None:
        calls = [c for c in turn.payload.get("tool_calls", []) if c.get("ok")]
        try:
            evidence = [self.backend.run_tool(c["tool"], c.get("args", {})) for c in calls]
        except Exception as e:
            turn.note = f"The tables of this answer were not kept and could not be fetched again ({one_line(e)})."
        else:
            if same_as_of(turn.payload.get("provenance", []), evidence):
                self._fill(turn, {**turn.payload, "evidence": evidence})
                turn.note = "This answer was asked outside the app: its tables were fetched again from the same data."
            else:
                turn.note = (
                    "The tables of this answer were not kept, and the data has been updated since: "
                    "ask the question again for today's figures."
                )
        self.changed()

    # -- records, tables, exports ----------------------------------------------------------------------------------
    def open_citation(self, turn_index: int, citation_index: int) -> None:
        c = self.turns[turn_index].citations[citation_index]
        self.record = RecordView(c["dataset"], c["id"])
        self.changed()
        self.jobs.submit("io", self._load_record, self.record, doing=f"opening the record {c['id']}")

    def _load_record(self, view: RecordView) -> None:
        try:
            record = self.backend.record(view.dataset, view.ident)
            view.groups, view.text = layout(view.dataset, record), original_json(record)
        except Exception as e:
            view.error = banner_for(e, f"opening the record {view.ident}").message
        view.loading = False
        self.changed()

    def close_record(self) -> None:
        self.record = None
        self.changed()

    def toggle_column(self, turn_index: int, table_index: int, name: str) -> None:
        """Show or hide one column of a table (on screen and in the exports of the answer)."""
        if not self.turns[turn_index].tables[table_index].toggle_column(name):
            self._report(info("A table keeps at least one column: show another one before hiding this one."))
        self.changed()

    def sort(self, turn_index: int, table_index: int, column: int, ascending: bool) -> None:
        self.turns[turn_index].tables[table_index].sort(column, ascending)
        self.changed()

    def turn_page(self, turn_index: int, table_index: int, step: int) -> None:
        self.turns[turn_index].tables[table_index].turn_page(step)
        self.changed()

    def show_all(self, turn_index: int, table_index: int) -> None:
        """Fetch every matching record behind a table (up to 1,000), in the background."""
        turn = self.turns[turn_index]
        table = turn.tables[table_index]
        if not table.can_load_all or table.loading:
            return
        table.loading = True
        self.changed()
        self.jobs.submit("io", self._show_all, table, doing="fetching every matching record")

    def _show_all(self, table: ResultTable) -> None:
        try:
            self._fetch_all(table)
        finally:
            table.loading = False
            self.changed()

    def _fetch_all(self, table: ResultTable) -> None:
        if not fetch_all(self.backend, table):
            self._report(
                info(
                    "The data has been updated since this answer: ask the question again to see every matching record."
                )
            )

    def export(self, turn_index: int, fmt: str) -> None:
        turn = self.turns[turn_index]  # taken now: Ctrl+K or a resume may replace the list meanwhile
        turn.busy = f"Exporting the {FORMAT_NAMES.get(fmt, fmt)}…"
        self.changed()
        self.jobs.submit("io", self._export, turn, turn_index, fmt, doing=f"exporting the {FORMAT_NAMES.get(fmt, fmt)}")

    def _export(self, turn: Turn, turn_index: int, fmt: str) -> Path:
        try:
            for t in turn.tables if fmt != "png" else []:  # an export holds every matching record
                self._fetch_all(t)
            ex = export_of(turn, self.session_id or "session")
            path = write_export(ex, fmt, self.backend.config.exports, turn_index + 1)
        finally:
            turn.busy = ""
            self.changed()
        turn.exports.append(str(path))
        self.downloads.append(path)
        also = "; your browser downloads a copy" if self.in_browser else ""
        self._report(info(f"Saved the {FORMAT_NAMES.get(fmt, fmt)} (data as of {ex.as_of_line()}) to {path}{also}"))
        self.changed()
        return path
