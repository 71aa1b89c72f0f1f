"""The assistant as one object: a graph on the mirror and a model, sessions persisted, events streamed, audited."""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.types import Command

from mirror.settings import Settings

from .answer import clarify_text
from .audit import write_audit
from .errors import AgentError, Cancelled, ChoiceNotOffered, NoClarificationPending, SessionNotFound
from .events import ANSWER, CANCELLED, CLARIFICATION, ERROR, NOTE, event
from .graph import build_graph
from .nodes import Nodes, pick
from .sessions import check_session_id, session_lock
from .settings import AgentSettings
from .tools import ToolContext
from .understand.types import Clarification

__all__ = ["Assistant", "resolve_model"]


def resolve_model(agent_settings: AgentSettings, emit: Any = None) -> tuple[Any, str]:
    """The configured chat model, or None (with a note) when it is `none` or cannot be used."""
    from .errors import ModelUnavailable
    from .modelspec import ModelSpec

    try:
        if ModelSpec.parse(agent_settings.model).kind == "none":
            return None, ""
        from .models import load_chat_model

        return load_chat_model(agent_settings), ""
    except ModelUnavailable as e:
        return None, f"model unavailable ({e}); answering without a model"


class Assistant:
    """Ask questions in sessions; `stream()` yields events, `ask()` returns the final answer payload."""

    def __init__(
        self, settings: Settings | None = None, agent_settings: AgentSettings | None = None, model: Any = "configured"
    ) -> None:
        self.settings = settings or Settings()
        self.agent_settings = agent_settings or AgentSettings()
        self.ctx = ToolContext.open(
            self.settings, row_cap=self.agent_settings.row_cap, render_budget=self.agent_settings.render_budget
        )
        self.model_note = ""
        if model == "configured":
            model, self.model_note = resolve_model(self.agent_settings)
        self.model = model
        self.dir = Path(self.settings.data_dir) / "agent"
        self.dir.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.dir / "sessions.sqlite"), check_same_thread=False, timeout=60)
        self.locks = self.dir / "locks"  # one lock file per session: one writer at a time, across processes
        self.saver = SqliteSaver(self._db)
        self._events: "queue.Queue[dict] | None" = None
        self._cancel: threading.Event | None = None
        self._stop = threading.Event()  # the reader of the running stream went away: stop the run
        self._lock = threading.Lock()
        self.nodes = Nodes(
            self.ctx, self.model, self.agent_settings.max_iterations, self._emit, self.agent_settings.render_budget
        )
        self.graph = build_graph(self.nodes, self.saver)

    @property
    def model_name(self) -> str:
        return getattr(self.model, "name", "none") if self.model is not None else "none"

    def _check_stop(self) -> None:
        if self._stop.is_set() or (self._cancel is not None and self._cancel.is_set()):
            raise Cancelled()

    def _emit(self, ev: dict) -> None:
        """Hand an event to the running stream; every event is also the point where a cancel takes effect."""
        self._check_stop()
        if self._events is not None:
            self._events.put(ev)

    # -- asking -----------------------------------------------------------------------------------------
    def stream(
        self, question: str, session_id: str | None = None, cancel: threading.Event | None = None, resume: Any = None
    ) -> Iterator[dict]:
        """Events while the question is answered; the last one is the `answer` event with the full payload.

        Setting `cancel` (from any thread) stops the run at its next step, tool result or model token: the
        stream then ends with a `cancelled` event, no answer is saved to the session and nothing is audited.
        A tool query or a model call already running finishes first (the plan call of a model is not streamed).
        A reader that stops reading (Ctrl+C, a closed window: the generator is closed or raises) stops the run
        too, and the next question waits until it has stopped.

        A session id must be a plain name (InvalidSessionId, raised at the first `next()`). Runs on one session,
        in this process or another, take turns: each reads the turns saved before it, so none is lost.

        `resume` answers the session's pending clarifying question (a choice's number or label) instead of asking
        `question`; the stream then ends with an `error` event if no question is pending or the choice is none of
        its choices. When the run pauses to ask, a `clarification` event (question, choices) precedes the answer.
        """
        session_id = check_session_id(session_id) if session_id else uuid.uuid4().hex[:12]
        with self._lock:
            events: queue.Queue[dict] = queue.Queue()
            self._events = events
            self._cancel = cancel
            self._stop.clear()
            result: dict[str, Any] = {}
            t0 = time.perf_counter()

            def work() -> None:
                try:
                    with session_lock(self.locks, session_id, self._check_stop):
                        result["state"] = (
                            self._invoke(question, session_id) if resume is None else self._resume(resume, session_id)
                        )
                except Cancelled:
                    result["cancelled"] = True
                except Exception as e:  # never a stack trace for the user
                    result["error"] = str(e) if isinstance(e, AgentError) else f"{type(e).__name__}: {e}"
                finally:
                    events.put({"type": "_done"})

            if self.model_note:
                yield event(NOTE, message=self.model_note)
            worker = threading.Thread(target=work, daemon=True)
            worker.start()
            try:
                while True:
                    ev = events.get()
                    if ev["type"] == "_done":
                        break
                    if ev["type"] != ANSWER:
                        yield ev
            finally:  # also when the reader left early: no run outlives its stream
                if worker.is_alive():
                    self._stop.set()
                worker.join()
                self._events = self._cancel = None
        if result.get("cancelled") or (cancel is not None and cancel.is_set() and "state" not in result):
            yield event(CANCELLED, message="answer cancelled; the question was not answered")
            return
        if "error" in result:
            yield event(ERROR, where="agent", message=result["error"])
            return
        payload = self._payload(result["state"], session_id, question, time.perf_counter() - t0)
        payload["audit"] = str(write_audit(self.dir / "audit", payload, self._settings_snapshot()))
        if payload.get("clarify"):
            yield event(CLARIFICATION, **payload["clarify"])
        yield event(ANSWER, **payload)

    def ask(self, question: str, session_id: str | None = None) -> dict:
        final: dict = {}
        for ev in self.stream(question, session_id):
            if ev["type"] == ANSWER:
                final = ev
            elif ev["type"] == ERROR and ev.get("where") == "agent":
                raise RuntimeError(ev["message"])
        return final

    def _invoke(self, question: str, session_id: str) -> dict:
        """Run the graph on a new question, or resume it when the session waits for a choice (a clarifying
        question): a reply naming a choice resumes it; anything else lets the choice lapse and is a new question."""
        config = {"configurable": {"thread_id": session_id}, "recursion_limit": 40}
        pending = self.graph.get_state(config)
        if pending.next == ("clarify",) and pending.values.get("clarify"):
            if pick(question, Clarification(**pending.values["clarify"])) is not None:
                return self.graph.invoke(Command(resume=question), config)
            self.graph.invoke(Command(resume=""), config)  # the choice lapses
        return self.graph.invoke(
            {"messages": [{"role": "user", "content": question}], "session_id": session_id}, config
        )

    def pending(self, session_id: str) -> Clarification | None:
        """The clarifying question the session waits on, or None."""
        config = {"configurable": {"thread_id": check_session_id(session_id)}}
        state = self.graph.get_state(config)
        if state.next == ("clarify",) and state.values.get("clarify"):
            return Clarification(**state.values["clarify"])
        return None

    def check_choice(self, session_id: str, choice: Any) -> int:
        """The index of `choice` among the pending question's choices; NoClarificationPending / ChoiceNotOffered."""
        clar = self.pending(session_id)
        if clar is None:
            raise NoClarificationPending(f"session {session_id!r} is not waiting for a choice; ask a question instead")
        k = pick(choice, clar)
        if k is None:
            shown = "; ".join(f"{i}. {c.label}" for i, c in enumerate(clar.choices, 1))
            raise ChoiceNotOffered(
                f'{choice!r} is none of the choices of "{clar.question}" ({shown}); send a '
                f"number from 1 to {len(clar.choices)}"
            )
        return k

    def _resume(self, choice: Any, session_id: str) -> dict:
        """Resume the session's interrupted graph on a choice (checked first: nothing lapses on a bad one)."""
        self.check_choice(session_id, choice)
        config = {"configurable": {"thread_id": session_id}, "recursion_limit": 40}
        return self.graph.invoke(Command(resume=str(choice)), config)

    def _payload(self, state: dict, session_id: str, question: str, seconds: float) -> dict:
        evidence = state.get("evidence", [])
        clarify = None  # {"question", "choices"} only when asking back
        if state.get("__interrupt__") and state.get("clarify"):
            c = Clarification(**state["clarify"])
            clarify = {"question": c.question, "choices": [ch.label for ch in c.choices]}
            state = {**state, "answer": clarify_text(c)}
        return {
            "session": session_id,
            "question": question,
            "answer": state.get("answer", ""),
            "clarify": clarify,
            "interpretation": state.get("interpretation", {}),
            "citations": state.get("citations", []),
            "evidence": evidence,
            "provenance": [p for e in evidence for p in e.get("provenance", [])],
            "tool_calls": [
                {k: c[k] for k in ("tool", "args", "ok", "summary") if k in c} | {"queries": c.get("queries", [])}
                for c in state.get("calls", [])
            ],
            "plan": state.get("interpretation", {}),
            "route": state.get("route", ""),
            "model": self.model_name,
            "model_calls": state.get("model_calls", 0),
            "seconds": round(seconds, 3),
            "as_of": self.ctx.api.datasets(),
        }

    def _settings_snapshot(self) -> dict:
        return {
            "model": self.model_name,
            "data_dir": str(self.settings.data_dir),
            **self.agent_settings.model_dump(exclude={"model"}),
        }

    # -- sessions ---------------------------------------------------------------------------------------
    def sessions(self) -> list[dict]:
        """Saved sessions, newest first: id, first question, turns, last update, and the conversation's text (every
        question and answer, for searching)."""
        seen: dict[str, dict] = {}
        for cp in self.saver.list(None):
            tid = cp.config["configurable"]["thread_id"]
            if tid in seen:
                continue
            msgs = cp.checkpoint.get("channel_values", {}).get("messages", [])
            users = [m["content"] for m in msgs if m.get("role") == "user"]
            seen[tid] = {
                "session": tid,
                "first_question": users[0] if users else "",
                "turns": len(users),
                "updated": cp.checkpoint.get("ts", ""),
                "text": "\n".join(str(m.get("content", "")) for m in msgs),
            }
        return sorted(seen.values(), key=lambda s: s["updated"], reverse=True)

    def history(self, session_id: str) -> list[dict]:
        state = self.graph.get_state({"configurable": {"thread_id": check_session_id(session_id)}})
        if not state.values:
            raise SessionNotFound(f"no session {session_id!r}; list sessions with `fda-explorer sessions`")
        return state.values.get("messages", [])

    def delete_session(self, session_id: str) -> None:
        if not any(s["session"] == check_session_id(session_id) for s in self.sessions()):
            raise SessionNotFound(f"no session {session_id!r}; list sessions with `fda-explorer sessions`")
        with session_lock(self.locks, session_id):  # not under a run that is saving a turn
            self.saver.delete_thread(session_id)

    def close(self) -> None:
        self.ctx.close()
        self._db.close()
