"""Session ids are plain names, audits stay under DATA_DIR/agent/audit, and concurrent asks on one session keep
every turn (review D10 and D13)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from agent.audit import write_audit
from agent.cli import tools_cli
from agent.errors import Cancelled
from agent.sessions import MAX_SESSION_ID, InvalidSessionId, check_session_id, inside, session_lock
from tests.app.conftest import FDA_EXPLORER, ROOT


def _ask(session: str, question: str, data: Path) -> list[str]:
    """The command `fda-explorer ask --model none --json --session SESSION QUESTION --data-dir DATA`."""
    return [*FDA_EXPLORER, "ask", "--model", "none", "--json", "--session", session, question, "--data-dir", str(data)]


@pytest.fixture
def data(sample_dir, tmp_path) -> Path:
    """A private copy of the sample mirror (asking writes sessions and audits into it)."""
    dest = tmp_path / "data"
    shutil.copytree(sample_dir, dest, ignore=shutil.ignore_patterns("*.lock", "agent"))
    return dest


def bad_ids(tmp_path: Path) -> list[str]:
    return [
        "../x",
        "../../../../outside",
        str(tmp_path / "abs"),
        "a/b",
        "a\\b",
        "y" * 300,
        "-rf",
        "~",
        "..",
        ".",
        ".hidden",
        "",
        "sess; rm -rf /",
        "a b",
        "naïve",
        "x\n",
        "z" * (MAX_SESSION_ID + 1),
    ]


def test_plain_names_pass_and_everything_else_is_refused_naming_the_rule(tmp_path):
    for good in ("3f2a9c1b7d0e", "recalls-2024", "a.b_c-D", "Q" * MAX_SESSION_ID, "0"):
        assert check_session_id(good) == good
    for bad in bad_ids(tmp_path):
        with pytest.raises(
            InvalidSessionId,
            match="letters, digits, '-', '_' and '.', starting with a letter or digit, at most 64 characters",
        ):
            check_session_id(bad)
    with pytest.raises(InvalidSessionId, match=r"'yyyyy.*\.\.\.' is 300 characters long"):
        check_session_id("y" * 300)


@pytest.mark.parametrize("command", ["ask", "chat", "sessions --show", "sessions --delete"])
def test_the_cli_refuses_a_bad_id_in_one_line_before_anything_runs(command, data, tmp_path):
    flag = "--session" if command in ("ask", "chat") else command.split()[1]
    for bad in bad_ids(tmp_path):
        args = [command.split()[0], flag, bad, "--data-dir", str(data)] + (
            ["recalls for DXY"] if command == "ask" else []
        )
        result = CliRunner().invoke(tools_cli, args, prog_name="fda-explorer")
        assert result.exit_code == 2, (bad, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: the session id"), (bad, result.output)
    assert not (data / "agent").exists()  # nothing ran: no assistant, no session store, no audit
    assert not (tmp_path / "abs").exists() and not (tmp_path / "x").exists()


def test_fda_explorer_ask_with_a_traversal_or_a_long_id_writes_nothing_and_says_so(data, tmp_path):
    outside = tmp_path / "outside_audit"
    for bad in (str(outside), "../../../outside_audit", "y" * 300):
        run = subprocess.run(
            _ask(bad, "recalls for DXY", data),
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        assert run.returncode == 2 and run.stdout == "", run
        assert run.stderr.count("\n") == 1 and run.stderr.startswith("Error: the session id"), run.stderr
        assert "Traceback" not in run.stderr
    assert not outside.exists() and not (data / "agent").exists()


def test_the_audit_folder_is_checked_before_anything_is_written(tmp_path):
    audit = tmp_path / "agent" / "audit"
    payload = {
        "question": "q",
        "route": "ask",
        "plan": {},
        "tool_calls": [],
        "as_of": {},
        "model": "none",
        "model_calls": 0,
        "answer": "a",
        "citations": [],
        "provenance": [],
        "seconds": 0.1,
    }
    for bad in ("../escaped", str(tmp_path / "abs"), "a/b", "y" * 300):
        with pytest.raises(InvalidSessionId):
            write_audit(audit, {**payload, "session": bad}, {})
    assert not (tmp_path / "agent" / "escaped").exists() and not (tmp_path / "abs").exists()
    (tmp_path / "elsewhere").mkdir()
    audit.mkdir(parents=True)
    (audit / "linked").symlink_to(tmp_path / "elsewhere")  # a planted symlink does not lead out either
    with pytest.raises(InvalidSessionId, match="leads outside"):
        write_audit(audit, {**payload, "session": "linked"}, {})
    assert list((tmp_path / "elsewhere").iterdir()) == []
    first = write_audit(audit, {**payload, "session": "ok-1"}, {})
    second = write_audit(audit, {**payload, "session": "ok-1"}, {})  # same millisecond or not: two files
    assert first != second and first.parent == second.parent == inside(audit, "ok-1")
    assert json.loads(second.read_text())["session"] == "ok-1" and second.with_suffix(".md").exists()


def test_the_assistant_refuses_a_bad_id_itself(data):
    from agent.assistant import Assistant
    from agent.settings import AgentSettings
    from mirror.settings import Settings

    a = Assistant(Settings(data_dir=data), AgentSettings(model="none"))
    try:
        with pytest.raises(InvalidSessionId):
            next(a.stream("recalls for DXY", "../../x"))
        with pytest.raises(InvalidSessionId):
            a.history("/etc")
        assert a.ask("recalls for DXY", "fine-1")["session"] == "fine-1"
        assert [m["role"] for m in a.history("fine-1")] == ["user", "assistant"]
    finally:
        a.close()
    assert not (data.parent / "x").exists()


def test_the_session_lock_excludes_a_second_holder_until_released_and_a_cancel_stops_the_wait(tmp_path):
    order: list[str] = []

    def second() -> None:
        with session_lock(tmp_path, "s1"):
            order.append("second")

    with session_lock(tmp_path, "s1"):
        t = threading.Thread(target=second)
        t.start()
        time.sleep(0.3)
        assert order == []  # still waiting: the first holds the lock
        with session_lock(tmp_path, "other"):  # another session is not held up
            order.append("other")
        order.append("first done")
    t.join(5)
    assert order == ["other", "first done", "second"]

    def cancelled() -> None:
        raise Cancelled()

    with session_lock(tmp_path, "s2"):
        started = time.monotonic()
        with pytest.raises(Cancelled):
            with session_lock(tmp_path, "s2", cancelled):
                pass
        assert time.monotonic() - started < 1


class SlowModel:
    """A model that takes a second and then fails: the answer is made without it, but each run stays open long
    enough for two runs on one session to overlap (without the session lock the second one lost the first's turn)."""

    name, calls = "slow", 0

    def json(self, messages, schema, max_tokens=512):
        from agent.models import ModelError

        time.sleep(1)
        raise ModelError("slow model: no answer")

    def text(self, messages, max_tokens=400):
        return self.json(messages, {})


def test_two_assistants_asking_on_one_session_at_once_keep_both_turns(data):
    from agent.assistant import Assistant
    from agent.settings import AgentSettings
    from mirror.settings import Settings

    both = [Assistant(Settings(data_dir=data), AgentSettings(model="none"), model=SlowModel()) for _ in range(2)]
    answers: dict[int, dict] = {}
    try:
        runs = [
            threading.Thread(
                target=lambda i=i, a=a: answers.setdefault(i, a.ask(f"recalls for DXY number {i}", "together"))
            )
            for i, a in enumerate(both)
        ]
        for t in runs:
            t.start()
        for t in runs:
            t.join(120)
        assert sorted(answers) == [0, 1]
        users = sorted(m["content"] for m in both[0].history("together") if m["role"] == "user")
        assert users == ["recalls for DXY number 0", "recalls for DXY number 1"]
    finally:
        for a in both:
            a.close()


@pytest.mark.slow
def test_eight_concurrent_asks_on_one_session_keep_every_turn(data):
    runs = [
        subprocess.Popen(
            _ask("concsess", f"recalls for DXY number {i}", data),
            cwd=ROOT,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ},
        )
        for i in range(1, 9)
    ]
    outputs = [p.communicate(timeout=600) for p in runs]
    assert [p.returncode for p in runs] == [0] * 8, [err[-500:] for _, err in outputs]
    audits = [json.loads(out)["audit"] for out, _ in outputs]
    assert len(set(audits)) == 8 and all(Path(a).parent == data / "agent" / "audit" / "concsess" for a in audits)
    show = subprocess.run(
        [*FDA_EXPLORER, "sessions", "--show", "concsess", "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    questions = [line for line in show.stdout.splitlines() if line.startswith("user: ")]
    assert sorted(questions) == sorted(f"user: recalls for DXY number {i}" for i in range(1, 9)), show.stdout
    listing = subprocess.run(
        [*FDA_EXPLORER, "sessions", "--data-dir", str(data)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert "8 turns" in listing.stdout, listing.stdout
