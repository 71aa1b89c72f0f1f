"""The one judge of every path a sync writes, deletes or reads from a folder: inside its root, or refused.

A manifest, a bundle or a download-site copy is input from elsewhere: its partition URLs, export dates and
bundle.json paths are joined to local folders only through `contained()`. It accepts plain relative paths
(segments of ordinary characters) and refuses absolute paths, `..` and `.` segments, empty segments, backslashes,
percent-encoding, drive letters and control characters, then resolves the result (following symbolic links)
and refuses anything that lands outside the root.

Deleting: a sync deletes only regular files inside its own `DATA_DIR/downloads` folder, which nothing but a
sync writes (a download or copy goes to `<file>.part` and is renamed when complete). `remove()` re-checks that
before every unlink, so a file outside (or a symbolic link placed in the folder) is never deleted.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import ManifestError, MirrorError

__all__ = ["contained", "check_relative", "url_path", "inside", "remove"]

_BAD_CHARS = re.compile(r"[\x00-\x1f\x7f\\%:]")


def _why_not_relative(relative: object) -> str | None:
    if not isinstance(relative, str) or not relative:
        return "the path is empty or not text"
    if relative.startswith("/"):
        return "the path is absolute"
    if m := _BAD_CHARS.search(relative):
        return f"the path holds {m.group(0)!r} (a backslash, percent-encoding, drive letter or control character)"
    if any(s in ("", ".", "..") for s in relative.split("/")):
        return "the path holds an empty, '.' or '..' segment"
    return None


def check_relative(relative: object, what: str, error: type[MirrorError] = ManifestError) -> str:
    """`relative` if it is a plain relative path (a/b/c.zip), else `error` naming `what`."""
    why = _why_not_relative(relative)
    if why or not isinstance(relative, str):  # (_why_not_relative refuses what is not text)
        raise error(
            f"{what}: {why}; refused, a path must stay inside its folder "
            "(use files from openFDA or a bundle made by `mirror export`)"
        )
    return relative


def url_path(url: str, what: str, error: type[MirrorError] = ManifestError) -> str:
    """The path of an http(s) URL without its leading slash, checked like `check_relative`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise error(
            f"{what}: {url!r} is not an http(s) URL; refused: use the manifest from openFDA "
            "or a bundle made by `mirror export`"
        )
    if not parts.path.startswith("/"):
        raise error(f"{what}: {url!r} has no file path; refused")
    return check_relative(parts.path[1:], what, error)


def inside(root: Path, path: Path) -> bool:
    """True when `path`, symbolic links followed, lies inside `root` (symbolic links followed)."""
    try:
        return Path(path).resolve().is_relative_to(Path(root).resolve())
    except (OSError, RuntimeError):  # a symlink loop
        return False


def contained(root: Path, relative: str, what: str = "", error: type[MirrorError] = ManifestError) -> Path:
    """`root / relative` once `relative` is a plain relative path that, symbolic links followed, stays in `root`."""
    what = what or str(relative)
    rel = check_relative(relative, what, error)
    path = Path(root) / rel
    if not inside(root, path):
        raise error(
            f"{what}: {path} leads outside {root} through a symbolic link; refused: "
            "replace the link with the file itself"
        )
    return path


def remove(root: Path, path: Path) -> bool:
    """Delete `path` if it is a regular file (not a symbolic link) inside `root`; False when it was left alone."""
    path = Path(path)
    if path.is_symlink() or not path.is_file() or not inside(root, path):
        return False
    path.unlink(missing_ok=True)
    return True
