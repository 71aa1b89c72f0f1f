"""Lookups over the mirror for the assistant's resolvers (device names, firm names, places): SQL stays here.

Each lookup takes the mirror's one `Reader` (or an object holding one, such as the local `Api`) and builds what
it derives from the data once per mirror version through `Reader.derived`. Names load on first use.
"""

from importlib import import_module
from typing import Any

_LAZY = {
    "resolve_devices": ".devices",
    "SUBMISSION_RE": ".devices",
    "find_firm": ".firms",
    "FirmMatch": ".firms",
    "read_place": ".places",
    "establishments": ".places",
    "REGIONS": ".places",
    "Source": ".source",
    "reader_of": ".source",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'mirror.lookup' has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
