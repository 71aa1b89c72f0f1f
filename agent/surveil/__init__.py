"""Post-market surveillance for people: watchlists, UDI parsing, inventory checks, signal and change views, the
periodic report, and the `fda-explorer watch|changes|inventory|signals|report` commands (`cli.py`).

The SQL lives in `mirror.surveil`; this package turns user input into its typed queries and its results into
tables, files and text."""

from .errors import InventoryError, SurveilError, WatchlistError, WatchlistNotFound

__all__ = ["SurveilError", "WatchlistError", "WatchlistNotFound", "InventoryError"]
