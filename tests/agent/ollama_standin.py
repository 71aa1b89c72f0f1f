"""A scripted stand-in for an Ollama server, speaking its HTTP protocol on 127.0.0.1 for the tests.

No Ollama server can be installed on this machine, so the Ollama path is tested against this stand-in.
It speaks the real protocol as documented in ollama/ollama docs/api.md ("Generate a chat completion",
"List Local Models", "Show Model Information") and as read by the clients we ship, ollama-python 0.6.3
(`ollama/_client.py`: `chat()` POSTs /api/chat and reads NDJSON lines, raising on an `error` key;
`list()` GETs /api/tags and reads `models[].model`; `show()` POSTs /api/show and needs `model_info`;
errors are `{"error": ...}` bodies with the HTTP status) and langchain-ollama 1.1.0
(`ChatOllama._chat_params`: `stream` true, `format` = the JSON schema, `options` {temperature, seed,
num_predict, ...}, `keep_alive`; it reads `message.content`, `message.tool_calls[].function.arguments`
as an object, and `done`/`done_reason`/`eval_count` from the final chunk; it never calls /api/show).

Script replies with `server.reply(...)`; every request is recorded in `server.requests`.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["OllamaStandIn", "Reply", "tool_call"]

VERSION = "0.12.6"


@dataclass
class Reply:
    """One scripted /api/chat answer.

    content: the assistant text (streamed in word-sized chunks); tool_calls: [{"function": {"name", "arguments"}}];
    status/error: an HTTP error instead of an answer (e.g. 500, "llama runner process has terminated");
    error_after: chunks sent before an in-stream `{"error": ...}` line; done_reason: "stop" or "length"
    (a "length" reply may be cut-off JSON, as when num_predict runs out); ignore_format: send content that
    breaks the request's `format` schema (a model or server that does not honour `format`);
    delay: seconds to think before answering (a slow model).
    """

    content: str = ""
    tool_calls: list[dict] = field(default_factory=list)
    status: int = 200
    error: str = ""
    error_after: int | None = None
    done_reason: str = "stop"
    ignore_format: bool = False
    delay: float = 0.0


def tool_call(name: str, **arguments: Any) -> Reply:
    """A reply in which the model calls one tool, the way Ollama returns it (arguments as an object)."""
    return Reply(tool_calls=[{"function": {"name": name, "arguments": arguments}}])


class OllamaStandIn(ThreadingHTTPServer):
    """`with OllamaStandIn(models=[...]) as srv:` serves on srv.url until the block ends."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, models: list[str] = ("qwen2.5:0.5b",)) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.models = list(models)
        self.replies: list[Reply] = []
        self.requests: list[dict] = []  # {"method", "path", "body"} for every request, in order
        self.problems: list[str] = []  # scripted replies the real server could not have sent
        self.lock = threading.Lock()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def reply(self, *replies: Reply | str) -> None:
        """Queue /api/chat answers; a plain string is a content reply."""
        with self.lock:
            self.replies.extend(Reply(content=r) if isinstance(r, str) else r for r in replies)

    def chats(self) -> list[dict]:
        """The bodies of the /api/chat requests received so far."""
        return [r["body"] for r in self.requests if r["path"] == "/api/chat"]

    def next_reply(self, body: dict) -> Reply:
        with self.lock:
            if self.replies:
                return self.replies.pop(0)
        fmt = body.get("format")
        return Reply(
            content=json.dumps(example(fmt))
            if isinstance(fmt, dict)
            else "{}"
            if fmt == "json"
            else "Hello from the Ollama stand-in."
        )

    def knows(self, name: str) -> bool:
        return any(name == m or f"{name}:latest" == m for m in self.models)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that hung up is no server fault
            super().handle_error(request, client_address)

    def __enter__(self) -> OllamaStandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: OllamaStandIn

    def log_message(self, *a: object) -> None:
        pass

    def do_HEAD(self) -> None:
        self._send(200, b"", "text/plain; charset=utf-8")

    def do_GET(self) -> None:
        self._record(None)
        if self.path == "/":
            self._send(200, b"Ollama is running", "text/plain; charset=utf-8")
        elif self.path == "/api/tags":
            self._json(200, {"models": [_tag(m) for m in self.server.models]})
        elif self.path == "/api/version":
            self._json(200, {"version": VERSION})
        else:
            self._send(404, b"404 page not found", "text/plain")

    def do_POST(self) -> None:
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        except ValueError as e:
            self._record(None)
            return self._json(400, {"error": f"invalid character in request body: {e}"})
        self._record(body)
        if self.path not in ("/api/chat", "/api/show"):
            return self._send(404, b"404 page not found", "text/plain")
        name = body.get("model", "")
        if not name:
            return self._json(400, {"error": "model is required"})
        if not self.server.knows(name):
            missing = (
                f"model '{name}' not found"
                if self.path == "/api/show"
                else f'model "{name}" not found, try pulling it first'
            )
            return self._json(404, {"error": missing})
        if self.path == "/api/show":
            return self._json(200, _show(name))
        self._chat(body, self.server.next_reply(body))

    def _chat(self, body: dict, reply: Reply) -> None:
        time.sleep(reply.delay)
        if reply.status != 200:
            return self._json(reply.status, {"error": reply.error or "internal error"})
        problem = _format_problem(body.get("format"), reply)
        if problem:
            self.server.problems.append(problem)
            return self._json(500, {"error": f"stand-in: {problem}"})
        pieces = _pieces(reply.content)
        if body.get("stream", True) is False:
            return self._json(200, _final(body, reply, reply.content, len(pieces)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i, piece in enumerate(pieces):
            if reply.error_after is not None and i == reply.error_after:
                self._chunk({"error": reply.error or "an error was encountered while running the model"})
                return self._chunk(None)
            self._chunk({**_head(body), "message": {"role": "assistant", "content": piece}, "done": False})
        if reply.tool_calls:
            self._chunk(
                {
                    **_head(body),
                    "message": {"role": "assistant", "content": "", "tool_calls": reply.tool_calls},
                    "done": False,
                }
            )
        self._chunk(_final(body, Reply(done_reason=reply.done_reason), "", len(pieces)))
        self._chunk(None)

    def _chunk(self, obj: dict | None) -> None:
        data = b"" if obj is None else json.dumps(obj).encode() + b"\n"
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _record(self, body: dict | None) -> None:
        self.server.requests.append({"method": self.command, "path": self.path, "body": body})

    def _json(self, status: int, obj: dict) -> None:
        self._send(status, json.dumps(obj).encode(), "application/json; charset=utf-8")

    def _send(self, status: int, data: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


def _head(body: dict) -> dict:
    return {"model": body["model"], "created_at": _now()}


def _final(body: dict, reply: Reply, content: str, eval_count: int) -> dict:
    message: dict = {"role": "assistant", "content": content}
    if reply.tool_calls:
        message["tool_calls"] = reply.tool_calls
    prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
    return {
        **_head(body),
        "message": message,
        "done_reason": reply.done_reason,
        "done": True,
        "total_duration": 412_000_000,
        "load_duration": 11_000_000,
        "prompt_eval_count": prompt,
        "prompt_eval_duration": 95_000_000,
        "eval_count": max(eval_count, 1),
        "eval_duration": 300_000_000,
    }


def _pieces(content: str) -> list[str]:
    """Word-sized pieces, like the token stream of a real model."""
    words = content.split(" ")
    return [w if i == 0 else " " + w for i, w in enumerate(words)] if content else []


def _tag(name: str) -> dict:
    return {
        "name": name,
        "model": name,
        "modified_at": "2025-06-01T10:00:00.000000000Z",
        "size": 397821319,
        "digest": "a8b0c51577010a279d933d14c2a8ab4b268079d44c5c8830c0a93900f1827c67",
        "details": {
            "parent_model": "",
            "format": "gguf",
            "family": "qwen2",
            "families": ["qwen2"],
            "parameter_size": "494.03M",
            "quantization_level": "Q4_K_M",
        },
    }


def _show(name: str) -> dict:
    return {
        "license": "Apache License 2.0",
        "modelfile": f'# Modelfile generated by "ollama show"\nFROM {name}\n',
        "parameters": ('stop                           "<|im_start|>"\nstop                           "<|im_end|>"'),
        "template": "{{- range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}"
        "<|im_start|>assistant\n",
        "details": _tag(name)["details"],
        "model_info": {
            "general.architecture": "qwen2",
            "general.parameter_count": 494032768,
            "qwen2.context_length": 32768,
            "qwen2.embedding_length": 896,
            "tokenizer.ggml.model": "gpt2",
        },
        "capabilities": ["completion", "tools"],
        "modified_at": "2025-06-01T10:00:00.000000000Z",
    }


def _format_problem(fmt: Any, reply: Reply) -> str | None:
    """Why Ollama could not have produced this reply under the request's `format`, or None."""
    if fmt in (None, "") or reply.ignore_format or reply.done_reason == "length" or reply.tool_calls:
        return None
    try:
        value = json.loads(reply.content)
    except ValueError:
        return f"scripted content {reply.content[:40]!r} is not JSON but the request asked for format"
    if isinstance(fmt, dict) and not conforms(value, fmt):
        return f"scripted content {reply.content[:40]!r} does not fit the request's format schema"
    return None


def conforms(value: Any, schema: dict) -> bool:
    """A small JSON-schema check (type, enum, properties, required, items), independent of the code under test."""
    kinds = {
        "object": dict,
        "array": list,
        "string": str,
        "integer": int,
        "number": (int, float),
        "boolean": bool,
        "null": type(None),
    }
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types or []
    if types and not any(isinstance(value, kinds[t]) and (t == "boolean") == isinstance(value, bool) for t in types):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, dict):
        props = schema.get("properties", {})
        return all(k in value for k in schema.get("required", [])) and all(
            conforms(v, props[k]) for k, v in value.items() if k in props
        )
    if isinstance(value, list):
        return all(conforms(v, schema.get("items", {})) for v in value)
    return True


def example(schema: dict) -> Any:
    """A minimal value that fits the schema: what a constrained model returns when nothing is scripted."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type", "object")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        return {k: example(props.get(k, {})) for k in schema.get("required", [])}
    return {"array": [], "string": "", "integer": 0, "number": 0, "boolean": False}.get(kind)
