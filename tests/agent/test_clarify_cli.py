"""The clarifying question on the command line: `ask --json` returns the choices with exit status 4, and
`ask --session ID --choose N` resumes the session's interrupted graph on that choice."""

from __future__ import annotations

import shutil

import orjson
import pytest
from click.testing import CliRunner

from agent.cli import CLARIFY_EXIT, ask_command


@pytest.fixture
def data(sample_dir, tmp_path):
    d = tmp_path / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    return d


def test_ask_json_returns_the_choices_and_choose_resumes(data):
    run = CliRunner()
    first = run.invoke(
        ask_command, ["how many are there?", "--json", "--model", "none", "--session", "ca1", "--data-dir", str(data)]
    )
    assert first.exit_code == CLARIFY_EXIT == 4, first.output
    out = orjson.loads(first.stdout)
    assert out["clarify"]["choices"][2] == "all the 510(k) clearances"
    assert out["tool_calls"] == []
    picked = run.invoke(
        ask_command, ["--session", "ca1", "--choose", "3", "--json", "--model", "none", "--data-dir", str(data)]
    )
    assert picked.exit_code == 0, picked.output
    answer = orjson.loads(picked.stdout)
    assert answer["clarify"] is None and answer["interpretation"]["datasets"] == ["510k"]
    assert answer["tool_calls"][0]["tool"] == "search_510k"
    assert answer["answer"].startswith("Interpreted as: 510(k) clearances.")


def test_a_state_code_reads_the_us_state(data):
    res = CliRunner().invoke(
        ask_command, ["510(k) clearances in CA", "--json", "--model", "none", "--data-dir", str(data)]
    )
    assert res.exit_code == 0, res.output
    out = orjson.loads(res.stdout)
    assert out["interpretation"]["place"]["name"] == "California" and out["tool_calls"][0]["args"]["state"] == "CA"


def test_choose_needs_a_session_and_no_question(data):
    res = CliRunner().invoke(ask_command, ["--choose", "1", "--model", "none", "--data-dir", str(data)])
    assert res.exit_code == 2 and "--choose needs --session" in res.output


def test_the_help_documents_the_exit_status():
    res = CliRunner().invoke(ask_command, ["--help"])
    assert "status 4" in res.output and "--choose" in res.output
