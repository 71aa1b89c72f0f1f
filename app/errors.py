"""The app's exceptions: one base, subclasses named after the condition.

AppError
  ConfigError      the app's settings file cannot be read or written (app/config.py; the message names the file)
  RecordNotFound   a cited record the mirror cannot open any more (app/backend.py; also a MirrorError, so it is
                   shown as the mirror's problems are)

Errors of the mirror and the assistant reach the app as MirrorError and AgentError; app/banners.py turns each
into one plain sentence with the next step.
"""

from __future__ import annotations

from mirror.errors import MirrorError

__all__ = ["AppError", "ConfigError", "RecordNotFound"]


class AppError(Exception):
    """Base of the errors the app raises on purpose; messages name the thing and the next step."""


class ConfigError(AppError):
    """The settings file cannot be read or written; the message names the file and the fix."""


class RecordNotFound(AppError, MirrorError):
    """A record cited by an answer that this mirror cannot open (not a device dataset, or replaced by a sync)."""
