"""The HTTP API's request and response bodies (its OpenAPI schemas), after LangGraph's Agent Protocol: threads, runs.

A thread is a saved conversation (an assistant session); a run is one question asked on a thread. Errors
all have one shape, `ErrorBody`, with the HTTP status repeated inside.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "ErrorDetail",
    "ErrorBody",
    "ThreadCreate",
    "Thread",
    "Message",
    "ThreadDetail",
    "ThreadSearch",
    "RunInput",
    "Command",
    "RunCreate",
    "RunInfo",
    "Answer",
    "ToolInfo",
    "Health",
    "ERRORS",
    "EVENT_TYPES",
]

EVENT_TYPES = (
    "metadata",
    "step",
    "tool_call",
    "tool_result",
    "token",
    "note",
    "clarification",
    "answer",
    "error",
    "cancelled",
)


class ErrorDetail(BaseModel):
    status: int = Field(description="The HTTP status code, repeated")
    code: str = Field(description="What went wrong, as a stable word: not_found, invalid_request, unauthorized, ...")
    message: str = Field(description="One line for a person: the thing and the next step")


class ErrorBody(BaseModel):
    """Every error the API answers, whatever the route."""

    error: ErrorDetail


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in (
        (400, "Bad request (an invalid thread id, a Host that is not this server's)"),
        (401, "The server asks for its bearer token"),
        (403, "A web page's origin not allowed"),
        (404, "No such thread or run"),
        (409, "Conflict: the thread is busy, the run has ended, or no clarifying question waits for command.resume"),
        (422, "The body does not match the schema, or command.resume is none of the choices"),
        (500, "The run failed"),
    )
}


class ThreadCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    thread_id: str | None = Field(None, description="A name for the thread (letters, digits, - _ .); default: a new id")
    metadata: dict[str, Any] = Field(default_factory=dict, description="Kept with the thread while the server runs")


class Thread(BaseModel):
    thread_id: str
    created_at: str = ""
    updated_at: str = ""
    status: Literal["idle", "busy", "interrupted"] = Field(
        "idle", description="interrupted: a clarifying question waits for command.resume"
    )
    turns: int = Field(0, description="Questions asked on the thread")
    first_question: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)


class Message(BaseModel):
    role: str
    content: Any


class ThreadDetail(Thread):
    messages: list[Message] = Field(default_factory=list, description="The conversation: questions and answers")


class ThreadSearch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    limit: int = Field(50, ge=1, le=1000)
    offset: int = Field(0, ge=0)


class RunInput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    question: str = Field(min_length=1, max_length=4000, description="The question, as a person asks it")


class Command(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resume: int | str = Field(
        description="The answer to the thread's pending clarifying question: a choice's "
        "number (1 = the first) or its label"
    )


class RunCreate(BaseModel):
    """A question (`input`), or the answer to a clarifying question (`command.resume`)."""

    model_config = ConfigDict(extra="forbid")
    input: RunInput | None = None
    command: Command | None = None

    @model_validator(mode="after")
    def _one(self) -> "RunCreate":
        if (self.input is None) == (self.command is None):
            raise ValueError('give either input ({"question": ...}) or command ({"resume": ...}), not both')
        return self


class RunInfo(BaseModel):
    run_id: str
    thread_id: str
    status: Literal["pending", "running", "success", "error", "interrupted"]
    question: str
    created_at: str
    updated_at: str
    events: int = Field(description="Events produced so far (their ids are 1..events)")
    error: str | None = None


class Answer(BaseModel):
    """The final answer, as `fda-explorer ask --json` prints it."""

    answer: str
    clarify: dict[str, Any] | None = Field(
        None,
        description="When the assistant asks back instead of answering: "
        "{question, choices}; resume with command.resume = N",
    )
    interpretation: dict[str, Any] = Field(default_factory=dict, description="How the question was read")
    citations: list[Any] = Field(default_factory=list)
    evidence: list[Any] = Field(default_factory=list)
    provenance: list[Any] = Field(default_factory=list)
    tool_calls: list[Any] = Field(default_factory=list)
    model_calls: int = 0
    session: str
    model: str
    audit: str | None = None


class ToolInfo(BaseModel):
    name: str
    kind: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]


class Health(BaseModel):
    ok: bool
    model: str
    datasets: dict[str, str] = Field(description="Dataset -> data as-of date")
