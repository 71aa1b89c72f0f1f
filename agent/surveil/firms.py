"""Firm names of a watchlist resolved on the mirror: the best-matching firm and every spelling the data uses."""

from __future__ import annotations

from mirror.api import Api
from mirror.lookup.firms import find_firm

from .watchlists import FirmResolver, WatchFirm

__all__ = ["firm_resolver", "TRUSTED"]

TRUSTED = ("exact", "prefix", "id", "contains")  # near-spelling ("typo") matches are not taken on their own


def firm_resolver(api: Api | None) -> FirmResolver:
    """Resolve a firm name on `api`'s mirror (no mirror: the name is kept as typed, unresolved)."""

    def resolve(query: str) -> WatchFirm:
        query = " ".join(query.split())
        if api is None:
            return WatchFirm(query=query)
        found = find_firm(api, query)
        if not found.candidates or found.candidates[0].match not in TRUSTED:
            return WatchFirm(query=query)
        return WatchFirm(query=query, name=found.candidates[0].name, variants=sorted({v.name for v in found.variants}))

    return resolve
