"""`fda-explorer`: the forwards to the mirror and assistant commands, the app's options, and their documentation."""

from __future__ import annotations

import ast
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from app.cli import app_command
from app.config import AppConfig, AppEnv

from .conftest import FDA_EXPLORER, ROOT


def docs() -> str:
    """README.md and docs/, where the app is documented."""
    return (ROOT / "README.md").read_text() + "".join(p.read_text() for p in sorted((ROOT / "docs").glob("*.md")))


def test_the_mirror_and_assistant_commands_are_forwarded(sample_mirror):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*FDA_EXPLORER, *args], capture_output=True, text=True, timeout=120, cwd=ROOT)

    status = run("mirror", "status", "--json", "--data-dir", str(sample_mirror))
    assert status.returncode == 0 and '"endpoints"' in status.stdout
    assert "resolve_device" in run("tools").stdout.split()
    assert "Usage: fda-explorer sessions" in run("sessions", "--help").stdout
    assert "Usage: fda-explorer ask" in run("ask", "--help").stdout
    assert "Usage: fda-explorer chat" in run("chat", "--help").stdout
    assert "Usage: fda-explorer tool " in run("tool", "--help").stdout


def test_the_app_help_and_a_bad_option():
    result = CliRunner().invoke(app_command, ["--help"], prog_name="fda-explorer")
    assert result.exit_code == 0 and "Example: fda-explorer --web --port 8550 --model none" in result.output
    bad = CliRunner().invoke(app_command, ["--port", "99999"], prog_name="fda-explorer")
    assert bad.exit_code == 2


def test_a_broken_settings_file_is_one_line_and_exit_1(tmp_path):
    (tmp_path / "app.json").write_text("[")
    result = subprocess.run(
        [*FDA_EXPLORER, "--config", str(tmp_path / "app.json"), "--web", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert result.returncode == 1 and result.stderr.startswith("Error: cannot read the settings file")


def test_every_option_and_setting_is_documented():
    text = docs()
    assert "fda-explorer --web" in text
    for p in app_command.params:
        if isinstance(p, click.Option) and p.name != "help":
            assert max(p.opts, key=len) in text, p.opts
    for name, field in AppEnv.model_fields.items():
        assert f"FDAX_{name.upper()}" in text and field.description, name
    for name, field in AppConfig.model_fields.items():
        assert f"`{name}`" in text and field.description, name
    for shortcut in ("Enter", "Shift+Enter", "Ctrl+K", "Ctrl+Q", "Escape"):
        assert shortcut in text, shortcut
    assert "tests/app/screenshots/" in text and "bench/app_startup.py" in text


def test_the_views_hold_no_mirror_or_agent_code_and_the_app_reaches_them_through_few_modules():
    """app -> agent -> mirror; within the app only these import agent or mirror: backend (the one way to the mirror
    and the assistant), banners (their errors), launch and cli (start-up), config (the model setting's grammar,
    agent.modelspec), watch (the surveillance screen's state, over agent.surveil's functions), errors (a record
    the mirror cannot open is also a MirrorError) and exports_pdf (the PDF text rules it shares with the surveillance
    report, agent.pdf_text)."""
    importers = set()
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module]
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                else []
            )
            if any(n.split(".")[0] in ("agent", "mirror") for n in names):
                importers.add(path.relative_to(ROOT / "app").as_posix())
            assert not any(n.split(".")[0] == "duckdb" for n in names), path
    assert importers == {
        "backend.py",
        "banners.py",
        "launch.py",
        "cli.py",
        "config.py",
        "watch.py",
        "errors.py",
        "exports_pdf.py",
    }


def test_the_public_surface_is_declared_and_cheap_to_import():
    import app

    for name in app.__all__:
        assert getattr(app, name) is not None, name
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, app.cli; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('flet', 'duckdb', 'agent', 'langgraph')))",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.stdout.strip() == "[]", out.stdout  # `fda-explorer mirror ...` pays for none of them


def test_the_model_option_is_described_by_the_one_grammar():
    from agent.modelspec import MODEL_HELP
    from app.cli import MODEL_HELP as APP_HELP

    assert APP_HELP == f"Model for this run: {MODEL_HELP}."


@pytest.mark.parametrize(
    "args,variable",
    [
        (["--web", "--port", "0"], "FDAX_APP_PORT"),
        ([], "FDAX_APP_PORT"),
        (["ask", "adverse events", "--model", "none"], "FDAX_ROW_CAP"),
    ],
)
def test_a_bad_environment_variable_is_one_line_and_exit_1(args, variable, tmp_path):
    import os

    env = {**os.environ, variable: "abc", "DISPLAY": ""}
    out = subprocess.run([*FDA_EXPLORER, *args], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [
        f"Error: setting {variable}: Input should be a valid integer, "
        "unable to parse string as an integer; fix the environment variable"
    ]
