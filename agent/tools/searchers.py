"""The searchers' public names, kept in one place for the packages that import them from here.

The code lives in: `specs` (one row per dataset), `openfda_query` (filters to an openFDA query), `search` (the
search_* tools) and `count` (count_by).
"""

from __future__ import annotations

from .count import COUNT_FIELDS, CountArgs, count_by
from .openfda_query import SearchArgs, UnsupportedFilter, build_search, date_of, name_stem, name_variants
from .search import RecallArgs, search
from .specs import DATE_FIELDS, NAME_FIELDS, SPECS, Spec

__all__ = [
    "SPECS",
    "Spec",
    "SearchArgs",
    "CountArgs",
    "RecallArgs",
    "build_search",
    "search",
    "count_by",
    "COUNT_FIELDS",
    "NAME_FIELDS",
    "UnsupportedFilter",
    "name_variants",
    "name_stem",
    "DATE_FIELDS",
    "date_of",
]
