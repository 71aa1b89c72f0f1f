"""The desktop app (Flet): a window on the assistant and the mirror; its logic is testable without a window."""

__all__ = ["Backend", "SyncSource", "AppConfig", "load_config", "save_config", "Controller", "AppError"]

_HOMES = {
    "Backend": "backend",
    "SyncSource": "backend",
    "AppConfig": "config",
    "load_config": "config",
    "save_config": "config",
    "Controller": "controller",
    "AppError": "errors",
}


def __getattr__(name: str):
    """Imported on first use: `fda-explorer mirror ...` must not pay for the app's imports."""
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
