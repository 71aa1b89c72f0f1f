"""Surveillance test resources: a writable copy of the synced sample mirror and a CLI runner."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from agent.surveil.cli import surveil_cli


@pytest.fixture
def mirror_copy(sample_dir: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(sample_dir, dest)
    return dest


@pytest.fixture
def run():
    def invoke(*args: str, ok: bool = True):
        result = CliRunner().invoke(surveil_cli, list(args), catch_exceptions=False)
        assert (result.exit_code == 0) == ok, result.output
        return result

    return invoke
