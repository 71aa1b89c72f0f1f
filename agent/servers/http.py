"""`fda-explorer serve`: the assistant over HTTP (FastAPI on uvicorn): threads, runs, answers streamed as SSE.

Routes follow LangGraph's Agent Protocol where it fits (threads and runs; `POST .../runs/stream` streams, `GET
.../runs/{id}/stream` rejoins a stream with `Last-Event-ID`). Each route holds no logic of its own: it calls
the run book (`runs.py`) or the assistant, and every error leaves in the one shape of `contract.ErrorBody`.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import AgentError, ChoiceNotOffered, NoClarificationPending, SessionNotFound
from ..sessions import InvalidSessionId, check_session_id
from .contract import (
    ERRORS,
    EVENT_TYPES,
    Answer,
    Health,
    RunCreate,
    RunInfo,
    Thread,
    ThreadCreate,
    ThreadDetail,
    ThreadSearch,
    ToolInfo,
)
from .guard import Access, AccessGuard
from .runs import INTERRUPTED, SUCCESS, AssistantPool, Run, RunBook, iso
from .surface import registry_specs

__all__ = ["Problem", "ServerState", "make_app", "sse_frame"]

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class Problem(AgentError):
    """An error for the client: status, stable code and a one-line message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class ServerState:
    """The pool of assistants running questions, the runs, and one assistant (no model) for the session store."""

    pool: AssistantPool
    admin: Any
    book: RunBook = field(init=False)
    created: dict[str, tuple[float, dict]] = field(default_factory=dict)  # threads made by POST /threads
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.book = RunBook(self.pool)

    def sessions(self) -> dict[str, dict]:
        with self.lock:
            return {s["session"]: s for s in self.admin.sessions()}

    def thread(self, thread_id: str, detail: bool = False, saved: dict[str, dict] | None = None) -> Thread:
        """A thread as the API shows it (with its conversation when `detail`); `saved`: sessions already read."""
        thread_id = check_session_id(thread_id)
        session = (self.sessions() if saved is None else saved).get(thread_id)
        made = self.created.get(thread_id)
        if session is None and made is None and not self.book.of_thread(thread_id):
            raise Problem(
                404,
                "thread_not_found",
                f"no thread {thread_id!r}; list threads with POST /threads/search or create one with POST /threads",
            )
        session = session or {}
        out = Thread(
            thread_id=thread_id,
            created_at=iso(made[0]) if made else "",
            metadata=made[1] if made else {},
            updated_at=session.get("updated", ""),
            turns=session.get("turns", 0),
            first_question=session.get("first_question", ""),
            status=self.status(thread_id, bool(session)),
        )
        if not detail:
            return out
        with self.lock:
            messages = self.admin.history(thread_id) if session else []
        return ThreadDetail(**out.model_dump(), messages=messages)

    def start(self, thread_id: str, body: RunCreate) -> Run:
        thread_id = check_session_id(thread_id)
        if self.book.active(thread_id):
            raise Problem(
                409,
                "thread_busy",
                f"thread {thread_id!r} is answering a question; wait for it (GET "
                ".../runs/{run_id}/join) or cancel it, then ask again",
            )
        if body.command is None:
            assert body.input is not None  # RunCreate's validator: exactly one of input and command
            return self.book.start(thread_id, body.input.question)
        choice = body.command.resume
        try:
            with self.lock:
                self.admin.check_choice(thread_id, choice)
        except NoClarificationPending as e:
            raise Problem(
                409,
                "no_clarification_pending",
                f"thread {thread_id!r} has no clarifying question waiting; ask with input.question instead",
            ) from e
        except ChoiceNotOffered as e:
            raise Problem(422, "choice_not_offered", str(e)) from e
        return self.book.start(thread_id, f"(choice {choice})", resume=choice)

    def status(self, thread_id: str, saved: bool) -> str:
        if self.book.active(thread_id):
            return "busy"
        with self.lock:
            return "interrupted" if saved and self.admin.pending(thread_id) is not None else "idle"

    def run(self, thread_id: str, run_id: str) -> Run:
        run = self.book.get(run_id)
        if run is None or run.thread_id != thread_id:
            raise Problem(
                404,
                "run_not_found",
                f"no run {run_id!r} on thread {thread_id!r}; list them with GET /threads/{thread_id}/runs",
            )
        return run


