"""Every test file runs: README's test command collects each `test_*.py` under tests/ (no folder drops out).

pytest's default `norecursedirs` skips folders named build, dist, venv and others, so a folder with one of those
names would silently never run (tests/build/ did exactly that). This asks pytest itself, with the project's
configuration and no arguments (as `.venv/bin/python -m pytest -q` does), which tests it collects.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _collected() -> tuple[subprocess.CompletedProcess, set[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    files = {line.split("::")[0] for line in proc.stdout.splitlines() if "::" in line}
    return proc, files


def test_every_test_file_is_collected_by_the_readme_command():
    on_disk = {
        p.relative_to(ROOT).as_posix()
        for pattern in ("test_*.py", "*_test.py")
        for p in (ROOT / "tests").rglob(pattern)
        if "__pycache__" not in p.parts
    }
    proc, collected = _collected()
    errors = proc.stdout[proc.stdout.find("= ERRORS =") :] if "= ERRORS =" in proc.stdout else proc.stdout[-3000:]
    assert proc.returncode == 0, f"pytest cannot collect the suite:\n{errors[:5000]}{proc.stderr[-2000:]}"
    assert "tests/installer/test_installer.py" in on_disk  # the glob sees the folder that once dropped out
    missing = sorted(on_disk - collected)
    assert not missing, (
        f"pytest does not collect {missing}: rename the folder (pytest's norecursedirs skips "
        "build, dist, venv, ...) or fix [tool.pytest.ini_options] in pyproject.toml"
    )
    assert collected <= on_disk, sorted(collected - on_disk)
