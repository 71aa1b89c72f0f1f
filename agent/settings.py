"""The assistant's settings, read once from the environment (prefix FDAX_) and passed down as values."""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .modelspec import DEFAULT_MODEL, MODEL_HELP, ModelSpec

__all__ = ["AgentSettings"]


class AgentSettings(BaseSettings):
    """Every setting has a default, a description and a line in docs/settings.md."""

    model_config = SettingsConfigDict(env_prefix="FDAX_", extra="ignore")

    model: str = Field(DEFAULT_MODEL, description=f"Chat model: {MODEL_HELP}.")
    ollama_url: str = Field("http://127.0.0.1:11434", description="Ollama server for ollama:NAME models.")
    llama_ctx: int = Field(4096, ge=512, description="Context size (tokens) for llama.cpp models.")
    llama_threads: int = Field(2, ge=1, description="CPU threads for llama.cpp models.")
    model_timeout: float = Field(120.0, gt=0, description="Seconds before a model call is abandoned.")
    max_iterations: int = Field(
        2, ge=1, le=6, description="Planning rounds per question (reflection loops back at most this many times)."
    )
    row_cap: int = Field(
        25, ge=1, le=1000, description="Rows a tool result carries (its total is always the full count)."
    )
    render_budget: int = Field(1800, ge=200, description="Characters of a tool result shown to the model.")

    @field_validator("model")
    @classmethod
    def _canonical_model(cls, value: str) -> str:
        """A model spec in its one spelling ("None" -> "none"); an unknown one is kept, and said when loading."""
        spec = ModelSpec.read(value)
        return str(spec) if spec is not None else value.strip()
