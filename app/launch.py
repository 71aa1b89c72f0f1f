"""What the app starts with: the environment, the saved settings and the options, and the backend built on them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.settings import AgentSettings
from mirror.settings import Settings

from .backend import Backend
from .config import AppConfig, AppEnv, ConfigError, load_config

__all__ = ["Launch", "prepare", "check_environment"]


@dataclass
class Launch:
    backend: Backend
    config_path: Path
    env: AppEnv
    problem: str = ""  # the settings file could not be used: the app runs on defaults and says so


def check_environment() -> None:
    """Read every FDAX_* setting once; a bad value raises pydantic's ValidationError (the CLI prints one line)."""
    AppEnv(), Settings(), AgentSettings()


def prepare(options: dict[str, Any], config_path: Path | None, strict: bool) -> Launch:
    """Options (data_dir, model, ollama_url; None = not given) win over the saved file, which wins over FDAX_*.

    A bad settings file raises ConfigError when `strict`; otherwise the defaults are used and `problem` says why.
    """
    env, settings, agent_settings = AppEnv(), Settings(), AgentSettings()
    path = config_path or env.app_config
    config = AppConfig(model=agent_settings.model, ollama_url=agent_settings.ollama_url, data_dir=settings.data_dir)
    problem = ""
    try:
        config = load_config(path, config)
    except ConfigError as e:
        if strict:
            raise
        problem = str(e)
    config = config.model_copy(update={k: v for k, v in options.items() if v is not None})
    return Launch(Backend(config, settings, agent_settings), path, env, problem)
