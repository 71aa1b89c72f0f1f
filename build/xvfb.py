"""A private Xvfb display (1280x800) for the app's window, on Linux: used by build.py's start-up figures and the tests.

A plain script module with no imports from the repository, so the app tests (tests/app/conftest.py) load it by path;
the build never imports the tests.
"""

from __future__ import annotations

import os
import signal
import subprocess

__all__ = ["start_xvfb"]


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """A private Xvfb server (1280x800) in its own session: (process, DISPLAY value); RuntimeError if it fails.

    `-noreset`: by default the server resets each time its last client leaves, and a window that connects during
    that reset is told it "cannot open display" (seen when a test's xdotool probe had just disconnected)."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write,),
        start_new_session=True,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()  # Xvfb writes the display number once it accepts connections
    if not number:
        if xvfb.poll() is None:
            os.killpg(xvfb.pid, signal.SIGKILL)
        xvfb.wait(5)
        raise RuntimeError("Xvfb did not start: check that `Xvfb -displayfd 1` runs (apt-get install xvfb)")
    return xvfb, f":{number}"
