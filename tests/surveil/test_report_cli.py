"""`fda-explorer changes` and `report` through the CLI on a copy of the sample mirror, and the command docs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import click
import pytest

from agent.surveil.cli import COMMANDS, surveil_cli
from agent.surveil.errors import SurveilError
from agent.surveil.report import parse_period

DOC = (Path(__file__).resolve().parents[2] / "docs" / "surveillance.md").read_text()


def test_changes_record_then_list(run, mirror_copy):
    d = str(mirror_copy)
    out = run("changes", "--data-dir", d).output  # `mirror sync --sample` recorded sync 1 (a baseline)
    assert "Changes in syncs #1 at " in out and "event (as of 2025-09-23): 0 new, 0 changed, 0 removed" in out
    out = run("changes", "--record", "--data-dir", d).output
    assert "recorded sync 2: 510k unchanged (+0 ~0 -0)" in out and "Changes in syncs #2 at " in out
    run("watch", "create", "pumps", "--code", "OZP", "--data-dir", d)
    out = run("changes", "--watch", "pumps", "--since", "2000-01-01", "--data-dir", d).output
    assert "Changes for watchlist pumps in syncs #1 at " in out and ", #2 at " in out
    shutil.rmtree(mirror_copy / "surveil")  # a mirror synced before syncs kept a change history
    err = run("changes", "--data-dir", d, ok=False).output
    assert "no change history yet" in err and "--record" in err
    assert "recorded sync 1: 510k baseline" in run("changes", "--record", "--data-dir", d).output
    assert "is neither a date" in run("changes", "--since", "last week", "--data-dir", d, ok=False).output


def test_report_markdown(run, mirror_copy, tmp_path):
    d = str(mirror_copy)
    run("watch", "create", "pumps", "--code", "OZP", "--code", "FOZ", "--data-dir", d)
    out = tmp_path / "r.md"
    run("report", "--watch", "pumps", "--period", "2023Q1", "--out", str(out), "--data-dir", d)
    text = out.read_text()
    assert "# Surveillance report: pumps, 2023Q1 (2023-01-01 to 2023-03-31)" in text
    assert "| 2023-01 | Malfunction | 2 |" in text
    assert "| problem | No Display/Image | all | 1 | 1 | 1 | 2 | 1.50 |" in text
    assert "MAUDE counts are reports, not incidence." in text and "Data as of:" in text and "```sql" in text
    assert "Adverse event reports (deaths first): 16081314, 16081315" in text
    assert "## Changes in the latest sync\n\n- recall (as of " in text  # sync 1 of the sample: a baseline
    assert "- event (as of 2025-09-23): 0 new, 0 changed, 0 removed" in text and "_Not available: " not in text


def test_periods():
    assert parse_period("2023Q3") == (parse_period("2023-07")[0], parse_period("2023-09")[1])
    assert str(parse_period("2024")[1]) == "2024-12-31" and str(parse_period("2024-02")[1]) == "2024-02-29"
    with pytest.raises(SurveilError, match="not a quarter"):
        parse_period("Q3")


def _walk(group: click.Group, prefix: str):
    for name, cmd in group.commands.items():
        yield f"{prefix} {name}", cmd
        if isinstance(cmd, click.Group):
            yield from _walk(cmd, f"{prefix} {name}")


def test_every_command_and_option_is_documented_with_an_example():
    assert set(surveil_cli.commands) == set(COMMANDS)
    for path, cmd in _walk(surveil_cli, "fda-explorer"):
        assert path in DOC, path
        assert "Example:" in (cmd.help or ""), path
        for p in cmd.params:
            if isinstance(p, click.Option):
                for flag in p.opts + p.secondary_opts:
                    if flag.startswith("--"):
                        assert re.search(re.escape(flag) + r"\b", DOC), (path, flag)
