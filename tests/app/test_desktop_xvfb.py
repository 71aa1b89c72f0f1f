"""The desktop window under Xvfb: it starts, answers a question typed with xdotool, and exits cleanly (Ctrl+Q)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from .conftest import FDA_EXPLORER, ROOT, SCREENSHOTS, require, start_xvfb, stop, wait_for

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
    if not trace.exists():
        return {}
    return {e["event"]: e for e in map(json.loads, trace.read_text().splitlines())}


def _xdotool(display: str, *args: str) -> str:
    return subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display}, capture_output=True,
                          text=True, timeout=10).stdout.strip()


def _screenshot(display: str, name: str, unlike=None):
    """Grab the screen once it has stopped changing (and differs from `unlike`), then save it."""
    from PIL import ImageGrab
    last = [None]

    def steady():
        image = ImageGrab.grab(xdisplay=display)
        same = last[0] is not None and image.tobytes() == last[0].tobytes()
        last[0] = image
        return image if same and (unlike is None or image.tobytes() != unlike.tobytes()) else None

    image = wait_for(steady, 20, f"the screen to settle for {name}", interval=0.2)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image.save(SCREENSHOTS / name)
    return image


def test_window_starts_answers_and_exits_cleanly(display, sample_mirror, mirror_copy, tmp_path):
    data, trace = mirror_copy(sample_mirror), tmp_path / "trace.jsonl"
    proc = subprocess.Popen([*FDA_EXPLORER, "--model", "none", "--data-dir", str(data), "--config",
                             str(tmp_path / "app.json"), "--trace", str(trace)], cwd=ROOT, start_new_session=True,
                            env={**os.environ, "DISPLAY": display}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        window = wait_for(lambda: _xdotool(display, "search", "--onlyvisible", "--name", TITLE) or proc.poll() is not None,
                          60, "the window")
        assert proc.poll() is None, proc.stdout.read().decode()
        wait_for(lambda: {"ready", "assistant_ready"} <= set(_events(trace)), 60, "the window to be usable")
        start = _screenshot(display, "desktop-start.png")
        assert len(start.getcolors(1 << 16) or ()) > 20, "the window looks blank"
        # Click into the question box at the bottom of the window, type, press Enter.
        _xdotool(display, "mousemove", "--window", window.split()[0], "600", "768", "click", "1")
        _xdotool(display, "type", "--delay", "20", "top manufacturers of adverse events")
        _xdotool(display, "key", "Return")
        wait_for(lambda: "answer_shown" in _events(trace), 30, "the answer")
        events = _events(trace)
        assert 0 <= events["first_step_shown"]["ms"] < 30_000   # shown while answering (speed: bench/app_startup.py)
        _screenshot(display, "desktop-answer.png", unlike=start)
        _xdotool(display, "key", "ctrl+q")
        code = proc.wait(30)
    finally:
        code = stop(proc)
    output = proc.stdout.read().decode()
    assert code == 0, output
    assert "exit" in _events(trace) and "Traceback" not in output, output
