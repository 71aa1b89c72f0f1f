"""The assistant's exceptions: one base, subclasses named after the condition.

AgentError
  SessionNotFound          a session id that does not exist (list them with `fda-explorer sessions`)
  InvalidSessionId         a session id that is not a plain name (agent/sessions.py; the message says what is allowed)
  NoClarificationPending   a choice sent to a session that is not waiting for one (ask a question instead)
  ChoiceNotOffered         a choice that is none of the pending question's choices (pick a number from 1 to N)
  ModelError               a model failed or answered garbage mid-run (retry, or choose another model)
    ModelUnavailable       a model cannot be loaded or reached (fix the model setting, or choose none)
  ToolError                a tool cannot answer as asked (agent/tools/base.py; also a ValueError)
    UnsupportedFilter      filters a dataset cannot apply (agent/tools/)
    RecordNotFound         no record with that key (agent/servers/surface.py)
  SurveilError             surveillance (agent/surveil/errors.py)
    WatchlistError         a bad watchlist name or edit
      WatchlistNotFound    no watchlist of that name
    InventoryError         an inventory file that cannot be read
  Problem                  an HTTP error for the server's client (agent/servers/http.py; status, code, message)
Cancelled                  (a BaseException) the caller stopped an answer
"""

from __future__ import annotations

__all__ = [
    "AgentError",
    "SessionNotFound",
    "NoClarificationPending",
    "ChoiceNotOffered",
    "ModelError",
    "ModelUnavailable",
    "Cancelled",
]


class AgentError(Exception):
    """Base of the assistant's errors; messages name the thing and the next step."""


class SessionNotFound(AgentError):
    pass


class NoClarificationPending(AgentError):
    pass


class ChoiceNotOffered(AgentError):
    pass


class ModelError(AgentError):
    """A model failed or answered garbage mid-run; the message names the model and what to do next."""


class ModelUnavailable(ModelError):
    """A model cannot be loaded or reached: missing file, not a GGUF, server down, unknown model."""


class Cancelled(BaseException):
    """The caller set the cancel event of `Assistant.stream`: the run stops at its next step, tool result or
    model token. A BaseException, like KeyboardInterrupt, so that no `except Exception` on the way swallows it."""