def sse_frame(ev: dict[str, Any] | None) -> str:
    """One Server-Sent Event (`id`, `event`, `data`), or a comment that keeps the connection open."""
    if ev is None:
        return ": keep-alive\n\n"
    data = {k: v for k, v in ev.items() if k != "id"}
    return f"id: {ev['id']}\nevent: {ev['type']}\ndata: {json.dumps(data, default=str)}\n\n"


async def _stream(run: Run, after: int) -> AsyncIterator[str]:
    async for ev in run.follow(after):
        yield sse_frame(ev)


def _sse(run: Run, after: int = 0) -> StreamingResponse:
    headers = {**SSE_HEADERS, "Content-Location": f"/threads/{run.thread_id}/runs/{run.run_id}"}
    return StreamingResponse(_stream(run, after), media_type="text/event-stream", headers=headers)


async def _answer(run: Run) -> Answer:
    await run.finished()
    if run.status == SUCCESS and run.answer is not None:
        return Answer(**run.answer)
    if run.status == INTERRUPTED:
        raise Problem(409, "run_cancelled", f"run {run.run_id} was cancelled before it answered; ask again")
    raise Problem(
        500, "run_failed", f"run {run.run_id} failed: {run.error}; ask again, or start the server with --model none"
    )


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"status": status, "code": code, "message": message}}, status_code=status)


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(Problem)
    async def problem(request: Request, e: Problem) -> JSONResponse:
        return _error(e.status, e.code, e.message)

    @app.exception_handler(AgentError)
    async def agent_error(request: Request, e: AgentError) -> JSONResponse:
        if isinstance(e, InvalidSessionId):
            return _error(400, "invalid_thread_id", str(e))
        return _error(404 if isinstance(e, SessionNotFound) else 500, type(e).__name__, str(e))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in err['loc'] if x != 'body') or 'body'}: {err['msg']}" for err in e.errors()
        )
        return _error(422, "invalid_request", f"{problems}; see the schema in /openapi.json")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return _error(
            e.status_code, code, f"{request.method} {request.url.path}: {e.detail}; the routes are in /openapi.json"
        )

    @app.exception_handler(Exception)
    async def crash(request: Request, e: Exception) -> JSONResponse:
        return _error(500, "internal_error", f"{type(e).__name__}: {e}")


SSE_DOC: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
        "description": "Server-Sent Events: id (1, 2, ...), event (" + ", ".join(EVENT_TYPES) + "), data "
        "(JSON); the run goes on if the client leaves: rejoin with Last-Event-ID",
    }
}


def make_app(state: ServerState, access: Access) -> FastAPI:
    app = FastAPI(
        title="FDA Explorer Offline: the assistant over HTTP",
        version="1",
        description="Threads (saved conversations) and runs (questions), after LangGraph's Agent Protocol; "
        "answers cite record IDs and the data's as-of dates.",
        docs_url=None,
        redoc_url=None,
        responses=ERRORS,
    )
    _install_errors(app)
    _routes(app, state)
    app.add_middleware(AccessGuard, access=access)
    if access.origins:
        from starlette.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(access.origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
            expose_headers=["Content-Location"],
        )
    return app


