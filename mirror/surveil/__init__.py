"""Post-market surveillance queries on the mirror: scopes, signals, the change digest, inventory matching.

Modules: `scope` (a watchlist as SQL filters per dataset), `stats` (2x2 measures, pure Python), `signals` (MAUDE
counts -> PRR/ROR/chi-square tables), `changes` (the key/digest snapshot per sync), `digest`
(a scope's changes since a sync or date), `inventory` (device rows ->
GUDID/UDI, recalls, enforcement, events), `asof` (data-as-of dates), `aggregates` (small tables built once per
published file: per-code MAUDE counts, recall and enforcement words), `rowsets` (Python rows into a temp table).
Names load on first use.
"""

from importlib import import_module

_LAZY = {
    "Scope": ".scope",
    "TwoByTwo": ".stats",
    "Measures": ".stats",
    "Thresholds": ".stats",
    "measures": ".stats",
    "signals": ".signals",
    "SignalRow": ".signals",
    "SignalTable": ".signals",
    "record_changes": ".changes",
    "ChangeDigest": ".changes",
    "SyncRecord": ".changes",
    "changes_since": ".digest",
    "ChangeReport": ".digest",
    "DatasetChanges": ".digest",
    "match_devices": ".inventory",
    "DeviceQuery": ".inventory",
    "DeviceMatch": ".inventory",
    "as_of_dates": ".asof",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'mirror.surveil' has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
