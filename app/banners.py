"""Banners: what went wrong (or was done) in one line, and the next step as a button that opens the right screen."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Banner", "banner_for", "model_problem", "settings_problem", "dialog_unavailable", "info", "one_line"]


@dataclass(frozen=True)
class Banner:
    """`action` is the label of the next step; `target` the screen it opens (ask, sessions, data, settings)."""

    message: str
    level: str = "error"               # error | warning | info
    action: str = ""
    target: str = ""


def model_problem(message: str) -> Banner:
    return Banner(f"{message}. Answers are still made from the mirror, without the model: choose another model in "
                  "Settings.", "warning", "Open Settings", "settings")


def settings_problem(message: str) -> Banner:
    return Banner(f"Settings problem: {message}. The app started with the default settings; saving the Settings "
                  "screen replaces the file.", "error", "Open Settings", "settings")


def dialog_unavailable(error: BaseException) -> Banner:
    return Banner(f"The file dialog is not available on this desktop ({' '.join(str(error).split())}): "
                  "type the path in the box instead.", "warning")


def info(message: str) -> Banner:
    return Banner(message, "info")


def one_line(error: BaseException) -> str:
    """An exception's message on one line (its type when it has none)."""
    return " ".join(str(error).split()) or type(error).__name__


def banner_for(error: BaseException, doing: str) -> Banner:
    """The banner for an exception raised while `doing` something (e.g. "syncing", "opening the record")."""
    from agent.errors import AgentError
    from agent.models import ModelError
    from mirror.errors import LockedError, MirrorError, MirrorMissingError, SyncCancelled

    from .config import ConfigError
    text = one_line(error)
    if isinstance(error, SyncCancelled):
        return Banner(f"Sync cancelled: {text}", "info")
    if isinstance(error, MirrorMissingError):
        return Banner(f"The mirror is empty ({text}): load the sample, run Sync, or import a bundle.",
                      "warning", "Open Data", "data")
    if isinstance(error, LockedError):
        return Banner(f"Another sync is running on this data folder ({text}): wait for it, then retry.", "warning")
    if isinstance(error, ModelError):
        return model_problem(f"The model failed while {doing}: {text}")
    if isinstance(error, ConfigError):
        return Banner(f"Settings problem: {text}", "error", "Open Settings", "settings")
    if isinstance(error, (MirrorError, AgentError)):
        return Banner(f"Problem while {doing}: {text}", "error")
    if isinstance(error, OSError):
        return Banner(f"File problem while {doing}: {text}. Check the folder in Settings and the free disk space.",
                      "error", "Open Settings", "settings")
    return Banner(f"Unexpected problem while {doing}: {type(error).__name__}: {text}. Nothing was lost; "
                  "try again, and report it if it persists.", "error")
