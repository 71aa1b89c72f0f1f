"""The Flet views: they draw the controller's state and forward clicks and keys to it (no logic here)."""

__all__ = ["run_desktop", "run_web", "Trace"]


def __getattr__(name: str):
    if name in __all__:
        from . import run

        return getattr(run, name)
    raise AttributeError(name)
