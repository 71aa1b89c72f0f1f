"""Banners: what went wrong (or was done) in one plain line, the next step as a button, the technical details apart."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Banner",
    "banner_for",
    "model_problem",
    "settings_problem",
    "dialog_unavailable",
    "info",
    "one_line",
    "IMPORT_FOLDER",
]

IMPORT_FOLDER = "data:folder"  # a banner target: the Data screen, syncing from a folder


@dataclass(frozen=True)
class Banner:
    """`action` is the label of the next step; `target` the screen it opens (ask, sessions, data, settings, or
    data:folder); `details` the technical text behind it (shown on request, never as the message)."""

    message: str
    level: str = "error"  # error | warning | info
    action: str = ""
    target: str = ""
    details: str = ""


def model_problem(message: str, details: str = "") -> Banner:
    return Banner(
        f"{message}. Answers are still written from the data, without the model; another model can be "
        "chosen in Settings.",
        "warning",
        "Open Settings",
        "settings",
        details,
    )


def settings_problem(message: str) -> Banner:
    return Banner(
        "The saved settings could not be used, so the app started with the default settings. Saving the "
        "Settings screen replaces them.",
        "error",
        "Open Settings",
        "settings",
        message,
    )


def dialog_unavailable(error: BaseException) -> Banner:
    return Banner(
        "This desktop has no file chooser: type or paste the folder's path in the box instead.",
        "warning",
        details=one_line(error),
    )


def info(message: str) -> Banner:
    return Banner(message, "info")


def one_line(error: BaseException) -> str:
    """An exception's message on one line (its type when it has none)."""
    return " ".join(str(error).split()) or type(error).__name__


def _mirror_banner(error: BaseException, doing: str, text: str) -> Banner | None:
    from mirror import errors as m

    if isinstance(error, m.DownloadError):
        return Banner(
            "The openFDA download site cannot be reached: this computer may be offline. Import the data "
            "from a folder (a bundle carried in on a USB drive) instead.",
            "error",
            "Import a folder",
            IMPORT_FOLDER,
            text,
        )
    if isinstance(error, m.BundleError):
        return Banner(
            "The bundle in this folder is incomplete or damaged: copy it again from the computer that "
            "made it, then import it again. The mirror keeps its previous data.",
            "error",
            details=text,
        )
    if isinstance(error, m.SourceError):
        return Banner(
            "This folder is not a data bundle the app can read (a bundle folder holds download.json): "
            "choose the bundle's own folder. The mirror keeps its previous data.",
            "error",
            details=text,
        )
    if isinstance(error, m.DiskFullError):
        return Banner(
            "The disk is full: free some space, then sync again (it resumes where it stopped).", "error", details=text
        )
    if isinstance(error, (m.PartitionError, m.UnloadableFileError, m.ManifestError)):
        return Banner(
            "A downloaded file is damaged: sync again (it fetches that file again). The mirror keeps its "
            "previous data.",
            "error",
            details=text,
        )
    if isinstance(error, m.ShrinkRefused):
        return Banner(
            "The new data is much smaller than the mirror's, so the sync stopped to protect it. The mirror "
            "keeps its previous data.",
            "error",
            details=text,
        )
    if isinstance(error, m.MirrorMissingError):
        return Banner(
            "There is no data yet: load the sample, or sync or import the FDA data on the Data screen.",
            "warning",
            "Open Data",
            "data",
            text,
        )
    if isinstance(error, m.LockedError):
        return Banner(
            "Another sync is running on this data folder: wait for it to finish, then try again.",
            "warning",
            details=text,
        )
    if isinstance(error, m.SyncCancelled):
        return Banner(
            "Sync cancelled. The mirror keeps its previous data; the next sync resumes where this one stopped.", "info"
        )
    if isinstance(error, m.MirrorError):
        return Banner(f"Problem while {doing}. The mirror keeps its previous data.", "error", details=text)
    return None


def banner_for(error: BaseException, doing: str) -> Banner:
    """The banner for an exception raised while `doing` something (e.g. "syncing", "opening the record")."""
    from agent.errors import AgentError
    from agent.models import ModelError

    from .config import ConfigError

    text = one_line(error)
    found = _mirror_banner(error, doing, text)
    if found is not None:
        return found
    if isinstance(error, ModelError):
        return model_problem(f"The model stopped while {doing}", text)
    if isinstance(error, ConfigError):
        return Banner("The settings could not be saved or read.", "error", "Open Settings", "settings", text)
    if isinstance(error, AgentError):
        return Banner(f"The assistant could not finish {doing}: try again, or in other words.", "error", details=text)
    if isinstance(error, OSError):
        return Banner(
            f"A file could not be read or written while {doing}: check the folders in Settings and the "
            "free disk space.",
            "error",
            "Open Settings",
            "settings",
            text,
        )
    return Banner(
        f"Something unexpected went wrong while {doing}. Nothing was lost: try again, and report it if it "
        "happens again.",
        "error",
        details=f"{type(error).__name__}: {text}",
    )
