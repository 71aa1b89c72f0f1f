"""Downloads over real HTTP on 127.0.0.1: Range resume, 429/503 with Retry-After, a connection cut mid-file."""

from __future__ import annotations

import hashlib
import socket
import threading
import time

import pytest

from mirror import Store, status
from mirror.errors import DownloadError
from mirror.sync import SyncOptions, sync
from mirror.sync.download import RetryPolicy, download, make_client

CLS = "device/classification/device-classification-0001-of-0001.json.zip"


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Sleeps:
    def __init__(self):
        self.calls = []

    def __call__(self, s):
        self.calls.append(s)


def test_resume_with_range_after_a_partial_file(http_source, sample_copy, tmp_path):
    srv, _ = http_source
    src = sample_copy / CLS
    dest = tmp_path / "out.zip"
    part = tmp_path / "out.zip.part"
    part.write_bytes(src.read_bytes()[:100_000])
    with make_client(10) as client:
        size, digest = download(client, f"{srv.url}/{CLS}", dest, RetryPolicy(2, 0.01))
    assert srv.requests == [(CLS, "bytes=100000-")]
    assert size == src.stat().st_size and digest == sha(src) == sha(dest)
    assert not part.exists()


def test_partial_file_longer_than_the_file_gets_416_and_restarts(http_source, sample_copy, tmp_path):
    srv, _ = http_source
    src = sample_copy / CLS
    dest = tmp_path / "out.zip"
    (tmp_path / "out.zip.part").write_bytes(b"x" * (src.stat().st_size + 10))
    with make_client(10) as client:
        download(client, f"{srv.url}/{CLS}", dest, RetryPolicy(3, 0.01))
    assert sha(dest) == sha(src)
    assert srv.requests[0][1] is not None and srv.requests[-1][1] is None


def test_server_ignoring_range_restarts_from_its_full_answer(http_source, sample_copy, tmp_path):
    srv, _ = http_source
    src = sample_copy / CLS
    dest = tmp_path / "out.zip"
    (tmp_path / "out.zip.part").write_bytes(b"garbage that is not the start of the file")
    srv.fault(CLS, ("norange",))
    seen = []
    with make_client(10) as client:
        download(client, f"{srv.url}/{CLS}", dest, RetryPolicy(3, 0.01), lambda n, total: seen.append(n))
    assert sha(dest) == sha(src)
    assert len(srv.requests) == 1 and srv.requests[0][1] is not None  # one request: its 200 body was used
    assert sum(seen) == src.stat().st_size  # progress counted the discarded bytes back out


def test_429_and_503_are_retried_honouring_retry_after(http_source, sample_copy, tmp_path):
    srv, _ = http_source
    srv.fault(CLS, ("status", 429, 7), ("status", 503, None), ("status", 503, 2))
    sleeps = Sleeps()
    with make_client(10) as client:
        download(client, f"{srv.url}/{CLS}", tmp_path / "o.zip", RetryPolicy(5, 0.5, sleep=sleeps))
    assert len(srv.requests) == 4
    assert sleeps.calls[0] == 7 and sleeps.calls[2] == 2
    assert 0.25 <= sleeps.calls[1] <= 1.5  # backoff 0.5 * 2**1 with jitter in [0.5, 1.5)
    assert sha(tmp_path / "o.zip") == sha(sample_copy / CLS)


def test_connection_cut_mid_file_resumes(http_source, sample_copy, tmp_path):
    srv, _ = http_source
    srv.fault(CLS, ("cut", 50_000), ("cut", 30_000))
    with make_client(10) as client:
        download(client, f"{srv.url}/{CLS}", tmp_path / "o.zip", RetryPolicy(5, 0.01))
    ranges = [r for _, r in srv.requests]
    assert ranges == [None, "bytes=50000-", "bytes=80000-"]
    assert sha(tmp_path / "o.zip") == sha(sample_copy / CLS)


def test_gives_up_after_retries_with_a_clear_error(http_source, tmp_path):
    srv, _ = http_source
    srv.fault(CLS, *[("status", 503, 0)] * 10)
    with make_client(10) as client, pytest.raises(DownloadError) as e:
        download(client, f"{srv.url}/{CLS}", tmp_path / "o.zip", RetryPolicy(2, 0.01))
    assert CLS in str(e.value) and "3 attempts" in str(e.value) and "HTTP 503" in str(e.value)


def test_404_is_not_retried(http_source, tmp_path):
    srv, _ = http_source
    with make_client(10) as client, pytest.raises(DownloadError) as e:
        download(client, f"{srv.url}/device/nope.zip", tmp_path / "o.zip", RetryPolicy(5, 0.01))
    assert len(srv.requests) == 1 and "HTTP 404" in str(e.value)


