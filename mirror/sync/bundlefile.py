"""bundle.json, the checksum list of an air-gap bundle: its format, read and checked before a sync uses a bundle.

`mirror export` marks the bundle's download.json with `meta._bundle_note` and writes bundle.json last, so a folder
so marked without a bundle.json is an export that was interrupted (or a bundle whose list was removed): refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import orjson

from ..errors import BundleError
from ..store.paths import check_relative, contained

__all__ = ["BundleEntry", "read_bundle", "FORMAT", "NOTE_KEY"]

FORMAT = "fda-explorer-bundle/1"
NOTE_KEY = "_bundle_note"  # in download.json's meta: this folder was written by `mirror export`
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class BundleEntry:
    path: str  # relative to the bundle folder, e.g. device/pma/device-pma-0001-of-0001.json.zip
    bytes: int
    sha256: str


def read_bundle(root: Path) -> dict[str, BundleEntry] | None:
    """The files bundle.json lists (path -> entry); None for a plain download-site copy; BundleError for a
    bundle.json that is malformed or lists a path outside the folder, and for an export without its bundle.json."""
    where = root / "bundle.json"
    if not where.exists() and not where.is_symlink():
        if _marked_as_export(root):
            raise BundleError(
                f"{root}: an incomplete export (download.json is marked as written by `mirror export` "
                "but bundle.json is missing, so nothing can be checked); run `mirror export` again "
                "and copy the whole folder"
            )
        return None
    contained(root, "bundle.json", str(where), BundleError)
    try:
        doc = orjson.loads(where.read_bytes())
    except orjson.JSONDecodeError:
        raise BundleError(f"{where}: is not valid JSON; the bundle is damaged, export it again") from None
    except OSError as e:
        raise BundleError(f"{where}: cannot be read ({e.strerror}); copy the bundle again") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("files"), list):
        raise BundleError(
            f"{where}: not a bundle list (expected an object with format {FORMAT!r} and a files "
            "list); the bundle is damaged, export it again"
        )
    entries: dict[str, BundleEntry] = {}
    for i, f in enumerate(doc["files"]):
        entry = _entry(f, f"{where}: files[{i}]")
        if entry.path in entries:
            raise BundleError(f"{where}: {entry.path} is listed twice; the bundle is damaged, export it again")
        entries[entry.path] = entry
    return entries


def _entry(f: object, what: str) -> BundleEntry:
    if not isinstance(f, dict):
        raise BundleError(f"{what} is not an object; the bundle is damaged, export it again")
    path, size, sha = f.get("path"), f.get("bytes"), f.get("sha256")
    path = check_relative(path, f"{what} path {path!r}", BundleError)
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise BundleError(f"{what} ({path}) has no valid bytes; the bundle is damaged, export it again")
    if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
        raise BundleError(f"{what} ({path}) has no valid sha256; the bundle is damaged, export it again")
    return BundleEntry(path, size, sha)


def _marked_as_export(root: Path) -> bool:
    try:
        doc = orjson.loads((root / "download.json").read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return False  # the manifest's own check reports it
    meta = doc.get("meta") if isinstance(doc, dict) else None
    return isinstance(meta, dict) and NOTE_KEY in meta
