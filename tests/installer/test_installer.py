"""The installer: build the PyInstaller bundle once, then run a copy of it air-gapped with an empty HOME.

The built app runs in a network namespace holding only loopback (`unshare -n`) and under `strace`, which records
every connect/sendto/sendmsg: none may name an address outside 127.0.0.0/8 and ::1. Checks: `ask --model none`
answers with citations from the carried mirror (seeded on first run), `mirror status --json` reports it, the
embedded model answers in the built app, and the window starts under Xvfb (screenshot in
test-artifacts/installer/). The build runs once per test session, into the session's tmp folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.app.conftest import settled_screenshot, start_xvfb, stop, wait_for, xdotool

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "installer"
TITLE = "FDA Explorer Offline"
QUESTION = "recalls for product code FOZ"
TOOLS = {"Xvfb": "xvfb", "xdotool": "xdotool", "strace": "strace", "unshare": "util-linux"}


def _require() -> None:
    """Fail (never skip) naming what is missing, so CI cannot pass without building the installer."""
    missing = [pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"missing tools: apt-get install -y {' '.join(missing)}")
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        pytest.fail("PyInstaller is missing: .venv/bin/pip install 'pyinstaller==6.22.*'")


@pytest.fixture(scope="session")
def sample_bundle(tmp_path_factory, sample_dir) -> Path:
    """The session's sample mirror exported as an air-gap bundle: the snapshot the installer carries."""
    bundle = tmp_path_factory.mktemp("bundle") / "fda"
    subprocess.run(
        [sys.executable, "-m", "mirror", "export", str(bundle), "--data-dir", str(sample_dir)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return bundle


@pytest.fixture(scope="session")
def built(tmp_path_factory, sample_bundle) -> dict:
    """One build per session (tmp dist and work folders), then a copy of the app in a fresh folder."""
    _require()
    out = tmp_path_factory.mktemp("installer")
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "build" / "build.py"),
            "--with-mirror",
            str(sample_bundle),
            "--dist",
            str(out / "dist"),
            "--work",
            str(out / "work"),
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
    assert proc.returncode == 0, proc.stderr[-5000:]
    copy = out / "copy" / "fda-explorer"
    shutil.copytree(out / "dist" / "fda-explorer", copy, symlinks=True)
    return {"exe": copy / "fda-explorer", "dist": out / "dist", "stdout": proc.stdout}


class Airgap:
    """Runs the built app with an empty HOME, only loopback (`unshare -n`) and its sockets recorded by strace."""

    def __init__(self, home: Path) -> None:
        self.home, self.logs = home, []
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("FDAX_", "XDG_", "FLET_"))}
        self.env.update(HOME=str(home), OMP_WAIT_POLICY="PASSIVE")
        self.netns = self._netns()

    @staticmethod
    def _netns() -> list[str]:
        for unshare in (["unshare", "-n"], ["unshare", "-rn"]):  # root, else a user namespace
            if subprocess.run([*unshare, "true"], capture_output=True).returncode == 0:
                return [*unshare, "sh", "-c", 'ip link set lo up 2>/dev/null || true; exec "$@"', "sh"]
        pytest.fail("cannot make a network namespace (unshare -n / -rn); run as root or allow user namespaces")

    def command(self, args: list[str], netns: bool = True) -> list[str]:
        log = self.home / f"strace-{len(self.logs)}.log"
        self.logs.append(log)
        return [
            *(self.netns if netns else []),
            "strace",
            "-f",
            "-qq",
            "-e",
            "trace=connect,sendto,sendmsg",
            "-e",
            "signal=none",
            "-o",
            str(log),
            *args,
        ]

    def run(self, args: list[str], timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(args), env=self.env, capture_output=True, text=True, timeout=timeout)

    def remote_addresses(self) -> set[str]:
        """Every IP address a recorded call named that is not loopback."""
        found = set()
        for log in self.logs:
            text = log.read_text(errors="replace") if log.exists() else ""
            found |= set(re.findall(r'sin_addr=inet_addr\("([\d.]+)"\)', text))
            found |= set(re.findall(r'inet_pton\(AF_INET6, "([0-9a-fA-F:.]+)"', text))
            if re.search(r"sin6?_port=htons\(53\)", text):  # a DNS query, even to a resolver on loopback
                found.add("DNS query (port 53)")
        return {a for a in found if not (a.startswith("127.") or a in ("::1", "0.0.0.0", "::"))}


@pytest.fixture(scope="module")
def airgap(tmp_path_factory) -> Airgap:
    return Airgap(tmp_path_factory.mktemp("home"))


def test_build_prints_size_and_startup_figures(built):
    out = built["stdout"]
    size = int(re.search(r": ([\d,]+) MB \(goal", out).group(1).replace(",", ""))
    assert size < 450, out  # 400 MB until the MCP SDK and the PDF report library joined the bundle (412 MB)
    assert re.search(r"first run [\d.]+ s .*next run [\d.]+ s", out), out
    (tarball,) = built["dist"].glob("fda-explorer-*-linux-x86_64.tar.gz")
    assert tarball.stat().st_size > 50e6


