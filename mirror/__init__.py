"""Local mirror of openFDA device data and AccessGUDID in DuckDB: sync, status, verify, export.

Subsystems: `schema` (dataset specs), `store` (files, state), `sync` (the pipeline), `ops` (status, verify,
export, snapshot), `api` (the local openFDA API), `lookup` (resolvers' lexicons). Names load on first use.
"""

from importlib import import_module

from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors

_LAZY = {
    "Settings": ".settings",
    "Store": ".store.files",
    "SyncOptions": ".sync.run",
    "SyncReport": ".sync.run",
    "SAMPLE_DIR": ".sync.run",
    "status": ".ops.status",
    "verify": ".ops.status",
    "export": ".ops.bundle",
}

__all__ = ["Settings", "Store", "SyncOptions", "SyncReport", "status", "verify", "export", "SAMPLE_DIR", *_errors]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'mirror' has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
