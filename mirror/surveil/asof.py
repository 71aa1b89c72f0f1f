"""The data-as-of (export) date of each published dataset, read from the sync state inside its file."""

from __future__ import annotations

from ..store.files import Store
from ..store.state import dataset_state

__all__ = ["as_of_dates"]


def as_of_dates(store: Store) -> dict[str, str]:
    """Published dataset -> its export date ('' when the file records none)."""
    out = {}
    for dataset, path in store.published().items():
        state = dataset_state(store, path)
        out[dataset] = state.export_date if state else ""
    return out
