"""openFDA API semantics over the mirror (issue 3, in progress): the search-syntax parser so far."""

from .query import ParseError, parse

__all__ = ["parse", "ParseError"]
