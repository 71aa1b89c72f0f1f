"""Where files come from: openFDA over HTTP, or a local folder / air-gap bundle laid out like the download site."""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

import httpx

from ..errors import BundleError, DiskFullError, SourceError
from ..store.paths import contained, inside, url_path
from .bundlefile import BundleEntry, read_bundle
from .download import RetryPolicy, download, fetch_bytes
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
    """A complete earlier download at `dest` is reused (when the source names a checksum, only if it matches);
    otherwise fetch it with a progress bar. `dest` comes from `paths.contained()`."""
    if dest.is_file() and not dest.is_symlink():
        sha = sha256_file(dest)
        if source.expected_sha256(url) in (None, sha):
            return Fetched(dest, dest.stat().st_size, sha)
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

    def verify(self, urls: list[str]) -> None:
        """Check what can be checked before anything is loaded (bundle checksums of the files at `urls`)."""

    def expected_sha256(self, url: str) -> str | None:
        """The sha256 the source promises for `url` (a bundle's), else None."""
        return None


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
    """A folder laid out like download.open.fda.gov (download.json at its root); a bundle adds bundle.json.

    Every file is read through `paths.contained()`: nothing outside the folder (absolute paths, `..`, symbolic
    links leading out) is read, except GUDID releases in a local `--gudid` folder the user named."""

    name = "folder"

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.abspath(Path(root).expanduser()))  # absolute: GUDID paths found in it stay right
        manifest = self.root / "download.json"
        if not manifest.is_file():
            raise SourceError(
                f"{self.root}: no download.json here; give --from a folder made by "
                "`mirror export` or laid out like the openFDA download site"
            )
        self.manifest_location = str(contained(self.root, "download.json", f"{manifest}", SourceError))
        self.gudid_location = str(self.root / "gudid")
        self.bundle = read_bundle(self.root)

    def local(self, url: str) -> Path:
        """The file behind a partition URL (its path under the folder) or a GUDID release path."""
        if is_url(url):
            return contained(self.root, url_path(url, url, BundleError), url, BundleError)
        path = Path(url)
        if not path.is_absolute():
            return contained(self.root, url, url, BundleError)
        if any(inside(root, path) for root in self._roots()):
            return path
        raise BundleError(f"{path}: outside the folder {self.root}; refused (a path must stay inside its folder)")

    def _roots(self) -> list[Path]:
        """The folder, and the local GUDID folders or release files the user named with --gudid."""
        return [self.root, *(Path(loc) for loc in self.gudid_location.split() if not is_url(loc))]

    def _relative(self, src: Path) -> str | None:
        """`src` as a bundle.json path (relative to the folder), or None when it lies in a --gudid folder."""
        try:
            return src.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None

    def expected_sha256(self, url: str) -> str | None:
        if self.bundle is None:
            return None
        entry = self.bundle.get(self._relative(self.local(url)) or "")
        return entry.sha256 if entry else None

    def fetch(self, url: str, dest: Path, progress: Progress) -> Fetched:
        src = self.local(url)
        if not src.is_file():
            raise SourceError(f"{src}: missing from the folder; copy the file in or export the bundle again")
        rel = self._relative(src)
        entry = self.bundle.get(rel) if self.bundle is not None and rel is not None else None
        if self.bundle is not None and rel is not None and entry is None:
            raise BundleError(f"{src}: not listed in bundle.json, so it cannot be checked; export the bundle again")
        got = self.copy(src, dest, progress)
        if entry is not None and (got.sha256 != entry.sha256 or got.bytes != entry.bytes):
            dest.unlink(missing_ok=True)  # the copy just made
            raise BundleError(f"{src}: checksum does not match bundle.json; the copy is damaged, copy the bundle again")
        return got

    @staticmethod
    def copy(src: Path, dest: Path, progress: Progress) -> Fetched:
        dest.parent.mkdir(parents=True, exist_ok=True)
        part = dest.with_name(dest.name + ".part")
        if part.is_symlink():  # never written through
            part.unlink()
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
                raise DiskFullError(
                    f"{dest.parent}: disk full while copying {src.name}; free space and rerun"
                ) from None
            raise
        os.replace(part, dest)
        return Fetched(dest, size, h.hexdigest())

    def verify(self, urls: list[str]) -> None:
        """With a bundle.json: every file the sync plans to read from the folder (`urls`: partition URLs, GUDID
        release paths) must be listed, and every listed file must exist with its recorded size and sha256."""
        if self.bundle is None:
            return
        for url in urls:
            src = self.local(url)
            rel = self._relative(src)
            if rel is not None and rel not in self.bundle:
                raise BundleError(
                    f"{src}: planned by the sync but not listed in bundle.json, so it cannot be "
                    "checked; export the bundle again"
                )
        for entry in self.bundle.values():
            _check_file(
                contained(self.root, entry.path, f"{self.root / 'bundle.json'}: {entry.path}", BundleError), entry
            )


def _check_file(path: Path, entry: BundleEntry) -> None:
    if not path.is_file():
        raise BundleError(f"{path}: listed in bundle.json but missing; copy the whole bundle folder again")
    if path.stat().st_size != entry.bytes or sha256_file(path) != entry.sha256:
        raise BundleError(f"{path}: checksum does not match bundle.json; the copy is damaged, copy the bundle again")
