"""Shared by the agent tests: the sample mirror (synced once per session) and a ToolContext on it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent.tools.context import ToolContext
from mirror.settings import Settings


@pytest.fixture(scope="session")
def sample_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("agent-mirror")
    subprocess.run([sys.executable, "-m", "mirror", "sync", "--sample", "--data-dir", str(d), "--quiet"],
                   check=True, capture_output=True)
    return d


@pytest.fixture
def ctx(sample_dir: Path):
    c = ToolContext.open(Settings(data_dir=sample_dir))
    yield c
    c.close()
