"""The app's settings: what the Settings screen edits, saved as JSON, plus the launch options read at the edge."""

from __future__ import annotations

import ipaddress
import json
import os
from pathlib import Path
from typing import Literal, get_args
from urllib.parse import urlsplit

import platformdirs
from pydantic import BaseModel, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from agent.modelspec import DEFAULT_MODEL, MODEL_HELP, ModelSpec

from .errors import ConfigError

__all__ = [
    "AppConfig",
    "AppEnv",
    "ConfigError",
    "load_config",
    "save_config",
    "default_config_path",
    "model_kind",
    "remote_host",
    "unconfirmed_remote",
    "confirmed",
    "THEMES",
    "COLORS",
]

THEMES = ("system", "light", "dark")
Color = Literal["indigo", "teal", "blue", "green", "deep_orange", "pink"]
COLORS: tuple[str, ...] = get_args(Color)


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir("fda-explorer", appauthor=False)) / "app.json"


class AppEnv(BaseSettings):
    """Read once from the environment by `fda-explorer` (prefix FDAX_); documented in README.md."""

    model_config = SettingsConfigDict(env_prefix="FDAX_", extra="ignore")

    app_config: Path = Field(
        default_factory=default_config_path,
        description="The app's settings file (JSON), written by the Settings screen.",
    )
    app_port: int = Field(
        8550,
        ge=0,
        le=65535,
        description="Port of `fda-explorer --web` on 127.0.0.1 when --port is not given (0: any free port).",
    )


class AppConfig(BaseModel):
    """Every field is a line of the Settings screen and of README.md; unknown keys in the file are ignored."""

    model: str = Field(DEFAULT_MODEL, description=f"Chat model: {MODEL_HELP}.")
    ollama_url: str = Field("http://127.0.0.1:11434", description="Ollama server for ollama:NAME models.")
    ollama_remote_confirmed: str = Field(
        "",
        description="An Ollama URL on another computer that you confirmed may receive your questions (the "
        "Settings screen asks before saving one; a file naming another computer without it is refused).",
    )
    data_dir: Path = Field(description="Mirror data folder (DuckDB files, downloads, sessions, audit logs).")
    export_dir: Path | None = Field(None, description="Folder for exported answers (default: DATA_DIR/exports).")
    theme: Literal["system", "light", "dark"] = Field(
        "system", description="Appearance: follow the system, light or dark."
    )
    color: Color = Field("indigo", description="Accent colour: " + ", ".join(COLORS) + ".")

    @property
    def exports(self) -> Path:
        return Path(self.export_dir) if self.export_dir else Path(self.data_dir) / "exports"


def model_kind(model: str) -> tuple[str, str]:
    """("none" | "embedded" | "gguf" | "ollama", argument) for the Settings screen's choice, read by
    `ModelSpec.parse` (llamacpp shows as "gguf"); a kind without its argument shows that kind with an empty
    field to fill, and a spec it cannot read counts as embedded."""
    spec = ModelSpec.read(model)
    if spec is None:
        kind = model.strip().partition(":")[0].strip().lower()
        return ("gguf", "") if kind == "llamacpp" else ("ollama", "") if kind == "ollama" else ("embedded", "")
    return ("gguf" if spec.kind == "llamacpp" else spec.kind), spec.arg


def remote_host(url: str) -> str:
    """The host of `url` when it is another computer (not 127.0.0.0/8, ::1 or localhost), else ""."""
    try:
        host = (urlsplit(url.strip()).hostname or "").rstrip(".")
    except ValueError:
        return url.strip()
    if not host or host == "localhost" or host.endswith(".localhost"):
        return ""
    try:
        return "" if ipaddress.ip_address(host).is_loopback else host
    except ValueError:
        return host


def _same(url: str) -> str:
    return url.strip().rstrip("/")


def unconfirmed_remote(config: AppConfig) -> str:
    """The other computer an ollama:NAME model would send questions to, when that was not confirmed; else ""."""
    host = remote_host(config.ollama_url)
    if not host or model_kind(config.model)[0] != "ollama":
        return ""
    return "" if _same(config.ollama_remote_confirmed) == _same(config.ollama_url) else host


def confirmed(config: AppConfig) -> AppConfig:
    """`config` with its Ollama URL confirmed (called once the person said yes)."""
    return config.model_copy(update={"ollama_remote_confirmed": _same(config.ollama_url)})


def load_config(path: Path, defaults: AppConfig) -> AppConfig:
    """`defaults` overlaid with the values saved in `path` (a missing file means none saved)."""
    try:
        saved = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return defaults
    except (OSError, ValueError) as e:
        raise ConfigError(
            f"cannot read the settings file {path} ({e}): fix or delete it, or start with --config OTHER.json"
        ) from None
    if not isinstance(saved, dict):
        raise ConfigError(f"the settings file {path} is not a JSON object: fix or delete it")
    try:
        config = AppConfig.model_validate(
            {**defaults.model_dump(), **{k: v for k, v in saved.items() if k in AppConfig.model_fields}}
        )
    except ValidationError as e:
        first = e.errors()[0]
        raise ConfigError(
            f"the settings file {path} has a bad {'.'.join(map(str, first['loc']))} ({first['msg']}): fix or delete it"
        ) from None
    host = unconfirmed_remote(config) if "ollama_url" in saved else ""  # FDAX_OLLAMA_URL, --ollama-url: yours
    if host:
        raise ConfigError(
            f"the settings file {path} sends your questions to the Ollama server at "
            f"{config.ollama_url}, on another computer ({host}), and this was not confirmed: choose "
            "that server again on the Settings screen (it asks you to confirm), or set ollama_url "
            "back to http://127.0.0.1:11434"
        )
    return config


def save_config(config: AppConfig, path: Path) -> None:
    """Write the settings atomically (temporary file, then rename); an unconfirmed Ollama server on another
    computer is refused (ConfigError), as `load_config` would refuse it."""
    path = Path(path)
    host = unconfirmed_remote(config)
    if host:
        raise ConfigError(
            f"settings not saved to {path}: the Ollama server at {config.ollama_url} is on another "
            f"computer ({host}) and sending your questions there was not confirmed; save them from "
            "the Settings screen, which asks you to confirm"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(config.model_dump_json(indent=2), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        raise ConfigError(
            f"cannot save the settings to {path} ({e.strerror}): "
            "choose a writable file with --config or FDAX_APP_CONFIG"
        ) from None
