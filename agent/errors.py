"""The assistant's exceptions: one base, subclasses named after the condition.

AgentError
  SessionNotFound   a session id that does not exist (list them with `fda-explorer sessions`)
Cancelled           (a BaseException) the caller stopped an answer
"""

from __future__ import annotations

__all__ = ["AgentError", "SessionNotFound", "Cancelled"]


class AgentError(Exception):
    """Base of the assistant's errors; messages name the thing and the next step."""


class SessionNotFound(AgentError):
    pass


class Cancelled(BaseException):
    """The caller set the cancel event of `Assistant.stream`: the run stops at its next step, tool result or
    model token. A BaseException, like KeyboardInterrupt, so that no `except Exception` on the way swallows it."""
