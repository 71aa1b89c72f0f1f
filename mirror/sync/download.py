"""Fetch one file over HTTP into a `.part` file: streamed, resumed with Range, retried with backoff."""

from __future__ import annotations

import email.utils
import errno
import hashlib
import ipaddress
import os
import random
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from ..errors import DiskFullError, DownloadError, SourceError, SyncCancelled

__all__ = ["RetryPolicy", "download", "fetch_bytes", "make_client", "is_loopback", "OfflineRefused"]

RETRY_STATUS = {429, 500, 502, 503, 504}
DNS_ATTEMPTS = 2  # a host name that does not resolve is tried twice, not `retries` times (offline: fail fast)


class RetryPolicy:
    def __init__(
        self,
        retries: int = 6,
        backoff: float = 1.0,
        max_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        cancel: threading.Event | None = None,
    ) -> None:
        self.retries, self.backoff, self.max_wait, self.sleep = retries, backoff, max_wait, sleep
        self.cancel = cancel  # set: the wait between attempts ends at once with SyncCancelled

    def wait(self, attempt: int, retry_after: str | None = None) -> None:
        delay = _retry_after(retry_after)
        if delay is None:
            delay = self.backoff * (2**attempt) * (0.5 + random.random())  # exponential with jitter
        if self.cancel is None:
            self.sleep(min(delay, self.max_wait))
        elif self.cancel.wait(min(delay, self.max_wait)):
            raise SyncCancelled()


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    if value.strip().isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class OfflineRefused(SourceError):
    """A request to the internet while FDAX_OFFLINE is set: refused before any connection is tried."""


def is_loopback(host: str) -> bool:
    """Whether `host` names this computer (localhost, 127.0.0.0/8, ::1) without asking DNS."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _LoopbackOnly(httpx.HTTPTransport):
    """The transport of an offline client: requests to this computer go through, any other is refused at once."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not is_loopback(request.url.host):
            raise OfflineRefused(
                f"{request.url}: not fetched, FDAX_OFFLINE is set (no internet); use a local "
                "folder (`mirror sync --from DIR`) or a server on this computer, or unset "
                "FDAX_OFFLINE"
            )
        return super().handle_request(request)


def make_client(timeout: float = 60.0, offline: bool = False) -> httpx.Client:
    """The one HTTP client of a sync; tests hand in their own. `offline`: only loopback addresses are fetched."""
    return httpx.Client(
        timeout=httpx.Timeout(timeout, connect=min(timeout, 15.0)),
        follow_redirects=True,
        headers={"User-Agent": "fda-explorer-offline-mirror"},
        transport=_LoopbackOnly() if offline else None,
    )


def _hash_existing(part: Path) -> tuple[int, "hashlib._Hash"]:
    h = hashlib.sha256()
    size = 0
    if part.exists():
        with open(part, "rb") as f:
            while block := f.read(1 << 20):
                h.update(block)
                size += len(block)
    return size, h


def _name_not_resolved(e: BaseException) -> socket.gaierror | None:
    """The DNS failure behind an httpx error (httpx -> httpcore -> socket.gaierror), if that is what it is."""
    seen = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, socket.gaierror):
            return cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return None


def _refused(e: BaseException) -> bool:
    """Whether an httpx error comes from a refused connection (nothing listens at that address)."""
    seen = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, ConnectionRefusedError):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


def _transport_failure(e: httpx.TransportError, url: str, attempt: int, policy: RetryPolicy) -> str:
    """What went wrong, after waiting before the next attempt; DownloadError at once for a name that does not
    resolve a second time, or for a connection refused a second time (retries are for transient faults)."""
    dns = _name_not_resolved(e)
    if dns is not None and attempt + 1 >= DNS_ATTEMPTS:
        host = httpx.URL(url).host
        raise DownloadError(
            f"{url}: the host name {host} cannot be resolved ({dns.strerror or dns}); check the "
            "network connection and the URL, or sync offline with `mirror sync --from DIR`"
        ) from None
    if isinstance(e, httpx.ConnectError) and _refused(e) and attempt + 1 >= DNS_ATTEMPTS:
        raise DownloadError(
            f"{url}: unreachable, the connection was refused (no server answers there); check "
            "the URL and that the server runs, or sync offline with `mirror sync --from DIR`"
        ) from None
    policy.wait(attempt)
    return f"{type(e).__name__}: {e}"


