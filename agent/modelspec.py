"""The model setting's one grammar: none | embedded | llamacpp:/path/to/model.gguf | ollama:NAME.

`ModelSpec.parse` is the only parser (the assistant, its settings and the app's Settings screen use it). The kind
is read without regard to case ("None", "OLLAMA:qwen"); the argument (a file path, an Ollama model name) is kept
as typed, only trimmed. Importing this module loads nothing heavy, so settings can use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from .errors import ModelUnavailable

__all__ = ["ModelSpec", "ModelKind", "MODEL_HELP", "MODEL_KINDS", "DEFAULT_MODEL"]

ModelKind = Literal["none", "embedded", "llamacpp", "ollama"]
MODEL_KINDS: tuple[ModelKind, ...] = ("none", "embedded", "llamacpp", "ollama")
MODEL_HELP = "none, embedded (SmolLM2-135M in process), llamacpp:/path/to/model.gguf or ollama:NAME"
DEFAULT_MODEL = "embedded"
_BARE = ("none", "embedded")  # kinds without an argument
_WITH_ARG = ("llamacpp", "ollama")  # kinds that need one after the colon


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model setting: `kind`, and `arg` (the GGUF path or the Ollama model name; "" for the bare kinds)."""

    kind: ModelKind
    arg: str = ""

    @classmethod
    def parse(cls, text: str) -> ModelSpec:
        """The spec `text` names; ModelUnavailable (naming the accepted forms) when it names none."""
        spec = (text or "").strip()
        if spec.lower() in _BARE:
            return cls(cast(ModelKind, spec.lower()))
        kind, colon, arg = spec.partition(":")
        if colon and kind.strip().lower() in _WITH_ARG and arg.strip():
            return cls(cast(ModelKind, kind.strip().lower()), arg.strip())
        if colon and kind.strip().lower() in _WITH_ARG:
            what = "GGUF file" if kind.strip().lower() == "llamacpp" else "Ollama model"
            raise ModelUnavailable(
                f"the model setting {spec!r} names no {what} after the colon: use one of {MODEL_HELP}"
            )
        raise ModelUnavailable(f"unknown model {spec!r}: set the model setting to one of {MODEL_HELP}")

    @classmethod
    def read(cls, text: str) -> ModelSpec | None:
        """The spec `text` names, or None when it names none (for screens that show a choice)."""
        try:
            return cls.parse(text)
        except ModelUnavailable:
            return None

    def __str__(self) -> str:
        return f"{self.kind}:{self.arg}" if self.kind in _WITH_ARG else self.kind
