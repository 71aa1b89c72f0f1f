"""Where files come from: openFDA over HTTP, or a local folder / air-gap bundle laid out like the download site."""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

import httpx
import orjson

from .download import RetryPolicy, download, fetch_bytes
from .errors import BundleError, DiskFullError, SourceError
from .load import Fetched

__all__ = ["Source", "HttpSource", "FolderSource", "read_location", "is_url", "fetch_cached", "sha256_file"]

Progress = Callable[[int, int | None], None]


def is_url(s: str) -> bool:
    return urlparse(s).scheme in ("http", "https")


def read_location(loc: str, client: httpx.Client | None, policy: RetryPolicy) -> bytes:
    """Bytes of a URL or a local path (manifest, listing page)."""
    if is_url(loc):
        if client is None:
            raise SourceError(f"{loc}: is a URL but this sync is offline; give a local path")
        return fetch_bytes(client, loc, policy)
    path = Path(loc.removeprefix("file://")).expanduser()
    try:
        return path.read_bytes()
    except OSError as e:
        raise SourceError(f"{path}: cannot be read ({e.strerror}); check the path") from None


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def fetch_cached(source: "Source", url: str, dest: Path, progress, label: str) -> Fetched:
    """A complete earlier download at `dest` is reused; otherwise fetch it with a progress bar."""
    if dest.is_file():
        return Fetched(dest, dest.stat().st_size, sha256_file(dest))
    bar = progress.file(label)
    try:
        return source.fetch(url, dest, bar)
    finally:
        bar.close()


class Source:
    """Base: `fetch` puts a partition's file at `dest` and returns its size and sha256."""

    name = "source"
    manifest_location: str
    gudid_location: str

    def fetch(self, url: str, dest: Path, progress: Progress) -> Fetched:
        raise NotImplementedError

    def verify(self, paths: list[str]) -> None:
        """Check what can be checked before anything is loaded (bundle checksums)."""


class HttpSource(Source):
    name = "http"

    def __init__(self, client: httpx.Client, policy: RetryPolicy, manifest_url: str, gudid_url: str) -> None:
        self.client, self.policy = client, policy
        self.manifest_location, self.gudid_location = manifest_url, gudid_url

    def fetch(self, url: str, dest: Path, progress: Progress) -> Fetched:
        if not is_url(url):
            return FolderSource.copy(Path(url), dest, progress)
        size, sha = download(self.client, url, dest, self.policy, progress)
        return Fetched(dest, size, sha)


class FolderSource(Source):
    """A folder laid out like download.open.fda.gov (download.json at its root); a bundle adds bundle.json."""

    name = "folder"

    def __init__(self, root: Path) -> None:
        self.root = Path(root).expanduser()
        if not (self.root / "download.json").is_file():
            raise SourceError(f"{self.root}: no download.json here; give --from a folder made by "
                              "`mirror export` or laid out like the openFDA download site")
        self.manifest_location = str(self.root / "download.json")
        self.gudid_location = str(self.root / "gudid")
        self.bundle = self._read_bundle()

    def _read_bundle(self) -> dict | None:
        p = self.root / "bundle.json"
        if not p.exists():
            return None
        try:
            return orjson.loads(p.read_bytes())
        except orjson.JSONDecodeError:
            raise BundleError(f"{p}: is not valid JSON; the bundle is damaged, export it again") from None

    def local(self, url: str) -> Path:
        return self.root / (urlparse(url).path.lstrip("/") if is_url(url) else url)

    def fetch(self, url: str, dest: Path, progress: Progress) -> Fetched:
        src = self.local(url)
        if not src.is_file():
            raise SourceError(f"{src}: missing from the folder; copy the file in or export the bundle again")
        return self.copy(src, dest, progress)

    @staticmethod
    def copy(src: Path, dest: Path, progress: Progress) -> Fetched:
        dest.parent.mkdir(parents=True, exist_ok=True)
        part = dest.with_name(dest.name + ".part")
        h, size, total = hashlib.sha256(), 0, src.stat().st_size
        try:
            with open(src, "rb") as fi, open(part, "wb") as fo:
                while block := fi.read(1 << 20):
                    fo.write(block)
                    h.update(block)
                    size += len(block)
                    progress(len(block), total)
        except OSError as e:
            if e.errno == errno.ENOSPC:
                raise DiskFullError(f"{dest.parent}: disk full while copying {src.name}; free space and rerun") from None
            raise
        os.replace(part, dest)
        return Fetched(dest, size, h.hexdigest())

    def verify(self, paths: list[str]) -> None:
        """Every file the bundle lists must exist with its recorded size and sha256."""
        if self.bundle is None:
            return
        listed = {f["path"]: f for f in self.bundle.get("files", [])}
        for rel in paths:
            if rel in listed:
                _check_file(self.root / rel, listed[rel])
        for rel, entry in listed.items():
            _check_file(self.root / rel, entry)


def _check_file(path: Path, entry: dict) -> None:
    if not path.is_file():
        raise BundleError(f"{path}: listed in bundle.json but missing; copy the whole bundle folder again")
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    if h.hexdigest() != entry.get("sha256") or path.stat().st_size != entry.get("bytes"):
        raise BundleError(f"{path}: checksum does not match bundle.json; the copy is damaged, copy the bundle again")
