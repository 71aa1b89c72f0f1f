"""A background producer of NDJSON chunk files for one partition, so unzipping overlaps loading; and the digest of a
partition's records.

A partition's record digest is the sha256 of its records as NDJSON, in the file's order, without the wrapper (the
`meta` object, and the zip itself, carry the export date, so they change on every re-export). The NDJSON of a file is
the same whatever the chunk size, so the digest a load takes while unzipping equals the one `records_digest` takes
from a new download. A stream hash rather than a sum of per-record digests: it is one C pass over bytes already in
memory (about 800 MB/s, the GIL released), and a re-export that only reorders the records is loaded again, which is
merely the cost of a normal sync."""

from __future__ import annotations

import hashlib
import queue
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

from .unpack import BulkFile

__all__ = ["ChunkStream", "records_digest"]


def _digest(hexdigest: str) -> str:
    return "sha256:" + hexdigest


def records_digest(bulk: BulkFile, chunk_bytes: int = 32 << 20) -> str:
    """The digest of a bulk file's records (unzipped and checked as a load does, nothing written)."""
    h = hashlib.sha256()
    for block in bulk.chunks(chunk_bytes):
        h.update(block)
    return _digest(h.hexdigest())


class ChunkStream:
    """Writes a bulk file's records as NDJSON chunk files under `work`, at most `ahead` files in advance.

    `after` (another stream) delays the start until that stream's last chunk was taken, so the next partition is
    unzipped while the current one commits: the commit's checkpoint runs on one core, and the unzipping that fills
    the other one then no longer competes with DuckDB's threads while chunks are inserted. `ahead` leaves room for
    a commit's worth of chunks."""

    def __init__(
        self, bulk: BulkFile, work: Path, chunk_bytes: int, ahead: int = 8, after: "ChunkStream | None" = None
    ) -> None:
        self.bulk, self.work, self.chunk_bytes = bulk, Path(work), chunk_bytes
        self.produced = threading.Event()
        self.consumed = threading.Event()  # the last chunk was taken (or the stream stopped)
        self._hash = hashlib.sha256()
        self._complete = False
        self._q: queue.Queue = queue.Queue(maxsize=ahead)
        self._stop = threading.Event()
        self._after = after
        self._thread = threading.Thread(target=self._run, name=f"unzip-{bulk.member}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            if self._after is not None:
                while not (self._after.consumed.wait(0.1) or self._stop.is_set()):
                    pass
            self.work.mkdir(parents=True, exist_ok=True)
            for n, block in enumerate(self.bulk.chunks(self.chunk_bytes)):
                if self._stop.is_set():
                    return
                path = self.work / f"chunk-{n:05d}.ndjson"
                path.write_bytes(block)
                self._hash.update(block)
                self._put(path)
            self._complete = True
            self._put(None)
        except BaseException as e:  # handed to the consumer, which raises it
            self._put(e)
        finally:
            self.produced.set()

    def _put(self, item) -> None:
        while not self._stop.is_set():
            try:
                self._q.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def __iter__(self) -> Iterator[Path]:
        """Chunk files in order; each is deleted once the consumer moves on."""
        try:
            while (item := self._q.get()) is not None:
                if isinstance(item, BaseException):
                    raise item
                try:
                    yield item
                finally:
                    item.unlink(missing_ok=True)
        finally:
            self.consumed.set()

    @property
    def digest(self) -> str | None:
        """The records' digest (see `records_digest`) once every chunk was produced, else None."""
        return _digest(self._hash.hexdigest()) if self._complete else None

    def close(self) -> None:
        self._stop.set()
        self.consumed.set()
        self._thread.join(timeout=30)
        shutil.rmtree(self.work, ignore_errors=True)