def test_ask_without_a_model_answers_from_the_carried_mirror(built, airgap):
    proc = airgap.run([str(built["exe"]), "ask", QUESTION, "--model", "none", "--json"])
    assert proc.returncode == 0, proc.stderr
    assert "First run: loaded" in proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["citations"] and "FOZ" in answer["answer"], answer["answer"]


def test_mirror_status_reports_the_snapshot(built, airgap, sample_bundle):
    proc = airgap.run([str(built["exe"]), "mirror", "status", "--json"])
    assert proc.returncode == 0, proc.stderr
    st = json.loads(proc.stdout)
    data = airgap.home / ".local" / "share" / "fda-explorer"
    assert Path(st["database"]).is_relative_to(data), st["database"]
    carried = json.loads((sample_bundle / "bundle.json").read_text())
    assert {f["endpoint"] for f in carried["files"]} - {"gudid"} <= set(st["endpoints"]), st["endpoints"]
    assert st["endpoints"]["recall"]["records"] > 0 and st["gudid"]["records"] > 0
    note = json.loads((data / "snapshot.json").read_text())
    assert note["kind"] == "bundle" and Path(note["snapshot"]).name == "snapshot"


def test_ask_with_the_embedded_model(built, airgap):
    proc = airgap.run([str(built["exe"]), "ask", QUESTION, "--model", "embedded", "--json"], timeout=600)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["model"].startswith("embedded") and answer["answer"], answer
    assert "unavailable" not in proc.stderr.lower(), proc.stderr


def test_window_starts_under_xvfb(built, airgap, tmp_path):
    xvfb, display = start_xvfb()
    trace = tmp_path / "trace.jsonl"
    proc = subprocess.Popen(
        airgap.command([str(built["exe"]), "--model", "none", "--trace", str(trace)]),
        env={**airgap.env, "DISPLAY": display},
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(
            lambda: xdotool(display, "search", "--onlyvisible", "--name", TITLE) or proc.poll() is not None,
            120,
            "the window",
        )
        assert proc.poll() is None, proc.stdout.read().decode()
        wait_for(lambda: trace.exists() and '"assistant_ready"' in trace.read_text(), 60, "the window to be usable")
        image = settled_screenshot(display, ARTIFACTS / "installer-window.png", timeout=90, interval=0.5)
        assert len(image.getcolors(1 << 16) or ()) > 20, "the window looks blank"
    finally:
        code = stop(proc, 30)
        stop(xvfb)
    output = proc.stdout.read().decode()
    assert code == 0 and "Traceback" not in output, output


def test_web_mode_serves_the_offline_client(built, airgap):
    """In the host's network namespace (the test's client must reach it), still recorded by strace."""
    proc = subprocess.Popen(
        airgap.command([str(built["exe"]), "--web", "--port", "0", "--model", "none"], netns=False),
        env=airgap.env,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = wait_for(
            lambda: (
                re.search(r"(http://127\.0\.0\.1:\d+/)\?token=[\w-]+", proc.stdout.readline())
                or proc.poll() is not None
            ),
            120,
            "the web server's address (with this launch's token)",
        )
        assert isinstance(url, re.Match), proc.stdout.read()
        base, direct = url.group(1), urllib.request.ProxyHandler({})  # straight to 127.0.0.1
        assert (
            wait_for(lambda: _get_status(urllib.request.build_opener(direct), base), 60, "the web server to listen")
            == 403
        )  # no token, no app
        browser = urllib.request.build_opener(direct, urllib.request.HTTPCookieProcessor())
        assert _get_status(browser, url.group(0)) == 200  # the token becomes a cookie
        with browser.open(base + "main.dart.js", timeout=60) as r:
            script = r.read()
        assert len(script) > 1e6 and b"cdn.jsdelivr.net" not in script
    finally:
        code = stop(proc, 30)
    assert code == 0, proc.stdout.read()


def test_the_recorder_sees_an_attempt_to_leave(tmp_path):
    """The check below is only as good as its recorder: a connect to a TEST-NET address is seen."""
    _require()
    canary = Airgap(tmp_path)
    code = "import socket\ntry: socket.create_connection(('192.0.2.7', 9), timeout=1)\nexcept OSError: pass"
    assert canary.run([sys.executable, "-c", code], timeout=60).returncode == 0
    assert canary.remote_addresses() == {"192.0.2.7"}


def test_nothing_left_loopback(built, airgap):
    """Runs last in this module: every command above ran under strace in the namespace."""
    assert len(airgap.logs) >= 4 and all(log.exists() for log in airgap.logs)
    assert airgap.remote_addresses() == set()


def _get_status(opener, url: str) -> int | None:
    """The URL's HTTP status, or None while the server is not listening yet (it prints its URL before)."""
    try:
        with opener.open(url, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except urllib.error.URLError:
        return None
