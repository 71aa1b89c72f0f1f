"""The one file lock (mirror/store/lock.py): exclusive across handles, released by unlock or close, no DuckDB."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mirror.store.lock import try_lock, unlock

ROOT = Path(__file__).resolve().parents[2]


def test_a_second_handle_is_refused_until_the_first_unlocks_or_closes(tmp_path):
    path = tmp_path / "x.lock"
    with open(path, "a+b") as first, open(path, "a+b") as second:
        assert try_lock(first)
        assert not try_lock(second)
        unlock(first)
        assert try_lock(second)
        assert not try_lock(first)
    with open(path, "a+b") as first, open(path, "a+b") as second:
        assert try_lock(first)
        first.close()
        assert try_lock(second)


def test_the_lock_and_the_session_guards_load_no_duckdb():
    """The assistant's CLI checks a session id early through agent.sessions, which takes this lock: both stay cheap."""
    code = "import sys, agent.sessions; print(sorted(m for m in sys.modules if m.startswith('duckdb')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout
