"""Sources isolated: one unreachable source fails its datasets alone (exit 3, the outcome as JSON), a manifest of
one's own brings no internet default for GUDID, and FDAX_OFFLINE=1 never tries the internet (checked with strace)."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import orjson
from click.testing import CliRunner

from mirror.cli import cli
from mirror.sync import SAMPLE_DIR
from mirror.sync.plan import ENDPOINTS

DEVICE = list(ENDPOINTS)  # the openFDA device endpoints a sync plans, in its order
K510 = "device/510k/device-510k-0001-of-0001.json.zip"
ENV = {"FDAX_RETRIES": "6", "FDAX_BACKOFF": "0.2"}


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: a connection is refused
    return port


def _point(source: Path, endpoint: str, base: str) -> None:
    """Point one endpoint's partitions of the served manifest at `base` instead of the test server."""
    path = source / "download.local.json"
    doc = orjson.loads(path.read_bytes())
    for p in doc["results"]["device"][endpoint]["partitions"]:
        p["file"] = base + "/" + p["file"].split("/", 3)[3]
    path.write_bytes(orjson.dumps(doc))


def _sync(*args: str, env: dict | None = None):
    r = CliRunner().invoke(cli, ["sync", *args, "--quiet"], env={**ENV, **(env or {})}, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def test_one_unreachable_source_fails_alone_with_exit_3_and_the_outcome_as_json(http_source, sample_copy, tmp_path):
    srv, manifest = http_source
    dead = f"http://127.0.0.1:{_free_port()}"
    _point(sample_copy, "510k", dead)
    started = time.monotonic()
    code, out, err = _sync(
        "--manifest", manifest, "--gudid", str(SAMPLE_DIR / "gudid"), "--data-dir", str(tmp_path / "d"), "--json"
    )
    assert time.monotonic() - started < 20  # a refused connection is not retried six times with backoff
    assert code == 3, err
    report = json.loads(out)
    assert report["ok"] is False and report["exit_code"] == 3
    assert {n: d["status"] for n, d in report["datasets"].items()} == {
        **{n: "updated" for n in DEVICE if n != "510k"},
        "510k": "failed",
        "gudid": "updated",
    }
    error = report["datasets"]["510k"]["error"]
    assert error == report["errors"][0] and len(report["errors"]) == 1
    assert f"{dead}/{K510}" in error and "connection was refused" in error and "--from" in error
    assert [ln for ln in err.splitlines() if ln] == [f"Error: {error}"]
    assert report["datasets"]["event"]["records"] == 7 and report["datasets"]["gudid"]["records"] == 5


def test_an_unreadable_manifest_fails_the_openfda_datasets_and_gudid_still_loads(tmp_path):
    dead = f"http://127.0.0.1:{_free_port()}/download.json"
    code, out, err = _sync(
        "--manifest", dead, "--gudid", str(SAMPLE_DIR / "gudid"), "--data-dir", str(tmp_path / "d"), "--json"
    )
    assert code == 3
    report = json.loads(out)
    assert {n: d["status"] for n, d in report["datasets"].items()} == {
        **{n: "failed" for n in DEVICE},
        "gudid": "updated",
    }
    assert len(report["errors"]) == 1 and dead in report["errors"][0]


def test_a_manifest_given_implies_no_internet_default_for_gudid(http_source, tmp_path):
    srv, manifest = http_source
    code, out, err = _sync("--manifest", manifest, "--data-dir", str(tmp_path / "d"), "--json")
    assert code == 0, err
    report = json.loads(out)
    gudid = report["datasets"]["gudid"]
    assert gudid["status"] == "skipped" and "--gudid URL|PATH" in gudid["note"] and report["errors"] == []
    assert gudid["error"] == ""  # a skip by choice is no failure (the app counted it as one)
    assert {report["datasets"][n]["status"] for n in DEVICE} == {"updated"}
    code, out, err = _sync("--manifest", manifest, "--data-dir", str(tmp_path / "d"))
    assert code == 0 and "note: GUDID skipped" in out and "--gudid URL|PATH" in out


def test_json_is_printed_when_the_sync_cannot_start(tmp_path):
    code, out, err = _sync("--from", str(tmp_path / "missing"), "--data-dir", str(tmp_path / "d"), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False and report["datasets"] == {} and "download.json" in report["errors"][0]
    assert err.strip() == f"Error: {report['errors'][0]}"


_CONNECT = re.compile(
    r"connect\(\d+, \{sa_family=(AF_INET6?), sin6?_port=htons\((\d+)\), "
    r"(?:sin_addr=inet_addr\(\"([^\"]+)\"\)|.*?inet_pton\(AF_INET6, \"([^\"]+)\")"
)


def _inet_connects(log: Path) -> list[tuple[str, int]]:
    """(address, port) of every internet-family connect() the traced processes made."""
    out = []
    for line in log.read_text().splitlines():
        if "connect(" in line and "AF_INET" in line:
            m = _CONNECT.search(line)
            assert m, line
            out.append((m.group(3) or m.group(4), int(m.group(2))))
    return out


def _strace(args: list[str], env: dict, log: Path) -> subprocess.CompletedProcess:
    cmd = [
        "strace",
        "-f",
        "-qq",
        "-e",
        "trace=connect",
        "-e",
        "signal=none",
        "-o",
        str(log),
        sys.executable,
        "-m",
        "mirror",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **env}, timeout=120)


def test_offline_mode_never_connects_beyond_loopback(http_source, sample_copy, tmp_path):
    assert shutil.which("strace"), "strace is needed (apt-get install strace)"
    srv, manifest = http_source
    _point(sample_copy, "510k", "https://download.open.fda.gov")  # one endpoint on the internet
    log = tmp_path / "strace.log"
    started = time.monotonic()
    run = _strace(
        [
            "sync",
            "--manifest",
            manifest,
            "--gudid",
            "https://accessgudid.nlm.nih.gov/download/delimited",
            "--data-dir",
            str(tmp_path / "d"),
            "--json",
            "--quiet",
        ],
        {"FDAX_OFFLINE": "1", **ENV},
        log,
    )
    assert time.monotonic() - started < 60
    assert run.returncode == 3, run.stderr
    report = json.loads(run.stdout)
    assert {n: d["status"] for n, d in report["datasets"].items()} == {
        **{n: "updated" for n in DEVICE if n != "510k"},
        "510k": "failed",
        "gudid": "failed",
    }
    for name, host in (("510k", "download.open.fda.gov"), ("gudid", "accessgudid.nlm.nih.gov")):
        error = report["datasets"][name]["error"]
        assert host in error and "FDAX_OFFLINE" in error and "\n" not in error
    connects = _inet_connects(log)
    assert connects, "the sync reached the local server, so connect() calls were recorded"
    assert all(ipaddress.ip_address(addr).is_loopback for addr, port in connects), connects
    assert not [c for c in connects if c[1] == 53], "no DNS query either"

    log2 = tmp_path / "strace2.log"
    run = _strace(["sync", "--data-dir", str(tmp_path / "e"), "--quiet"], {"FDAX_OFFLINE": "1", **ENV}, log2)
    assert run.returncode == 1
    lines = [ln for ln in run.stderr.splitlines() if ln]
    assert len(lines) == 2 and all(ln.startswith("Error: ") and "FDAX_OFFLINE" in ln for ln in lines), lines
    assert "https://api.fda.gov/download.json" in lines[0] and "accessgudid.nlm.nih.gov" in lines[1]
    assert _inet_connects(log2) == []
