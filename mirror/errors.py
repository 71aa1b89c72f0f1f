"""The mirror's exception tree: one base, one subclass per condition.

MirrorError
 +-- ConfigError          bad setting or option value
 +-- ManifestError        download.json unreadable or without a device section
 +-- SourceError          a URL or folder that cannot be reached or read
 |    +-- DownloadError   HTTP failure after retries
 |    +-- OfflineRefused  an internet URL while FDAX_OFFLINE is set (mirror/sync/download.py)
 +-- BundleError          a bundle whose checksum or listing does not match
 +-- PartitionError       a file that fails verification or loading
 |    +-- CorruptFileError     truncated or corrupt zip, unexpected member
 |    +-- InvalidJSONError     a file whose JSON cannot be parsed
 |    +-- RecordCountError     loaded records differ from the manifest
 +-- UnloadableFileError  an intact download this version cannot load (kept; a rerun would not help)
 +-- DiskFullError        no space left while writing
 +-- MirrorMissingError   no mirror in the data folder yet
 +-- LockedError          another sync holds the data folder
 +-- ShrinkRefused        a sync would drop a dataset below half its records (without --allow-shrink)
 +-- SyncCancelled        the user cancelled a sync (the next one resumes)
 +-- SnapshotError        a carried snapshot that is not a mirror, bundle or source folder (mirror/ops/snapshot.py)
 +-- SqlRefused           a `mirror sql` statement that is not one read-only SELECT (mirror/ops/sql.py)
 +-- QueryTooBroad        a query stopped at its time or memory bound (mirror/api/limits.py)
 +-- ApiError             what the local API answers instead of results: status, code, message (mirror/api/engine.py)
 +-- ParseError           an openFDA search that cannot be read (mirror/api/query.py; also a ValueError)
 +-- Refused              a record this version cannot load, found while reading (mirror/sync/compactjson.py)
 +-- NotOpenFDA           JSON that is not an openFDA {meta, results} file (mirror/sync/compactjson.py)
 +-- ParallelReadRefused  DuckDB's parallel CSV reader refused a GUDID member; loaded again serially
                          (mirror/sync/gudid/full.py)

Every message names the thing (file, URL, folder) and the next step; `first_line(e)` quotes an underlying
error (DuckDB's, the OS's) inside such a message.
"""

__all__ = [
    "MirrorError",
    "ConfigError",
    "ManifestError",
    "SourceError",
    "DownloadError",
    "BundleError",
    "PartitionError",
    "CorruptFileError",
    "InvalidJSONError",
    "RecordCountError",
    "DiskFullError",
    "MirrorMissingError",
    "LockedError",
    "ShrinkRefused",
    "SyncCancelled",
    "first_line",
]


def first_line(e: BaseException | str, limit: int = 300) -> str:
    """The first non-blank line of an exception's message (or of a text), at most `limit` characters; the
    exception's type name when it has no message. For quoting a library's error inside one of ours."""
    text = str(e).strip()
    if not text:
        return type(e).__name__ if isinstance(e, BaseException) else ""
    line = text.splitlines()[0].strip()
    return line if len(line) <= limit else line[: limit - 3] + "..."


class MirrorError(Exception):
    """Base of every error the mirror raises on purpose."""


class ConfigError(MirrorError):
    pass


class ManifestError(MirrorError):
    pass


class SourceError(MirrorError):
    pass


class DownloadError(SourceError):
    pass


class BundleError(MirrorError):
    pass


class PartitionError(MirrorError):
    pass


class CorruptFileError(PartitionError):
    pass


class InvalidJSONError(PartitionError):
    pass


class RecordCountError(PartitionError):
    pass


class DiskFullError(MirrorError):
    pass


class MirrorMissingError(MirrorError):
    pass


class LockedError(MirrorError):
    pass


class ShrinkRefused(MirrorError):
    pass


class SyncCancelled(MirrorError):
    def __init__(self, message: str = "sync cancelled; the mirror keeps its previous data and the next sync resumes"):
        super().__init__(message)


class UnloadableFileError(MirrorError):
    """An intact download that this version cannot load: a record over the size or nesting limit, a record that
    is not a JSON object, a GUDID update whose XML is invalid. Not a PartitionError, so the sync keeps the
    download (fetching it again would not help) and the message does not advise a rerun."""


__all__.append("UnloadableFileError")
