"""The commands' edges: a missing mirror is one line and exit 1 (no server starts), every option is in
docs/servers.md, and each command's help ends with an example."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from agent.servers.cli import servers_cli

from .conftest import ROOT, SERVERS

DOC = (ROOT / "docs" / "servers.md").read_text()


@pytest.mark.parametrize("args", [["mcp"], ["mcp", "--http", "0"], ["serve", "--port", "0", "--model", "none"]])
def test_a_missing_mirror_is_one_line(tmp_path, args):
    proc = subprocess.run(
        SERVERS + args + ["--data-dir", str(tmp_path / "empty")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "mirror" in lines[0], proc.stderr
    assert "http://" not in proc.stderr  # nothing listened


def test_every_option_is_documented_and_every_command_has_an_example():
    for name, cmd in servers_cli.commands.items():
        assert f"fda-explorer {name}" in DOC, name
        assert "Example: fda-explorer " + name in (cmd.help or ""), name
        for p in cmd.params:
            if isinstance(p, click.Option):
                assert max(p.opts, key=len) in DOC, (name, p.opts)
    assert '"mcpServers"' in DOC and '"command"' in DOC and '"url": "http://127.0.0.1:' in DOC


def test_python_dash_m_runs_the_commands():
    out = subprocess.run(
        [sys.executable, "-m", "agent.servers", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and "mcp" in out.stdout and "serve" in out.stdout
