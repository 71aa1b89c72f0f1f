"""Shared by the app tests: sample mirrors (synced once per session, copied per test), a controller, processes."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import platformdirs
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _build_xvfb():
    """build/xvfb.py, loaded by path (build/ is the installer's folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("fdax_build_xvfb", ROOT / "build" / "xvfb.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


start_xvfb = _build_xvfb().start_xvfb  # the build's private Xvfb (1280x800): (process, DISPLAY value)
SCREENSHOTS = Path(os.environ.get("FDAX_APP_SCREENSHOTS") or ROOT / "tests" / "app" / "screenshots")
FDA_EXPLORER = [sys.executable, "-c", "from app.cli import main; main()"]
PARTIAL = "event,recall,enforcement,classification,udi,registrationlisting,covid19serology,gudid"  # no 510k, pma


def sync_sample(dest: Path, only: str | None = None) -> Path:
    cmd = [sys.executable, "-m", "mirror", "sync", "--sample", "--data-dir", str(dest), "--quiet"]
    subprocess.run(cmd + (["--only", only] if only else []), check=True, capture_output=True, timeout=120)
    return dest


def count_result(key: str, counted: dict[str, int], total: int, provenance: list[dict], **more) -> dict:
    """A count_by tool result as the app receives it: `counted` ({value: count}) becomes its rows, in that order."""
    rows = [{key: value, "count": n} for value, n in counted.items()]
    return {"tool": "count_by", "total": total, "id_fields": [key], "provenance": provenance, "rows": rows, **more}


@pytest.fixture(scope="session")
def sample_mirror(sample_dir) -> Path:
    """The whole sample mirror, read-only for tests (copy it with `mirror_copy` to change it): the session's
    `sample_dir` (tests/conftest.py), synced once for every test package."""
    return sample_dir


@pytest.fixture(scope="session")
def partial_mirror(tmp_path_factory) -> Path:
    """The sample without 510k and pma, so a sync from the sample changes the counts."""
    return sync_sample(tmp_path_factory.mktemp("app-partial") / "data", PARTIAL)


@pytest.fixture
def mirror_copy(tmp_path: Path) -> Callable[[Path], Path]:
    def copy(src: Path) -> Path:
        dest = tmp_path / "data"
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns("*.lock", "agent"))
        return dest

    return copy


# Flet 0.82's web server logs this when the browser answers a method call (a scroll, a focus) on a control that a
# later update has already removed: Flet's own race, the answer is dropped and nothing else happens.
_FLET_LATE_RESULT = re.compile(
    r"Receive loop error: Error handling invoke method results\. Control with ID \d+ is not registered\.\n"
    r"Traceback \(most recent call last\):\n(?:.*\n)*?"
    r"RuntimeError: Error handling invoke method results\. Control with ID \d+ is not registered\.\n?"
)


def app_output(output: str) -> str:
    """What the app printed, without Flet's logged late method results (see _FLET_LATE_RESULT); any other
    traceback stays in and fails the test that checks for one."""
    return _FLET_LATE_RESULT.sub("", output)


def wait_for(predicate: Callable[[], object], timeout: float, what: str, interval: float = 0.05):
    """Poll until `predicate()` is truthy (returning it); fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(proc: subprocess.Popen, timeout: float = 10) -> int:
    """SIGTERM the process group, then SIGKILL it if it has not exited within `timeout`; returns the exit code."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            return proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            return proc.wait(5)
    return proc.returncode


def launch_app(
    data: Path,
    folder: Path,
    trace: Path,
    *first: str,
    app: list[str] = FDA_EXPLORER,
    env: dict[str, str] | None = None,
    stdout=subprocess.PIPE,
) -> subprocess.Popen:
    """`fda-explorer FIRST... --model none --data-dir DATA --config FOLDER/app.json --trace TRACE` (`app` instead of
    fda-explorer when given) from the repository root in a session of its own (so `stop` ends it whole), with `env`
    added to this process's environment; its output and errors go to `stdout` (a pipe unless told)."""
    return subprocess.Popen(
        [*app, *first, "--model", "none", "--data-dir", str(data), "--config", str(folder / "app.json")]
        + ["--trace", str(trace)],
        cwd=ROOT,
        start_new_session=True,
        stdout=stdout,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
    )


def xdotool(display: str, *args: str) -> str:
    """Run xdotool on `display`; its output, stripped."""
    return subprocess.run(
        ["xdotool", *args], env={**os.environ, "DISPLAY": display}, capture_output=True, text=True, timeout=10
    ).stdout.strip()


def settled_screenshot(display: str, path: Path, unlike=None, timeout: float = 20, interval: float = 0.2):
    """Grab the screen once two grabs `interval` apart are the same (and differ from `unlike`), save it to `path`."""
    from PIL import ImageGrab

    last = [None]

    def steady():
        image = ImageGrab.grab(xdisplay=display)
        same = last[0] is not None and image.tobytes() == last[0].tobytes()
        last[0] = image
        return image if same and (unlike is None or image.tobytes() != unlike.tobytes()) else None

    image = wait_for(steady, timeout, f"the screen to settle for {path.name}", interval=interval)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    return image


def require(*tools: str) -> None:
    """GUI tests need Debian packages; fail (not skip) naming them, so CI cannot pass without them."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.fail(
            f"missing {', '.join(missing)}: apt-get install -y xvfb xdotool chromium libmpv2 "
            "libgstreamer-plugins-base1.0-0"
        )


def trace_events(trace: Path) -> list[dict]:
    """The events the app wrote to its `--trace` file so far, in order ([] before it writes one)."""
    return [json.loads(line) for line in trace.read_text().splitlines()] if trace.exists() else []


def listening(trace: Path) -> str:
    """The address the app printed (with this launch's token), once its server listens; "" before."""
    lines = trace.read_text().splitlines() if trace.exists() else []
    urls = [json.loads(line)["url"] for line in lines if '"listening"' in line]
    if not urls:
        return ""
    try:
        urllib.request.urlopen(urls[-1].split("?")[0], timeout=2)
    except urllib.error.HTTPError as e:
        return urls[-1] if e.code == 403 else ""  # up: a page without the token is refused
    except OSError:
        return ""
    return ""


@contextmanager
def web_app(data: Path, tmp_path: Path, home: Path | None = None) -> Iterator[tuple[str, Path]]:
    """`fda-explorer --web` on a free port over `data` (HOME set to `home` when given); yields (the printed url with
    its token, the trace file). On leaving: the app stops with exit 0 and printed no traceback of its own."""
    require("chromium")
    port, trace = free_port(), tmp_path / f"trace-{free_port()}.jsonl"
    env = {"FDAX_DATA_DIR": str(data)}
    if home is not None:  # the bundles are looked for under HOME; Flet's offline web files stay in the cache
        env.update(HOME=str(home), XDG_CACHE_HOME=str(Path(platformdirs.user_cache_dir()).expanduser()))
    proc = launch_app(data, tmp_path, trace, "--web", "--port", str(port), env=env)
    try:
        url = wait_for(lambda: listening(trace) or proc.poll() is not None, 60, "the web server")
        assert proc.poll() is None, proc.stdout.read().decode()
        assert url.startswith(f"http://127.0.0.1:{port}/?token="), url
        yield url, trace
    finally:
        code = stop(proc)
        output = proc.stdout.read().decode()
        assert code == 0, f"fda-explorer --web exited with {code}:\n{output}"
        assert "Traceback" not in app_output(output), output
