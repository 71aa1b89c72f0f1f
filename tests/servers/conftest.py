"""Shared by the server tests: a private copy of the sample mirror, servers started as real processes on
127.0.0.1 (port 0), and a reader of Server-Sent Events."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVERS = [sys.executable, "-m", "agent.servers"]


@pytest.fixture(scope="module")
def data(sample_dir, tmp_path_factory) -> Path:
    """A copy of the sample mirror for this module (the assistant writes its sessions into the data folder)."""
    d = tmp_path_factory.mktemp("servers") / "data"
    shutil.copytree(sample_dir / "db", d / "db")
    return d


@dataclass
class Server:
    proc: subprocess.Popen
    url: str  # http://127.0.0.1:PORT (serve) or http://127.0.0.1:PORT/mcp (mcp --http)
    log: Path

    def stop(self) -> int:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                return self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                return self.proc.wait(5)
        return self.proc.returncode


def start(args: list[str], log: Path, timeout: float = 60) -> Server:
    """Start `python -m agent.servers ARGS` in its own process group; wait for the address it prints."""
    err = open(log, "wb")
    proc = subprocess.Popen(
        SERVERS + args,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=err,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(r"http://127\.0\.0\.1:\d+(/mcp)?", log.read_text(errors="replace"))
        if found:
            return Server(proc, found.group(0).rstrip("/"), log)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the server did not start: {log.read_text(errors='replace')}")


@pytest.fixture(scope="module")
def server_factory(data, tmp_path_factory):
    started: list[Server] = []

    def make(*args: str) -> Server:
        log = tmp_path_factory.mktemp("log") / "server.log"
        srv = start(list(args) + ["--data-dir", str(data)], log)
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


@dataclass
class Event:
    id: int
    type: str
    data: dict


def events(resp: httpx.Response) -> Iterator[Event]:
    """Server-Sent Events of a streamed response, one at a time, as they arrive (comments skipped)."""
    fields: dict[str, str] = {}
    for line in resp.iter_lines():
        if line == "":
            if "data" in fields:
                yield Event(int(fields.get("id", "0")), fields.get("event", "message"), json.loads(fields["data"]))
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
