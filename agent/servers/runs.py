"""Runs of the assistant for the HTTP API: each question runs in a worker thread on one of a pool of assistants.

A run keeps every event it produced, numbered from 1, so a client that loses the stream reconnects with the
last id it saw and reads on from there; the run goes on whether or not anyone reads it. A run is cancelled
through its cancel event (the assistant stops at its next step, tool result or token). Finished runs are
kept in memory (the newest `keep`), their threads' conversations in the assistant's session store.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from ..events import ANSWER, ANSWER_KEYS, CANCELLED, ERROR, event

__all__ = [
    "Run",
    "RunBook",
    "AssistantPool",
    "ASK_JSON_KEYS",
    "iso",
    "PENDING",
    "RUNNING",
    "SUCCESS",
    "FAILED",
    "INTERRUPTED",
]

PENDING, RUNNING, SUCCESS, FAILED, INTERRUPTED = "pending", "running", "success", "error", "interrupted"
FINAL = (SUCCESS, FAILED, INTERRUPTED)
ASK_JSON_KEYS = ANSWER_KEYS  # what `fda-explorer ask --json` prints (agent/events.py)


class AssistantPool:
    """`size` assistants on one mirror and session store; a run borrows one for its whole length."""

    def __init__(self, make: Callable[[], Any], size: int = 1) -> None:
        self._idle: "queue.Queue[Any]" = queue.Queue()
        self.members = [make() for _ in range(max(1, size))]
        for a in self.members:
            self._idle.put(a)

    def borrow(self, stop: threading.Event) -> Any | None:
        """An idle assistant, waiting for one; None when `stop` is set first."""
        while not stop.is_set():
            try:
                return self._idle.get(timeout=0.05)
            except queue.Empty:
                continue
        return None

    def give_back(self, assistant: Any) -> None:
        self._idle.put(assistant)

    def close(self) -> None:
        for a in self.members:
            a.close()


@dataclass
class Run:
    """One question on one thread (or the choice answering its clarifying question): status, events, answer."""

    thread_id: str
    question: str
    resume: Any = None  # the choice that resumes the thread's pending clarification, if any
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    status: str = PENDING
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    events: list[dict[str, Any]] = field(default_factory=list)
    answer: dict[str, Any] | None = None
    error: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)
    _loop: asyncio.AbstractEventLoop | None = None
    _changed: asyncio.Event | None = None

    def info(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "thread_id": self.thread_id,
            "status": self.status,
            "question": self.question,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "events": len(self.events),
            "error": self.error or None,
        }

    @property
    def done(self) -> bool:
        return self.status in FINAL

    # -- written by the worker thread ------------------------------------------------------------------
    def publish(self, ev: dict[str, Any]) -> None:
        self.events.append({**ev, "id": len(self.events) + 1})
        self.updated_at = time.time()
        self._wake()

    def finish(self, status: str, error: str = "") -> None:
        self.status, self.error, self.updated_at = status, error, time.time()
        self._wake()

    def _wake(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._notify)

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()

    # -- read on the server's event loop ---------------------------------------------------------------
    async def follow(self, after: int = 0, keepalive: float = 15.0) -> AsyncIterator[dict[str, Any] | None]:
        """The events with an id above `after`, as they come, until the run ends; None while waiting (keep-alive)."""
        if self._changed is None:
            self._changed = asyncio.Event()
        while True:
            changed = self._changed  # taken before reading: a wake after this sets it
            while after < len(self.events):
                after += 1
                yield self.events[after - 1]
            if self.done:
                return
            try:
                await asyncio.wait_for(changed.wait(), keepalive)
            except asyncio.TimeoutError:
                yield None

    async def finished(self) -> None:
        async for _ in self.follow():
            pass


class RunBook:
    """The runs the server knows: started on the pool, found by id, the newest `keep` finished ones kept."""

    def __init__(self, pool: AssistantPool, keep: int = 200) -> None:
        self.pool, self.keep = pool, keep
        self.runs: "OrderedDict[str, Run]" = OrderedDict()
        self._lock = threading.Lock()

    def active(self, thread_id: str) -> Run | None:
        with self._lock:
            return next((r for r in self.runs.values() if r.thread_id == thread_id and not r.done), None)

    def of_thread(self, thread_id: str) -> list[Run]:
        with self._lock:
            return [r for r in self.runs.values() if r.thread_id == thread_id]

    def forget(self, thread_id: str) -> None:
        """Drop a deleted thread's finished runs."""
        with self._lock:
            for k in [k for k, r in self.runs.items() if r.thread_id == thread_id and r.done]:
                del self.runs[k]

    def get(self, run_id: str) -> Run | None:
        with self._lock:
            return self.runs.get(run_id)

    def start(self, thread_id: str, question: str, resume: Any = None) -> Run:
        """A new run, started at once in a worker thread (it waits there for an idle assistant); with `resume`,
        the run answers the thread's clarifying question with that choice."""
        run = Run(thread_id, question, resume=resume, _loop=asyncio.get_running_loop(), _changed=asyncio.Event())
        run.publish(event("metadata", run_id=run.run_id, thread_id=thread_id))
        with self._lock:
            self.runs[run.run_id] = run
            finished = [k for k, r in self.runs.items() if r.done]
            for k in finished[: max(0, len(finished) - self.keep)]:
                del self.runs[k]
        threading.Thread(target=self._work, args=(run,), daemon=True, name=f"run-{run.run_id[:8]}").start()
        return run

    def _work(self, run: Run) -> None:
        assistant = self.pool.borrow(run.cancel)
        if assistant is None:
            run.publish(event(CANCELLED, message="answer cancelled before it started"))
            run.finish(INTERRUPTED)
            return
        run.finish(RUNNING)
        status, error = FAILED, "the assistant stopped without an answer"
        try:
            for ev in assistant.stream(run.question, run.thread_id, cancel=run.cancel, resume=run.resume):
                if ev["type"] == ANSWER:
                    run.answer = {k: ev.get(k) for k in ASK_JSON_KEYS}
                    ev = {"type": ANSWER, "t": ev["t"], **run.answer}
                    status, error = SUCCESS, ""
                elif ev["type"] == CANCELLED:
                    status, error = INTERRUPTED, ""
                elif ev["type"] == ERROR and ev.get("where") == "agent":
                    error = ev.get("message", error)
                run.publish(ev)
        except Exception as e:  # an invalid thread id, a broken store: the run ends with an error event
            error = f"{type(e).__name__}: {e}"
            run.publish(event(ERROR, where="server", message=error))
        finally:
            self.pool.give_back(assistant)
            run.finish(status, error)


def iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)) if t else ""
