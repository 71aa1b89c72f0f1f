"""An inter-process file lock on an open file, with no DuckDB: `try_lock` once, `unlock` to release.

Shared by the sync lock (`mirror/store/files.py`) and the session lock (`agent/sessions.py`). The lock belongs to
the open file: closing it releases the lock, also when the process is killed. On Windows (no fcntl) the first
byte of the file is locked instead.
"""

from __future__ import annotations

import sys
from typing import IO, Any

__all__ = ["try_lock", "unlock"]

if sys.platform == "win32":
    import msvcrt

    def try_lock(fh: IO[Any]) -> bool:
        """Take the exclusive lock on `fh` without waiting; False when another process or handle holds it."""
        fh.seek(0)
        try:
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(fh: IO[Any]) -> None:
        """Release the lock taken on `fh` (closing the file releases it too)."""
        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def try_lock(fh: IO[Any]) -> bool:
        """Take the exclusive lock on `fh` without waiting; False when another process or handle holds it."""
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(fh: IO[Any]) -> None:
        """Release the lock taken on `fh` (closing the file releases it too)."""
        fcntl.flock(fh, fcntl.LOCK_UN)
