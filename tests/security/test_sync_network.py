"""D4 and D17: an unreachable AccessGUDID fails GUDID alone; a host name that does not resolve fails fast.

The machine has no DNS for these tests: the resolver answers "name not known" for every name but 127.0.0.1 and
localhost (socket.getaddrinfo, the OS's part, is replaced; the sync's download and retry code runs unchanged
against a real HTTP server on 127.0.0.1).
"""

from __future__ import annotations

import json
import socket
import time

import orjson
import pytest

from mirror.settings import DEFAULT_GUDID_URL
from mirror.sync import SAMPLE_DIR
from mirror.sync.download import RetryPolicy, fetch_bytes, make_client
from mirror.sync.plan import ENDPOINTS

from .sync_helpers import errors, records, run

DEVICE = list(ENDPOINTS)  # the openFDA device endpoints a sync plans, in its order


@pytest.fixture
def no_dns(monkeypatch) -> list[str]:
    """Every name but loopback fails to resolve, at once; returns the names asked for."""
    asked: list[str] = []
    real = socket.getaddrinfo

    def getaddrinfo(host, *a, **kw):
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name in ("127.0.0.1", "localhost", "::1"):
            return real(host, *a, **kw)
        asked.append(name)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return asked


def test_unreachable_accessgudid_does_not_block_the_device_datasets(http_source, no_dns, tmp_path):
    srv, manifest = http_source
    data = tmp_path / "data"
    started = time.monotonic()
    code, out, err = run(
        "sync",
        "--manifest",
        manifest,
        "--gudid",
        DEFAULT_GUDID_URL,
        "--data-dir",
        str(data),
        "--quiet",
        "--json",
        env={"FDAX_RETRIES": "6", "FDAX_BACKOFF": "0.05"},
    )
    seconds = time.monotonic() - started
    assert code == 3  # partial: the other datasets updated
    report = json.loads(out)
    assert {n: report["datasets"][n]["status"] for n in DEVICE} == {n: "updated" for n in DEVICE}
    assert report["datasets"]["gudid"]["status"] == "failed"
    lines = errors(err)
    assert len(lines) == 1 and "accessgudid.nlm.nih.gov" in lines[0] and "cannot be resolved" in lines[0]
    assert "--from" in lines[0]
    assert no_dns.count("accessgudid.nlm.nih.gov") <= 2, no_dns
    assert seconds < 30
    assert records(data, "event") == 7
    code, out, err = run("status", "--json", "--data-dir", str(data))
    assert code == 0 and "gudid" not in json.loads(out)


def test_partition_on_a_host_that_does_not_resolve_fails_fast_and_alone(http_source, sample_copy, no_dns, tmp_path):
    srv, manifest = http_source
    path = sample_copy / "download.local.json"
    doc = orjson.loads(path.read_bytes())
    p = doc["results"]["device"]["pma"]["partitions"][0]
    p["file"] = p["file"].replace(srv.url, "http://download.unreachable.invalid")
    path.write_bytes(orjson.dumps(doc))
    data = tmp_path / "data"
    code, out, err = run(
        "sync",
        "--manifest",
        manifest,
        "--only",
        "pma,510k",
        "--data-dir",
        str(data),
        "--quiet",
        env={"FDAX_RETRIES": "6", "FDAX_BACKOFF": "0.05"},
    )
    assert code == 3  # partial: the other datasets updated
    lines = errors(err)
    assert len(lines) == 1 and "download.unreachable.invalid cannot be resolved" in lines[0]
    assert no_dns.count("download.unreachable.invalid") == 2
    assert records(data, "510k") == 7


def test_manifest_host_that_does_not_resolve(no_dns):
    waits: list[float] = []
    policy = RetryPolicy(retries=6, backoff=1.0, sleep=waits.append)
    with make_client(5) as client, pytest.raises(Exception) as exc:
        fetch_bytes(client, "https://api.unreachable.invalid/download.json", policy)
    assert "cannot be resolved" in str(exc.value) and "api.unreachable.invalid" in str(exc.value)
    assert len(waits) == 1 and no_dns.count("api.unreachable.invalid") == 2


def test_refused_connection_fails_fast(tmp_path):
    """A refused connection (nothing listens there) fails the source after a second try, as a name that does not
    resolve does (issue 15: retries are for transient faults)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    waits: list[float] = []
    with make_client(5) as client, pytest.raises(Exception) as exc:
        fetch_bytes(client, f"http://127.0.0.1:{port}/download.json", RetryPolicy(retries=3, sleep=waits.append))
    assert len(waits) == 1 and "connection was refused" in str(exc.value) and str(port) in str(exc.value)


def test_from_a_relative_folder_syncs_gudid_and_leaves_no_unfinished_sync(tmp_path, monkeypatch):
    """D5: `mirror sync --from RELATIVE/DIR` found GUDID's release under the folder twice over."""
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copytree(SAMPLE_DIR, tmp_path / "bundle0")
    code, out, err = run("sync", "--from", "bundle0", "--only", "gudid", "--data-dir", "data", "--quiet")
    assert code == 0, err
    code, out, err = run("status", "--json", "--data-dir", "data")
    st = json.loads(out)
    assert st["gudid"]["records"] == 5 and "unfinished_sync" not in st
