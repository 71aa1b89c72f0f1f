"""The app's settings: what the Settings screen edits, saved as JSON, plus the launch options read at the edge."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal, get_args

import platformdirs
from pydantic import BaseModel, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["AppConfig", "AppEnv", "ConfigError", "load_config", "save_config", "default_config_path",
           "model_kind", "THEMES", "COLORS"]

THEMES = ("system", "light", "dark")
Color = Literal["indigo", "teal", "blue", "green", "deep_orange", "pink"]
COLORS: tuple[str, ...] = get_args(Color)


class ConfigError(Exception):
    """The settings file cannot be read or written; the message names the file and the fix."""


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir("fda-explorer", appauthor=False)) / "app.json"


class AppEnv(BaseSettings):
    """Read once from the environment by `fda-explorer` (prefix FDAX_); documented in README.md."""

    model_config = SettingsConfigDict(env_prefix="FDAX_", extra="ignore")

    app_config: Path = Field(default_factory=default_config_path,
                             description="The app's settings file (JSON), written by the Settings screen.")
    app_port: int = Field(8550, ge=0, le=65535,
                          description="Port of `fda-explorer --web` on 127.0.0.1 when --port is not given (0: any free port).")


class AppConfig(BaseModel):
    """Every field is a line of the Settings screen and of README.md; unknown keys in the file are ignored."""

    model: str = Field("embedded", description="Chat model: none, embedded, llamacpp:/path/to/model.gguf or ollama:NAME.")
    ollama_url: str = Field("http://127.0.0.1:11434", description="Ollama server for ollama:NAME models.")
    data_dir: Path = Field(description="Mirror data folder (DuckDB files, downloads, sessions, audit logs).")
    export_dir: Path | None = Field(None, description="Folder for exported answers (default: DATA_DIR/exports).")
    theme: Literal["system", "light", "dark"] = Field("system", description="Appearance: follow the system, light or dark.")
    color: Color = Field("indigo", description="Accent colour: " + ", ".join(COLORS) + ".")

    @property
    def exports(self) -> Path:
        return Path(self.export_dir) if self.export_dir else Path(self.data_dir) / "exports"


def model_kind(model: str) -> tuple[str, str]:
    """("none" | "embedded" | "gguf" | "ollama", argument) for a model spec; unknown specs count as embedded."""
    spec = model.strip()
    kind, _, arg = spec.partition(":")
    if spec in ("none", "embedded"):
        return spec, ""
    if kind == "llamacpp":
        return "gguf", arg.strip()
    if kind == "ollama":
        return "ollama", arg.strip()
    return "embedded", ""


def load_config(path: Path, defaults: AppConfig) -> AppConfig:
    """`defaults` overlaid with the values saved in `path` (a missing file means none saved)."""
    try:
        saved = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return defaults
    except (OSError, ValueError) as e:
        raise ConfigError(f"cannot read the settings file {path} ({e}): fix or delete it, "
                          "or start with --config OTHER.json") from None
    if not isinstance(saved, dict):
        raise ConfigError(f"the settings file {path} is not a JSON object: fix or delete it")
    try:
        return AppConfig.model_validate({**defaults.model_dump(), **{k: v for k, v in saved.items()
                                                                       if k in AppConfig.model_fields}})
    except ValidationError as e:
        first = e.errors()[0]
        raise ConfigError(f"the settings file {path} has a bad {'.'.join(map(str, first['loc']))} "
                          f"({first['msg']}): fix or delete it") from None


def save_config(config: AppConfig, path: Path) -> None:
    """Write the settings atomically (temporary file, then rename)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(config.model_dump_json(indent=2), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        raise ConfigError(f"cannot save the settings to {path} ({e.strerror}): "
                          "choose a writable file with --config or FDAX_APP_CONFIG") from None