def _routes(app: FastAPI, state: ServerState) -> None:  # noqa: C901  (one line per route)
    @app.get("/ok", response_model=Health, summary="Health: the model and each dataset's as-of date")
    def ok() -> Health:
        a = state.pool.members[0]
        return Health(ok=True, model=a.model_name, datasets=a.ctx.api.datasets())

    @app.get("/tools", response_model=list[ToolInfo], summary="The assistant's tools (the same registry as MCP)")
    def tools() -> list[ToolInfo]:
        return [ToolInfo(**s.as_dict()) for s in registry_specs()]

    @app.post("/threads", response_model=Thread, summary="Create a thread")
    def create_thread(body: ThreadCreate | None = None) -> Thread:
        body = body or ThreadCreate()
        tid = check_session_id(body.thread_id) if body.thread_id else uuid.uuid4().hex[:12]
        if tid in state.created or tid in state.sessions():
            raise Problem(409, "thread_exists", f"thread {tid!r} exists already; ask on it, or choose another id")
        state.created[tid] = (time.time(), body.metadata)
        return state.thread(tid)

    @app.post("/threads/search", response_model=list[Thread], summary="List threads, newest first")
    def search_threads(body: ThreadSearch | None = None) -> list[Thread]:
        body = body or ThreadSearch()
        saved = state.sessions()
        ids = list(dict.fromkeys([*reversed(state.created), *saved]))
        return [state.thread(t, saved=saved) for t in ids[body.offset : body.offset + body.limit]]

    @app.get("/threads/{thread_id}", response_model=ThreadDetail, summary="A thread and its conversation")
    def get_thread(thread_id: str) -> Thread:
        return state.thread(thread_id, detail=True)

    @app.delete("/threads/{thread_id}", status_code=204, response_class=Response, summary="Delete a thread")
    def delete_thread(thread_id: str) -> Response:
        state.thread(thread_id)
        if state.book.active(thread_id):
            raise Problem(409, "thread_busy", f"thread {thread_id!r} is answering; cancel its run first")
        if thread_id in state.sessions():
            with state.lock:
                state.admin.delete_session(thread_id)
        state.created.pop(thread_id, None)
        state.book.forget(thread_id)
        return Response(status_code=204)

    @app.post("/threads/{thread_id}/runs", response_model=RunInfo, summary="Start a run in the background")
    async def create_run(thread_id: str, body: RunCreate) -> RunInfo:
        return RunInfo(**state.start(thread_id, body).info())

    @app.get("/threads/{thread_id}/runs", response_model=list[RunInfo], summary="The thread's runs in this server")
    def list_runs(thread_id: str) -> list[RunInfo]:
        state.thread(thread_id)
        return [RunInfo(**r.info()) for r in state.book.of_thread(thread_id)]

    @app.post("/threads/{thread_id}/runs/wait", response_model=Answer, summary="Ask and wait for the answer")
    async def wait_run(thread_id: str, body: RunCreate) -> Answer:
        return await _answer(state.start(thread_id, body))

    @app.post(
        "/threads/{thread_id}/runs/stream",
        response_class=StreamingResponse,
        responses=SSE_DOC,
        summary="Ask and stream the run as Server-Sent Events",
    )
    async def stream_run(thread_id: str, body: RunCreate) -> StreamingResponse:
        return _sse(state.start(thread_id, body))

    @app.get("/threads/{thread_id}/runs/{run_id}", response_model=RunInfo, summary="A run's status")
    def get_run(thread_id: str, run_id: str) -> RunInfo:
        return RunInfo(**state.run(thread_id, run_id).info())

    @app.get("/threads/{thread_id}/runs/{run_id}/join", response_model=Answer, summary="Wait for a run's answer")
    async def join_run(thread_id: str, run_id: str) -> Answer:
        return await _answer(state.run(thread_id, run_id))

    @app.get(
        "/threads/{thread_id}/runs/{run_id}/stream",
        response_class=StreamingResponse,
        responses=SSE_DOC,
        summary="Rejoin a run's stream: the events after Last-Event-ID (all of them without it)",
    )
    async def join_stream(
        thread_id: str,
        run_id: str,
        last_event_id: int | None = Header(None, alias="Last-Event-ID", ge=0),
        after: int | None = Query(None, ge=0, description="Same as Last-Event-ID"),
    ) -> Response:
        return _sse(state.run(thread_id, run_id), last_event_id or after or 0)

    @app.post("/threads/{thread_id}/runs/{run_id}/cancel", response_model=RunInfo, summary="Cancel a run")
    async def cancel_run(thread_id: str, run_id: str, wait: bool = Query(False, description="Return once stopped")):
        run = state.run(thread_id, run_id)
        if run.done:
            raise Problem(409, "run_finished", f"run {run_id} has ended ({run.status}); nothing to cancel")
        run.cancel.set()
        if wait:
            await run.finished()
        return RunInfo(**run.info())

    @app.post("/runs/wait", response_model=Answer, summary="Ask on a new thread and wait for the answer")
    async def stateless_wait(body: RunCreate) -> Answer:
        return await _answer(state.start(uuid.uuid4().hex[:12], body))

    @app.post(
        "/runs/stream",
        response_class=StreamingResponse,
        responses=SSE_DOC,
        summary="Ask on a new thread and stream the run",
    )
    async def stateless_stream(body: RunCreate) -> StreamingResponse:
        return _sse(state.start(uuid.uuid4().hex[:12], body))


def serve(state: ServerState, access: Access, sock, announce: str = "") -> None:
    """Serve the app on a bound socket until Ctrl+C (uvicorn, no access log)."""
    import uvicorn

    if announce:
        print(announce, file=sys.stderr, flush=True)
    config = uvicorn.Config(
        make_app(state, access), log_level="warning", access_log=False, server_header=False, timeout_graceful_shutdown=2
    )
    uvicorn.Server(config).run(sockets=[sock])
