"""The assistant's exceptions: one base, subclasses named after the condition.

AgentError
  SessionNotFound   a session id that does not exist (list them with `fda-explorer sessions`)
  NoClarificationPending   a choice sent to a session that is not waiting for one (ask a question instead)
  ChoiceNotOffered  a choice that is none of the pending question's choices (pick a number from 1 to N)
Cancelled           (a BaseException) the caller stopped an answer
"""

from __future__ import annotations

__all__ = ["AgentError", "SessionNotFound", "NoClarificationPending", "ChoiceNotOffered", "Cancelled"]


class AgentError(Exception):
    """Base of the assistant's errors; messages name the thing and the next step."""


class SessionNotFound(AgentError):
    pass


class NoClarificationPending(AgentError):
    pass


class ChoiceNotOffered(AgentError):
    pass


class Cancelled(BaseException):
    """The caller set the cancel event of `Assistant.stream`: the run stops at its next step, tool result or
    model token. A BaseException, like KeyboardInterrupt, so that no `except Exception` on the way swallows it."""
