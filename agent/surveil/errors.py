"""The surveillance errors: one base under AgentError, one subclass per condition.

SurveilError
  WatchlistError      a bad watchlist name or edit (the message says what is allowed)
  WatchlistNotFound   no watchlist of that name (list them with `fda-explorer watch list`)
  InventoryError      an inventory file that cannot be read or has no usable column
"""

from __future__ import annotations

from ..errors import AgentError

__all__ = ["SurveilError", "WatchlistError", "WatchlistNotFound", "InventoryError"]


class SurveilError(AgentError):
    """Base of the surveillance errors; messages name the thing and the next step."""


class WatchlistError(SurveilError):
    pass


class WatchlistNotFound(WatchlistError):
    pass


class InventoryError(SurveilError):
    pass
