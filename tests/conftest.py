"""Shared test resources: the shipped sample, a real HTTP server on 127.0.0.1, `mirror serve`, CLI runners."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import orjson
import pytest

from mirror import Settings
from mirror.sync import SAMPLE_DIR

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "fixtures"


class FileServer(ThreadingHTTPServer):
    """Serves a folder over HTTP with Range support and scripted faults, recording every request."""

    daemon_threads = True

    def __init__(self, root: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.root = Path(root)
        self.requests: list[tuple[str, str | None]] = []  # (path, Range header)
        self.faults: dict[str, list] = {}  # path -> queue of faults to apply in turn
        self.throttle: dict[str, float] = {}  # path -> seconds per 64 KiB block
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def fault(self, path: str, *faults) -> None:
        """Faults: ("status", code, retry_after), ("cut", nbytes) or ("norange",) (answer 200 with the whole file)."""
        self.faults.setdefault(path, []).extend(faults)

    def next_fault(self, path: str):
        with self.lock:
            q = self.faults.get(path)
            return q.pop(0) if q else None


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *a) -> None:
        pass

    def do_GET(self) -> None:
        srv: FileServer = self.server
        path = self.path.split("?")[0].lstrip("/")
        srv.requests.append((path, self.headers.get("Range")))
        fault = srv.next_fault(path)
        if fault and fault[0] == "status":
            self.send_response(fault[1])
            if fault[2] is not None:
                self.send_header("Retry-After", str(fault[2]))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        file = srv.root / path
        if not file.is_file():
            self.send_error(404)
            return
        data = file.read_bytes()
        start = 0
        rng = None if fault == ("norange",) else self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if fault and fault[0] == "cut":
            self.wfile.write(body[: fault[1]])
            self.wfile.flush()
            self.close_connection = True
            return
        delay = srv.throttle.get(path)
        for i in range(0, len(body), 65536):
            try:
                self.wfile.write(body[i : i + 65536])
            except (BrokenPipeError, ConnectionResetError):
                return
            if delay:
                import time

                time.sleep(delay)


@pytest.fixture
def sample_copy(tmp_path: Path) -> Path:
    """A writable copy of the shipped sample source."""
    dest = tmp_path / "source"
    shutil.copytree(SAMPLE_DIR, dest)
    return dest


def serve_manifest(source: Path, server_url: str) -> Path:
    """Rewrite download.json so partition URLs point at the test server; returns its path."""
    doc = orjson.loads((source / "download.json").read_bytes())
    for entry in doc["results"]["device"].values():
        for p in entry["partitions"]:
            p["file"] = p["file"].replace("https://download.open.fda.gov", server_url)
    out = source / "download.local.json"
    out.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    return out


@pytest.fixture
def http_source(sample_copy: Path):
    """The sample served over real HTTP on 127.0.0.1; yields (server, manifest URL)."""
    srv = FileServer(sample_copy)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    serve_manifest(sample_copy, srv.url)
    yield srv, f"{srv.url}/download.local.json"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", backoff=0.01, retries=4, timeout=10)


@pytest.fixture(scope="session")
def sample_dir(tmp_path_factory) -> Path:
    """The sample mirror, synced once per test session through the real CLI (read-only for the tests using it)."""
    d = tmp_path_factory.mktemp("sample-mirror")
    subprocess.run(
        [sys.executable, "-m", "mirror", "sync", "--sample", "--data-dir", str(d), "--quiet"],
        check=True,
        capture_output=True,
    )
    return d


def start_server(data_dir: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    """`mirror serve --port 0` on `data_dir` (plus `extra` options): the process and its base URL, once it answers."""
    p = subprocess.Popen(
        [sys.executable, "-m", "mirror", "serve", "--port", "0", "--data-dir", str(data_dir), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = p.stderr.readline()
    m = re.search(r"on (http://127\.0\.0\.1:\d+)/", line)
    assert m, line + (p.stderr.read() if p.poll() is not None else "")
    base = m.group(1)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            httpx.get(base + "/download.json", timeout=2)
            return p, base
        except httpx.TransportError:
            time.sleep(0.1)
    p.kill()
    raise AssertionError("server did not answer")


@contextmanager
def mirror_serve(data_dir: Path, *extra: str) -> Iterator[str]:
    """A running `mirror serve` on `data_dir`: its base URL (http://127.0.0.1:PORT), stopped on leaving."""
    p, base = start_server(data_dir, *extra)
    try:
        yield base
    finally:
        p.terminate()
        p.wait(timeout=20)
