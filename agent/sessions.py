"""Session ids and their store's guards: a safe id, a folder that stays inside its root, one writer per session.

A session id names a conversation in `sessions.sqlite`, its audit folder and its lock file, so it must be a plain
file name: letters, digits, `-`, `_` and `.`, starting with a letter or digit (so never `..`, `.hidden` or `-rf`),
at most 64 characters. Two `fda-explorer ask` runs on one session take turns on the session's lock (an
inter-process file lock), so each reads the turns the other saved.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from mirror.store.lock import try_lock

from .errors import AgentError

__all__ = ["InvalidSessionId", "MAX_SESSION_ID", "check_session_id", "inside", "session_lock"]

MAX_SESSION_ID = 64
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_RULE = (
    f"use letters, digits, '-', '_' and '.', starting with a letter or digit, at most {MAX_SESSION_ID} "
    "characters, e.g. recalls-2024; list sessions with `fda-explorer sessions`"
)


class InvalidSessionId(AgentError):
    """A session id that is not a plain name (a path, too long, odd characters)."""


def check_session_id(session_id: str) -> str:
    """`session_id` unchanged when it is a safe name; otherwise InvalidSessionId saying what is allowed."""
    if not isinstance(session_id, str) or not session_id:
        raise InvalidSessionId(f"the session id is empty: {_RULE}")
    shown = session_id if len(session_id) <= 40 else session_id[:37] + "..."
    if len(session_id) > MAX_SESSION_ID:
        raise InvalidSessionId(f"the session id {shown!r} is {len(session_id)} characters long: {_RULE}")
    if not _SAFE.fullmatch(session_id):
        raise InvalidSessionId(f"the session id {shown!r} is not a plain name: {_RULE}")
    return session_id


def inside(root: Path, name: str) -> Path:
    """`root / name` for a checked session id, refused unless it resolves to a folder directly under `root`."""
    root = Path(root).resolve()
    path = (root / check_session_id(name)).resolve()
    if path.parent != root:
        raise InvalidSessionId(f"the session id {name!r} leads outside {root}: {_RULE}")
    return path


@contextmanager
def session_lock(
    folder: Path, session_id: str, waiting: Callable[[], None] = lambda: None, poll: float = 0.05
) -> Iterator[None]:
    """Hold the session's lock file `<folder>/<id>.lock`, waiting while another process or thread holds it.

    `waiting()` is called between tries: it may raise (a cancelled answer stops waiting). Closing the file
    releases the lock, also when the process is killed.
    """
    path = inside(folder, session_id)
    path = path.with_name(path.name + ".lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as fh:
        while not try_lock(fh):
            waiting()
            time.sleep(poll)
        yield
