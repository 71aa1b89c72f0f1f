"""Shared by the agent tests: a ToolContext on the sample mirror (the `sample_dir` fixture of tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.tools.context import ToolContext
from mirror.settings import Settings


@pytest.fixture
def ctx(sample_dir: Path):
    c = ToolContext.open(Settings(data_dir=sample_dir))
    yield c
    c.close()
