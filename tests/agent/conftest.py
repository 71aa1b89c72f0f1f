"""Shared by the agent tests: a ToolContext on the sample mirror (the `sample_dir` fixture of tests/conftest.py), and
an assistant with no model on a copy of it (a module may define its own `assistant`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agent.assistant import Assistant
from agent.settings import AgentSettings
from agent.tools.context import ToolContext
from mirror.settings import Settings


@pytest.fixture
def ctx(sample_dir: Path):
    c = ToolContext.open(Settings(data_dir=sample_dir))
    yield c
    c.close()


@pytest.fixture
def assistant(sample_dir: Path, tmp_path: Path):
    d = tmp_path / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    a = Assistant(Settings(data_dir=d), AgentSettings(model="none"), model=None)
    yield a
    a.close()