def _disk_full(dest: Path) -> DiskFullError:
    return DiskFullError(
        f"{dest.parent}: disk full while downloading {dest.name}; free space and rerun `mirror sync` "
        "(the partial file is kept and resumed)"
    )


def download(
    client: httpx.Client,
    url: str,
    dest: Path,
    policy: RetryPolicy,
    progress: Callable[[int, int | None], None] = lambda n, total: None,
) -> tuple[int, str]:
    """Download `url` to `dest` (via dest.part, renamed when complete); returns (bytes, sha256).

    `progress(n, total)` is called with bytes added (n is negative after a restart) and the total size.
    A partial file is hashed once; each retry resumes from where the last one stopped."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    if part.is_symlink():  # never written through: a partial file is a plain file this function made
        part.unlink()
    size, h = _hash_existing(part)
    reported, total, last = 0, None, "no attempt"

    def restart(why: str) -> None:
        nonlocal size, h, reported, last
        part.unlink(missing_ok=True)
        progress(-reported, None)
        size, h, reported, last = 0, hashlib.sha256(), 0, why

    for attempt in range(policy.retries + 1):
        try:
            with client.stream("GET", url, headers={"Range": f"bytes={size}-"} if size else {}) as r:
                if r.status_code == 416 and size:
                    restart("HTTP 416")
                    continue
                if r.status_code in RETRY_STATUS:
                    last = f"HTTP {r.status_code}"
                    policy.wait(attempt, r.headers.get("Retry-After"))
                    continue
                if r.status_code not in (200, 206):
                    raise DownloadError(
                        f"{url}: HTTP {r.status_code}; check the URL or the manifest "
                        "(a stale manifest lists files that are gone: rerun `mirror sync`)"
                    )
                if size and r.status_code == 206 and _range_start(r) != size:  # not the range asked for
                    restart("Content-Range does not match the partial file")
                    continue
                if size and r.status_code == 200:  # the server ignored the Range: this body is the whole file
                    restart("the server did not resume the partial file")
                total = _total(r, size)
                progress(size - reported, total)
                reported = size
                with open(part, "ab" if size else "wb") as f:
                    for block in r.iter_bytes():  # as it arrives: a cut keeps what came
                        f.write(block)
                        h.update(block)
                        size += len(block)
                        reported += len(block)
                        progress(len(block), total)
                    f.flush()
                    os.fsync(f.fileno())
            if total is not None and size != total:
                last = f"connection closed at {size} of {total} bytes"
                policy.wait(attempt)
                continue
            os.replace(part, dest)
            return size, h.hexdigest()
        except httpx.TransportError as e:
            last = _transport_failure(e, url, attempt, policy)
        except OSError as e:
            if e.errno == errno.ENOSPC:
                raise _disk_full(dest) from None
            raise
    raise DownloadError(
        f"{url}: failed after {policy.retries + 1} attempts ({last}); "
        "check the network or use `mirror sync --from DIR` with a carried-in bundle"
    )


def _range_start(r: httpx.Response) -> int | None:
    cr = r.headers.get("Content-Range", "")
    try:
        return int(cr.split()[1].split("-")[0])
    except (IndexError, ValueError):
        return None


def _total(r: httpx.Response, start: int) -> int | None:
    """The whole file's size: from Content-Range on a 206, else from Content-Length."""
    cr = r.headers.get("Content-Range", "")
    if r.status_code == 206 and "/" in cr and not cr.endswith("/*"):
        return int(cr.rsplit("/", 1)[1])
    cl = r.headers.get("Content-Length", "")
    if not cl.isdigit():
        return None
    return int(cl) + (start if r.status_code == 206 else 0)


def fetch_bytes(client: httpx.Client, url: str, policy: RetryPolicy) -> bytes:
    """A small document (manifest, listing page) in memory, with the same retry rules."""
    last = "no attempt"
    for attempt in range(policy.retries + 1):
        try:
            r = client.get(url)
        except httpx.TransportError as e:
            last = _transport_failure(e, url, attempt, policy)
            continue
        if r.status_code in RETRY_STATUS:
            last = f"HTTP {r.status_code}"
            policy.wait(attempt, r.headers.get("Retry-After"))
            continue
        if r.status_code != 200:
            raise DownloadError(f"{url}: HTTP {r.status_code}; check the URL")
        return r.content
    raise DownloadError(
        f"{url}: unreachable after {policy.retries + 1} attempts ({last}); "
        "check the network, or sync offline with `mirror sync --from DIR`"
    )
