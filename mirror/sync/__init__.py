"""The sync pipeline: plan from a manifest, fetch, unpack, load into staging, build indexes, publish.

Stages: `plan` (download.json) -> `fetch`/`download` (sources, .part files) -> `unpack`/`chunks` (bulk JSON)
-> `load`/`loadsql` (staging tables) -> `indexes` (derived tables) -> publish (`run`). `gudid/` is AccessGUDID.
"""

from importlib import import_module

__all__ = ["sync", "SyncOptions", "SyncReport", "SAMPLE_DIR"]


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module 'mirror.sync' has no attribute {name!r}")
    value = getattr(import_module(".run", __name__), name)
    globals()[name] = value
    return value
