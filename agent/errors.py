"""The assistant's exceptions: one base, subclasses named after the condition.

AgentError
  SessionNotFound   a session id that does not exist (list them with `fda-explorer sessions`)
"""

from __future__ import annotations

__all__ = ["AgentError", "SessionNotFound"]


class AgentError(Exception):
    """Base of the assistant's errors; messages name the thing and the next step."""


class SessionNotFound(AgentError):
    pass
