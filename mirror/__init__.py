"""Local mirror of openFDA device data and AccessGUDID in DuckDB: sync, status, verify, export."""

from .errors import *  # noqa: F401,F403
from .errors import __all__ as _errors
from .settings import Settings
from .store import Store
from .sync import SAMPLE_DIR, SyncOptions, SyncReport, sync
from .status import status, verify
from .bundle import export

__all__ = ["Settings", "Store", "SyncOptions", "SyncReport", "sync", "status", "verify", "export",
           "SAMPLE_DIR", *_errors]
