"""openFDA device API semantics over the mirror: parse `search=`, translate to SQL, answer like api.fda.gov."""

from .catalog import Catalog, FieldRef, catalog
from .engine import Api, Response
from .query import ParseError, parse

__all__ = ["Api", "Response", "Catalog", "FieldRef", "catalog", "parse", "ParseError"]
