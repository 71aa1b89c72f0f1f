"""The code checks every change passes: ruff's linter (style, imports, unused names) and its formatter over the whole
tree, and mypy over the three packages, with the settings in pyproject.toml. A finding fails the test and is
printed whole (`ruff format .` applies the formatting)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_ruff_finds_nothing():
    done = _run(str(BIN / "ruff"), "check", "--no-cache", ".", timeout=300)
    assert done.returncode == 0, f"ruff check found problems:\n{done.stdout}{done.stderr}"


def test_every_file_is_formatted():
    done = _run(str(BIN / "ruff"), "format", "--check", "--no-cache", ".", timeout=300)
    assert done.returncode == 0, f"files to format (run `ruff format .`):\n{done.stdout}{done.stderr}"


def test_mypy_finds_nothing_in_the_packages():
    done = _run(str(BIN / "mypy"), "--cache-dir", "/dev/null", timeout=900)
    assert done.returncode == 0, f"mypy found problems:\n{done.stdout}{done.stderr}"
    assert "Success: no issues found" in done.stdout and "source files" in done.stdout