def test_sync_over_http_with_faults_and_several_files_in_flight(http_source, settings):
    srv, manifest = http_source
    srv.fault(CLS, ("cut", 40_000), ("status", 429, 0))
    srv.fault("device/event/2023q1/device-event-0001-of-0001.json.zip", ("status", 500, None))
    report = sync(settings, SyncOptions(manifest=manifest, only=["classification", "event", "510k"], quiet=True))
    assert report.ok, report.errors
    st = status(Store(settings.data_dir))
    assert st["endpoints"]["classification"]["records"] == 6530
    assert st["endpoints"]["event"]["records"] == 7


def test_downloads_run_concurrently(http_source, settings):
    """With concurrency 3 and a slow server, three files are in flight at once."""
    srv, manifest = http_source
    in_flight, peak = [0], [0]
    lock = threading.Lock()
    orig = type(srv).next_fault

    def tracking(self, path):
        if path.endswith(".zip"):
            with lock:
                in_flight[0] += 1
                peak[0] = max(peak[0], in_flight[0])
            time.sleep(0.3)
            with lock:
                in_flight[0] -= 1
        return orig(self, path)

    type(srv).next_fault = tracking
    try:
        report = sync(
            settings.model_copy(update={"concurrency": 3}),
            SyncOptions(manifest=manifest, only=["event", "udi", "pma"], quiet=True),
        )
    finally:
        type(srv).next_fault = orig
    assert report.ok
    assert peak[0] == 3


def test_cancel_stops_a_running_sync_and_the_next_resumes(http_source, settings):
    from mirror.errors import SyncCancelled

    srv, manifest = http_source
    srv.throttle[CLS] = 0.2
    cancel = threading.Event()
    part = settings.data_dir / "downloads" / "2019-07-04" / (CLS + ".part")
    threading.Thread(target=lambda: (_wait_for(part), cancel.set()), daemon=True).start()
    t = time.monotonic()
    with pytest.raises(SyncCancelled):
        sync(settings, SyncOptions(manifest=manifest, only=["classification"], quiet=True, cancel=cancel))
    assert time.monotonic() - t < 10
    assert part.exists() and not (settings.data_dir / "db" / "device_classification.duckdb").exists()
    srv.throttle.clear()
    srv.requests.clear()
    assert sync(settings, SyncOptions(manifest=manifest, only=["classification"], quiet=True)).ok
    assert [r for p, r in srv.requests if p == CLS][0] is not None  # resumed with Range


def _wait_for(path, timeout=30):
    end = time.monotonic() + timeout
    while not (path.exists() and path.stat().st_size > 0) and time.monotonic() < end:
        time.sleep(0.02)


def test_progress_callback_reports_every_byte_and_record(http_source, settings):
    """`SyncOptions.on_progress` sees each file's bytes (summing to its size) and each partition loaded."""
    srv, manifest = http_source
    events = []
    lock = threading.Lock()

    def on_progress(e):
        with lock:
            events.append(e)

    only = ["classification", "event", "510k"]
    plan = sync(settings, SyncOptions(manifest=manifest, only=only, quiet=True, dry_run=True))
    report = sync(settings, SyncOptions(manifest=manifest, only=only, quiet=True, on_progress=on_progress))
    assert report.ok, report.errors
    files = [e for e in events if e.kind == "file"]
    loaded = [e for e in events if e.kind == "loaded"]
    assert {e.name for e in files} == {e.name for e in loaded}
    assert len(loaded) == sum(d.files_to_fetch for d in plan.datasets.values())
    last = {}
    for e in files:
        last[e.name] = e
    assert all(e.done == e.total for e in last.values())  # each file reported up to its full size
    assert max(e.overall_done for e in files) == sum(e.total for e in last.values())
    # the overall total is the manifest's size_mb estimate (rounded), known before any byte arrives
    assert abs(files[0].overall_total - sum(e.total for e in last.values())) < 0.05 * files[0].overall_total
    assert loaded[-1].records_done == loaded[-1].records_total == sum(e.records for e in loaded) > 6530


def test_cancel_ends_the_wait_between_retries_of_an_unreachable_manifest(settings):
    """Offline with the default (online) source, the manifest's retries back off for a minute: a cancel ends it."""
    from mirror.errors import SyncCancelled

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed: every attempt is refused
    slow = settings.model_copy(update={"retries": 6, "backoff": 30.0})
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    t = time.monotonic()
    with pytest.raises(SyncCancelled):
        sync(
            slow,
            SyncOptions(manifest=f"http://127.0.0.1:{port}/download.json", quiet=True, dry_run=True, cancel=cancel),
        )
    assert time.monotonic() - t < 5
