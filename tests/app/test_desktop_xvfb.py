"""The desktop window under Xvfb: it starts, answers a question typed with xdotool, and exits cleanly (Ctrl+Q)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from .conftest import (
    SCREENSHOTS,
    launch_app,
    require,
    settled_screenshot,
    start_xvfb,
    stop,
    trace_events,
    wait_for,
    xdotool,
)

pytestmark = pytest.mark.slow
TITLE = "FDA Explorer Offline"


@pytest.fixture
def display():
    """A private Xvfb server (1280x800); yields its DISPLAY value."""
    require("Xvfb", "xdotool")
    xvfb, display = start_xvfb()
    try:
        yield display
    finally:
        stop(xvfb)


def _events(trace: Path) -> dict[str, dict]:
    return {e["event"]: e for e in trace_events(trace)}


def test_window_starts_answers_and_exits_cleanly(display, sample_mirror, mirror_copy, tmp_path):
    from app.ui.early_client import client_path

    data, trace = mirror_copy(sample_mirror), tmp_path / "trace.jsonl"
    unpacked = client_path() is not None  # Flet unpacks its client at the first window ever
    proc = launch_app(data, tmp_path, trace, env={"DISPLAY": display})
    try:
        window = wait_for(
            lambda: xdotool(display, "search", "--onlyvisible", "--name", TITLE) or proc.poll() is not None,
            60,
            "the window",
        )
        assert proc.poll() is None, proc.stdout.read().decode()
        wait_for(lambda: {"ready", "assistant_ready"} <= set(_events(trace)), 60, "the window to be usable")
        assert _events(trace)["launch"]["early_client"] is unpacked  # the client was started before Flet's import
        start = settled_screenshot(display, SCREENSHOTS / "desktop-start.png")
        assert len(start.getcolors(1 << 16) or ()) > 20, "the window looks blank"
        # Click into the question box at the bottom of the window, type, press Enter.
        xdotool(display, "mousemove", "--window", window.split()[0], "600", "768", "click", "1")
        xdotool(display, "type", "--delay", "20", "top manufacturers of adverse events")
        xdotool(display, "key", "Return")
        wait_for(lambda: "answer_shown" in _events(trace), 30, "the answer")
        events = _events(trace)
        assert 0 <= events["first_step_shown"]["ms"] < 30_000  # shown while answering (speed: bench/app_startup.py)
        settled_screenshot(display, SCREENSHOTS / "desktop-answer.png", unlike=start)
        xdotool(display, "key", "ctrl+q")
        code = proc.wait(30)
    finally:
        code = stop(proc)
    output = proc.stdout.read().decode()
    assert code == 0, output
    assert "exit" in _events(trace) and "Traceback" not in output, output


def test_the_early_client_is_started_on_a_bound_loopback_socket(tmp_path, monkeypatch):
    """spawn() binds 127.0.0.1 first, then starts the client with that URL and a pid file; a client that dies
    before connecting is started again (it was refused by a busy display)."""
    import asyncio

    from app.ui import early_client

    fake = tmp_path / "view"
    fake.mkdir()
    log = tmp_path / "args.log"
    (fake / "flet").write_text(f'#!/bin/sh\necho "$@" >> {log}\n')  # exits at once, never connects
    (fake / "flet").chmod(0o755)
    monkeypatch.setenv("FLET_VIEW_PATH", str(fake))
    monkeypatch.setenv("DISPLAY", ":99")
    import flet.messaging.flet_socket_server as server_module
    import flet_desktop

    monkeypatch.setattr(flet_desktop, "open_flet_view_async", flet_desktop.open_flet_view_async)  # restored
    monkeypatch.setattr(server_module, "asyncio", server_module.asyncio)  # after
    early = early_client.spawn()
    try:
        assert early is not None and early.sock.getsockname()[0] == "127.0.0.1"
        early.install()
        proc, pid_file = asyncio.run(flet_desktop.open_flet_view_async("ignored", None, False))
        assert pid_file == early.pid_file and asyncio.run(asyncio.wait_for(proc.wait(), 10)) == 0
        lines = log.read_text().splitlines()
        assert lines == [f"tcp://127.0.0.1:{early.port} {early.pid_file}"] * (1 + early.MAX_RESTARTS)
    finally:
        early.sock.close()
        Path(early.pid_file).unlink(missing_ok=True)
    monkeypatch.setenv("FDAX_EARLY_CLIENT", "0")
    assert early_client.spawn() is None


def test_a_conversation_comes_back_whole_in_a_second_window(display, sample_mirror, mirror_copy, tmp_path):
    """Issue 16: ask two questions, quit, start the app again, open the conversation from Sessions: every answer
    is drawn with its tables, chart and Export buttons."""
    data = mirror_copy(sample_mirror)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    proc = launch_app(data, tmp_path, first, env={"DISPLAY": display})
    try:
        wait_for(lambda: {"ready", "assistant_ready"} <= set(_events(first)), 60, "the first window")
        for i, question in enumerate(("adverse event reports for product code JAA", "adverse events by month in 2023")):
            xdotool(display, "mousemove", "600", "768", "click", "1")
            xdotool(display, "type", "--delay", "15", question)
            xdotool(display, "key", "Return")
            wait_for(lambda: sum(e["event"] == "answer_shown" for e in trace_events(first)) > i, 90, f"answer {i + 1}")
        xdotool(display, "key", "ctrl+q")
        assert proc.wait(30) == 0
    finally:
        stop(proc)
    proc = launch_app(data, tmp_path, second, env={"DISPLAY": display})
    try:
        wait_for(lambda: {"ready", "assistant_ready"} <= set(_events(second)), 60, "the second window")
        xdotool(display, "mousemove", "52", "110", "click", "1")  # Sessions
        clicked = [0.0]

        def whole():
            drawn = [
                (e["turns"], e["tables"], e["charts"], e["exports"])
                for e in trace_events(second)
                if e["event"] == "conversation_shown"
            ]
            if (2, 2, 1, 2) in drawn:
                return True
            if not drawn and time.monotonic() - clicked[0] > 5:  # the list may not be drawn yet under load
                xdotool(display, "mousemove", "400", "212", "click", "1")  # the conversation
                clicked[0] = time.monotonic()
            return False

        time.sleep(1.5)  # (the first click's chance)
        wait_for(whole, 120, "the conversation drawn with its 2 tables, chart and Export buttons", interval=0.2)
        settled_screenshot(display, SCREENSHOTS / "desktop-resumed.png")
        xdotool(display, "key", "ctrl+q")
        assert proc.wait(30) == 0
    finally:
        stop(proc)
    assert "Traceback" not in proc.stdout.read().decode()
